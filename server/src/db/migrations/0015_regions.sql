CREATE TABLE "region" (
	"code" varchar(12) PRIMARY KEY NOT NULL,
	"parent_code" varchar(12),
	"level" smallint NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "region_level_range" CHECK ("region"."level" between 1 and 4)
);
--> statement-breakpoint
ALTER TABLE "partner_address" ADD COLUMN "region_code" varchar(12);--> statement-breakpoint
CREATE INDEX "region_parent_idx" ON "region" USING btree ("parent_code","code");--> statement-breakpoint
ALTER TABLE "partner_address" ADD CONSTRAINT "partner_address_region_fk" FOREIGN KEY ("region_code") REFERENCES "public"."region"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_address_region_idx" ON "partner_address" USING btree ("region_code");--> statement-breakpoint
ALTER TABLE "partner_address" ADD CONSTRAINT "partner_address_one_place" CHECK (num_nonnulls("partner_address"."district_id", "partner_address"."region_code") <= 1);