/**
 * Where the staff list's CPU goes: seeds one tenant with BENCH_STAFF staff (default 20,000) in a fresh
 * database, starts the app in-process and loads `GET /api/admin/security/admin?<BENCH_QUERY>` from a child
 * process (load.ts) for BENCH_DURATION seconds. Run under the profiler to see the app's share:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-staff.ts
 *
 * or, to profile only the loaded part (not the seeding), BENCH_PROFILE=<file.cpuprofile> without --cpu-prof:
 * the profiler is started through `node:inspector` for the load (warm-up included) and its profile written
 * there. It prints the app's CPU per request — its own and the database's (as staff-list.ts does) — and drops
 * the database.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../server/src/core/passwords.ts';
import { createTenant } from '../server/src/modules/tenant/service.ts';
import { measurePair } from './measure.ts';
import { listeningApp, scratchDatabase } from './scratch-database.ts';

const STAFF = Number(process.env.BENCH_STAFF ?? 20_000);
const QUERY = process.env.BENCH_QUERY ?? 'current=1&pageSize=20';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);

async function main() {
  const scratch = await scratchDatabase({ prefix: 'p8_bench_prof', poolSize: 10 });
  const { database } = scratch;
  try {
    const hash = await hashPassword('Bench123');
    const t = await database.withSystem((tx) => createTenant(tx, { tenantName: 'Bench', adminName: 'bench_prof', password: 'Bench123' }));
    await database.db.execute(sql`
      insert into admin (tenant_id, name, password_hash, real_name, nick_name, dept_id, created_by)
      select ${t.tenantId}, 'bench_prof_' || g, ${hash}, 'Staff ' || g, 'S' || g, ${t.deptId}, ${t.adminId} from generate_series(1, ${STAFF}) g`);
    await database.db.execute(sql`insert into admin_role (tenant_id, admin_id, role_id) select tenant_id, id, ${t.roleId} from admin where tenant_id = ${t.tenantId} and id <> ${t.adminId}`);
    await database.db.execute(sql`vacuum analyze`);
    const { app, url: appUrl, token } = await listeningApp(scratch, { name: 'bench_prof', password: 'Bench123' });
    const target = { url: appUrl, method: 'GET' as const, path: `/api/admin/security/admin?${QUERY}`, tokens: [token] };
    const profile = process.env.BENCH_PROFILE;
    const session = profile ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const { app: a } = await measurePair({ warmup: 2, duration: DURATION, rounds: 1, connections: 10, serverCpu: scratch.serverCpu }, 'profile', target, target);
    if (session && profile) {
      writeFileSync(profile, JSON.stringify((await session.post('Profiler.stop')).profile));
      session.disconnect();
      console.log(`profile written to ${profile}`);
    }
    const db = a.dbCpuMsPerRequest === undefined ? '' : `, database ${a.dbCpuMsPerRequest.toFixed(2)}`;
    console.log(`app: ${a.rps.toFixed(0)} req/s, p95 ${a.p95.toFixed(1)} ms, CPU ms/request: server ${a.cpuMsPerRequest.toFixed(2)}${db}`);
    await app.close();
  } finally {
    await scratch.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
