CREATE TABLE "bill_version" (
	"tenant_id" bigint NOT NULL,
	"bill_type" text NOT NULL,
	"shard" integer NOT NULL,
	"version" uuid NOT NULL,
	CONSTRAINT "bill_version_tenant_id_bill_type_shard_pk" PRIMARY KEY("tenant_id","bill_type","shard")
);
--> statement-breakpoint
ALTER TABLE "bill_version" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "bill_version_tenant_isolation" ON "bill_version" AS PERMISSIVE FOR ALL TO "p8_app" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
-- A version per tenant and bill type that moves with every write of bills of that type: the bill lists' counts,
-- sums and tab counts are remembered by it (core/list-query.ts). A random uuid, so a version never comes back
-- (not even after rows are deleted). The row is written when the writing transaction commits (a deferred
-- trigger), once per tenant and type, in the shard of the transaction's id: the lock on it is held only for
-- the commit itself, so writers of one type do not queue on it as they would on a row held from their first
-- write on, and two writers' bumps cannot interleave with their other locks.
CREATE FUNCTION p8_bill_version_of(t bigint, ty text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k text := ';' || t || ':' || ty || ';';
  done text := coalesce(current_setting('p8.bill_versions', true), '');
BEGIN
  IF position(k IN done) > 0 THEN RETURN; END IF;
  INSERT INTO bill_version (tenant_id, bill_type, shard, version) VALUES (t, ty, (txid_current() % 16)::integer, gen_random_uuid())
    ON CONFLICT ON CONSTRAINT bill_version_tenant_id_bill_type_shard_pk DO UPDATE SET version = excluded.version;
  PERFORM set_config('p8.bill_versions', done || k, true);
END $$;--> statement-breakpoint
CREATE FUNCTION p8_bump_bill_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM p8_bill_version_of(OLD.tenant_id, OLD.bill_type); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM p8_bill_version_of(NEW.tenant_id, NEW.bill_type); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER p8_bill_version AFTER INSERT OR UPDATE OR DELETE ON bill DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION p8_bump_bill_version();--> statement-breakpoint
-- The bills already there get a first version (one shard), so their lists are remembered from the start.
INSERT INTO bill_version (tenant_id, bill_type, shard, version) SELECT tenant_id, bill_type, 0, gen_random_uuid() FROM (SELECT DISTINCT tenant_id, bill_type FROM bill_count) counted;
