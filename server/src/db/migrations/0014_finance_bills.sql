DROP POLICY "fin_allocation_tenant_isolation" ON "fin_allocation" CASCADE;--> statement-breakpoint
DROP TABLE "fin_allocation" CASCADE;--> statement-breakpoint
ALTER TABLE "bill_line" ALTER COLUMN "material_id" DROP NOT NULL;