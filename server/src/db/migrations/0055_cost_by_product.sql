ALTER TABLE "cost_order" DROP CONSTRAINT "cost_order_tenant_id_period_order_id_pk";--> statement-breakpoint
-- The figures of a run are per product of an order now; a row of none cannot be keyed (an order always has one).
DELETE FROM "cost_order" WHERE "material_id" IS NULL;--> statement-breakpoint
ALTER TABLE "cost_order" ALTER COLUMN "material_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "cost_order" ADD CONSTRAINT "cost_order_tenant_id_period_order_id_material_id_pk" PRIMARY KEY("tenant_id","period","order_id","material_id");--> statement-breakpoint
ALTER TABLE "cost_line" ADD COLUMN "to_production" numeric(20, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "cost_order" ADD COLUMN "rolled_in" numeric(20, 6) DEFAULT '0' NOT NULL;