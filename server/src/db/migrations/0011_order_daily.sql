CREATE TABLE "order_daily" (
	"tenant_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"shard" integer NOT NULL,
	"orders" bigint DEFAULT 0 NOT NULL,
	"amount" numeric(18, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "order_daily_tenant_id_kind_day_status_shard_pk" PRIMARY KEY("tenant_id","kind","day","status","shard")
);
--> statement-breakpoint
ALTER TABLE "order_daily" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "order_total" (
	"tenant_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"shard" integer NOT NULL,
	"orders" bigint DEFAULT 0 NOT NULL,
	"amount" numeric(18, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "order_total_tenant_id_kind_status_shard_pk" PRIMARY KEY("tenant_id","kind","status","shard")
);
--> statement-breakpoint
ALTER TABLE "order_total" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "order_daily_tenant_isolation" ON "order_daily" AS PERMISSIVE FOR ALL TO "p8_app" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "order_total_tenant_isolation" ON "order_total" AS PERMISSIVE FOR ALL TO "p8_app" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);
--> statement-breakpoint
-- Orders per day and status, and per status over all days, for the home dashboard (schema/dashboard.ts
-- order_daily, order_total), kept by the orders' own transactions: each adds to the shard of its transaction id (as bill_count), so concurrent orders of
-- one tenant rarely wait on the same row. The day is created_at's date in the session's time zone.
CREATE FUNCTION p8_order_daily() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s integer := (txid_current() % 16)::integer;
  k text := TG_ARGV[0];
  a numeric;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF k = 'mall' THEN a := OLD.pay_amount; ELSE a := OLD.amount; END IF;
    INSERT INTO order_daily (tenant_id, kind, day, status, shard, orders, amount) VALUES (OLD.tenant_id, k, OLD.created_at::date, OLD.status, s, -1, -a)
    ON CONFLICT (tenant_id, kind, day, status, shard) DO UPDATE SET orders = order_daily.orders - 1, amount = order_daily.amount - a;
    INSERT INTO order_total (tenant_id, kind, status, shard, orders, amount) VALUES (OLD.tenant_id, k, OLD.status, s, -1, -a)
    ON CONFLICT (tenant_id, kind, status, shard) DO UPDATE SET orders = order_total.orders - 1, amount = order_total.amount - a;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    IF k = 'mall' THEN a := NEW.pay_amount; ELSE a := NEW.amount; END IF;
    INSERT INTO order_daily (tenant_id, kind, day, status, shard, orders, amount) VALUES (NEW.tenant_id, k, NEW.created_at::date, NEW.status, s, 1, a)
    ON CONFLICT (tenant_id, kind, day, status, shard) DO UPDATE SET orders = order_daily.orders + 1, amount = order_daily.amount + a;
    INSERT INTO order_total (tenant_id, kind, status, shard, orders, amount) VALUES (NEW.tenant_id, k, NEW.status, s, 1, a)
    ON CONFLICT (tenant_id, kind, status, shard) DO UPDATE SET orders = order_total.orders + 1, amount = order_total.amount + a;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER p8_order_daily_insert AFTER INSERT ON mall_order FOR EACH ROW EXECUTE FUNCTION p8_order_daily('mall');--> statement-breakpoint
CREATE TRIGGER p8_order_daily_delete AFTER DELETE ON mall_order FOR EACH ROW EXECUTE FUNCTION p8_order_daily('mall');--> statement-breakpoint
CREATE TRIGGER p8_order_daily_update AFTER UPDATE OF status, pay_amount, created_at ON mall_order FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.pay_amount IS DISTINCT FROM NEW.pay_amount OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION p8_order_daily('mall');--> statement-breakpoint
CREATE TRIGGER p8_order_daily_insert AFTER INSERT ON service_order FOR EACH ROW EXECUTE FUNCTION p8_order_daily('service');--> statement-breakpoint
CREATE TRIGGER p8_order_daily_delete AFTER DELETE ON service_order FOR EACH ROW EXECUTE FUNCTION p8_order_daily('service');--> statement-breakpoint
CREATE TRIGGER p8_order_daily_update AFTER UPDATE OF status, amount, created_at ON service_order FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.amount IS DISTINCT FROM NEW.amount OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION p8_order_daily('service');--> statement-breakpoint
-- The orders placed before this migration.
INSERT INTO order_daily (tenant_id, kind, day, status, shard, orders, amount)
  SELECT tenant_id, 'mall', created_at::date, status, 0, count(*), sum(pay_amount) FROM mall_order GROUP BY tenant_id, created_at::date, status;--> statement-breakpoint
INSERT INTO order_daily (tenant_id, kind, day, status, shard, orders, amount)
  SELECT tenant_id, 'service', created_at::date, status, 0, count(*), sum(amount) FROM service_order GROUP BY tenant_id, created_at::date, status;--> statement-breakpoint
INSERT INTO order_total (tenant_id, kind, status, shard, orders, amount)
  SELECT tenant_id, kind, status, 0, sum(orders), sum(amount) FROM order_daily GROUP BY tenant_id, kind, status;
