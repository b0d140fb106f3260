/**
 * A 100,000-row material import while another tenant keeps working (issue 8): the server runs as its own
 * process, as in production, and the benchmark measures from outside
 *   - the import's wall time (upload, reading, checks, writes);
 *   - the latency of tenant B's material list requests during the import (goal: p95 < 1 s), next to the
 *     same requests on the idle server before it;
 *   - the server process's peak resident memory (goal: < 512 MB): VmHWM of /proc/<pid>/status, the
 *     kernel's own high-water mark of the process's RSS since it started, plus RSS samples every 100 ms.
 *
 *   npx tsx bench/import-under-load.ts                                     (embedded PGlite in a temp dir)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/import-under-load.ts
 *   npx tsx bench/import-under-load.ts --rows 20000 --clients 2
 *
 * The file is built from the product's own template (GET /api/base/template/material.xlsx): its header
 * row is kept as served and each column filled by its header. Both tenants are seeded before the server
 * starts (units, brands, categories; B also gets materials, so its list has pages to read). On PostgreSQL
 * a fresh database is created next to DATABASE_URL's and dropped at the end. Results go to bench/results/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { buildServer, serverBuildIsStale, SERVER_BUNDLE } from '../scripts/build-server.mjs';
import { migrateDatabase, openDatabase, type Database } from '../server/src/db/connection.ts';
import { openMigratedPglite } from '../server/src/db/image.ts';
import { material, materialUnit } from '../server/src/db/schema/index.ts';
import { freshPostgresDatabase } from './scratch-database.ts';
import { BENCH_PASSWORD, materialRow, seedMaterialTenant, TAG_ZH, type MaterialFixture } from './material-fixture.ts';

const HERE = import.meta.dirname;
const ROOT = path.resolve(HERE, '..');
const { values: flags } = parseArgs({ options: { rows: { type: 'string' }, clients: { type: 'string' }, 'b-materials': { type: 'string' } } });
const ROWS = Number(flags.rows ?? process.env.BENCH_ROWS ?? 100_000);
/** Concurrent list requests of tenant B (each waits for its answer before the next). */
const CLIENTS = Number(flags.clients ?? process.env.BENCH_CLIENTS ?? 2);
const B_MATERIALS = Number(flags['b-materials'] ?? 5_000);
const GOAL_P95_MS = 1000;
const GOAL_PEAK_MB = 512;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

interface Target {
  kind: 'pglite' | 'postgresql';
  env: Record<string, string>;
  open(): Promise<Database>;
  cleanup(): Promise<void>;
}

async function target(dataDir: string): Promise<Target> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    return { kind: 'pglite', env: {}, open: () => openMigratedPglite(path.join(dataDir, 'pglite')), cleanup: async () => {} };
  }
  const fresh = await freshPostgresDatabase(base, 'p8_bench_load');
  return {
    kind: 'postgresql',
    env: { DATABASE_URL: fresh.url },
    async open() {
      const database = await openDatabase({ databaseUrl: fresh.url, poolSize: 2 });
      await migrateDatabase(database);
      return database;
    },
    cleanup: fresh.drop,
  };
}

/** B's own materials, written directly: the list B reads during the import has real pages. */
async function seedMaterials(database: Database, f: MaterialFixture, count: number) {
  await database.withTenant(f.tenantId, async (tx) => {
    for (let start = 1; start <= count; start += 500) {
      const rows = Array.from({ length: Math.min(500, count - start + 1) }, (_, k) => materialRow(f, start + k, 'B'));
      const created = await tx
        .insert(material)
        .values(rows.map((r) => ({ tenantId: f.tenantId, code: r.code, name: r.name, specification: r.specification, categoryId: f.categoryIds[r.categoryIndex], brandId: f.brandIds[r.brandIndex], tags: r.tags, createdBy: f.adminId })))
        .returning({ id: material.id });
      await tx.insert(materialUnit).values(created.map((c, k) => ({ tenantId: f.tenantId, materialId: c.id, unitId: f.unitIds[rows[k].unitIndex], ratio: 1, isMain: true })));
    }
  });
}

/**
 * Starts the server as `npm start` runs it — the bundle (built first when stale), with the V8 flags of
 * scripts/start.mjs unless SERVER_NODE_FLAGS says otherwise — and waits until it answers (its start line
 * is an info log, below the level used here).
 */
async function startServer(env: Record<string, string>, base: string): Promise<{ child: ChildProcess; log: () => string }> {
  if (serverBuildIsStale(ROOT)) await buildServer(ROOT);
  let output = '';
  const nodeFlags = (process.env.SERVER_NODE_FLAGS ?? '--optimize-for-size').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, ['--enable-source-maps', ...nodeFlags, SERVER_BUNDLE], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => {
    output += d.toString();
    if (process.env.BENCH_SERVER_LOG) process.stdout.write(d.toString());
  });
  child.stderr!.on('data', (d: Buffer) => {
    output += d.toString();
    // BENCH_SERVER_LOG=1: the server's warnings (e.g. the embedded database's checkpoint log) as they come.
    if (process.env.BENCH_SERVER_LOG) process.stderr.write(`${new Date().toISOString().slice(11, 19)} server: ${d.toString()}`);
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      fetch(`${base}/api/base/system/config`).then(
        () => {
          clearInterval(timer);
          resolve({ child, log: () => output });
        },
        () => {},
      );
    }, 500);
    child.on('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`server exited (${code}):\n${output.slice(-4000)}`));
    });
  });
}

/** Kilobytes of a /proc/<pid>/status field (VmRSS: now; VmHWM: the peak since the process started). */
function procKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : Number.NaN;
}

async function api<T>(base: string, method: string, url: string, init: { token?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + url, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const json = (await res.json()) as { status: number; message: string; data: T };
  if (json.status !== 0) throw new Error(`${method} ${url}: ${res.status} ${json.message}`);
  return json.data;
}

/** The total of a tenant's material list. */
async function materialTotal(base: string, token: string): Promise<number> {
  const res = await fetch(`${base}/api/admin/basic/material?pageSize=1`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { pagination: { total: number } }).pagination.total;
}

/**
 * Posts the file as multipart through node:http, which waits as long as the import takes (fetch gives
 * up on an answer after 300 s).
 */
function postFile<T>(url: string, token: string, file: string): Promise<T> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="materials.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`),
    readFileSync(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const json = JSON.parse(Buffer.concat(chunks).toString()) as { status: number; message: string; data: never };
        if (json.status !== 0) reject(new Error(`import: ${res.statusCode} ${json.message}`));
        else resolve(json.data);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Fills the template's columns, found by their header text, for ROWS rows; written by exceljs' streaming writer. */
async function buildFromTemplate(template: ArrayBuffer, f: MaterialFixture, file: string) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(template);
  const headers = (book.worksheets[0].getRow(1).values as unknown[]).slice(1).map((v) => String(v ?? ''));
  const fill: Record<string, (r: ReturnType<typeof materialRow>) => string | number> = {
    物料编码: (r) => r.code,
    物料名称: (r) => r.name,
    规格: (r) => r.specification,
    '分类(名称或路径 A/B)': (r) => f.categoryPaths[r.categoryIndex],
    品牌: (r) => f.brandNames[r.brandIndex],
    主单位: (r) => f.unitNames[r.unitIndex],
    条码: (r) => r.barcode,
    '业务属性(销售,采购,生产,委外,耗材,受托)': (r) => r.tags.map((t) => TAG_ZH[t]).join(','),
    '批次管理(是/否)': (r) => (r.batchNumber ? '是' : '否'),
    '长(cm)': (r) => r.length,
    '重量(kg)': (r) => r.weight,
    采购价: (r) => r.purchasePrice,
    销售价: (r) => r.salePrice,
  };
  const columns = headers.map((h) => fill[h.replace(/^\*/, '')]);
  const filled = headers.filter((h) => fill[h.replace(/^\*/, '')]).length;
  if (filled < 6) throw new Error(`the template's headers changed: ${headers.join(' | ')}`);
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false });
  const sheet = writer.addWorksheet('Sheet1');
  sheet.addRow(headers).commit();
  for (let i = 1; i <= ROWS; i++) {
    const r = materialRow(f, i, 'IMP');
    sheet.addRow(columns.map((c) => (c ? c(r) : null))).commit();
  }
  sheet.commit();
  await writer.commit();
  return { headers, filled };
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : Number.NaN);
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: +percentile(sorted, 50).toFixed(1), p95: +percentile(sorted, 95).toFixed(1), p99: +percentile(sorted, 99).toFixed(1), max: +(sorted.at(-1) ?? Number.NaN).toFixed(1) };
};

/** Tenant B's list requests, CLIENTS at a time, until `stop()`; each latency in ms, failures counted. */
function listLoad(base: string, token: string) {
  const latencies: number[] = [];
  /** When each request started (performance.now()) and took: where in the import the slow ones fell. */
  const timed: Array<{ at: number; ms: number }> = [];
  let failures = 0;
  let running = true;
  let page = 0;
  const client = async () => {
    while (running) {
      page = (page % 50) + 1;
      const started = performance.now();
      try {
        await api(base, 'GET', `/api/admin/basic/material?current=${page}&pageSize=20`, { token });
        latencies.push(performance.now() - started);
        timed.push({ at: started, ms: performance.now() - started });
      } catch {
        failures++;
      }
    }
  };
  const done = Promise.all(Array.from({ length: CLIENTS }, client));
  return {
    async stop() {
      running = false;
      await done;
      return { ...stats(latencies), failures, timed };
    },
  };
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'p8-bench-load-'));
  const t = await target(dataDir);
  let server: { child: ChildProcess; log: () => string } | undefined;
  try {
    const step = (what: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${what}`);
    step('opening and seeding the database');
    const database = await t.open();
    const a = await seedMaterialTenant(database, 'A');
    const b = await seedMaterialTenant(database, 'B');
    await seedMaterials(database, b, B_MATERIALS);
    await database.close();

    step('starting the server');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = await startServer({ ...t.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', NODE_ENV: 'production', LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'no-web') }, base);
    const pid = server.child.pid!;
    const login = async (name: string) => (await api<{ token: string }>(base, 'POST', '/api/auth/admin/name', { body: { name, password: BENCH_PASSWORD } })).token;
    const tokenA = await login(a.adminName);
    const tokenB = await login(b.adminName);

    step('building the file from the template');
    const template = await (await fetch(`${base}/api/base/template/material.xlsx`, { headers: { 'accept-language': 'zh-CN' } })).arrayBuffer();
    const file = path.join(dataDir, 'materials.xlsx');
    const built = await buildFromTemplate(template, a, file);
    const fileBytes = statSync(file).size;
    console.log(`file: ${ROWS} rows, ${(fileBytes / 2 ** 20).toFixed(1)} MB, ${built.filled} of the template's ${built.headers.length} columns filled`);

    step('tenant B on the idle server (10 s)');
    // B on the idle server first: the reference for the figures under load.
    const idleLoad = listLoad(base, tokenB);
    await new Promise((r) => setTimeout(r, 10_000));
    const idle = await idleLoad.stop();
    const rssBeforeMb = procKb(pid, 'VmRSS') / 1024;

    let peakSampleKb = 0;
    const sampler = setInterval(() => (peakSampleKb = Math.max(peakSampleKb, procKb(pid, 'VmRSS'))), 100);
    const load = listLoad(base, tokenB);
    // All-or-nothing as tenant A's own users see it: A's material total, read every second, is 0 until the
    // import answers (on PGlite the batches are committed one by one, hidden until published).
    const aTotals = new Set<number>();
    // The import, queued as a background job as the import dialog does, and its job's progress (reading: rows
    // read with no total yet; then rows written) with the server's memory, every second: which phase the slow
    // list answers and the memory peak fell in.
    const phases: Array<{ at: number; phase: string; rowsWritten: number; rssMb: number }> = [];
    const loadStarted = os.loadavg();
    step('importing');
    const started = performance.now();
    const { id: jobId } = await postFile<{ id: number }>(`${base}/api/admin/system/jobs/import?path=/admin/basic/material/import`, tokenA, file);
    type JobView = { status: string; progress: { done: number; total: number | null }; result: { total: number; successCount: number; errorCount: number; errList: unknown[] }; errorKey: string | null };
    let job: JobView | null = null;
    while (!job || job.status === 'queued' || job.status === 'running') {
      const total = await materialTotal(base, tokenA).catch(() => undefined);
      if (total !== undefined) aTotals.add(total);
      job = await api<JobView>(base, 'GET', `/api/admin/system/jobs/${jobId}`, { token: tokenA }).catch(() => null);
      if (job?.status === 'running') phases.push({ at: performance.now(), phase: job.progress.total === null ? 'reading' : 'writing', rowsWritten: job.progress.total === null ? 0 : job.progress.done, rssMb: Math.round(procKb(pid, 'VmRSS') / 1024) });
      if (!job || job.status === 'queued' || job.status === 'running') await new Promise((r) => setTimeout(r, 1000));
    }
    if (job.status !== 'succeeded') throw new Error(`import job: ${job.status} ${job.errorKey}`);
    const result = job.result;
    const importSeconds = (performance.now() - started) / 1000;
    const during = await load.stop();
    clearInterval(sampler);
    const aTotalAfter = await materialTotal(base, tokenA);
    const peakMb = procKb(pid, 'VmHWM') / 1024;
    if (result.successCount !== ROWS) throw new Error(`import saved ${result.successCount} of ${ROWS}: ${JSON.stringify(result.errList.slice(0, 3))}`);

    const summary = {
      date: new Date().toISOString(),
      database: t.kind,
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
      loadAverageBefore: loadStarted.map((l) => +l.toFixed(1)),
      loadAverageAfter: os.loadavg().map((l) => +l.toFixed(1)),
      rows: ROWS,
      fileMb: +(fileBytes / 2 ** 20).toFixed(1),
      importSeconds: +importSeconds.toFixed(1),
      listClients: CLIENTS,
      listIdleMs: { ...idle, timed: undefined },
      listDuringImportMs: { ...during, timed: undefined },
      // The five slowest answers during the import: seconds after it started, and the import's phase then.
      slowestDuringImport: [...during.timed]
        .sort((x, y) => y.ms - x.ms)
        .slice(0, 5)
        .map(({ at, ms }) => {
          const then = phases.filter((p) => p.at <= at).at(-1);
          return { startedAtSeconds: +((at - started) / 1000).toFixed(1), ms: Math.round(ms), phase: then ? `${then.phase} (${then.rowsWritten} written)` : 'before the first progress' };
        }),
      // The server's memory at each phase's peak (sampled every second with the progress).
      peakRssMbByPhase: Object.fromEntries([...new Set(phases.map((p) => p.phase))].map((phase) => [phase, Math.max(...phases.filter((p) => p.phase === phase).map((p) => p.rssMb))])),
      importerTotalsSeenDuringImport: [...aTotals].sort((x, y) => x - y),
      importerTotalAfter: aTotalAfter,
      // A reading taken after the commit but before the answer reached us sees every row: still all or nothing.
      allOrNothing: [...aTotals].every((n) => n === 0 || n === ROWS) && aTotalAfter === ROWS,
      goalP95Ms: GOAL_P95_MS,
      p95WithinGoal: during.p95 < GOAL_P95_MS,
      serverRssBeforeImportMb: Math.round(rssBeforeMb),
      serverPeakRssSampledMb: Math.round(peakSampleKb / 1024),
      serverPeakRssMb: Math.round(peakMb),
      goalPeakMb: GOAL_PEAK_MB,
      peakWithinGoal: peakMb < GOAL_PEAK_MB,
    };
    console.log(JSON.stringify(summary, null, 2));
    mkdirSync(path.join(HERE, 'results'), { recursive: true });
    writeFileSync(path.join(HERE, 'results', `import-under-load-${t.kind}-${summary.date.replace(/[:.]/g, '-')}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  } finally {
    if (server && server.child.exitCode === null) {
      const exited = new Promise((r) => server!.child.once('exit', r));
      server.child.kill('SIGTERM');
      await exited;
    }
    await t.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
