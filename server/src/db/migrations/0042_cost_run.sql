CREATE TABLE "cost_line" (
	"tenant_id" bigint NOT NULL,
	"period" text NOT NULL,
	"bill_line_id" bigint NOT NULL,
	"bill_id" bigint NOT NULL,
	"order_id" bigint NOT NULL,
	"quantity" numeric(20, 6) NOT NULL,
	"perpetual" numeric(20, 6) NOT NULL,
	"cost" numeric(20, 6) NOT NULL,
	"to_stock" numeric(20, 6) DEFAULT '0' NOT NULL,
	"to_sales" numeric(20, 6) DEFAULT '0' NOT NULL,
	CONSTRAINT "cost_line_tenant_id_period_bill_line_id_pk" PRIMARY KEY("tenant_id","period","bill_line_id")
);
--> statement-breakpoint
ALTER TABLE "cost_line" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "cost_order" (
	"tenant_id" bigint NOT NULL,
	"period" text NOT NULL,
	"order_id" bigint NOT NULL,
	"order_code" text NOT NULL,
	"material_id" bigint,
	"planned" numeric(20, 6) NOT NULL,
	"completed" numeric(20, 6) NOT NULL,
	"unfinished" numeric(20, 6) NOT NULL,
	"degree" numeric(20, 6) NOT NULL,
	"hours" numeric(20, 6) NOT NULL,
	"opening_material" numeric(20, 6) NOT NULL,
	"opening_labour" numeric(20, 6) NOT NULL,
	"opening_overhead" numeric(20, 6) NOT NULL,
	"material" numeric(20, 6) NOT NULL,
	"labour" numeric(20, 6) NOT NULL,
	"overhead" numeric(20, 6) NOT NULL,
	"finished_material" numeric(20, 6) NOT NULL,
	"finished_labour" numeric(20, 6) NOT NULL,
	"finished_overhead" numeric(20, 6) NOT NULL,
	"perpetual" numeric(20, 6) NOT NULL,
	CONSTRAINT "cost_order_tenant_id_period_order_id_pk" PRIMARY KEY("tenant_id","period","order_id")
);
--> statement-breakpoint
ALTER TABLE "cost_order" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "cost_period" (
	"tenant_id" bigint NOT NULL,
	"period" text NOT NULL,
	"status" text NOT NULL,
	"basis" text NOT NULL,
	"overhead" numeric(20, 6) DEFAULT '0' NOT NULL,
	"unallocated" numeric(20, 6) DEFAULT '0' NOT NULL,
	"orders" bigint DEFAULT 0 NOT NULL,
	"calculated_at" timestamp with time zone,
	"calculated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cost_period_tenant_id_period_pk" PRIMARY KEY("tenant_id","period")
);
--> statement-breakpoint
ALTER TABLE "cost_period" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_type" ADD COLUMN "overhead" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "cost_line_bill_idx" ON "cost_line" USING btree ("tenant_id","bill_id");--> statement-breakpoint
CREATE INDEX "cost_order_order_idx" ON "cost_order" USING btree ("tenant_id","order_id","period");--> statement-breakpoint
CREATE POLICY "cost_line_tenant_isolation" ON "cost_line" AS PERMISSIVE FOR ALL TO "p8_app" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "cost_order_tenant_isolation" ON "cost_order" AS PERMISSIVE FOR ALL TO "p8_app" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "cost_period_tenant_isolation" ON "cost_period" AS PERMISSIVE FOR ALL TO "p8_app" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);