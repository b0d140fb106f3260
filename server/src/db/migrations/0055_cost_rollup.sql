ALTER TABLE "cost_line" ADD COLUMN "to_production" numeric(20, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "cost_order" ADD COLUMN "rolled_in" numeric(20, 6) DEFAULT '0' NOT NULL;