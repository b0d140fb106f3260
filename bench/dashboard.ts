/**
 * The home dashboard and the mall's order list at 1,000,000 mall orders in one tenant (spread over two
 * years, every status; a second tenant with 100,000, so the tenant filter matters): GET
 * /api/admin/home/statistics, /chart (the last 30 days) and /api/admin/mall/order (first page), each side
 * by side with the same queries over a bare `pg` pool in one transaction under RLS. Before that it times
 * the plain aggregate over mall_order itself — what the dashboard would cost without `order_daily`.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/dashboard.ts
 *   env: BENCH_ORDERS (1000000), BENCH_DURATION (10 s), BENCH_ROUNDS (3), BENCH_WARMUP (2 s), BENCH_CONNECTIONS (10),
 *        BENCH_KEEP=1 (keep the database), BENCH_REUSE=<database> (measure a kept database again, migrated to the current schema)
 */
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { rows, type Database } from '../server/src/db/connection.ts';
import { MONEY_TYPE_SHAPES } from '@p8/contract/finance';
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
const DATES = `select current_date::text as today, (current_date - 1)::text as yesterday, date_trunc('month', current_date)::date::text as m, (date_trunc('month', current_date) - interval '1 month')::date::text as lm`;
/** core/dashboard.ts `orderOverview`: the totals per status and the days since last month in one statement, with the section's extra. */
const OVERVIEW = (kind: string, extra = 'null') =>
  `select (select coalesce(json_agg(t), '[]') from (select status, sum(orders)::text, sum(amount)::text from order_total where tenant_id = $1 and kind = '${kind}' group by status) t),
          (select coalesce(json_agg(r), '[]') from (select day::text, status, sum(orders)::text, sum(amount)::text from order_daily where tenant_id = $1 and kind = '${kind}'
             and day between (date_trunc('month', current_date) - interval '1 month')::date and current_date group by day, status) r),
          ${extra}`;
/** bills/early-warning.ts `dueBills`: the delivery, payment and receipt dates in one statement, ten each. */
const DUE_BILLS = (
  [
    ['delivery_date', 'delivery_warn_days', `coalesce(b.delivery_status, '') = 'Arrived'`],
    ['pay_date', 'pay_warn_days', `coalesce(b.progress ->> 'settlement', '') = 'AllSettlement'`],
    ['receipt_date', 'receipt_warn_days', `coalesce(b.progress ->> 'settlement', '') = 'AllSettlement'`],
  ] as const
)
  .map(
    ([date, warn, done]) => `(select '${date}' as kind, b.id, b.bill_type, b.bill_code, p.name, b.${date}::text, coalesce(b.${warn}, 0), (b.${date} - current_date)
    from bill b left join partner p on p.tenant_id = b.tenant_id and p.id = coalesce(b.supplier_id, b.customer_id)
    where b.tenant_id = $1 and b.${date} is not null and b.bill_status in ('Audit', 'Partially')
      and b.${date} <= current_date + 3650 and b.${date} - coalesce(b.${warn}, 0) <= current_date and not (${done})
    order by b.${date}, b.id limit 10)`,
  )
  .join(' union all ');
/** modules/finance/dashboard.ts: the payment and receipt types that move a fund account. */
const FUND_TYPES = Object.entries(MONEY_TYPE_SHAPES).flatMap(([type, shape]) => (shape.fund ? [type] : []));
const BARE: Record<string, string[]> = {
  statistics: [
    // The caller's menu names come from the access cache: no statement.
    DATES,
    OVERVIEW('mall', `(select count(*)::int from mall_order where tenant_id = $1 and refund_status in ('Requested', 'Approved'))`),
    OVERVIEW('service'),
    `select coalesce(sum(amount), 0)::text, coalesce(sum(quantity), 0)::text, count(distinct material_id) filter (where quantity > 0), count(distinct warehouse_id) filter (where quantity > 0) from stock_valuation where tenant_id = $1`,
    `select m.code, m.name, count(*) over () from material m cross join lateral (select coalesce(sum(v.quantity), 0) as q from stock_valuation v where v.tenant_id = m.tenant_id and v.material_id = m.id) s
      where m.tenant_id = $1 and m.enabled and m.safety_stock > 0 and s.q < m.safety_stock order by s.q / m.safety_stock, m.code limit 10`,
    // billDates (bills/early-warning.ts): the posted bills whose delivery, payment or receipt date is close
    // and expiring batches — as the section asks them, ten each, in one statement, each list as JSON (low
    // stock is the asset section's).
    `select (select coalesce(json_agg(d), '[]') from (${DUE_BILLS}) d), '[]'::json,
            (select coalesce(json_agg(e), '[]') from (select m.id, m.code, m.name, b.warehouse_id, sb.batch_number, sb.expiration_date::text, sum(b.quantity)::text, (sb.expiration_date - current_date)
      from stock_batch sb join material m on m.tenant_id = sb.tenant_id and m.id = sb.material_id
      join stock_balance b on b.tenant_id = sb.tenant_id and b.material_id = sb.material_id and b.batch_number = sb.batch_number
      where sb.tenant_id = $1 and sb.expiration_date is not null and sb.expiration_date <= current_date + 3650 and sb.expiration_date - coalesce(m.warn_days, 0) <= current_date
      group by m.id, m.code, m.name, b.warehouse_id, sb.batch_number, sb.expiration_date having sum(b.quantity) > 0
      order by sb.expiration_date, m.code, sb.batch_number, b.warehouse_id limit 10) e)`,
    // fund (modules/finance/dashboard.ts): fund balance, receivables, payables, money in and out this and last month.
    `with months as (select date_trunc('month', current_date)::date as this_month, (date_trunc('month', current_date) - interval '1 month')::date as last_month)
      select (select coalesce(sum(balance), 0) from fin_fund_account where tenant_id = $1 and enabled)::text,
             (select coalesce(sum(receivable), 0) from fin_partner_balance where tenant_id = $1)::text,
             (select coalesce(sum(payable), 0) from fin_partner_balance where tenant_id = $1)::text,
             coalesce(sum(d.price_total) filter (where d.bill_type = 'Receipt' and d.bill_date >= m.this_month), 0)::text,
             coalesce(sum(d.price_total) filter (where d.bill_type = 'Payment' and d.bill_date >= m.this_month), 0)::text,
             coalesce(sum(d.price_total) filter (where d.bill_type = 'Receipt' and d.bill_date < m.this_month), 0)::text,
             coalesce(sum(d.price_total) filter (where d.bill_type = 'Payment' and d.bill_date < m.this_month), 0)::text
      from months m left join bill d on d.tenant_id = $1 and d.bill_type in ('Receipt', 'Payment') and d.bill_status in ('Audit', 'Partially', 'Complete', 'ManualCompletion')
        and coalesce(d.extra->>'payType', d.extra->>'receiptType') in (${FUND_TYPES.map((t) => `'${t}'`).join(', ')}) and d.bill_date >= m.last_month and d.bill_date <= current_date
      group by m.this_month`,
  ],
  chart: [
    DATES,
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

/**
 * The round trips one request of the app takes to the database (every `query` of a pooled client, the
 * transaction's begin and commit included), and the statements it sends: one request at a time.
 */
async function roundTrips(url: string, token: string): Promise<{ trips: number; statements: string[] }> {
  const original = pg.Client.prototype.query;
  const statements: string[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
    statements.push(String(text).replace(/\s+/g, ' ').slice(0, 160));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    await res.arrayBuffer();
  } finally {
    pg.Client.prototype.query = original;
  }
  return { trips: statements.length, statements };
}

/**
 * Each statement of a request's bare side (the app's statements) under EXPLAIN ANALYZE in an RLS transaction:
 * planning and execution time inside the database, median of 5 — what the database spends per request,
 * apart from round trips and queueing (far less sensitive to the machine's load than req/s).
 */
async function explained(pool: pg.Pool, tenantId: number, label: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('app.tenant_id', $1, true), set_config('role', 'p8_app', true)`, [String(tenantId)]);
    let planning = 0;
    let execution = 0;
    console.log(`\n${label}: ${BARE[label].length} statements in the transaction\n| statement | planning ms | execution ms |\n|---|---:|---:|`);
    for (const q of BARE[label]) {
      const runs: Array<{ plan: number; exec: number }> = [];
      for (let i = 0; i < 5; i++) {
        const [{ 'QUERY PLAN': [plan] }] = (await client.query(`explain (analyze, buffers, format json) ${q}`, q.includes('$1') ? [tenantId] : [])).rows as Array<{ 'QUERY PLAN': Array<{ 'Planning Time': number; 'Execution Time': number }> }>;
        runs.push({ plan: plan['Planning Time'], exec: plan['Execution Time'] });
      }
      const mid = runs.sort((a, b) => a.plan + a.exec - (b.plan + b.exec))[2];
      planning += mid.plan;
      execution += mid.exec;
      console.log(`| ${q.replace(/\s+/g, ' ').slice(0, 90)}… | ${mid.plan.toFixed(2)} | ${mid.exec.toFixed(2)} |`);
    }
    console.log(`| **total** | ${planning.toFixed(2)} | ${execution.toFixed(2)} |`);
  } finally {
    await client.query('rollback');
    client.release();
  }
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
  const reuse = process.env.BENCH_REUSE;
  const scratch = await scratchDatabase({ prefix: 'p8_bench_dashboard', poolSize: 10, keep: process.env.BENCH_KEEP === '1', reuse });
  const { database } = scratch;
  const pool = scratch.bare!;
  try {
    console.log(`database ${scratch.name}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}`);
    if (!reuse) {
      const started = Date.now();
      for (const [i, count] of [ORDERS, Math.round(ORDERS / 10)].entries()) {
        const t = await database.withSystem((tx) => createTenant(tx, { tenantName: `Bench ${i}`, adminName: `bench_dash_${i}`, password: 'Bench123' }));
        await seedOrders(database, t.tenantId, count);
      }
      await database.db.execute(sql`vacuum analyze`);
      console.log(`seeded ${ORDERS} + ${Math.round(ORDERS / 10)} mall orders in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    const [{ tenant_id: tenantText }] = await rows<{ tenant_id: string }>(database, sql`select tenant_id from admin where name = 'bench_dash_0'`);
    const tenantId = Number(tenantText);

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
    const chart = (await (await fetch(`${appUrl}${APP.chart}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { charts: Array<{ key: string; series: Array<{ key: string; values: number[] }> }> } };
    const placed = chart.data.charts.find((c) => c.key === 'mall')?.series.find((s) => s.key === 'orders')?.values.reduce((a, b) => a + b, 0) ?? 0;
    if (placed < (ORDERS * 29) / 730) throw new Error(`the chart counts ${placed} orders in 30 days`);
    console.log(`the chart counts ${placed} mall orders in its 30 days`);

    for (const label of Object.keys(BARE)) await explained(pool, tenantId, label);

    // Round trips per request (after a first request, so that the access cache is warm, as under load).
    for (const label of Object.keys(APP)) {
      const { trips, statements } = await roundTrips(`${appUrl}${APP[label]}`, token);
      console.log(`\n${label}: ${trips} round trips per request`);
      if (process.env.BENCH_STATEMENTS === '1') for (const s of statements) console.log(`  ${s}`);
    }

    const table: string[] = [];
    for (const label of Object.keys(APP)) {
      const { app: a, bare: b } = await measurePair(options, label, { url: appUrl, method: 'GET', path: APP[label], tokens: [token] }, { url: bareUrl, method: 'GET', path: `/${label}` });
      table.push(`| ${label} (\`${APP[label]}\`) | ${a.rps.toFixed(0)} | ${a.p50.toFixed(1)} | ${a.p95.toFixed(1)} | ${a.cpuMsPerRequest.toFixed(2)} | ${b.rps.toFixed(0)} | ${b.p95.toFixed(1)} | ${(a.rps / b.rps).toFixed(2)} |`);
    }
    console.log('\n| request | app req/s | app p50 ms | app p95 ms | app CPU ms / req | bare req/s | bare p95 ms | app / bare |\n|---|---|---|---|---|---|---|---|');
    for (const row of table) console.log(row);
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
