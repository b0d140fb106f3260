/**
 * The month-end cost run at size: one tenant with BENCH_COST_ORDERS production orders (2,000) of last month,
 * each with a product, one process step and BENCH_COST_MATERIALS material lines (48), all picked (one ledger
 * entry per line), its step reported (2 hours) and accounted, 6 of its 10 completed — ≈ 100,000 stock ledger
 * lines; every other order picks the product of the order before it as its first material, so the run costs two
 * levels and hands 1,000 sub-assemblies' differences on. Measured, BENCH_ROUNDS times (3), medians:
 *
 * - **app, first run**: `POST /api/admin/production/cost/run` and the background job until it succeeded (after a
 *   cancel, so every round computes and posts every order's adjustment and 2,000 value entries);
 * - **app, run again**: the same with nothing changed (computes everything, posts nothing);
 * - **bare**: the run's input statements (the builders cost-run.ts runs, rendered by drizzle's dialect) over a
 *   bare `pg` pool in one RLS transaction — what reading the inputs costs at the least.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/cost-run.ts
 *
 * The seed is written set-based (bills, lines and ledger entries as the engine would have left them).
 */
import { PgDialect } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createTenant } from '../server/src/modules/tenant/service.ts';
import { completionLinesSql, consumptionSql, labourByUnitSql, ledgerByUnitSql, reportsByStepSql } from '../server/src/modules/finance/cost-run.ts';
import { BENCH_PASSWORD } from './material-fixture.ts';
import { bareTransaction, listeningApp, scratchDatabase } from './scratch-database.ts';

const num = (env: string, fallback: number) => Number(process.env[env] ?? fallback);
const ORDERS = num('BENCH_COST_ORDERS', 2000);
const MATERIALS = num('BENCH_COST_MATERIALS', 48);
const ROUNDS = num('BENCH_ROUNDS', 3);
const ADMIN = 'bench_cost';

const scratch = await scratchDatabase({ prefix: 'p8_bench_cost', keep: process.env.BENCH_KEEP === '1' });
const { database } = scratch;
const dialect = new PgDialect();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const now = new Date();
const period = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
const on = (day: number) => `${period}-${String(day).padStart(2, '0')}`;

try {
  const created = await database.withSystem((tx) => createTenant(tx, { tenantName: 'Bench cost', adminName: ADMIN, password: BENCH_PASSWORD }));
  const t = created.tenantId;
  const admin = created.adminId;
  // The tenant as a literal: a bound parameter in a select list is text to PostgreSQL.
  const T = sql.raw(String(t));
  const started = Date.now();
  await database.withTenant(t, async (tx) => {
    await tx.execute(sql`insert into unit (tenant_id, name) values (${t}, 'pc')`);
    await tx.execute(sql`insert into warehouse (tenant_id, code, name) values (${t}, 'W', 'Main')`);
    await tx.execute(sql`insert into material (tenant_id, code, name) select ${T}, 'P' || lpad(g::text, 5, '0'), 'Product ' || g from generate_series(1, 200) g`);
    await tx.execute(sql`insert into material (tenant_id, code, name) select ${T}, 'C' || lpad(g::text, 5, '0'), 'Component ' || g from generate_series(1, ${MATERIALS}) g`);
    await tx.execute(sql`insert into material_unit (tenant_id, material_id, unit_id, ratio, is_main) select ${T}, m.id, (select id from unit where tenant_id = ${t}), 1, true from material m where m.tenant_id = ${t}`);
    const bills = (type: string, prefix: string, day: number, extra = sql`'{}'::jsonb`) =>
      tx.execute(sql`insert into bill (tenant_id, bill_type, bill_code, bill_date, bill_status, created_by, extra)
        select ${T}, ${type}, ${prefix} || lpad(g::text, 6, '0'), ${on(day)}::date, 'Audit', ${sql.raw(String(admin))}, ${extra} from generate_series(1, ${ORDERS}) g`);
    await bills('ProductionOrder', 'O', 1);
    await bills('ProductionPick', 'K', 5);
    await bills('ProcessReport', 'R', 15);
    await bills('ProcessAccounting', 'A', 16, sql`jsonb_build_object('salaryPeriod', ${period}::text)`);
    await bills('ProductionInstock', 'I', 20);
    // Order lines: the product (10), the step, the materials (2 each; for every other order the first is another's product).
    await tx.execute(sql`
      with o as (select id, right(bill_code, 6)::int as n from bill where tenant_id = ${t} and bill_type = 'ProductionOrder'),
           w as (select id from warehouse where tenant_id = ${t}), u as (select id from unit where tenant_id = ${t})
      insert into bill_line (tenant_id, bill_id, line_no, material_id, unit_id, number, base_number, warehouse_id, extra)
      select ${T}, o.id, 1, (select id from material where tenant_id = ${t} and code = 'P' || lpad((1 + o.n % 200)::text, 5, '0')), u.id, 10, 10, w.id, '{"role":"Product"}'::jsonb from o, w, u
      union all
      select ${T}, o.id, 2, (select id from material where tenant_id = ${t} and code = 'P' || lpad((1 + o.n % 200)::text, 5, '0')), u.id, 10, 10, null, '{"role":"Process"}'::jsonb from o, u
      union all
      select ${T}, o.id, 2 + c.k, m.id, u.id, 2, 2, w.id, '{"role":"Material"}'::jsonb
      from o cross join generate_series(1, ${MATERIALS}) c(k)
      -- Two levels: an odd order's first material is the product of the even order before it (a sub-assembly).
      join material m on m.tenant_id = ${t} and m.code = case when c.k = 1 and o.n % 2 = 1 then 'P' || lpad((1 + (o.n - 1) % 200)::text, 5, '0') else 'C' || lpad(c.k::text, 5, '0') end, w, u`);
    // Each downstream bill's lines take from the order of the same number.
    const sourced = (type: string, prefix: string, role: string, number: number, price: string, extra: string) =>
      tx.execute(sql`
        with o as (select id, right(bill_code, 6) as n from bill where tenant_id = ${t} and bill_type = 'ProductionOrder'),
             b as (select id, right(bill_code, 6) as n from bill where tenant_id = ${t} and bill_type = ${type} and bill_code like ${`${prefix}%`})
        insert into bill_line (tenant_id, bill_id, line_no, material_id, unit_id, number, base_number, price_total, warehouse_id, source_bill_id, source_line_id, extra)
        select ${T}, b.id, l.line_no, l.material_id, l.unit_id, ${number}::numeric, ${number}::numeric, ${price}::numeric, l.warehouse_id, o.id, l.id, ${extra}::jsonb
        from b join o using (n) join bill_line l on l.tenant_id = ${t} and l.bill_id = o.id and l.extra->>'role' = ${role}`);
    await sourced('ProductionPick', 'K', 'Material', 2, '3', '{}');
    await sourced('ProductionInstock', 'I', 'Product', 6, '0', '{}');
    await sourced('ProcessReport', 'R', 'Process', 10, '5', '{"hours":"2"}');
    // Accounting lines take from the report lines.
    await tx.execute(sql`
      with r as (select l.id, l.material_id, l.unit_id, right(b.bill_code, 6) as n from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
                 where l.tenant_id = ${t} and b.bill_type = 'ProcessReport'),
           a as (select id, right(bill_code, 6) as n from bill where tenant_id = ${t} and bill_type = 'ProcessAccounting')
      insert into bill_line (tenant_id, bill_id, line_no, material_id, unit_id, number, base_number, price_total, source_bill_id, source_line_id, extra)
      select ${T}, a.id, 1, r.material_id, r.unit_id, 10, 10, 5, null, r.id, '{}'::jsonb from a join r using (n)`);
    // The stock ledger as the engine posts it: picks out at 1.50, completions in at 6/10 of the order's 144.00.
    await tx.execute(sql`
      insert into stock_ledger (tenant_id, bill_id, bill_line_id, bill_type, bill_code, bill_date, material_id, warehouse_id, quantity, unit_cost, amount)
      select ${T}, b.id, l.id, b.bill_type, b.bill_code, b.bill_date, l.material_id, l.warehouse_id,
             case when b.bill_type = 'ProductionPick' then -2 else 6 end, case when b.bill_type = 'ProductionPick' then 1.5 else 14.4 end,
             case when b.bill_type = 'ProductionPick' then -3 else 86.4 end
      from bill b join bill_line l on l.tenant_id = b.tenant_id and l.bill_id = b.id
      where b.tenant_id = ${t} and b.bill_type in ('ProductionPick', 'ProductionInstock')`);
    await tx.execute(sql`insert into stock_valuation (tenant_id, material_id, warehouse_id, quantity, amount)
      select ${T}, material_id, warehouse_id, sum(quantity), sum(amount) from stock_ledger where tenant_id = ${t} group by 2, 3`);
  });
  await scratch.bare!.query('analyze');
  const [{ n: entries }] = (await scratch.bare!.query<{ n: string }>('select count(*) as n from stock_ledger where tenant_id = $1', [t])).rows;
  console.log(`seeded ${ORDERS} orders of ${period}, ${entries} stock ledger entries in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const { app, url, token } = await listeningApp(scratch, { name: ADMIN, password: BENCH_PASSWORD });
  app.jobs.start();
  const call = async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = (await res.json()) as { status: number; message: string; data: T };
    if (answer.status !== 0) throw new Error(`${path}: ${answer.message}`);
    return answer.data;
  };
  const run = async () => {
    const at = performance.now();
    const { id } = await call<{ id: number }>('/api/admin/production/cost/run', { period, basis: 'hours' });
    for (;;) {
      const job = await call<{ status: string; errorKey: string | null; result: { adjusted: string; orders: number } }>(`/api/admin/system/jobs/${id}`);
      if (job.status === 'succeeded') return { ms: performance.now() - at, result: job.result };
      if (job.status === 'failed') throw new Error(`cost run failed: ${job.errorKey}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  // Where the completed products went (the run's step-by-step costing reads it for the products it completed).
  const products = (await scratch.bare!.query<{ id: string }>(`select id from material where tenant_id = $1 and code like 'P%'`, [t])).rows.map((r) => Number(r.id));
  const statements = [ledgerByUnitSql(t, period), labourByUnitSql(t, period), reportsByStepSql(t, period), completionLinesSql(t, period), consumptionSql(t, period, products)].map((s) => dialect.sqlToQuery(s));
  const bare = async () => {
    const at = performance.now();
    await bareTransaction(scratch, t, statements);
    return performance.now() - at;
  };
  const first: number[] = [];
  const again: number[] = [];
  const bareTimes: number[] = [];
  let orders = 0;
  for (let round = 0; round < ROUNDS + 1; round++) {
    const fresh = await run();
    const repeat = await run();
    if (Number(repeat.result.adjusted) !== 0) throw new Error(`a run again adjusted ${repeat.result.adjusted}`);
    const bareMs = await bare();
    // The two levels were costed as such: every sub-assembly's consumer took its difference in.
    const [{ n: rolled }] = (await scratch.bare!.query<{ n: string }>('select count(*) as n from cost_order where tenant_id = $1 and period = $2 and rolled_in <> 0', [t, period])).rows;
    if (Number(rolled) !== ORDERS / 2) throw new Error(`${rolled} orders took a sub-assembly's difference in, not ${ORDERS / 2}`);
    await call('/api/admin/production/cost/cancel', { period });
    orders = fresh.result.orders;
    if (round === 0) continue; // warm-up
    first.push(fresh.ms);
    again.push(repeat.ms);
    bareTimes.push(bareMs);
  }
  console.log(`\n| ${orders} orders, ${entries} stock ledger entries | median ms |`);
  console.log('|---|---|');
  console.log(`| app: run (queued, computed, ${orders} orders' adjustments posted) | ${median(first).toFixed(0)} |`);
  console.log(`| app: run again, nothing changed (computed, nothing posted) | ${median(again).toFixed(0)} |`);
  console.log(`| bare: the input statements over a bare pool | ${median(bareTimes).toFixed(0)} |`);
  await app.jobs.stop();
  await app.close();
} finally {
  await scratch.close();
}
