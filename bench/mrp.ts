/**
 * An MRP run at size: one tenant with BENCH_MRP_MATERIALS materials (5,000) on BENCH_MRP_DEPTH + 1 levels
 * (depth 8), every material above the last level made by a default BOM of four components on the levels
 * below, and a plan of BENCH_MRP_DEMANDS demand lines (2,000) for the top-level products over
 * BENCH_MRP_DATES dates (5). Measured, BENCH_ROUNDS times (3), medians:
 *
 * - **app**: `POST /api/admin/production/mrp` with the demand lines — the real route: validation, the six input
 *   queries, netting in memory, and the plan with its suggestions written through the bill engine;
 * - **bare**: the same input statements (the builders `mrp.ts` runs, rendered by drizzle's dialect) over a bare
 *   `pg` pool in one RLS transaction — what reading the inputs costs at the least.
 *
 * - **push down**: the last plan submitted and audited, then BENCH_MRP_PUSH of its suggestions (1,000; half make,
 *   half buy) pushed down one bill each — production orders (their materials and steps from the suggestion's
 *   BOM) and purchase requisitions, one request after another through `POST …/pushDown` — and as many again in
 *   two bills (one production order, one requisition).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/mrp.ts
 *   BENCH_MRP_MATERIALS=20000 BENCH_MRP_DEMANDS=10000 … (the larger size of docs/production.md's targets)
 *
 * The seed is written set-based (BOMs are data, not bills): materials, main units, BOMs and lines.
 */
import { PgDialect } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import { rows } from '../server/src/db/connection.ts';
import { createTenant } from '../server/src/modules/tenant/service.ts';
import { allocationsSql, bomsSql, openSupplySql, planningSql } from '../server/src/modules/production/mrp.ts';
import { BENCH_PASSWORD } from './material-fixture.ts';
import { bareTransaction, listeningApp, scratchDatabase } from './scratch-database.ts';

const num = (env: string, fallback: number) => Number(process.env[env] ?? fallback);
const MATERIALS = num('BENCH_MRP_MATERIALS', 5000);
const DEPTH = num('BENCH_MRP_DEPTH', 8);
const DEMANDS = num('BENCH_MRP_DEMANDS', 2000);
const DATES = num('BENCH_MRP_DATES', 5);
const ROUNDS = num('BENCH_ROUNDS', 3);
const PUSH = num('BENCH_MRP_PUSH', 1000);
const COMPONENTS = 4;
const ADMIN = 'bench_mrp';

const scratch = await scratchDatabase({ prefix: 'p8_bench_mrp', keep: process.env.BENCH_KEEP === '1' });
const { database } = scratch;
const dialect = new PgDialect();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const created = await database.withSystem((tx) => createTenant(tx, { tenantName: 'Bench MRP', adminName: ADMIN, password: BENCH_PASSWORD }));
  const t = created.tenantId;
  const started = Date.now();
  // Material i (1-based) is on level ⌊(i − 1)(DEPTH + 1) / MATERIALS⌋; a level's materials are consecutive.
  const levelOf = (i: number) => Math.floor(((i - 1) * (DEPTH + 1)) / MATERIALS);
  const levels: number[][] = [];
  for (let i = 1; i <= MATERIALS; i++) (levels[levelOf(i)] ??= []).push(i);
  const ids = await database.withTenant(t, async (tx) => {
    await tx.execute(sql`insert into unit (tenant_id, name) values (${t}, 'pc')`);
    await tx.execute(sql`insert into material (tenant_id, code, name, lead_time_days, lot_policy, lot_size)
      select ${t}, 'M' || lpad(g::text, 6, '0'), 'Material ' || g, g % 4, case when g % 10 = 0 then 'fixed' when g % 10 = 1 then 'minimum' else 'lotForLot' end,
             case when g % 10 in (0, 1) then 50 end
      from generate_series(1, ${MATERIALS}) g`);
    await tx.execute(sql`insert into material_unit (tenant_id, material_id, unit_id, ratio, is_main)
      select ${t}, m.id, (select id from unit where tenant_id = ${t}), 1, true from material m where m.tenant_id = ${t}`);
    return (await rows<{ id: string }>(tx, sql`select id from material where tenant_id = ${t} order by code`)).map((r) => Number(r.id));
  });
  // Default BOMs: each material above the last level takes four components from the levels below (mostly the next).
  const bomRows: SQL[] = [];
  for (let i = 1; i <= MATERIALS; i++) if (levelOf(i) < DEPTH) bomRows.push(sql`(${t}, ${ids[i - 1]}, 'V1', 1, true)`);
  await database.withTenant(t, async (tx) => {
    for (let k = 0; k < bomRows.length; k += 1000) await tx.execute(sql`insert into bom (tenant_id, material_id, version, quantity, is_default) values ${sql.join(bomRows.slice(k, k + 1000), sql`, `)}`);
    const list = await rows<{ id: string; material_id: string }>(tx, sql`select id, material_id from bom where tenant_id = ${t}`);
    const index = new Map(ids.map((id, i) => [id, i + 1]));
    const lines: SQL[] = [];
    for (const b of list) {
      const i = index.get(Number(b.material_id))!;
      const level = levelOf(i);
      for (let j = 0; j < COMPONENTS; j++) {
        // Three on the next level, one anywhere below; picked by a fixed hash so every run builds the same structure.
        const target = j < 3 ? level + 1 : level + 1 + ((i * 31 + j) % (DEPTH - level));
        const pool = levels[Math.min(target, DEPTH)];
        const child = pool[(i * 7919 + j * 104729) % pool.length];
        lines.push(sql`(${t}, ${Number(b.id)}, ${ids[child - 1]}, ${1 + ((i + j) % 3)}, ${(i + j) % 5}, ${j})`);
      }
    }
    for (let k = 0; k < lines.length; k += 2000) await tx.execute(sql`insert into bom_line (tenant_id, bom_id, material_id, quantity, loss_rate, sort) values ${sql.join(lines.slice(k, k + 2000), sql`, `)}`);
  });
  await scratch.bare!.query('analyze');
  console.log(`seeded ${MATERIALS} materials on ${DEPTH + 1} levels, ${bomRows.length} BOMs × ${COMPONENTS} lines in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const { app, url, token } = await listeningApp(scratch, { name: ADMIN, password: BENCH_PASSWORD });
  const tops = levels[0];
  const day = (d: number) => new Date(Date.UTC(2027, 0, 10 + d * 3)).toISOString().slice(0, 10);
  const payload = {
    billDate: '2026-12-01',
    lines: Array.from({ length: DEMANDS }, (_, n) => ({ mrpRole: 'Demand', materialId: ids[tops[n % tops.length] - 1], number: 1 + (n % 100), needDate: day(n % DATES) })),
  };

  const statements = [openSupplySql(t), allocationsSql(t), bomsSql(t, []), planningSql(t, ids)].map((s) => dialect.sqlToQuery(s));
  const bare = () => bareTransaction(scratch, t, statements);
  const appTimes: number[] = [];
  const bareTimes: number[] = [];
  let suggestions = 0;
  let planId = 0;
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(`${url}/api/admin/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const answer = (await res.json()) as { status: number; message: string; data: T };
    if (answer.status !== 0) throw new Error(`${path} refused: ${answer.message}`);
    return answer.data;
  };
  for (let round = 0; round < ROUNDS + 1; round++) {
    let at = performance.now();
    const body = { data: await post<{ id: number }>('production/mrp', payload) };
    planId = body.data.id;
    const appMs = performance.now() - at;
    at = performance.now();
    await bare();
    const bareMs = performance.now() - at;
    if (round === 0) {
      const counted = await scratch.bare!.query<{ n: string }>(`select count(*) as n from bill_line where tenant_id = $1 and bill_id = $2 and extra->>'mrpRole' <> 'Demand'`, [t, body.data.id]);
      suggestions = Number(counted.rows[0].n);
      continue; // warm-up
    }
    appTimes.push(appMs);
    bareTimes.push(bareMs);
  }
  console.log(`\n| ${MATERIALS} materials, depth ${DEPTH}, ${DEMANDS} demand lines over ${DATES} dates → ${suggestions} suggestions | median ms |`);
  console.log('|---|---|');
  console.log(`| app: POST a plan (inputs, netting, plan and suggestions written) | ${median(appTimes).toFixed(0)} |`);
  console.log(`| bare: the input statements over a bare pool | ${median(bareTimes).toFixed(0)} |`);
  if (PUSH > 0) {
    // The last plan, audited; its suggestions pushed down one bill each, then as many in two bills.
    let at = performance.now();
    await post('production/mrp/submit', { id: planId });
    await post('production/mrp/audit', { id: planId });
    const auditMs = performance.now() - at;
    const lines = await scratch.bare!.query<{ id: string; role: string }>(`select id, extra->>'mrpRole' as role from bill_line where tenant_id = $1 and bill_id = $2 order by line_no`, [t, planId]);
    const byRole = (role: string) => lines.rows.filter((l) => l.role === role).map((l) => Number(l.id));
    const [make, buy] = [byRole('Produce'), byRole('Purchase')];
    const half = Math.floor(PUSH / 2);
    if (make.length < 2 * half || buy.length < 2 * (PUSH - half)) throw new Error(`the plan has ${make.length} make and ${buy.length} buy suggestions, fewer than twice BENCH_MRP_PUSH's halves`);
    const targets = [
      { path: 'production/order/pushDown', ids: make.slice(0, half), more: make.slice(half, 2 * half) },
      { path: 'purchase/requisition/pushDown', ids: buy.slice(0, PUSH - half), more: buy.slice(PUSH - half, 2 * (PUSH - half)) },
    ];
    at = performance.now();
    // Each push's time, by target: a type's first and last 100 side by side show whether a push gets dearer
    // as the tenant's bills pile up.
    const each = new Map<string, number[]>();
    for (const target of targets) {
      const times: number[] = [];
      each.set(target.path, times);
      for (const id of target.ids) {
        const pushAt = performance.now();
        await post(target.path, { sourceType: 'MrpPlan', sourceLineIds: [id] });
        times.push(performance.now() - pushAt);
      }
    }
    const oneEachMs = performance.now() - at;
    const span = (list: number[]) => list.reduce((all, ms) => all + ms, 0).toFixed(0);
    at = performance.now();
    for (const target of targets) await post(target.path, { sourceType: 'MrpPlan', sourceLineIds: target.more });
    const twoBillsMs = performance.now() - at;
    console.log(`| submit and audit the plan | ${auditMs.toFixed(0)} |`);
    console.log(`| push down ${PUSH} suggestions (${half} make, ${PUSH - half} buy), one bill each | ${oneEachMs.toFixed(0)} |`);
    for (const [path, times] of each) {
      const n = Math.min(100, times.length);
      console.log(`| … ${path}: its first ${n} / its last ${n} | ${span(times.slice(0, n))} / ${span(times.slice(-n))} |`);
    }
    console.log(`| push down ${PUSH} more in two bills | ${twoBillsMs.toFixed(0)} |`);
  }
  await app.close();
} finally {
  await scratch.close();
}
