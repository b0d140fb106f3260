/**
 * The home dashboard and the mall's order list at 1,000,000 mall orders in one tenant (spread over two
 * years, every status; a second tenant with 100,000, so the tenant filter matters): GET
 * /api/admin/home/statistics, /chart (the last 30 days) and /api/admin/mall/order (first page), each side
 * by side with the same queries over a bare `pg` pool in one transaction under RLS. Before that it times
 * the plain aggregate over mall_order itself — what the dashboard would cost without `order_daily`.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/dashboard.ts
 *   env: BENCH_ORDERS (1000000), BENCH_DURATION (10 s), BENCH_ROUNDS (3), BENCH_WARMUP (2 s), BENCH_CONNECTIONS (10)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Database } from '../server/src/db/connection.ts';
import { createTenant } from '../server/src/modules/tenant/service.ts';
import { measurePair, type MeasureOptions } from './measure.ts';
import { listeningApp, scratchDatabase } from './scratch-database.ts';

const num = (env: string, fallback: number) => Number(process.env[env] ?? fallback);
const ORDERS = num('BENCH_ORDERS', 1_000_000);
const options: MeasureOptions = {
  warmup: num('BENCH_WARMUP', 2),
  duration: num('BENCH_DURATION', 10),
  rounds: num('BENCH_ROUNDS', 3),
  connections: num('BENCH_CONNECTIONS', 10),
};

/** What the app's sections ask (core/dashboard.ts, modules/mall|service/dashboard.ts, bills/dashboard.ts), as plain SQL. */
const OVERVIEW = (kind: string) => [
  `select current_date::text as today, (current_date - 1)::text as yesterday, date_trunc('month', current_date)::date::text as m, (date_trunc('month', current_date) - interval '1 month')::date::text as lm`,
  `select status, sum(orders)::text, sum(amount)::text from order_total where tenant_id = $1 and kind = '${kind}' group by status`,
  `select day::text, status, sum(orders)::text, sum(amount)::text from order_daily where tenant_id = $1 and kind = '${kind}' and day between (date_trunc('month', current_date) - interval '1 month')::date and current_date group by day, status`,
];
/** bills/early-warning.ts `dueBills`, for delivery, payment and receipt dates. */
const DUE_BILLS = (
  [
    ['delivery_date', 'delivery_warn_days', `coalesce(b.delivery_status, '') = 'Arrived'`],
    ['pay_date', 'pay_warn_days', `coalesce(b.progress ->> 'settlement', '') = 'AllSettlement'`],
    ['receipt_date', 'receipt_warn_days', `coalesce(b.progress ->> 'settlement', '') = 'AllSettlement'`],
  ] as const
).map(
  ([date, warn, done]) => `select b.id, b.bill_type, b.bill_code, p.name, b.${date}::text, coalesce(b.${warn}, 0), (b.${date} - current_date)
    from bill b left join partner p on p.tenant_id = b.tenant_id and p.id = coalesce(b.supplier_id, b.customer_id)
    where b.tenant_id = $1 and b.${date} is not null and b.bill_status in ('Audit', 'Partially')
      and b.${date} <= current_date + 3650 and b.${date} - coalesce(b.${warn}, 0) <= current_date and not (${done})
    order by b.${date}, b.id limit 10`,
);
const BARE: Record<string, string[]> = {
  statistics: [
    `select name from menu where tenant_id = $1 and enabled`,
    ...OVERVIEW('mall'),
    `select count(*) from mall_order where tenant_id = $1 and refund_status in ('Requested', 'Approved')`,
    ...OVERVIEW('service'),
    `select coalesce(sum(amount), 0)::text, coalesce(sum(quantity), 0)::text, count(distinct material_id) filter (where quantity > 0), count(distinct warehouse_id) filter (where quantity > 0) from stock_valuation where tenant_id = $1`,
    `select m.code, m.name, count(*) over () from material m cross join lateral (select coalesce(sum(v.quantity), 0) as q from stock_valuation v where v.tenant_id = m.tenant_id and v.material_id = m.id) s
      where m.tenant_id = $1 and m.enabled and m.safety_stock > 0 and s.q < m.safety_stock order by s.q / m.safety_stock, m.code limit 10`,
    // billDates (bills/early-warning.ts): the posted bills whose delivery, payment or receipt date is close,
    // low stock and expiring batches — as the section asks them, ten each.
    ...DUE_BILLS,
    `select m.id, m.code, m.name, coalesce(s.quantity, 0)::text, m.safety_stock::text from material m
      left join lateral (select sum(b.quantity) as quantity from stock_balance b where b.tenant_id = m.tenant_id and b.material_id = m.id) s on true
      where m.tenant_id = $1 and m.enabled and m.safety_stock is not null and m.safety_stock > 0 and coalesce(s.quantity, 0) < m.safety_stock
      order by coalesce(s.quantity, 0) / m.safety_stock, m.code limit 10`,
    `select m.id, m.code, m.name, b.warehouse_id, sb.batch_number, sb.expiration_date::text, sum(b.quantity)::text, (sb.expiration_date - current_date)
      from stock_batch sb join material m on m.tenant_id = sb.tenant_id and m.id = sb.material_id
      join stock_balance b on b.tenant_id = sb.tenant_id and b.material_id = sb.material_id and b.batch_number = sb.batch_number
      where sb.tenant_id = $1 and sb.expiration_date is not null and sb.expiration_date <= current_date + 3650 and sb.expiration_date - coalesce(m.warn_days, 0) <= current_date
      group by m.id, m.code, m.name, b.warehouse_id, sb.batch_number, sb.expiration_date having sum(b.quantity) > 0
      order by sb.expiration_date, m.code, sb.batch_number, b.warehouse_id limit 10`,
    // fund (modules/finance/dashboard.ts): fund balance, receivables, payables, money in and out this and last month.
    `with months as (select date_trunc('month', current_date)::date as this_month, (date_trunc('month', current_date) - interval '1 month')::date as last_month)
      select (select coalesce(sum(balance), 0) from fin_fund_account where tenant_id = $1 and enabled)::text,
             (select coalesce(sum(receivable), 0) from fin_partner_balance where tenant_id = $1)::text,
             (select coalesce(sum(payable), 0) from fin_partner_balance where tenant_id = $1)::text,
             coalesce(sum(d.amount) filter (where d.doc_kind = 'receipt' and d.doc_date >= m.this_month), 0)::text,
             coalesce(sum(d.amount) filter (where d.doc_kind = 'payment' and d.doc_date >= m.this_month), 0)::text,
             coalesce(sum(d.amount) filter (where d.doc_kind = 'receipt' and d.doc_date < m.this_month), 0)::text,
             coalesce(sum(d.amount) filter (where d.doc_kind = 'payment' and d.doc_date < m.this_month), 0)::text
      from months m left join fin_money_doc d on d.tenant_id = $1 and d.doc_kind in ('receipt', 'payment') and d.status = 'Posted'
        and d.fund_account_id is not null and d.doc_date >= m.last_month and d.doc_date <= current_date
      group by m.this_month`,
  ],
  chart: [
    `select current_date::text`,
    `select name from menu where tenant_id = $1 and enabled`,
    ...['mall', 'service'].map((kind) => `select day::text, status, sum(orders)::text, sum(amount)::text from order_daily where tenant_id = $1 and kind = '${kind}' and day between current_date - 29 and current_date group by day, status`),
  ],
  // As the list helper: the page, and the total counted once per list_version of the table.
  orders: [`select * from mall_order where tenant_id = $1 order by created_at desc, id desc limit 20`, `select version from list_version where tenant_id = $1 and table_name = 'mall_order'`],
};
const APP: Record<string, string> = { statistics: '/api/admin/home/statistics', chart: '/api/admin/home/chart', orders: '/api/admin/mall/order?current=1&pageSize=20' };

function bareServer(pool: pg.Pool, tenantId: number): Promise<http.Server> {
  const totals = new Map<string, number>();
  const server = http.createServer(async (req, res) => {
    const label = req.url!.slice(1);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.tenant_id', $1, true), set_config('role', 'p8_app', true)`, [String(tenantId)]);
      const results = [];
      for (const q of BARE[label]) results.push((await client.query(q, q.includes('$1') ? [tenantId] : [])).rows);
      if (label === 'orders') {
        const version = String(results[1][0]?.version);
        if (!totals.has(version)) totals.set(version, Number((await client.query(`select count(*) from mall_order where tenant_id = $1`, [tenantId])).rows[0].count));
        results.push([{ total: totals.get(version) }]);
      }
      await client.query('commit');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 0, data: results }));
    } catch (error) {
      await client.query('rollback');
      res.writeHead(500).end(String(error));
    } finally {
      client.release();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** `count` orders over the last 730 days in every status, written in one statement; order_daily filled as its trigger would, over 16 shards. */
async function seedOrders(database: Database, tenantId: number, count: number) {
  await database.db.execute(sql`alter table mall_order disable trigger p8_order_daily_insert`);
  await database.db.execute(sql`
    insert into mall_order (tenant_id, order_no, source, customer_name, consignee, phone, address, status, refund_status, goods_amount, pay_amount, item_count, first_item_name, created_at)
    select ${tenantId}, 'B' || ${tenantId} || '-' || g, case when g % 5 = 0 then 'proxy' else 'mall' end, 'Customer ' || (g % 5000), 'Consignee', '13800000000', 'Address ' || g,
           (array['PendingPayment', 'Paid', 'Shipped', 'Completed', 'Completed', 'Completed', 'Cancelled', 'Refunded'])[1 + g % 8],
           case when g % 997 = 0 then 'Requested' else 'None' end, 10 + g % 490, 10 + g % 490, 1 + g % 3, 'Product ' || (g % 200),
           now() - (g::double precision / ${count}) * interval '730 days'
      from generate_series(1, ${count}) g`);
  await database.db.execute(sql`alter table mall_order enable trigger p8_order_daily_insert`);
  await database.db.execute(sql`
    insert into order_daily (tenant_id, kind, day, status, shard, orders, amount)
    select tenant_id, 'mall', created_at::date, status, (id % 16)::int, count(*), sum(pay_amount) from mall_order where tenant_id = ${tenantId} group by 1, 2, 3, 4, 5`);
  await database.db.execute(sql`
    insert into order_total (tenant_id, kind, status, shard, orders, amount)
    select tenant_id, kind, status, shard, sum(orders), sum(amount) from order_daily where tenant_id = ${tenantId} group by 1, 2, 3, 4`);
}

async function timed(database: Database, tenantId: number, query: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await database.withTenant(tenantId, (tx) => tx.execute(sql.raw(query.replaceAll('$1', String(tenantId)))));
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[2];
}

async function main() {
  const scratch = await scratchDatabase({ prefix: 'p8_bench_dashboard', poolSize: 10 });
  const { database } = scratch;
  const pool = scratch.bare!;
  try {
    const started = Date.now();
    const tenants = [];
    for (const [i, count] of [ORDERS, Math.round(ORDERS / 10)].entries()) {
      const t = await database.withSystem((tx) => createTenant(tx, { tenantName: `Bench ${i}`, adminName: `bench_dash_${i}`, password: 'Bench123' }));
      await seedOrders(database, t.tenantId, count);
      tenants.push(t);
    }
    await database.db.execute(sql`vacuum analyze`);
    const tenantId = tenants[0].tenantId;
    console.log(`seeded ${ORDERS} + ${Math.round(ORDERS / 10)} mall orders in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // What the aggregate saves: the same figures straight from mall_order (median of 5, one at a time).
    const plain = {
      'statistics from mall_order (per status, all days)': `select status, count(*), sum(pay_amount) from mall_order where tenant_id = $1 group by status`,
      'chart from mall_order (30 days)': `select created_at::date, status, count(*), sum(pay_amount) from mall_order where tenant_id = $1 and created_at >= current_date - 29 group by 1, 2`,
      'statistics from order_total': BARE.statistics[2],
      'chart from order_daily (30 days)': BARE.chart[2],
    };
    console.log('\n| plain query | median ms |\n|---|---|');
    for (const [label, query] of Object.entries(plain)) console.log(`| ${label} | ${(await timed(database, tenantId, query)).toFixed(1)} |`);

    const { app, url: appUrl, token } = await listeningApp(scratch, { name: 'bench_dash_0', password: 'Bench123' });
    const bare = await bareServer(pool, tenantId);
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

    // The app must count what is there, or the comparison means nothing.
    const stats = (await (await fetch(`${appUrl}${APP.statistics}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { sections: Array<{ key: string; figures: Array<{ key: string; value: number }> }> } };
    const total = stats.data.sections.find((s) => s.key === 'mall')?.figures.find((f) => f.key === 'totalOrders')?.value;
    if (total !== ORDERS) throw new Error(`the dashboard counts ${total} orders, not ${ORDERS}`);

    const rows: string[] = [];
    for (const label of Object.keys(APP)) {
      const { app: a, bare: b } = await measurePair(options, label, { url: appUrl, method: 'GET', path: APP[label], tokens: [token] }, { url: bareUrl, method: 'GET', path: `/${label}` });
      rows.push(`| ${label} (\`${APP[label]}\`) | ${a.rps.toFixed(0)} | ${a.p50.toFixed(1)} | ${a.p95.toFixed(1)} | ${b.rps.toFixed(0)} | ${b.p95.toFixed(1)} | ${(a.rps / b.rps).toFixed(2)} |`);
    }
    console.log('\n| request | app req/s | app p50 ms | app p95 ms | bare req/s | bare p95 ms | app / bare |\n|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    await app.close();
    bare.close();
  } finally {
    await scratch.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
