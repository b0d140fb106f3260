ALTER TABLE "message" ALTER COLUMN "sender_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message" ADD COLUMN "once_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "message_once_key_uq" ON "message" USING btree ("tenant_id","receiver_id","once_key") WHERE "message"."once_key" is not null;