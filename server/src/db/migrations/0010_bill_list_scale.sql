DROP INDEX "bill_supplier_idx";--> statement-breakpoint
DROP INDEX "bill_customer_idx";--> statement-breakpoint
DROP INDEX "bill_warehouse_idx";--> statement-breakpoint
DROP INDEX "bill_handler_idx";--> statement-breakpoint
ALTER TABLE "bill_count" ADD COLUMN "number" numeric(20, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "bill_count" ADD COLUMN "price_total" numeric(20, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "bill_count" ADD COLUMN "tax_price_total" numeric(20, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
CREATE INDEX "bill_supplier_idx" ON "bill" USING btree ("tenant_id","supplier_id","bill_type","bill_date","id") WHERE "bill"."supplier_id" is not null;--> statement-breakpoint
CREATE INDEX "bill_customer_idx" ON "bill" USING btree ("tenant_id","customer_id","bill_type","bill_date","id") WHERE "bill"."customer_id" is not null;--> statement-breakpoint
CREATE INDEX "bill_warehouse_idx" ON "bill" USING btree ("tenant_id","warehouse_id","bill_type","bill_date","id") WHERE "bill"."warehouse_id" is not null;--> statement-breakpoint
CREATE INDEX "bill_handler_idx" ON "bill" USING btree ("tenant_id","handler_id","bill_type","bill_date","id") WHERE "bill"."handler_id" is not null;--> statement-breakpoint
-- bill_count also sums the bills' header totals (number, price_total, tax_price_total) per type, status and
-- shard, so that an unfiltered list's total and statistics read at most 16 rows per status instead of every
-- bill of the type. Recounted once here, into shard 0.
DELETE FROM bill_count;--> statement-breakpoint
INSERT INTO bill_count (tenant_id, bill_type, bill_status, shard, total, number, price_total, tax_price_total)
  SELECT tenant_id, bill_type, bill_status, 0, count(*), sum(number), sum(price_total), sum(tax_price_total) FROM bill GROUP BY 1, 2, 3;--> statement-breakpoint
CREATE OR REPLACE FUNCTION p8_bill_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s integer := (txid_current() % 16)::integer;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO bill_count (tenant_id, bill_type, bill_status, shard, total, number, price_total, tax_price_total)
      VALUES (OLD.tenant_id, OLD.bill_type, OLD.bill_status, s, -1, -OLD.number, -OLD.price_total, -OLD.tax_price_total)
    ON CONFLICT (tenant_id, bill_type, bill_status, shard) DO UPDATE SET total = bill_count.total - 1,
      number = bill_count.number - OLD.number, price_total = bill_count.price_total - OLD.price_total, tax_price_total = bill_count.tax_price_total - OLD.tax_price_total;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO bill_count (tenant_id, bill_type, bill_status, shard, total, number, price_total, tax_price_total)
      VALUES (NEW.tenant_id, NEW.bill_type, NEW.bill_status, s, 1, NEW.number, NEW.price_total, NEW.tax_price_total)
    ON CONFLICT (tenant_id, bill_type, bill_status, shard) DO UPDATE SET total = bill_count.total + 1,
      number = bill_count.number + NEW.number, price_total = bill_count.price_total + NEW.price_total, tax_price_total = bill_count.tax_price_total + NEW.tax_price_total;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER p8_bill_count_update ON bill;--> statement-breakpoint
CREATE TRIGGER p8_bill_count_update AFTER UPDATE OF bill_status, bill_type, number, price_total, tax_price_total ON bill FOR EACH ROW
  WHEN (OLD.bill_status IS DISTINCT FROM NEW.bill_status OR OLD.bill_type IS DISTINCT FROM NEW.bill_type OR OLD.number IS DISTINCT FROM NEW.number
        OR OLD.price_total IS DISTINCT FROM NEW.price_total OR OLD.tax_price_total IS DISTINCT FROM NEW.tax_price_total) EXECUTE FUNCTION p8_bill_count();
