/**
 * Side-by-side measurement shared by the benchmarks: autocannon runs in a child process (load.ts) against
 * our endpoint and a bare baseline in alternating rounds, and the median round of each side is reported.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { LoadResult, LoadSpec } from './load.ts';

const HERE = import.meta.dirname;

export interface MeasureOptions {
  warmup: number;
  duration: number;
  rounds: number;
  connections: number;
  /**
   * CPU (ms) the database's server processes have spent so far, per process (`ScratchDatabase.serverCpu`):
   * with it, each side's database CPU per request is reported too.
   */
  serverCpu?: () => Promise<Map<number, number> | undefined>;
}


function load(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'load.ts')], { cwd: HERE, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load generator exited with ${code}`))));
    child.stdin.end(JSON.stringify(spec));
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export type Target = Omit<LoadSpec, 'durationSeconds' | 'connections'>;

/** A side's result with the CPU this process spent per request while serving it (the server under test runs here). */
export interface MeasuredResult extends LoadResult {
  cpuMsPerRequest: number;
  /** The database server's CPU per request (with `MeasureOptions.serverCpu`). */
  dbCpuMsPerRequest?: number;
  /** The load generator's CPU per request (it shares the machine's cores). */
  loaderCpuMsPerRequest?: number;
}

/** CPU spent between two `serverCpu` readings: processes that ended in between are lost, new ones counted whole. */
function cpuBetween(before: Map<number, number> | undefined, after: Map<number, number> | undefined): number | undefined {
  if (!before || !after) return undefined;
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

/**
 * Measures the app and the bare baseline in alternating rounds (A B, B A, A B…) so that a change in
 * the machine's load during the run hits both sides alike; reports the median round of each side, with
 * the CPU time this process spent per request (less sensitive than req/s to other work on the machine;
 * the database's own CPU is not in it).
 */
export async function measurePair(
  opts: MeasureOptions,
  label: string,
  app: Target,
  bare: Target,
): Promise<{
  app: MeasuredResult;
  bare: MeasuredResult;
  /** The median of the rounds' app / bare req/s. */
  roundRatio: number;
  /** Each round's req/s of both sides, in order. */
  rounds: Array<{ app: number; bare: number }>;
}> {
  const rounds: Record<'app' | 'bare', MeasuredResult[]> = { app: [], bare: [] };
  for (const side of ['app', 'bare'] as const) await load({ ...(side === 'app' ? app : bare), durationSeconds: opts.warmup, connections: opts.connections });
  for (let round = 0; round < opts.rounds; round++) {
    const order = round % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
    for (const side of order) {
      const server = await opts.serverCpu?.();
      const cpu = process.cpuUsage();
      const loaded = await load({ ...(side === 'app' ? app : bare), durationSeconds: opts.duration, connections: opts.connections });
      const spent = process.cpuUsage(cpu);
      const db = cpuBetween(server, await opts.serverCpu?.());
      const requests = Math.max(1, loaded.requests);
      const result = {
        ...loaded,
        cpuMsPerRequest: (spent.user + spent.system) / 1000 / requests,
        dbCpuMsPerRequest: db === undefined ? undefined : db / requests,
        loaderCpuMsPerRequest: loaded.cpuMs === undefined ? undefined : loaded.cpuMs / requests,
      };
      if (result.non2xx || result.errors) console.log(`  !! ${label} ${side}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      rounds[side].push(result);
    }
    console.log(`  ${label.padEnd(6)} round ${round + 1}/${opts.rounds}: app ${rounds.app[round].rps.toFixed(0)} req/s, bare ${rounds.bare[round].rps.toFixed(0)} req/s`);
  }
  const summarize = (results: MeasuredResult[]): MeasuredResult => ({
    requests: results.reduce((n, r) => n + r.requests, 0),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
    seconds: results.reduce((n, r) => n + r.seconds, 0),
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p95: median(results.map((r) => r.p95)),
    p99: median(results.map((r) => r.p99)),
    mean: median(results.map((r) => r.mean)),
    cpuMsPerRequest: median(results.map((r) => r.cpuMsPerRequest)),
    dbCpuMsPerRequest: results.every((r) => r.dbCpuMsPerRequest !== undefined) ? median(results.map((r) => r.dbCpuMsPerRequest!)) : undefined,
    loaderCpuMsPerRequest: results.every((r) => r.loaderCpuMsPerRequest !== undefined) ? median(results.map((r) => r.loaderCpuMsPerRequest!)) : undefined,
  });
  // Each round's app / bare pair ran back to back, so their ratio shares that moment's load.
  const roundRatio = median(rounds.app.map((a, i) => a.rps / Math.max(1e-9, rounds.bare[i].rps)));
  return { app: summarize(rounds.app), bare: summarize(rounds.bare), roundRatio, rounds: rounds.app.map((a, i) => ({ app: a.rps, bare: rounds.bare[i].rps })) };
}

