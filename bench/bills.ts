/**
 * The bill engine at volume (issue 10): one tenant with 1,000,000 bills and 5,000,000 lines on PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/bills.ts
 *   env: BENCH_BILLS (1000000), BENCH_LINES (5 per bill), BENCH_DURATION (5 s), BENCH_ROUNDS (3),
 *        BENCH_WARMUP (1 s), BENCH_CONNECTIONS (10), BENCH_KEEP=1 (keep the database),
 *        BENCH_REUSE=<database> (measure a kept database again), BENCH_PARTS (list,big,concurrent),
 *        BENCH_TRACE=<ms> (print every statement of the app slower than that), BENCH_ONLY=<labels> (list rows, e.g. tabs,statistics),
 *        BENCH_BARE_COUNTS=1 (the bare side counts and sums on every request)
 *
 * Seeding goes around the services (set-based `generate_series` inserts, minutes instead of hours), but
 * leaves the database as the engine would: bill codes in the engine's format, the sharded `bill_count`
 * rows, ledger entries for every audited in-stock with balances and valuations summed from them
 * (`verifyStock` must come back empty, checked at the end). Then:
 *
 * 1. the purchase-order list (half of the bills): a status tab with a date range and a sort, its statistics
 *    and its tab counts, and the first unfiltered page — each through the app and through a bare `pg`
 *    server doing the same SQL in one RLS transaction, in alternating rounds (measure.ts);
 * 2. audit of a 600-line in-stock; save and audit of a 2,750-line in-stock (through the app, timed);
 * 3. 50 concurrent saves (5 lines each) against one at a time: throughput and p95.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { verifyStock } from '../server/src/bills/stock.ts';
import { rows, type Database } from '../server/src/db/connection.ts';
import { createTenant } from '../server/src/modules/tenant/service.ts';
import { BENCH_PASSWORD } from './material-fixture.ts';
import { listeningApp, scratchDatabase } from './scratch-database.ts';
import { measurePair, type MeasureOptions } from './measure.ts';

const num = (env: string, fallback: number) => Number(process.env[env] ?? fallback);
const BILLS = num('BENCH_BILLS', 1_000_000);
const LINES = num('BENCH_LINES', 5);
const MATERIALS = 2_000;
const PARTNERS = 50;
const WAREHOUSES = 5;
const PARTS = new Set((process.env.BENCH_PARTS ?? 'list,big,concurrent').split(','));
const TRACE = process.env.BENCH_TRACE ? Number(process.env.BENCH_TRACE) : undefined;
if (TRACE !== undefined) {
  // Every statement the app's pool runs, timed: what a slow operation spends its time on.
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function traced(this: pg.Client, ...args: unknown[]) {
    const at = performance.now();
    const result = query.apply(this, args);
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text ?? '';
    if (result instanceof Promise) {
      void result.then(
        () => {
          const ms = performance.now() - at;
          if (ms >= TRACE) console.log(`  [${ms.toFixed(0)} ms] ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
        },
        () => {},
      );
    }
    return result;
  } as typeof pg.Client.prototype.query;
}
const options: MeasureOptions = { warmup: num('BENCH_WARMUP', 1), duration: num('BENCH_DURATION', 5), rounds: num('BENCH_ROUNDS', 3), connections: num('BENCH_CONNECTIONS', 10) };

/**
 * Bill g (1…BILLS) of the seed: its type by g % 10 (5 of 10 purchase orders, 3 in-stocks, 2 sale
 * out-stocks), its date one of the 730 days before 2026-11-23 (today's codes start at 0001), its partner
 * by g / 40 % 50 (every partner has bills of every type and status), its number
 * within its type and day ((g / 7300) · 10 + g % 10 + 1, so codes never repeat), its status by g / 10 % 4.
 */
const TYPE = `case when g % 10 < 5 then 'PurchaseOrder' when g % 10 < 8 then 'PurchaseInstock' else 'SaleOutstock' end`;
const PREFIX = `case when g % 10 < 5 then 'CGDD' when g % 10 < 8 then 'CGRK' else 'XSCK' end`;
const DATE = `('2026-11-23'::date - ((g / 10) % 730))`;
/** Out-stocks never audited (no stock to take from in the seed); in-stocks audited in 1 of 4. */
const STATUS = `case when g % 10 >= 8 then (array['Saved','Submitted','Saved','Refuse'])[(g / 10) % 4 + 1]
                     else (array['Saved','Submitted','Audit','Refuse'])[(g / 10) % 4 + 1] end`;
/** Line i of bill g: quantity i + g % 7, price 10 + g % 90, so the header's totals are sums in closed form. */
const LINE_NUMBER = `(i + g % 7)`;
const PRICE = `(10 + g % 90)`;

/**
 * Four clerks, one per department (the tenant's own and three more), each limited to their department's data
 * (data scope Dept) and holding the purchase-order screen: the bills are theirs by (g / 3) % 4, which is what
 * a clerk's list (the data-scope variant) reads a quarter of. Made once; a kept database seeded before they
 * existed gets them, and its bills their owners, on its next run.
 */
const CLERKS = 4;
const owner = (g: string) => `((${g} / 3) % ${CLERKS} + 1)`;
async function clerks(database: Database, tenantId: number, adminId: number): Promise<Array<{ id: number; deptId: number; name: string }>> {
  const run = (text: string) => database.db.execute(sql.raw(text));
  const t = tenantId;
  const named = () => rows<{ id: string; dept_id: string; name: string }>(database, sql.raw(`select id, dept_id, name from admin where tenant_id = ${t} and name like 'bench_clerk_%' order by name`));
  let found = await named();
  if (!found.length) {
    const [own] = await rows<{ dept_id: string }>(database, sql.raw(`select dept_id from admin where id = ${adminId}`));
    await run(`insert into department (tenant_id, parent_id, name) select ${t}, ${own.dept_id}, 'Bench dept ' || k from generate_series(2, ${CLERKS}) k`);
    const depts = [own.dept_id, ...(await rows<{ id: string }>(database, sql.raw(`select id from department where tenant_id = ${t} and name like 'Bench dept %' order by name`))).map((r) => r.id)];
    const [role] = await rows<{ id: string }>(database, sql.raw(`insert into role (tenant_id, role_key, role_name, data_scope) values (${t}, 'bench_clerk', 'Bench clerk', 'Dept') returning id`));
    await run(`insert into role_menu (tenant_id, role_id, menu_id)
      with recursive up as (select id, parent_id from menu where tenant_id = ${t} and name = 'purchase_order'
                            union select m.id, m.parent_id from menu m join up on m.tenant_id = ${t} and m.id = up.parent_id)
      select ${t}, ${role.id}, id from up`);
    // The administrator's password hash: the clerks sign in with the bench's password.
    for (const [k, dept] of depts.entries()) {
      await run(`insert into admin (tenant_id, name, password_hash, real_name, dept_id, created_by)
                 select tenant_id, 'bench_clerk_${k + 1}', password_hash, 'Clerk ${k + 1}', ${dept}, id from admin where id = ${adminId}`);
    }
    await run(`insert into admin_role (tenant_id, admin_id, role_id) select ${t}, id, ${role.id} from admin where tenant_id = ${t} and name like 'bench_clerk_%'`);
    found = await named();
  }
  const list = found.map((r) => ({ id: Number(r.id), deptId: Number(r.dept_id), name: r.name }));
  // Bills of a database kept from before the clerks: their owners, as the seed now writes them (bill ids are the seed's g).
  const [unowned] = await rows<{ n: number }>(database, sql.raw(`select count(*)::int as n from (select 1 from bill where tenant_id = ${t} and owner_dept_id is null and id <= ${BILLS} limit 1) x`));
  if (unowned.n) {
    const started = Date.now();
    await run(`update bill set created_by = (${arr(list.map((c) => String(c.id)))})[${owner('id')}], owner_dept_id = (${arr(list.map((c) => String(c.deptId)))})[${owner('id')}]
               where tenant_id = ${t} and id <= ${BILLS}`);
    await run(`vacuum analyze bill`);
    console.log(`  the kept bills given their owners in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  return list;
}
const arr = (values: string[]) => `array[${values.join(',')}]::bigint[]`;

async function seed(database: Database, tenantId: number, adminId: number) {
  const run = (text: string) => database.db.execute(sql.raw(text));
  const t = tenantId;
  await run(`insert into unit (tenant_id, name) values (${t}, 'pcs')`);
  await run(`insert into warehouse (tenant_id, code, name) select ${t}, 'W' || g, 'Warehouse ' || g from generate_series(1, ${WAREHOUSES}) g`);
  await run(`insert into partner (tenant_id, kind, code, name) select ${t}, k, upper(left(k, 1)) || g, initcap(k) || ' ' || g from generate_series(1, ${PARTNERS}) g, unnest(array['supplier', 'customer']) k`);
  await run(`insert into material (tenant_id, code, name) select ${t}, 'M' || lpad(g::text, 6, '0'), 'Material ' || g from generate_series(1, ${MATERIALS}) g`);
  await run(`insert into material_unit (tenant_id, material_id, unit_id, is_main) select ${t}, m.id, u.id, true from material m, unit u where m.tenant_id = ${t} and u.tenant_id = ${t}`);
  // Ids of the records, by their seed number (1-based, in insertion order).
  const ids = async (table: string, where = '') => (await rows<{ ids: string[] }>(database, sql.raw(`select array_agg(id order by id) as ids from ${table} where tenant_id = ${t} ${where}`)))[0].ids;
  const [materials, suppliers, customers, warehouses] = [await ids('material'), await ids('partner', `and kind = 'supplier'`), await ids('partner', `and kind = 'customer'`), await ids('warehouse')];
  const unitId = (await rows<{ id: string }>(database, sql.raw(`select id from unit where tenant_id = ${t}`)))[0].id;
  const owners = await clerks(database, tenantId, adminId);
  // The counter trigger would upsert a bill_count row per inserted bill: off for the seed, counted once after.
  await run(`alter table bill disable trigger p8_bill_count_insert`);
  const CHUNK = 100_000;
  for (let from = 1; from <= BILLS; from += CHUNK) {
    const to = Math.min(BILLS, from + CHUNK - 1);
    const started = Date.now();
    await run(`
      insert into bill (tenant_id, id, bill_type, bill_code, bill_date, bill_status, supplier_id, customer_id, warehouse_id, handler_id,
                        number, price_total, tax_price_total, created_by, owner_dept_id, audit_by, audit_time)
      select ${t}, g, ${TYPE}, ${PREFIX} || to_char(${DATE}, 'YYYYMMDD') || lpad(((g / 7300) * 10 + g % 10 + 1)::text, 4, '0'), ${DATE}, s.status,
             case when g % 10 < 8 then (${arr(suppliers)})[(g / 40) % ${PARTNERS} + 1] end,
             case when g % 10 >= 8 then (${arr(customers)})[(g / 40) % ${PARTNERS} + 1] end,
             case when g % 10 >= 5 then (${arr(warehouses)})[g % ${WAREHOUSES} + 1] end,
             ${adminId},
             ${LINES * (LINES + 1) / 2} + ${LINES} * (g % 7), (${LINES * (LINES + 1) / 2} + ${LINES} * (g % 7)) * ${PRICE}, (${LINES * (LINES + 1) / 2} + ${LINES} * (g % 7)) * ${PRICE},
             (${arr(owners.map((c) => String(c.id)))})[${owner('g')}], (${arr(owners.map((c) => String(c.deptId)))})[${owner('g')}],
             case when s.status = 'Audit' then ${adminId} end, case when s.status = 'Audit' then now() end
      from generate_series(${from}, ${to}) g, lateral (select ${STATUS} as status) s`);
    await run(`
      insert into bill_line (tenant_id, bill_id, line_no, material_id, unit_id, number, base_number, unit_price, tax_unit_price, price_total, tax_price_total, warehouse_id)
      select ${t}, g, i, (${arr(materials)})[(g * ${LINES} + i) % ${MATERIALS} + 1], ${unitId}, ${LINE_NUMBER}, ${LINE_NUMBER}, ${PRICE}, ${PRICE},
             ${LINE_NUMBER} * ${PRICE}, ${LINE_NUMBER} * ${PRICE}, case when g % 10 >= 5 then (${arr(warehouses)})[g % ${WAREHOUSES} + 1] end
      from generate_series(${from}, ${to}) g, generate_series(1, ${LINES}) i`);
    console.log(`  bills ${from}–${to} with ${(to - from + 1) * LINES} lines in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  await run(`alter table bill enable trigger p8_bill_count_insert`);
  await run(`select setval(pg_get_serial_sequence('bill', 'id'), ${BILLS})`);
  await run(`insert into bill_count (tenant_id, bill_type, bill_status, shard, total) select tenant_id, bill_type, bill_status, 0, count(*) from bill where tenant_id = ${t} group by 1, 2, 3`);
  // What auditing the in-stocks would have posted: one entry per line, then balances and valuations summed.
  await run(`
    insert into stock_ledger (tenant_id, bill_id, bill_line_id, bill_type, bill_code, bill_date, material_id, warehouse_id, quantity, unit_cost, amount)
    select b.tenant_id, b.id, l.id, b.bill_type, b.bill_code, b.bill_date, l.material_id, l.warehouse_id, l.base_number, l.unit_price, l.price_total
    from bill b join bill_line l on l.tenant_id = b.tenant_id and l.bill_id = b.id
    where b.tenant_id = ${t} and b.bill_type = 'PurchaseInstock' and b.bill_status = 'Audit' order by b.id, l.line_no`);
  await run(`insert into stock_balance (tenant_id, material_id, warehouse_id, quantity) select tenant_id, material_id, warehouse_id, sum(quantity) from stock_ledger where tenant_id = ${t} group by 1, 2, 3`);
  await run(`insert into stock_valuation (tenant_id, material_id, warehouse_id, quantity, amount) select tenant_id, material_id, warehouse_id, sum(quantity), sum(amount) from stock_ledger where tenant_id = ${t} group by 1, 2, 3`);
}

/** The seeded tenant's records (also of a database kept from an earlier run). */
async function records(database: Database) {
  const [found] = await rows<{ tenant_id: string; id: string }>(database, sql`select tenant_id, id from admin where name = 'bench_bills'`);
  const t = Number(found.tenant_id);
  const ids = async (table: string, where = '') => (await rows<{ ids: string[] }>(database, sql.raw(`select array_agg(id order by id) as ids from ${table} where tenant_id = ${t} ${where}`)))[0].ids.map(Number);
  return { tenantId: t, adminId: Number(found.id), materials: await ids('material'), suppliers: await ids('partner', `and kind = 'supplier'`), warehouses: await ids('warehouse') };
}

/**
 * The list queries of the bill kit on the purchase orders: what one list screen load asks, as the
 * administrator (sees every bill: an unfiltered tab is read from the counters) and as a clerk whose data scope
 * is their department (a quarter of the bills, every answer counted).
 */
const SUPPLIER_INDEX = 7;
interface Scenario {
  label: string;
  query: string;
  path: '' | '/statistics' | '/tabs';
  /** Asked by the clerk (data scope Dept) instead of the administrator. */
  scoped?: boolean;
}
function scenarios(): Scenario[] {
  const filter = `billStatus=Audit&start=2026-05-01&end=2026-07-31&supplierId=SUPPLIER`;
  return [
    { label: 'tab', query: `current=1&pageSize=20&billStatus=Audit`, path: '' },
    { label: 'filter+sort', query: `current=1&pageSize=20&${filter}&priceTotalSort=desc`, path: '' },
    { label: 'statistics', query: filter, path: '/statistics' },
    { label: 'tabs', query: '', path: '/tabs' },
    { label: 'all', query: `current=1&pageSize=20`, path: '' },
    { label: 'scope tab', query: `current=1&pageSize=20&billStatus=Audit`, path: '', scoped: true },
    { label: 'scope filter+sort', query: `current=1&pageSize=20&${filter}&priceTotalSort=desc`, path: '', scoped: true },
    { label: 'scope statistics', query: filter, path: '/statistics', scoped: true },
    { label: 'scope tabs', query: '', path: '/tabs', scoped: true },
  ];
}

/**
 * The bare side: the same SQL as the engine's list, statistics and tabs, over a plain pool under RLS, sent
 * unnamed as a hand-written handler would, with the same strategy as the app. Where the app reads the counters
 * (`bill_count`: the administrator's unfiltered tab, page and tabs) the bare side reads them too; everywhere else
 * both count and sum once per version of the type's bills (`bill_version`) and remember the answer, as the
 * staff list's bare side does with `list_version`. `BENCH_BARE_COUNTS=1`: the bare side counts and sums on every
 * request instead (the baseline before the app remembered them).
 */
const BARE_COUNTS = process.env.BENCH_BARE_COUNTS === '1';
function bareServer(pool: pg.Pool, tenantId: number, supplierId: number, clerk: { id: number; deptId: number }): Promise<http.Server> {
  const filter = `b.bill_status = 'Audit' and b.supplier_id = ${supplierId} and b.bill_date >= '2026-05-01' and b.bill_date <= '2026-07-31'`;
  const scope = `(b.owner_dept_id = ${clerk.deptId} or b.created_by = ${clerk.id})`;
  const where: Record<string, string> = {
    tab: `b.bill_status = 'Audit'`,
    'filter+sort': filter,
    statistics: filter,
    tabs: 'true',
    all: 'true',
    'scope tab': `b.bill_status = 'Audit' and ${scope}`,
    'scope filter+sort': `${filter} and ${scope}`,
    'scope statistics': `${filter} and ${scope}`,
    'scope tabs': scope,
  };
  const order: Record<string, string> = { 'filter+sort': 'b.price_total desc, b.id desc', 'scope filter+sort': 'b.price_total desc, b.id desc' };
  /** The administrator's unfiltered lists: the counters' rows (of one status for a tab). */
  const counted: Record<string, string> = { tab: `and bill_status = 'Audit'`, all: '', tabs: '' };
  const columns = `b.id, b.bill_type, b.bill_code, b.bill_date, b.bill_status, b.supplier_id, b.customer_id, b.warehouse_id, b.target_warehouse_id, b.handler_id, b.dept_id,
    b.delivery_date, b.pay_date, b.receipt_date, b.refund_type, b.number::text, b.price_total::text, b.tax_price_total::text, b.remark, b.extra, b.progress, b.created_by,
    b.created_at, b.audit_time, b.reject_reason,
    (select p.name from partner p where p.tenant_id = b.tenant_id and p.id = b.supplier_id) as supplier_name,
    (select p.name from partner p where p.tenant_id = b.tenant_id and p.id = b.customer_id) as customer_name,
    (select w.name from warehouse w where w.tenant_id = b.tenant_id and w.id = b.warehouse_id) as warehouse_name,
    (select w.name from warehouse w where w.tenant_id = b.tenant_id and w.id = b.target_warehouse_id) as target_warehouse_name,
    (select coalesce(nullif(a.real_name, ''), a.name) from admin a where a.tenant_id = b.tenant_id and a.id = b.handler_id) as handler_name,
    (select coalesce(nullif(a.real_name, ''), a.name) from admin a where a.tenant_id = b.tenant_id and a.id = b.created_by) as created_by_name`;
  const base = `b.tenant_id = $1 and b.bill_type = 'PurchaseOrder'`;
  const counters = `from bill_count where tenant_id = $1 and bill_type = 'PurchaseOrder'`;
  /** Counts, sums and tabs by version of the type's bills and request (what the app's `cachedRows` keeps). */
  const remembered = new Map<string, unknown>();
  const server = http.createServer(async (req, res) => {
    const label = decodeURIComponent((req.url ?? '/').slice(1));
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.tenant_id', $1, true), set_config('role', 'p8_app', true)`, [String(tenantId)]);
      // A count, sums or tabs: read from the counters, or counted once per version of the type's bills.
      const counting = async <T>(text: string, answer: (rows: Array<Record<string, unknown>>) => T): Promise<T> => {
        if (label in counted || BARE_COUNTS) return answer((await client.query(text, [tenantId])).rows);
        const version = (await client.query(`select string_agg(version::text, ',' order by shard) as version from bill_version where tenant_id = $1 and bill_type = 'PurchaseOrder'`, [tenantId])).rows[0]?.version;
        const key = `${version}\u0000${label}`;
        if (version && remembered.has(key)) return remembered.get(key) as T;
        const found = answer((await client.query(text, [tenantId])).rows);
        if (version) remembered.set(key, found);
        return found;
      };
      let body: unknown;
      if (label.endsWith('statistics')) {
        body = await counting(
          `select coalesce(sum(b.number), 0)::text as number, coalesce(sum(b.price_total), 0)::text as price_total, coalesce(sum(b.tax_price_total), 0)::text as tax_price_total
             from bill b where ${base} and ${where[label]}`,
          (rows) => rows[0],
        );
      } else if (label.endsWith('tabs')) {
        const text = label in counted ? `select bill_status, sum(total)::int as total ${counters} group by 1` : `select b.bill_status, count(*)::int as total from bill b where ${base} and ${where[label]} group by 1`;
        body = await counting(text, (rows) => rows);
      } else {
        const page = await client.query(`select ${columns} from bill b where ${base} and ${where[label]} order by ${order[label] ?? 'b.bill_date desc, b.id desc'} limit 20`, [tenantId]);
        const text = label in counted ? `select coalesce(sum(total), 0)::int as total ${counters} ${counted[label]}` : `select count(*)::int as total from bill b where ${base} and ${where[label]}`;
        const total = await counting(text, (rows) => rows[0].total);
        body = { data: page.rows, pagination: { current: 1, pageSize: 20, total } };
      }
      await client.query('commit');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 0, data: body }));
    } catch (error) {
      await client.query('rollback');
      res.writeHead(500).end(String(error));
    } finally {
      client.release();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The bench's own sign-in: the token a clerk's requests carry. */
async function signIn(url: string, name: string): Promise<string> {
  const login = await fetch(`${url}/api/auth/admin/name`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password: BENCH_PASSWORD }) });
  const answer = (await login.json()) as { status: number; data: { token: string } };
  if (answer.status !== 0) throw new Error(`${name} cannot sign in: ${JSON.stringify(answer)}`);
  return answer.data.token;
}

/** Whether the app's answer and the bare side's say the same (ids and total of a page, sums, tabs): true, or what differs. */
function sameAnswer(s: Scenario, mine: { data: unknown; pagination?: { total: number } }, theirs: unknown): true | string {
  if (s.path === '/statistics') {
    const bare = theirs as Record<string, string>;
    const app = mine.data as Record<string, number>;
    const pairs = [[app.number, bare.number], [app.priceTotal, bare.price_total], [app.taxPriceTotal, bare.tax_price_total]];
    return pairs.every(([a, b]) => a === Number(b)) || `sums ${JSON.stringify(app)} vs ${JSON.stringify(bare)}`;
  }
  if (s.path === '/tabs') {
    const app = mine.data as Record<string, number>;
    const bare = theirs as Array<{ bill_status: string; total: number }>;
    const all = bare.reduce((t, r) => t + r.total, 0);
    return (app.all === all && bare.every((r) => app[r.bill_status] === r.total)) || `tabs ${JSON.stringify(app)} vs ${JSON.stringify(bare)}`;
  }
  const bare = theirs as { data: Array<{ id: string }>; pagination: { total: number } };
  const ids = (list: Array<{ id: string | number }>) => list.map((r) => Number(r.id)).join(',');
  const app = mine.data as Array<{ id: number }>;
  if (mine.pagination?.total !== bare.pagination.total) return `total ${mine.pagination?.total} vs ${bare.pagination.total}`;
  return ids(app) === ids(bare.data) || `ids ${ids(app)} vs ${ids(bare.data)}`;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function main() {
  // BENCH_REUSE=<database>: measure a database kept (BENCH_KEEP=1) from an earlier run, without seeding.
  const reuse = process.env.BENCH_REUSE;
  const scratch = await scratchDatabase({ prefix: 'p8_bench_bills', poolSize: 10, keep: process.env.BENCH_KEEP === '1', reuse });
  const { database } = scratch;
  const pool = scratch.bare!;
  const out: string[] = [];
  const report = (line: string) => {
    console.log(line);
    out.push(line);
  };
  try {
    const adminName = 'bench_bills';
    if (!reuse) {
      const created = await database.withSystem((tx) => createTenant(tx, { tenantName: 'Bench bills', adminName, password: BENCH_PASSWORD }));
      let started = Date.now();
      await seed(database, created.tenantId, created.adminId);
      const seedSeconds = (Date.now() - started) / 1000;
      started = Date.now();
      await database.db.execute(sql`vacuum analyze`);
      report(`seeded ${BILLS} bills with ${BILLS * LINES} lines in ${seedSeconds.toFixed(0)} s (+ vacuum analyze ${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    const seeded = await records(database);
    const tenant = { tenantId: seeded.tenantId };

    const { app, url: appUrl, token } = await listeningApp(scratch, { name: adminName, password: BENCH_PASSWORD });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${appUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      const answer = (await response.json()) as { status: number; data: unknown; message?: string };
      if (answer.status !== 0) throw new Error(`${method} ${path}: ${JSON.stringify(answer).slice(0, 300)}`);
      return answer.data as Record<string, unknown>;
    };

    // 1. The list screen's queries, app against bare.
    const supplierId = seeded.suppliers[SUPPLIER_INDEX];
    const clerk = (await clerks(database, seeded.tenantId, seeded.adminId))[0];
    const clerkToken = await signIn(appUrl, clerk.name);
    const bare = await bareServer(pool, tenant.tenantId, supplierId, clerk);
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
    const table: string[] = [];
    const rounds: string[] = [];
    if (PARTS.has('list')) report(`\nlist: ${options.rounds} alternating rounds of ${options.duration} s per side, ${options.connections} connections; load average at the start ${loadavg().map((l) => l.toFixed(1)).join(' ')} (${availableParallelism()} cores)`);
    // BENCH_ONLY=tabs,statistics: only those rows of the list part.
    const only = process.env.BENCH_ONLY?.split(',');
    for (const s of PARTS.has('list') ? scenarios().filter((s) => !only || only.includes(s.label)) : []) {
      const query = s.query.replace('SUPPLIER', String(supplierId));
      const appPath = `/api/admin/purchase/order${s.path}${query ? `?${query}` : ''}`;
      const tokenOf = s.scoped ? clerkToken : token;
      // Both sides must answer the same (the same page of the same total, the same sums, the same tabs), or the comparison means nothing.
      const mine = (await (await fetch(`${appUrl}${appPath}`, { headers: { authorization: `Bearer ${tokenOf}` } })).json()) as { status: number; data: unknown; pagination?: { total: number } };
      const theirs = ((await (await fetch(`${bareUrl}/${encodeURIComponent(s.label)}`)).json()) as { data: unknown }).data;
      if (mine.status !== 0) throw new Error(`${s.label}: ${JSON.stringify(mine).slice(0, 300)}`);
      const same = sameAnswer(s, mine, theirs);
      if (same !== true) throw new Error(`${s.label}: the app and the bare query disagree (${same})`);
      const total = mine.pagination?.total;
      const { app: a, bare: b, roundRatio, rounds: each } = await measurePair(
        { ...options, serverCpu: scratch.serverCpu },
        s.label,
        { url: appUrl, method: 'GET', path: appPath, tokens: [tokenOf] },
        { url: bareUrl, method: 'GET', path: `/${encodeURIComponent(s.label)}` },
      );
      const ms = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(2));
      table.push(
        `| ${s.label} (\`${s.path}${query ? `?${query}` : ''}\`${total !== undefined ? `, total ${total}` : ''}) | ${a.rps.toFixed(0)} | ${a.p50.toFixed(1)} | ${a.p95.toFixed(1)} | ${b.rps.toFixed(0)} | ${b.p50.toFixed(1)} | ${b.p95.toFixed(1)} | ${(a.rps / b.rps).toFixed(2)} | **${roundRatio.toFixed(2)}** | ${ms(a.cpuMsPerRequest)} / ${ms(a.dbCpuMsPerRequest)} | ${ms(b.cpuMsPerRequest)} / ${ms(b.dbCpuMsPerRequest)} |`,
      );
      rounds.push(`${s.label} ${each.map((r) => `${r.app.toFixed(0)}/${r.bare.toFixed(0)}`).join(', ')}`);
    }
    if (table.length) {
      report(`load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
      report('\n| query | app req/s | app p50 ms | app p95 ms | bare req/s | bare p50 ms | bare p95 ms | req/s app / bare (medians) | app / bare, median of rounds | CPU ms/req app: server / database | bare: server / database |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
      for (const row of table) report(row);
      report(`\nRounds (req/s, app / bare): ${rounds.join('; ')}.`);
    }

    // 2. Big bills: audit of 600 lines; save and audit of 2,750 lines (3 runs each, the median reported).
    const payload = (lines: number, offset: number) => ({
      billDate: '2026-11-24',
      supplierId: seeded.suppliers[0],
      warehouseId: seeded.warehouses[0],
      lines: Array.from({ length: lines }, (_, i) => ({ materialId: seeded.materials[(offset + i) % seeded.materials.length], number: 1 + (i % 9), unitPrice: 3.5 })),
    });
    /** Wall ms, the result, and this process's CPU ms meanwhile (the app runs here; PostgreSQL's CPU is not in it). */
    const timed = async <T>(work: () => Promise<T>): Promise<[number, T, number]> => {
      const at = performance.now();
      const cpu = process.cpuUsage();
      const result = await work();
      const spent = process.cpuUsage(cpu);
      return [performance.now() - at, result, (spent.user + spent.system) / 1000];
    };
    if (PARTS.has('big')) report('\n| bill | save ms (runs) | save CPU ms | audit ms (runs) | audit CPU ms |\n|---|---|---:|---|---:|');
    for (const lines of PARTS.has('big') ? [600, 2750] : []) {
      const saves: number[] = [];
      const audits: number[] = [];
      const cpu: { save: number[]; audit: number[] } = { save: [], audit: [] };
      for (let run = 0; run < 3; run++) {
        const [save, created, saveCpu] = await timed(() => call('POST', '/api/admin/purchase/instock', payload(lines, run * 97)));
        await call('POST', '/api/admin/purchase/instock/submit', { id: created.id });
        const [audit, , auditCpu] = await timed(() => call('POST', '/api/admin/purchase/instock/audit', { id: created.id }));
        saves.push(save);
        audits.push(audit);
        cpu.save.push(saveCpu);
        cpu.audit.push(auditCpu);
      }
      const show = (v: number[]) => `**${percentile(v, 50).toFixed(0)}** (${v.map((x) => x.toFixed(0)).join(', ')})`;
      report(`| in-stock, ${lines} lines | ${show(saves)} | ${percentile(cpu.save, 50).toFixed(0)} | ${show(audits)} | ${percentile(cpu.audit, 50).toFixed(0)} |`);
    }

    // 3. Concurrent saves: 200 saves of 5 lines, 1 then 50 in flight; one type (one code counter) and four types.
    const TYPES = ['purchase/order', 'purchase/instock', 'purchase/requisition', 'stock/otherInstock'];
    if (PARTS.has('concurrent')) report('\n| saves (5 lines) | in flight | saves/s | p50 ms | p95 ms |\n|---|---:|---:|---:|---:|');
    for (const [label, routes] of PARTS.has('concurrent')
      ? ([
          ['one type (purchase order)', ['purchase/order']],
          ['four types', TYPES],
        ] as const)
      : []) {
      for (const inFlight of [1, 50]) {
        const total = 200;
        const latencies: number[] = [];
        let next = 0;
        const at = performance.now();
        await Promise.all(
          Array.from({ length: inFlight }, async () => {
            while (next < total) {
              const i = next++;
              const route = routes[i % routes.length];
              const [ms] = await timed(() => call('POST', `/api/admin/${route}`, payload(5, i * 5)));
              latencies.push(ms);
            }
          }),
        );
        const seconds = (performance.now() - at) / 1000;
        report(`| ${label} | ${inFlight} | ${(total / seconds).toFixed(1)} | ${percentile(latencies, 50).toFixed(0)} | ${percentile(latencies, 95).toFixed(0)} |`);
      }
    }

    const differences = await database.withTenant(tenant.tenantId, (tx) => verifyStock(tx, tenant.tenantId));
    report(`\nstock verify after the run: ${differences.length ? `${differences.length} DIFFERENCES` : 'empty (balances and valuations agree with the ledger)'}`);
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
