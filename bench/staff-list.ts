/**
 * The staff list at volume: 100,000 staff in one tenant (plus a second tenant of the same size, so the
 * tenant filter matters), paged, sorted and filtered through the real endpoint, side by side with the same
 * queries over a bare `pg` pool (page + count + the page's roles, in one transaction under RLS).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:staff -w bench
 *   env: BENCH_STAFF (100000), BENCH_DURATION (10 s), BENCH_ROUNDS (3), BENCH_WARMUP (2 s), BENCH_CONNECTIONS (10)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../server/src/core/passwords.ts';
import { createTenant } from '../server/src/modules/tenant/service.ts';
import { measurePair, type MeasureOptions } from './measure.ts';
import { listeningApp, scratchDatabase } from './scratch-database.ts';

const num = (env: string, fallback: number) => Number(process.env[env] ?? fallback);
const STAFF = num('BENCH_STAFF', 100_000);
const options: MeasureOptions = {
  warmup: num('BENCH_WARMUP', 2),
  duration: num('BENCH_DURATION', 10),
  rounds: num('BENCH_ROUNDS', 3),
  connections: num('BENCH_CONNECTIONS', 10),
};

/**
 * The three list queries the issue names: page, sort, filter. The bare side does the same database work
 * as the app's list helper (core/list-query.ts with `ListSpec.table`): a deep page reads its ids from the
 * `(tenant_id, real_name, id)` index first (from its first row's sort values once they are known), the contains-filter goes through `p8_contains` (the trigram
 * index; RLS keeps ILIKE itself off it), and the total is counted once per `list_version` of the table.
 */
const SCENARIOS = [
  { label: 'page', query: 'current=1&pageSize=20', order: 'a.id desc', contains: '' },
  { label: 'sort', query: 'current=2000&pageSize=20&realNameSort=asc', order: 'a.real_name asc, a.id asc', contains: '' },
  { label: 'filter', query: 'current=1&pageSize=20&realName=4242', order: 'a.id desc', contains: '%4242%' },
];

const COLUMNS = `a.id, a.name, a.real_name, a.nick_name, a.phone, a.email, a.sex, a.avatar, a.dept_id, d.name as dept_name,
                 a.enabled, a.is_lock, a.created_at, a.last_login_at
            from admin a left join department d on d.tenant_id = a.tenant_id and d.id = a.dept_id`;

function bareServer(pool: pg.Pool, tenantId: number): Promise<http.Server> {
  const totals = new Map<string, number>();
  const seekFrom = new Map<string, { realName: string; id: string }>();
  const server = http.createServer(async (req, res) => {
    const scenario = SCENARIOS.find((s) => req.url === `/${s.label}`)!;
    const current = Number(new URLSearchParams(scenario.query).get('current'));
    const offset = (current - 1) * 20;
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.tenant_id', $1, true), set_config('role', 'p8_app', true)`, [String(tenantId)]);
      // As the list helper: a selective contains-filter becomes the ids the trigram search found.
      let filter = '';
      if (scenario.contains) {
        const found = await client.query(`select p8_contains('admin', 'real_name', $1, 1001) as id`, [scenario.contains]);
        filter = found.rows.length <= 1000 ? `and a.id in (${found.rows.map((r) => Number(r.id)).join(',') || 'null'})` : `and a.real_name ilike '${scenario.contains}'`;
      }
      let page;
      if (offset > 0) {
        // As the list helper: the page's first row, once known for this table version, is sought by value.
        const version = (await client.query(`select version from list_version where tenant_id = $1 and table_name = 'admin'`, [tenantId])).rows[0]?.version;
        const known = seekFrom.get(`${version}:${scenario.label}:${offset}`);
        const keys = known
          ? await client.query(`select a.id from admin a where a.tenant_id = $1 and (a.real_name, a.id) >= ($2, $3) order by ${scenario.order} limit 20`, [tenantId, known.realName, known.id])
          : await client.query(`select a.id, a.real_name::text, a.id::text as key from admin a where a.tenant_id = $1 ${filter} order by ${scenario.order} limit 20 offset $2`, [tenantId, offset]);
        if (!known && keys.rows.length) seekFrom.set(`${version}:${scenario.label}:${offset}`, { realName: keys.rows[0].real_name, id: keys.rows[0].key });
        const ids = keys.rows.map((r) => Number(r.id));
        page = await client.query(`select ${COLUMNS} where a.tenant_id = $1 and a.id = any($2::bigint[])`, [tenantId, ids]);
        page.rows.sort((x, y) => ids.indexOf(Number(x.id)) - ids.indexOf(Number(y.id)));
      } else {
        page = await client.query(`select ${COLUMNS} where a.tenant_id = $1 ${filter} order by ${scenario.order} limit 20`, [tenantId]);
      }
      const version = await client.query(`select version from list_version where tenant_id = $1 and table_name = 'admin'`, [tenantId]);
      const key = `${version.rows[0]?.version}:${filter}`;
      let total = totals.get(key);
      if (total === undefined) {
        total = (await client.query(`select count(*)::int as total from admin a where a.tenant_id = $1 ${filter}`, [tenantId])).rows[0].total as number;
        totals.set(key, total);
      }
      const roles = await client.query(
        `select ar.admin_id, r.id, r.role_key, r.role_name from admin_role ar join role r on r.tenant_id = ar.tenant_id and r.id = ar.role_id
          where ar.tenant_id = $1 and ar.admin_id = any($2::bigint[])`,
        [tenantId, page.rows.map((r) => r.id)],
      );
      await client.query('commit');
      const body = JSON.stringify({ status: 0, data: page.rows, roles: roles.rows, pagination: { current, pageSize: 20, total } });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    } catch (error) {
      await client.query('rollback');
      res.writeHead(500).end(String(error));
    } finally {
      client.release();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main() {
  const scratch = await scratchDatabase({ prefix: 'p8_bench_staff', poolSize: 10 });
  const { database } = scratch;
  const pool = scratch.bare!;
  try {
    const started = Date.now();
    const hash = await hashPassword('Bench123');
    const tenants = [];
    for (const [i, name] of ['bench_staff_a', 'bench_staff_b'].entries()) {
      const t = await database.withSystem((tx) => createTenant(tx, { tenantName: `Bench ${i}`, adminName: name, password: 'Bench123' }));
      await database.db.execute(sql`
        insert into admin (tenant_id, name, password_hash, real_name, nick_name, dept_id, created_by)
        select ${t.tenantId}, ${name} || '_' || g, ${hash}, 'Staff ' || g, 'S' || g, ${t.deptId}, ${t.adminId}
          from generate_series(1, ${STAFF}) g`);
      await database.db.execute(sql`
        insert into admin_role (tenant_id, admin_id, role_id)
        select tenant_id, id, ${t.roleId} from admin where tenant_id = ${t.tenantId} and id <> ${t.adminId}`);
      tenants.push({ ...t, name });
    }
    await database.db.execute(sql`vacuum analyze`);
    console.log(`seeded 2 tenants × ${STAFF} staff in ${((Date.now() - started) / 1000).toFixed(1)} s; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

    const { app, url: appUrl, token } = await listeningApp(scratch, { name: tenants[0].name, password: 'Bench123' });
    const bare = await bareServer(pool, tenants[0].tenantId);
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

    const rows: string[] = [];
    for (const scenario of SCENARIOS) {
      type Answer = { data: Array<{ id: number | string }>; pagination: { total: number } };
      const check = (await (await fetch(`${appUrl}/api/admin/security/admin?${scenario.query}`, { headers: { authorization: `Bearer ${token}` } })).json()) as Answer;
      const bareCheck = (await (await fetch(`${bareUrl}/${scenario.label}`)).json()) as Answer;
      // Both sides must answer the same page, or the comparison means nothing.
      const ids = (answer: Answer) => answer.data.map((r) => Number(r.id)).join(',');
      if (check.pagination.total !== bareCheck.pagination.total || ids(check) !== ids(bareCheck)) {
        throw new Error(`${scenario.label}: the app and the bare query disagree (${check.pagination.total} vs ${bareCheck.pagination.total} rows)`);
      }
      const { app: a, bare: b, roundRatio } = await measurePair(
        { ...options, serverCpu: scratch.serverCpu },
        scenario.label,
        { url: appUrl, method: 'GET', path: `/api/admin/security/admin?${scenario.query}`, tokens: [token] },
        { url: bareUrl, method: 'GET', path: `/${scenario.label}` },
      );
      const ms = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(2));
      rows.push(
        `| ${scenario.label} (\`${scenario.query}\`, total ${check.pagination.total}) | ${a.rps.toFixed(0)} | ${a.p95.toFixed(1)} | ${b.rps.toFixed(0)} | ${b.p95.toFixed(1)} | ${(a.rps / b.rps).toFixed(2)} | ${roundRatio.toFixed(2)} | ${ms(a.cpuMsPerRequest)} / ${ms(a.dbCpuMsPerRequest)} / ${ms(a.loaderCpuMsPerRequest)} | ${ms(b.cpuMsPerRequest)} / ${ms(b.dbCpuMsPerRequest)} / ${ms(b.loaderCpuMsPerRequest)} |`,
      );
    }
    console.log(`\nload average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (${availableParallelism()} cores)`);
    console.log('\n| query | app req/s | app p95 ms | bare req/s | bare p95 ms | app / bare | app / bare, median of rounds | app CPU ms/req: server / database / load | bare CPU ms/req: server / database / load |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|');
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
