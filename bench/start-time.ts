/**
 * How long `npm start` takes to serve on the embedded database: from spawning `node scripts/start.mjs`
 * to the first answer of `GET /api/base/system/config`, on a fresh DATA_DIR (first start: database
 * created, demo tenants seeded) and on a restart of the same DATA_DIR. Each is run several times and the
 * median is what to quote. The web build is made before measuring (a stale build would be rebuilt by the
 * first start and counted).
 *
 * Beside the wall time it reports the server's own account of its start (its "serving … after start"
 * log line): CPU seconds, and the wall time spent loading modules, opening the database (migrated image
 * or initdb, migrations, menu sync, demo seed, analyze) and building the app. On a shared machine the CPU
 * seconds are the steadier figure.
 *
 *   npx tsx bench/start-time.ts            # 3 fresh starts, each followed by 3 restarts of its directory
 *   BENCH_RUNS=5 npx tsx bench/start-time.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { buildWebIfNeeded, freePort, ROOT } from '../e2e/harness.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

interface Start {
  wall: number;
  cpu: number;
  modules: number;
  database: number;
  app: number;
}

async function timeStart(dataDir: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_URL: '', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let wall: number;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/base/system/config`);
      if (res.ok) {
        wall = (performance.now() - started) / 1000;
        break;
      }
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000) throw new Error(`no answer within 120 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill('SIGTERM');
  await exited;
  const line = /\(CPU ([\d.]+) s\): modules ([\d.]+) s, database ([\d.]+) s, app ([\d.]+) s/.exec(output);
  if (!line) throw new Error(`the server did not report its start:\n${output}`);
  const [cpu, modules, database, app] = line.slice(1).map(Number) as [number, number, number, number];
  return { wall, cpu, modules, database, app };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function row(label: string, starts: Start[]): string {
  const m = (key: keyof Start) => median(starts.map((s) => s[key])).toFixed(2);
  return `| ${label} | ${starts.map((s) => s.wall.toFixed(2)).join(', ')} | **${m('wall')}** | ${m('cpu')} | ${m('modules')} | ${m('database')} | ${m('app')} |`;
}

buildWebIfNeeded();
const fresh: Start[] = [];
const restart: Start[] = [];
const loads: number[] = [loadavg()[0]!];
for (let run = 0; run < RUNS; run++) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'p8-bench-start-'));
  try {
    fresh.push(await timeStart(dataDir));
    for (let again = 0; again < RUNS; again++) restart.push(await timeStart(dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  loads.push(loadavg()[0]!);
}
console.log('| start | wall (s), each run | median wall (s) | server CPU (s) | modules (s) | database (s) | app (s) |');
console.log('|---|---|---:|---:|---:|---:|---:|');
console.log(row('fresh DATA_DIR', fresh));
console.log(row('restart', restart));
console.log(`\nload average (1 min) during the runs: ${loads.map((l) => l.toFixed(1)).join(' → ')} on ${cpus().length} cores`);
