ALTER TABLE "region" ADD COLUMN "name_en" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "region" ADD COLUMN "listed" boolean DEFAULT true NOT NULL;