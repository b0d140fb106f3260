-- pg_trgm serves the lists' contains-filters (PGlite loads it as an extension, see db/connection.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "list_version" (
	"tenant_id" bigint NOT NULL,
	"table_name" text NOT NULL,
	"version" uuid NOT NULL,
	CONSTRAINT "list_version_tenant_id_table_name_pk" PRIMARY KEY("tenant_id","table_name")
);
--> statement-breakpoint
ALTER TABLE "list_version" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE INDEX "admin_name_sort_idx" ON "admin" USING btree ("tenant_id","name","id");--> statement-breakpoint
CREATE INDEX "admin_real_name_sort_idx" ON "admin" USING btree ("tenant_id","real_name","id");--> statement-breakpoint
CREATE INDEX "admin_phone_sort_idx" ON "admin" USING btree ("tenant_id","phone","id");--> statement-breakpoint
CREATE INDEX "admin_created_at_sort_idx" ON "admin" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "admin_last_login_sort_idx" ON "admin" USING btree ("tenant_id","last_login_at","id");--> statement-breakpoint
CREATE INDEX "admin_name_trgm_idx" ON "admin" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "admin_real_name_trgm_idx" ON "admin" USING gin ("real_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "admin_phone_trgm_idx" ON "admin" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE POLICY "list_version_tenant_isolation" ON "list_version" AS PERMISSIVE FOR ALL TO "p8_app" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
-- Exact totals without counting on every page: every statement that writes to a counted table gives its
-- tenants' list_version rows a new random version; core/list-query.ts caches totals by that version.
CREATE FUNCTION p8_bump_list_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_version (tenant_id, table_name, version)
  SELECT changed.tenant_id, TG_TABLE_NAME, gen_random_uuid() FROM (SELECT DISTINCT tenant_id FROM p8_changed_rows) changed
  ON CONFLICT (tenant_id, table_name) DO UPDATE SET version = excluded.version;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Makes a tenant table "counted": the three statement triggers (transition tables allow one event each)
-- and a first version for the tenants it already holds. Later migrations call it for their big lists.
CREATE FUNCTION p8_count_table(tbl regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  name text := (SELECT relname FROM pg_class WHERE oid = tbl);
BEGIN
  EXECUTE format('CREATE TRIGGER p8_list_version_insert AFTER INSERT ON %s REFERENCING NEW TABLE AS p8_changed_rows FOR EACH STATEMENT EXECUTE FUNCTION p8_bump_list_version()', tbl);
  EXECUTE format('CREATE TRIGGER p8_list_version_update AFTER UPDATE ON %s REFERENCING NEW TABLE AS p8_changed_rows FOR EACH STATEMENT EXECUTE FUNCTION p8_bump_list_version()', tbl);
  EXECUTE format('CREATE TRIGGER p8_list_version_delete AFTER DELETE ON %s REFERENCING OLD TABLE AS p8_changed_rows FOR EACH STATEMENT EXECUTE FUNCTION p8_bump_list_version()', tbl);
  EXECUTE format('INSERT INTO list_version (tenant_id, table_name, version) SELECT DISTINCT tenant_id, %L, gen_random_uuid() FROM %s ON CONFLICT DO NOTHING', name, tbl);
END $$;--> statement-breakpoint
SELECT p8_count_table('admin');--> statement-breakpoint
-- Contains-filters (ilike '%…%') cannot use a trigram index under row-level security: ILIKE is not
-- leakproof, so PostgreSQL must apply the tenant policy first and then scan every row of the tenant.
-- This function runs the search as the owner, restricted to the current transaction's tenant (never a
-- parameter) and to tables that force row-level security, and returns at most max_rows matching ids; the
-- caller's query still runs under its policy. core/list-query.ts uses it for fields declared
-- `filter: 'contains'`, and only while the search is selective (see there).
CREATE FUNCTION p8_contains(tbl regclass, col text, pattern text, max_rows integer) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp ROWS 100 AS $$
BEGIN
  IF NOT coalesce((SELECT relforcerowsecurity FROM pg_class WHERE oid = tbl), false) THEN
    RAISE EXCEPTION 'p8_contains: % is not a tenant table', tbl;
  END IF;
  RETURN QUERY EXECUTE format('SELECT id FROM %s WHERE tenant_id = $1 AND %I ILIKE $2 LIMIT $3', tbl, col)
    USING nullif(current_setting('app.tenant_id', true), '')::bigint, pattern, max_rows;
END $$;--> statement-breakpoint
REVOKE ALL ON FUNCTION p8_contains(regclass, text, text, integer) FROM public;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION p8_contains(regclass, text, text, integer) TO p8_app;