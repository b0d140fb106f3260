-- The BOM import is staged on PGlite like the other record imports (core/staged-import.ts): bom and bom_line
-- get the marker column, its index and the hiding policy. An imported BOM that becomes its material's default is
-- written with import_default (is_default stays false, bom_default_uq sees hidden rows); publishing switches it.
ALTER TABLE "bom" ADD COLUMN "import_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bom" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "bom_line" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
CREATE INDEX "bom_import_default_idx" ON "bom" USING btree ("tenant_id","material_id") WHERE "bom"."import_default";--> statement-breakpoint
CREATE INDEX "bom_import_job_idx" ON "bom" USING btree ("tenant_id","import_job") WHERE "bom"."import_job" is not null;--> statement-breakpoint
CREATE INDEX "bom_line_import_job_idx" ON "bom_line" USING btree ("tenant_id","import_job") WHERE "bom_line"."import_job" is not null;--> statement-breakpoint
CREATE POLICY "bom_import_hidden" ON "bom" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));--> statement-breakpoint
CREATE POLICY "bom_line_import_hidden" ON "bom_line" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));