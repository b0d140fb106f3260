-- Bill versions written in one order. The deferred bump wrote each (tenant, type) version row as the commit
-- reached its first row event, i.e. in the order the transaction had written its bill types: two writers in the
-- same shard writing two types in opposite orders (an order then its in-stock, an in-stock then its order) could
-- each hold one version row and wait for the other's. Now the types are only noted while the transaction runs
-- (an immediate trigger, into a transaction-local setting), and the first deferred bump at commit writes all of
-- them sorted by tenant and type, so every writer locks version rows in one global order.
CREATE OR REPLACE FUNCTION p8_note_bill_type() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seen text := coalesce(current_setting('p8.bill_types', true), '');
  k text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    k := ';' || OLD.tenant_id || ':' || OLD.bill_type || ';';
    IF position(k IN seen) = 0 THEN seen := seen || k; END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    k := ';' || NEW.tenant_id || ':' || NEW.bill_type || ';';
    IF position(k IN seen) = 0 THEN seen := seen || k; END IF;
  END IF;
  PERFORM set_config('p8.bill_types', seen, true);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER p8_note_bill_type AFTER INSERT OR UPDATE OR DELETE ON bill FOR EACH ROW EXECUTE FUNCTION p8_note_bill_type();--> statement-breakpoint
CREATE OR REPLACE FUNCTION p8_bump_bill_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('p8.bill_versions', true), '') = 'written' THEN RETURN NULL; END IF;
  INSERT INTO bill_version (tenant_id, bill_type, shard, version)
    SELECT split_part(k, ':', 1)::bigint, substr(k, position(':' IN k) + 1), (txid_current() % 16)::integer, gen_random_uuid()
    FROM unnest(string_to_array(coalesce(current_setting('p8.bill_types', true), ''), ';')) AS k
    WHERE k <> ''
    ORDER BY 1, 2
    ON CONFLICT ON CONSTRAINT bill_version_tenant_id_bill_type_shard_pk DO UPDATE SET version = excluded.version;
  PERFORM set_config('p8.bill_versions', 'written', true);
  RETURN NULL;
END $$;--> statement-breakpoint
DROP FUNCTION p8_bill_version_of(bigint, text);
