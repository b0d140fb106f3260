/**
 * Where a bill list request's CPU goes, on a database kept by bills.ts (BENCH_KEEP=1): starts the app in-process
 * and loads `GET /api/admin/purchase/order<BENCH_PATH>` from a child process (load.ts) for BENCH_DURATION seconds
 * under the profiler (`node:inspector`), and writes the profile to BENCH_PROFILE:
 *
 *   BENCH_REUSE=p8_bench_bills_… BENCH_PATH='/statistics?billStatus=Audit' BENCH_PROFILE=/tmp/bills.cpuprofile \
 *     DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/profile-bills.ts
 *
 * BENCH_USER=bench_clerk_1 asks as the clerk limited to their department.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { BENCH_PASSWORD } from './material-fixture.ts';
import { measurePair } from './measure.ts';
import { listeningApp, scratchDatabase } from './scratch-database.ts';

const PATH = process.env.BENCH_PATH ?? '?current=1&pageSize=20&billStatus=Audit';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);

async function main() {
  const reuse = process.env.BENCH_REUSE;
  if (!reuse) throw new Error('BENCH_REUSE=<a database kept by bills.ts>');
  const scratch = await scratchDatabase({ prefix: 'p8_bench_bills', poolSize: 10, keep: true, reuse });
  try {
    const { app, url, token } = await listeningApp(scratch, { name: process.env.BENCH_USER ?? 'bench_bills', password: BENCH_PASSWORD });
    const target = { url, method: 'GET' as const, path: `/api/admin/purchase/order${PATH}`, tokens: [token] };
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
