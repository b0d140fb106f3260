CREATE TABLE "code_sequence" (
	"tenant_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"period" text DEFAULT '' NOT NULL,
	"last_value" bigint NOT NULL,
	CONSTRAINT "code_sequence_tenant_id_kind_period_pk" PRIMARY KEY("tenant_id","kind","period")
);
--> statement-breakpoint
ALTER TABLE "code_sequence" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "code_sequence_tenant_isolation" ON "code_sequence" AS PERMISSIVE FOR ALL TO "p8_app" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);