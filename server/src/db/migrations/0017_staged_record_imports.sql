-- The per-row record imports are staged on PGlite like the material import (core/staged-import.ts): each table
-- they write gets the marker column, its index and the hiding policy. The marker's default is the writing
-- transaction's job, so the services the importers call mark their rows without knowing. The policies of
-- material and material_unit exist since 0013 (hand-written there; declared in the schema now).
ALTER TABLE "material" ALTER COLUMN "import_job" SET DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "material_unit" ALTER COLUMN "import_job" SET DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "attribute" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "brand" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "category" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "fee_type" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "location" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "partner" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "partner_address" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "partner_contact" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "pay_type" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "unit" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
ALTER TABLE "warehouse" ADD COLUMN "import_job" bigint DEFAULT nullif(current_setting('app.import_job', true), '')::bigint;--> statement-breakpoint
CREATE INDEX "attribute_import_job_idx" ON "attribute" USING btree ("tenant_id","import_job") WHERE "attribute"."import_job" is not null;--> statement-breakpoint
CREATE INDEX "brand_import_job_idx" ON "brand" USING btree ("tenant_id","import_job") WHERE "brand"."import_job" is not null;--> statement-breakpoint
CREATE INDEX "category_import_job_idx" ON "category" USING btree ("tenant_id","import_job") WHERE "category"."import_job" is not null;--> statement-breakpoint
CREATE INDEX "fee_type_import_job_idx" ON "fee_type" USING btree ("tenant_id","import_job") WHERE "fee_type"."import_job" is not null;--> statement-breakpoint
CREATE INDEX "location_import_job_idx" ON "location" USING btree ("tenant_id","import_job") WHERE "location"."import_job" is not null;--> statement-breakpoint
CREATE INDEX "partner_import_job_idx" ON "partner" USING btree ("tenant_id","import_job") WHERE "partner"."import_job" is not null;--> statement-breakpoint
CREATE INDEX "partner_address_import_job_idx" ON "partner_address" USING btree ("tenant_id","import_job") WHERE "partner_address"."import_job" is not null;--> statement-breakpoint
CREATE INDEX "partner_contact_import_job_idx" ON "partner_contact" USING btree ("tenant_id","import_job") WHERE "partner_contact"."import_job" is not null;--> statement-breakpoint
CREATE INDEX "pay_type_import_job_idx" ON "pay_type" USING btree ("tenant_id","import_job") WHERE "pay_type"."import_job" is not null;--> statement-breakpoint
CREATE INDEX "unit_import_job_idx" ON "unit" USING btree ("tenant_id","import_job") WHERE "unit"."import_job" is not null;--> statement-breakpoint
CREATE INDEX "warehouse_import_job_idx" ON "warehouse" USING btree ("tenant_id","import_job") WHERE "warehouse"."import_job" is not null;--> statement-breakpoint
CREATE POLICY "attribute_import_hidden" ON "attribute" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));--> statement-breakpoint
CREATE POLICY "brand_import_hidden" ON "brand" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));--> statement-breakpoint
CREATE POLICY "category_import_hidden" ON "category" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));--> statement-breakpoint
CREATE POLICY "fee_type_import_hidden" ON "fee_type" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));--> statement-breakpoint
CREATE POLICY "location_import_hidden" ON "location" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));--> statement-breakpoint
CREATE POLICY "partner_import_hidden" ON "partner" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));--> statement-breakpoint
CREATE POLICY "partner_address_import_hidden" ON "partner_address" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));--> statement-breakpoint
CREATE POLICY "partner_contact_import_hidden" ON "partner_contact" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));--> statement-breakpoint
CREATE POLICY "pay_type_import_hidden" ON "pay_type" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));--> statement-breakpoint
CREATE POLICY "unit_import_hidden" ON "unit" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));--> statement-breakpoint
CREATE POLICY "warehouse_import_hidden" ON "warehouse" AS RESTRICTIVE FOR SELECT TO "p8_app" USING (import_job is null or import_job = nullif(current_setting('app.import_job', true), '')::bigint or import_job = any (array(select j.id from import_job j where j.published)));