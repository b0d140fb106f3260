/**
 * Finance reports over a million ledger lines (issue 12): one tenant whose general ledger holds about
 * 1,000,000 posting lines — sale bills with their cost of goods sold and receipts, purchase bills and their
 * payments, fees — then the receivable and payable aging reports and the trial balance through the real app,
 * side by side with the same statements over a bare `pg` pool (one RLS transaction each).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/ledger.ts
 *   env: BENCH_SALES (100000 sale bills; the other volumes follow), BENCH_DURATION (5 s), BENCH_ROUNDS (3),
 *        BENCH_WARMUP (1 s), BENCH_CONNECTIONS (10), BENCH_KEEP=1 (keep the database),
 *        BENCH_REUSE=<database> (measure a kept database again, migrated to the current schema)
 *
 * The load bypasses the finance services on purpose: posting a million lines one bill at a time through
 * `post()` would take hours on this machine. It writes, set-based (`generate_series`), the rows `post()`
 * writes — `fin_posting` and its balanced `fin_posting_line`s (Σ debit = Σ credit per posting), with the
 * partner, fund account and bill on the lines that carry them — and then derives from those lines, as the
 * services keep them, `fin_bill_open` (amount and settled per bill), `fin_partner_balance` and the fund
 * accounts' balances, and the per-day account totals (written by the lines' trigger, then spread over their
 * shards as separate posting transactions would leave them). The bills themselves are not written (their ids are
 * only referred to by the lines and open amounts, which is all these reports read).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { DEFAULT_CHART } from '@p8/contract/finance';
import { rows, type Database } from '../server/src/db/connection.ts';
import { agingSql, trialBalanceSql } from '../server/src/modules/finance/reports.ts';
import { createTenant } from '../server/src/modules/tenant/service.ts';
import { BENCH_PASSWORD } from './material-fixture.ts';
import { measurePair, type MeasureOptions } from './measure.ts';
import { listeningApp, scratchDatabase } from './scratch-database.ts';

const num = (env: string, fallback: number) => Number(process.env[env] ?? fallback);
const SALES = num('BENCH_SALES', 100_000);
const PURCHASES = Math.round(SALES * 0.95);
const FEES = Math.round(SALES * 0.15);
const CUSTOMERS = 300;
const SUPPLIERS = 150;
/** The bench's "today": the reports' asOf, the last day of the two years of postings. */
const TODAY = '2026-11-24';
const DAYS = 730;
const ADMIN = 'bench_ledger';
const options: MeasureOptions = { warmup: num('BENCH_WARMUP', 1), duration: num('BENCH_DURATION', 5), rounds: num('BENCH_ROUNDS', 3), connections: num('BENCH_CONNECTIONS', 10) };

/**
 * The postings, in the shapes `post()` writes them (see docs/finance.md, "Payments, receipts…"):
 *
 * | source | lines | when |
 * |---|---|---|
 * | sale out-stock g (bill id g) | Dr 1122 customer, bill / Cr 6001 | day ⌊(g−1)·730/SALES⌋ of the two years |
 * | its cost of goods sold | Dr 6401 / Cr 1405 (60 % of the amount) | the same day |
 * | receipt of it | Dr fund / Cr 1122 customer, bill | 30–60 days later; 1 in 7 bills half then, the rest 90–120 days after the bill |
 * | purchase in-stock h (bill id SALES + h) | Dr 1405 / Cr 2202 supplier, bill | spread like the sales |
 * | payment of it | Dr 2202 supplier, bill / Cr 1002 bank | 20–60 days later; 1 in 5 half then, the rest 75–115 days after |
 * | fee f | Dr 6602 / Cr 1001 cash | spread like the sales |
 * | opening balance of each fund account | Dr fund / Cr 3001 | the first day |
 *
 * Payments and receipts dated after TODAY are not written: the recent bills stay open, as in a live company.
 */
async function seed(database: Database, tenantId: number, adminId: number) {
  const t = tenantId;
  const run = (text: string) => database.db.execute(sql.raw(text));
  const step = async (label: string, text: string) => {
    const started = Date.now();
    await run(text);
    console.log(`  ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  const start = `('${TODAY}'::date - ${DAYS - 1})`;
  await run(`insert into partner (tenant_id, kind, code, name) select ${t}, 'customer', 'C' || lpad(g::text, 4, '0'), 'Customer ' || g from generate_series(1, ${CUSTOMERS}) g`);
  await run(`insert into partner (tenant_id, kind, code, name) select ${t}, 'supplier', 'S' || lpad(g::text, 4, '0'), 'Supplier ' || g from generate_series(1, ${SUPPLIERS}) g`);
  await run(`insert into fin_account (tenant_id, code, name_zh, name_en, kind) values ${DEFAULT_CHART.map((a) => `(${t}, '${a.code}', '${a.label.zh}', '${a.label.en.replaceAll("'", "''")}', '${a.kind}')`).join(', ')}`);
  await run(`insert into fin_fund_account (tenant_id, name, kind, opening_balance, opening_date) values
             (${t}, 'Cash', 'cash', 10000000, ${start}), (${t}, 'Bank', 'bank', 500000000, ${start}), (${t}, 'Alipay', 'ewallet', 10000000, ${start})`);
  // The seed's documents: one row per posting, with what its lines need. Unlogged and dropped at the end.
  await run(`create unlogged table bench_doc (id bigint primary key, day date not null, kind text not null, source_kind text not null, source_id bigint not null,
             code text not null, partner_id bigint, bill_id bigint, fund_id bigint, fund_code text, amount numeric(20, 6) not null)`);
  const customers = `(select array_agg(id order by id) from partner where tenant_id = ${t} and kind = 'customer')`;
  const suppliers = `(select array_agg(id order by id) from partner where tenant_id = ${t} and kind = 'supplier')`;
  const funds = `(select array_agg(id order by id) from fin_fund_account where tenant_id = ${t})`;
  const fundCode = (index: string) => `(array['1001', '1002', '1012'])[${index} + 1]`;
  // Posting ids: sales 1…S, their costs S+1…2S, receipts 2S+…, purchases, payments, fees, openings (gaps where a payment is not due yet).
  const S = SALES;
  const P = PURCHASES;
  const saleDay = `${start} + ((g - 1) * ${DAYS} / ${S})::int`;
  const saleAmount = `(100 + (g * 37) % 9900 + (g % 100) / 100.0)`;
  const buyDay = `${start} + ((h - 1) * ${DAYS} / ${P})::int`;
  const buyAmount = `(80 + (h * 53) % 7900 + (h % 100) / 100.0)`;
  const started = Date.now();
  await step(`${S} sale bills`, `insert into bench_doc select g, ${saleDay}, 'sale', 'bill', g, 'XSCK' || g, c.ids[g % ${CUSTOMERS} + 1], g, null, null, ${saleAmount}
             from generate_series(1, ${S}) g, ${customers} c(ids)`);
  await step('their cost of goods sold', `insert into bench_doc select ${S} + id, day, 'cost', 'stock', id, code, null, null, null, null, round(amount * 0.6, 2) from bench_doc where kind = 'sale'`);
  await step('receipts', `insert into bench_doc
             select 2 * ${S} + 2 * (d.id - 1) + r.n + 1, d.day + r.after, 'receipt', 'bill', 10000000 + 2 * d.id + r.n, 'SK' || d.id || '-' || r.n, d.partner_id, d.bill_id, f.ids[d.id % 3 + 1], ${fundCode('d.id % 3')}, r.amount
             from bench_doc d, ${funds} f(ids),
                  lateral (select 0 as n, (30 + d.id % 31)::int as after, case when d.id % 7 = 0 then round(d.amount / 2, 2) else d.amount end as amount
                           union all select 1, (90 + d.id % 31)::int, d.amount - round(d.amount / 2, 2) where d.id % 7 = 0) r
             where d.kind = 'sale' and d.day + r.after <= '${TODAY}'`);
  await step(`${P} purchase bills`, `insert into bench_doc select 4 * ${S} + h, ${buyDay}, 'purchase', 'bill', ${S} + h, 'CGRK' || h, s.ids[h % ${SUPPLIERS} + 1], ${S} + h, null, null, ${buyAmount}
             from generate_series(1, ${P}) h, ${suppliers} s(ids)`);
  await step('payments', `insert into bench_doc
             select 4 * ${S} + ${P} + 2 * (d.id - 4 * ${S} - 1) + r.n + 1, d.day + r.after, 'payment', 'bill', 20000000 + d.id + r.n * ${P}, 'FK' || d.id || '-' || r.n, d.partner_id, d.bill_id, f.ids[2], '1002', r.amount
             from bench_doc d, ${funds} f(ids),
                  lateral (select 0 as n, (20 + d.id % 41)::int as after, case when d.id % 5 = 0 then round(d.amount / 2, 2) else d.amount end as amount
                           union all select 1, (75 + d.id % 41)::int, d.amount - round(d.amount / 2, 2) where d.id % 5 = 0) r
             where d.kind = 'purchase' and d.day + r.after <= '${TODAY}'`);
  await step(`${FEES} fees`, `insert into bench_doc select 4 * ${S} + 3 * ${P} + g, ${start} + ((g - 1) * ${DAYS} / ${FEES})::int, 'fee', 'bill', 30000000 + g, 'FY' || g, null, null, f.ids[1], '1001', 50 + g % 450
             from generate_series(1, ${FEES}) g, ${funds} f(ids)`);
  await step('fund openings', `insert into bench_doc select 4 * ${S} + 3 * ${P} + ${FEES} + f.n, ${start}, 'opening', 'opening', f.id, 'OPEN' || f.n, null, null, f.id, ${fundCode('f.n - 1')}, f.opening_balance
             from (select id, opening_balance, row_number() over (order by id)::int as n from fin_fund_account where tenant_id = ${t}) f`);
  await step('postings', `insert into fin_posting (tenant_id, id, posting_date, source_kind, source_id, source_code, created_by)
             select ${t}, id, day, source_kind, source_id, code, ${adminId} from bench_doc order by day, id`);
  // Each document's two lines: debit side first. Which account, partner, fund and bill each side carries, by kind.
  await step('posting lines', `insert into fin_posting_line (tenant_id, posting_id, posting_date, account_code, partner_id, fund_account_id, bill_id, debit, credit)
             select ${t}, d.id, d.day, x.account, x.partner_id, x.fund_id, x.bill_id, case when x.side = 'D' then d.amount else 0 end, case when x.side = 'C' then d.amount else 0 end
             from bench_doc d cross join lateral (values
               ('D', case d.kind when 'sale' then '1122' when 'cost' then '6401' when 'receipt' then d.fund_code when 'purchase' then '1405' when 'payment' then '2202' when 'fee' then '6602' else d.fund_code end,
                     case when d.kind in ('sale', 'payment') then d.partner_id end, case when d.kind in ('receipt', 'opening') then d.fund_id end, case when d.kind in ('sale', 'payment') then d.bill_id end),
               ('C', case d.kind when 'sale' then '6001' when 'cost' then '1405' when 'receipt' then '1122' when 'purchase' then '2202' when 'payment' then d.fund_code when 'fee' then '1001' else '3001' end,
                     case when d.kind in ('receipt', 'purchase') then d.partner_id end, case when d.kind in ('payment', 'fee') then d.fund_id end, case when d.kind in ('receipt', 'purchase') then d.bill_id end)
             ) x(side, account, partner_id, fund_id, bill_id)
             order by d.day, d.id, x.side desc`);
  await run(`select setval(pg_get_serial_sequence('fin_posting', 'id'), (select max(id) from fin_posting))`);
  // The trigger on the lines put the whole load in one shard of fin_account_day (one transaction); half a
  // million postings, each its own transaction, would have spread every account's day over the 8 shards.
  await run(`delete from fin_account_day where tenant_id = ${t}`);
  await step('per-day account totals, spread over the shards', `insert into fin_account_day (tenant_id, account_code, day, shard, debit, credit)
             select ${t}, account_code, posting_date, (posting_id % 8)::smallint, sum(debit), sum(credit) from fin_posting_line
             where tenant_id = ${t} group by posting_date, account_code, posting_id % 8`);
  // What the services keep beside the ledger, summed from it.
  await step('open amounts', `insert into fin_bill_open (tenant_id, bill_id, partner_id, kind, bill_date, amount, settled)
             select ${t}, bill_id, min(partner_id), case when min(account_code) = '1122' then 'receivable' else 'payable' end, min(posting_date),
                    case when min(account_code) = '1122' then sum(debit) else sum(credit) end, case when min(account_code) = '1122' then sum(credit) else sum(debit) end
             from fin_posting_line where tenant_id = ${t} and bill_id is not null group by bill_id`);
  await step('partner balances', `insert into fin_partner_balance (tenant_id, partner_id, receivable, payable)
             select ${t}, partner_id, coalesce(sum(debit - credit) filter (where account_code = '1122'), 0), coalesce(sum(credit - debit) filter (where account_code = '2202'), 0)
             from fin_posting_line where tenant_id = ${t} and partner_id is not null group by partner_id`);
  await step('fund balances', `update fin_fund_account f set balance = s.balance from (
             select fund_account_id, sum(debit - credit) as balance from fin_posting_line where tenant_id = ${t} and fund_account_id is not null group by 1) s
             where f.tenant_id = ${t} and f.id = s.fund_account_id`);
  await run(`drop table bench_doc`);
  const [count] = await rows<{ lines: number; postings: number; open: number }>(database, sql.raw(`select (select count(*)::int from fin_posting_line where tenant_id = ${t}) as lines,
             (select count(*)::int from fin_posting where tenant_id = ${t}) as postings, (select count(*)::int from fin_bill_open where tenant_id = ${t} and settled <> amount) as open`));
  console.log(`seeded ${count.postings} postings with ${count.lines} lines (${count.open} bills open) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** What the screens ask: aging as of TODAY on both sides, and the trial balance of all time and of one year. */
const SCENARIOS = [
  { label: 'receivable', path: `/api/admin/finance/receivable?asOf=${TODAY}`, statement: (t: number) => agingSql(t, 'receivable', { asOf: TODAY }) },
  { label: 'payable', path: `/api/admin/finance/payable?asOf=${TODAY}`, statement: (t: number) => agingSql(t, 'payable', { asOf: TODAY }) },
  { label: 'trialBalance', path: '/api/admin/finance/trialBalance', statement: (t: number) => trialBalanceSql(t, {}) },
  { label: 'trialBalance 2026', path: '/api/admin/finance/trialBalance?start=2026-01-01&end=2026-12-31', statement: (t: number) => trialBalanceSql(t, { start: '2026-01-01', end: '2026-12-31' }) },
];

/** The bare side: the very statements the reports run (rendered by Drizzle's dialect), in one RLS transaction. */
function bareServer(pool: pg.Pool, tenantId: number): Promise<http.Server> {
  const dialect = new PgDialect();
  const queries = new Map(SCENARIOS.map((s) => [`/${encodeURIComponent(s.label)}`, dialect.sqlToQuery(s.statement(tenantId))]));
  const server = http.createServer(async (req, res) => {
    const query = queries.get(req.url!)!;
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.tenant_id', $1, true), set_config('role', 'p8_app', true)`, [String(tenantId)]);
      const found = await client.query(query.sql, query.params as unknown[]);
      await client.query('commit');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 0, data: found.rows }));
    } catch (error) {
      await client.query('rollback');
      res.writeHead(500).end(String(error));
    } finally {
      client.release();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Median of 5 runs of a statement alone (no concurrency), over the bare pool. */
async function alone(pool: pg.Pool, tenantId: number, statement: ReturnType<PgDialect['sqlToQuery']>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.tenant_id', $1, true), set_config('role', 'p8_app', true)`, [String(tenantId)]);
      const started = performance.now();
      await client.query(statement.sql, statement.params as unknown[]);
      times.push(performance.now() - started);
      await client.query('commit');
    } finally {
      client.release();
    }
  }
  return times.sort((a, b) => a - b)[2];
}

async function main() {
  const reuse = process.env.BENCH_REUSE;
  const scratch = await scratchDatabase({ prefix: 'p8_bench_ledger', poolSize: 10, keep: process.env.BENCH_KEEP === '1', reuse });
  const { database } = scratch;
  const pool = scratch.bare!;
  const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' / ');
  try {
    console.log(`database ${scratch.name}; load average ${load()}`);
    if (!reuse) {
      const created = await database.withSystem((tx) => createTenant(tx, { tenantName: 'Bench ledger', adminName: ADMIN, password: BENCH_PASSWORD }));
      await seed(database, created.tenantId, created.adminId);
      const started = Date.now();
      await database.db.execute(sql`vacuum analyze`);
      console.log(`vacuum analyze in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    const [{ tenant_id: tenantText }] = await rows<{ tenant_id: string }>(database, sql`select tenant_id from admin where name = ${ADMIN}`);
    const tenantId = Number(tenantText);

    const { app, url: appUrl, token } = await listeningApp(scratch, { name: ADMIN, password: BENCH_PASSWORD });
    const bare = await bareServer(pool, tenantId);
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

    // Both sides must answer the same figures, or the comparison means nothing.
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url, { headers });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { status: number; data: unknown };
    };
    const trial = (await get(`${appUrl}/api/admin/finance/trialBalance`, { authorization: `Bearer ${token}` })).data as { debitTotal: string; creditTotal: string };
    if (trial.debitTotal !== trial.creditTotal) throw new Error(`the trial balance does not balance: ${trial.debitTotal} / ${trial.creditTotal}`);
    console.log(`trial balance: debit = credit = ${trial.debitTotal}`);
    for (const s of SCENARIOS.slice(0, 2)) {
      const app = (await get(`${appUrl}${s.path}`, { authorization: `Bearer ${token}` })).data as unknown[];
      const bareRows = (await get(`${bareUrl}/${encodeURIComponent(s.label)}`)).data as unknown[];
      if (app.length !== bareRows.length) throw new Error(`${s.label}: the app answers ${app.length} partners, the bare query ${bareRows.length}`);
    }

    const dialect = new PgDialect();
    console.log('\n| statement alone (bare pool, median of 5) | ms |\n|---|---:|');
    for (const s of SCENARIOS) console.log(`| ${s.label} | ${(await alone(pool, tenantId, dialect.sqlToQuery(s.statement(tenantId)))).toFixed(1)} |`);

    const table: string[] = [];
    for (const s of SCENARIOS) {
      const { app: a, bare: b } = await measurePair(options, s.label, { url: appUrl, method: 'GET', path: s.path, tokens: [token] }, { url: bareUrl, method: 'GET', path: `/${encodeURIComponent(s.label)}` });
      table.push(`| ${s.label} (\`${s.path.replace('/api/admin/finance', '')}\`) | ${a.rps.toFixed(0)} | ${a.p50.toFixed(1)} | **${a.p95.toFixed(1)}** | ${b.rps.toFixed(0)} | ${b.p50.toFixed(1)} | ${b.p95.toFixed(1)} | ${(a.rps / b.rps).toFixed(2)} | ${(a.p95 / b.p95).toFixed(2)} |`);
    }
    console.log(`\n${options.connections} connections, median of ${options.rounds} × ${options.duration} s; load average at the end ${load()}\n`);
    console.log('| request | app req/s | app p50 ms | app p95 ms | bare req/s | bare p50 ms | bare p95 ms | req/s app / bare | p95 app / bare |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|');
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
