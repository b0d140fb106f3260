ALTER TABLE "material" ADD COLUMN "lead_time_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "material" ADD COLUMN "lot_policy" text DEFAULT 'lotForLot' NOT NULL;--> statement-breakpoint
ALTER TABLE "material" ADD COLUMN "lot_size" numeric(20, 6);