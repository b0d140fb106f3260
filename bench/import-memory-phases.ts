/**
 * Where an import's memory goes, phase by phase (issue 8): builds an N-row material file (exceljs' streaming
 * writer, no shared strings), imports it in-process through the real app (inject) and prints
 * process.memoryUsage() at each progress phase, the peak RSS and the peak heap / external / array buffers.
 *
 *   ROWS=30000 node --expose-gc --import tsx bench/import-memory-phases.ts            (PGlite in memory)
 *   GC=1 ...      forces a GC at each phase change and prints the heap before and after: what is kept vs garbage
 *   SNAP=checking ...  writes a heap snapshot (/tmp/imem) when that phase begins
 *   DATABASE_URL=postgres://…/<existing database> ...   on PostgreSQL (migrated in place)
 *   node --optimize-for-size --expose-gc --import tsx bench/import-memory-phases.ts    with the server's V8 flags
 *
 * In-process, so PGlite's in-memory database (its files in JS memory) counts too; bench/import-under-load.ts
 * measures the server as its own process.
 */
import { randomBytes } from 'node:crypto';
import { writeHeapSnapshot } from 'node:v8';
import ExcelJS from 'exceljs';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { migrateDatabase, openDatabase } from '../server/src/db/connection.ts';
import { BENCH_PASSWORD, materialRow as row, seedMaterialTenant as seed, TAG_ZH as tagZh } from './material-fixture.ts';

const ROWS = Number(process.env.ROWS ?? 30000);
const mb = (n: number) => Math.round(n / 2 ** 20);
const mem = () => { const m = process.memoryUsage(); return `rss ${mb(m.rss)} heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} ext ${mb(m.external)} ab ${mb(m.arrayBuffers)}`; };
let peak = 0;
const mx = { heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
setInterval(() => { const m = process.memoryUsage(); peak = Math.max(peak, m.rss); for (const k of Object.keys(mx) as Array<keyof typeof mx>) mx[k] = Math.max(mx[k], m[k]); }, 50).unref();
const database = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL, poolSize: 4 } : {});
await migrateDatabase(database);
const config = loadConfig({ env: 'test', seedDemo: false, logLevel: 'silent', webDist: undefined });
const app = await buildApp({ config, database, logger: false });
const f = await seed(database, 'P' + randomBytes(3).toString('hex'));
const login = await app.inject({ method: 'POST', url: '/api/auth/admin/name', payload: { name: f.adminName, password: BENCH_PASSWORD } });
const token = (login.json() as { data: { token: string } }).data.token;
const { mkdirSync } = await import('node:fs');
mkdirSync('/tmp/imem', { recursive: true });
const file = `/tmp/imem/materials-${ROWS}.xlsx`;
const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false });
const sheet = writer.addWorksheet('Sheet1');
sheet.addRow(['*物料编码', '*物料名称', '规格', '分类(名称或路径 A/B)', '品牌', '*主单位', '条码', '业务属性(销售,采购,生产,委外,耗材,受托)', '批次管理(是/否)', '长(cm)', '重量(kg)', '采购价', '销售价']).commit();
for (let i = 1; i <= ROWS; i++) {
  const r = row(f, i, 'IMP');
  sheet.addRow([r.code, r.name, r.specification, f.categoryPaths[r.categoryIndex], f.brandNames[r.brandIndex], f.unitNames[r.unitIndex], r.barcode, r.tags.map((t) => tagZh[t]).join(','), r.batchNumber ? '是' : '否', r.length, r.weight, r.purchasePrice, r.salePrice]).commit();
}
sheet.commit();
await writer.commit();
const { readFileSync } = await import('node:fs');
const bytes = readFileSync(file);
global.gc?.();
console.log(`file ${mb(bytes.length)} MB; before: ${mem()}`);
peak = 0; for (const k of Object.keys(mx) as Array<keyof typeof mx>) mx[k] = 0;
const begin = app.importJobs.begin.bind(app.importJobs);
let lastPhase = '';
const t0 = performance.now();
const s = () => ((performance.now() - t0) / 1000).toFixed(1) + 's';
app.importJobs.begin = (req) => {
  const job = begin(req);
  return { ...job, signal: job.signal, maxErrors: job.maxErrors, report(u) {
    job.report(u);
    if (u.phase && u.phase !== lastPhase) { const pre = mem(); if (process.env.GC) global.gc?.(); console.log(pre, " / after gc:", `${s()} phase ${lastPhase} -> ${u.phase}: ${mem()} peak ${mb(peak)}`); lastPhase = u.phase;
      if (process.env.SNAP === u.phase) console.log('snapshot', writeHeapSnapshot(`/tmp/imem/${u.phase}.heapsnapshot`)); }
  } };
};
const boundary = `----p${randomBytes(8).toString('hex')}`;
const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="m.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
const res = await app.inject({ method: 'POST', url: '/api/admin/basic/material/import', headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
const body = res.json();
console.log(`${s()} done: ${JSON.stringify({ ...body.data, errList: body.data?.errList?.slice(0, 2) })} ${body.message}`);
console.log(`after: ${mem()} peak rss ${mb(peak)}; max ${Object.entries(mx).map(([k, v]) => `${k} ${mb(v)}`).join(', ')}`);
await app.close();
await database.close();
process.exit(0);
