CREATE TABLE "fin_account_day" (
	"tenant_id" bigint NOT NULL,
	"account_code" text NOT NULL,
	"day" date NOT NULL,
	"shard" smallint NOT NULL,
	"debit" numeric(20, 6) DEFAULT '0' NOT NULL,
	"credit" numeric(20, 6) DEFAULT '0' NOT NULL,
	CONSTRAINT "fin_account_day_tenant_id_day_account_code_shard_pk" PRIMARY KEY("tenant_id","day","account_code","shard")
);
--> statement-breakpoint
ALTER TABLE "fin_account_day" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fin_bill_open" ADD COLUMN "unsettled" boolean GENERATED ALWAYS AS (settled <> amount) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "fin_bill_open_unsettled_idx" ON "fin_bill_open" USING btree ("tenant_id","kind","partner_id","bill_date") WHERE "fin_bill_open"."unsettled";--> statement-breakpoint
CREATE POLICY "fin_account_day_tenant_isolation" ON "fin_account_day" AS PERMISSIVE FOR ALL TO "p8_app" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
-- Per account and day, Σ debit and Σ credit of the ledger (schema/finance.ts fin_account_day), added to by
-- every statement that inserts posting lines (post() writes one per posting), in the shard of its
-- transaction id (8 shards): the trial balance sums these rows instead of every line. The lines are
-- append-only, so an insert is all there is to follow; "clear data" empties this table with the ledger.
CREATE FUNCTION p8_fin_account_day() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO fin_account_day (tenant_id, account_code, day, shard, debit, credit)
  SELECT tenant_id, account_code, posting_date, (txid_current() % 8)::smallint, sum(debit), sum(credit)
    FROM added GROUP BY tenant_id, posting_date, account_code ORDER BY tenant_id, posting_date, account_code
  ON CONFLICT (tenant_id, day, account_code, shard)
    DO UPDATE SET debit = fin_account_day.debit + excluded.debit, credit = fin_account_day.credit + excluded.credit;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER p8_fin_account_day AFTER INSERT ON fin_posting_line REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION p8_fin_account_day();--> statement-breakpoint
-- What the ledger already holds.
INSERT INTO fin_account_day (tenant_id, account_code, day, shard, debit, credit)
SELECT tenant_id, account_code, posting_date, 0, sum(debit), sum(credit) FROM fin_posting_line GROUP BY tenant_id, posting_date, account_code;
