ALTER TABLE "bom" ADD COLUMN "routing_id" bigint;--> statement-breakpoint
CREATE INDEX "bom_routing_idx" ON "bom" USING btree ("tenant_id","routing_id");