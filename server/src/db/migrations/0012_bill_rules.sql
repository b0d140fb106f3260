CREATE TABLE "stock_batch" (
	"tenant_id" bigint NOT NULL,
	"material_id" bigint NOT NULL,
	"batch_number" text NOT NULL,
	"expiration_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_batch_tenant_id_material_id_batch_number_pk" PRIMARY KEY("tenant_id","material_id","batch_number")
);
--> statement-breakpoint
ALTER TABLE "stock_batch" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "bill" ADD COLUMN "delivery_status" text;--> statement-breakpoint
ALTER TABLE "stock_batch" ADD CONSTRAINT "stock_batch_material_fk" FOREIGN KEY ("tenant_id","material_id") REFERENCES "public"."material"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_batch_expiry_idx" ON "stock_batch" USING btree ("tenant_id","expiration_date") WHERE "stock_batch"."expiration_date" is not null;--> statement-breakpoint
CREATE INDEX "stock_balance_serial_idx" ON "stock_balance" USING btree ("tenant_id","material_id","serial_number") WHERE "stock_balance"."serial_number" <> '';--> statement-breakpoint
CREATE INDEX "bill_delivery_warn_idx" ON "bill" USING btree ("tenant_id","delivery_date") WHERE "bill"."delivery_date" is not null and "bill"."bill_status" in ('Audit', 'Partially');--> statement-breakpoint
CREATE INDEX "bill_pay_warn_idx" ON "bill" USING btree ("tenant_id","pay_date") WHERE "bill"."pay_date" is not null and "bill"."bill_status" in ('Audit', 'Partially');--> statement-breakpoint
CREATE INDEX "bill_receipt_warn_idx" ON "bill" USING btree ("tenant_id","receipt_date") WHERE "bill"."receipt_date" is not null and "bill"."bill_status" in ('Audit', 'Partially');--> statement-breakpoint
CREATE POLICY "stock_batch_tenant_isolation" ON "stock_batch" AS PERMISSIVE FOR ALL TO "p8_app" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);