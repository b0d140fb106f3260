import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportProgress, ImportResult } from '@p8/contract/upload';
import { material } from '../src/db/schema/index.ts';
import type { ImportJob } from '../src/core/import-job.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, xlsx, type Caller } from './basic-fixtures.ts';
import { sheetXml, xlsxWithSheet } from './zip-fixtures.ts';

/*
 * The attacks of issue 8 on the import routes, through the real app: files that would have taken the
 * server down are refused early with catalogued keys and write nothing; a big import lets another tenant's
 * requests through (also on PGlite's single connection); a shutdown during an import leaves no row of it.
 */

const LIMITS = { maxRows: 300, maxErrors: 5, maxUnpackedMb: 8 };
const MATERIAL_HEADER = ['*物料编码', '*物料名称', '*主单位'];
const materialRows = (n: number, prefix: string, unitName = '个') => Array.from({ length: n }, (_, i) => [`${prefix}-${i}`, `${prefix} ${i}`, unitName]);

async function materialCount(ctx: TestContext, tenantId: number): Promise<number> {
  const [row] = await ctx.database.withTenant(tenantId, (tx) => tx.select({ n: count() }).from(material).where(eq(material.tenantId, tenantId)));
  return Number(row.n);
}

describe(`hostile import files (${TEST_DB})`, () => {
  let ctx: TestContext;
  let t: TestTenant;
  let api: Caller;
  let dataDir: string;
  beforeAll(async () => {
    // Its own data directory: the check that no upload or spill file is left sees this app's files only.
    dataDir = await mkdtemp(path.join(tmpdir(), 'p8-import-'));
    ctx = await startTestApp({ import: LIMITS, dataDir });
    t = await seedTenant(ctx.database, 'Atk');
    api = await adminCaller(ctx, t);
    await api.create('unit', { name: '个' });
  });
  afterAll(async () => {
    await ctx.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a zip bomb before unpacking it, and one whose directory lies while unpacking it; nothing is written', async () => {
    // 20 MB of one letter in ~20 KB, declared honestly: refused from the directory (size and ratio).
    const bomb = xlsxWithSheet(sheetXml(100, () => 'x'.repeat(200_000)));
    expect(bomb.length).toBeLessThan(200_000);
    const refused = await api.upload('/api/admin/basic/brand/import', bomb, 'bomb.xlsx');
    expect(refused.body).toMatchObject({ status: 40001, message: 'ImportUnpackedSizeExceeded', additional: '8MB' });
    // The same bytes claiming 1 KB: refused at the first byte beyond it.
    const liar = await api.upload('/api/admin/basic/brand/import', xlsxWithSheet(sheetXml(100, () => 'x'.repeat(200_000)), 1000), 'liar.xlsx');
    expect(liar.body).toMatchObject({ status: 40001, message: 'ImportUnpackedSizeExceeded' });
    expect((await api.get<unknown[]>('/api/admin/basic/brand')).body.data).toEqual([]);
  });

  it('refuses a file over the row limit as a whole, naming the limit', async () => {
    const res = await api.upload('/api/admin/basic/material/import', await xlsx(MATERIAL_HEADER, materialRows(LIMITS.maxRows + 1, 'OVER')), 'rows.xlsx');
    expect(res.body).toMatchObject({ status: 40001, message: 'ImportRowLimitExceeded', additional: String(LIMITS.maxRows) });
    expect(await materialCount(ctx, t.tenantId)).toBe(0);
  });

  it('lists the first errors only, and counts them all', async () => {
    // Every row names a unit that does not exist.
    const res = await api.upload<ImportResult>('/api/admin/basic/material/import', await xlsx(MATERIAL_HEADER, materialRows(LIMITS.maxRows, 'BAD', '吨')), 'bad.xlsx');
    expect(res.body.status).toBe(0);
    const result = res.body.data;
    expect({ total: result.total, successCount: result.successCount, errorCount: result.errorCount }).toEqual({ total: LIMITS.maxRows, successCount: 0, errorCount: LIMITS.maxRows });
    expect(result.errList.map((e) => [e.rowNum, e.errorMsg])).toEqual([2, 3, 4, 5, 6].map((rowNum) => [rowNum, 'UnitNotExist']));
    // The per-row importers cap the same way.
    const brands = await api.upload<ImportResult>('/api/admin/basic/brand/import', await xlsx(['*名称'], Array.from({ length: 40 }, () => ['same'])), 'brands.xlsx');
    expect(brands.body.data).toMatchObject({ total: 40, successCount: 1, errorCount: 39 });
    expect(brands.body.data.errList).toHaveLength(LIMITS.maxErrors);
  });

  it('reports its progress under the client job id, to its own user only', async () => {
    const jobId = randomUUID();
    const res = await api.upload<ImportResult>(`/api/admin/basic/material/import?jobId=${jobId}`, await xlsx(MATERIAL_HEADER, materialRows(20, 'PRG')), 'p.xlsx');
    expect(res.body.data).toMatchObject({ total: 20, successCount: 20 });
    const progress = (await api.get<ImportProgress>(`/api/admin/import/progress/${jobId}`)).body.data;
    expect(progress).toEqual({ phase: 'done', rowsRead: 20, rowsChecked: 20, rowsWritten: 20, total: 20 });
    // The upload and the rows spilled beside it are gone once the import has answered.
    expect(await readdir(path.join(dataDir, 'uploads', '.tmp'))).toEqual([]);
    const other = await adminCaller(ctx, await seedTenant(ctx.database, 'Oth'));
    expect((await other.get(`/api/admin/import/progress/${jobId}`)).body).toMatchObject({ status: 0, data: null });
  });
});

describe(`a big import shares the server (${TEST_DB})`, () => {
  const ROWS = 3000;
  let ctx: TestContext;
  let a: Caller;
  let b: Caller;
  let tenantA: TestTenant;
  let file: Buffer;
  beforeAll(async () => {
    ctx = await startTestApp();
    tenantA = await seedTenant(ctx.database, 'BigA');
    a = await adminCaller(ctx, tenantA);
    b = await adminCaller(ctx, await seedTenant(ctx.database, 'BigB'));
    await a.create('unit', { name: '个' });
    await b.create('brand', { name: 'B-brand' });
    file = await xlsx(MATERIAL_HEADER, materialRows(ROWS, 'BIG'));
  });
  afterAll(() => ctx.close());

  it("answers another tenant's list requests while it runs", async () => {
    let importDone = false;
    const started = Date.now();
    const importing = a.upload<ImportResult>('/api/admin/basic/material/import', file, 'big.xlsx').finally(() => (importDone = true));
    const latencies: number[] = [];
    while (!importDone) {
      const sent = Date.now();
      const res = await b.get<unknown[]>('/api/admin/basic/brand');
      expect(res.body.data).toHaveLength(1);
      if (!importDone) latencies.push(Date.now() - sent);
      // A client's pace (inject alone never leaves the microtask queue, so the upload would never be read).
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const result = (await importing).body.data;
    const importMs = Date.now() - started;
    expect(result).toMatchObject({ total: ROWS, successCount: ROWS, errorCount: 0 });
    // Many answers while the import ran: the file is read and checked outside any transaction.
    expect(latencies.length, `${latencies.length} answers during a ${importMs} ms import`).toBeGreaterThanOrEqual(5);
    // On PostgreSQL the write transaction holds one connection of the pool: no answer waits for most of the
    // import. PGlite has a single connection, which the one all-or-nothing write transaction holds until it
    // commits (docs/decisions.md, "What PGlite still cannot do"): there an answer may wait for the write phase,
    // which on a loaded machine is more than half of the import — the answers during reading and checking
    // above are what PGlite can promise.
    if (TEST_DB === 'postgres') expect(Math.max(...latencies), `slowest of ${latencies.length} answers during a ${importMs} ms import`).toBeLessThan(importMs / 2);
  });
});

describe(`shutdown during an import (${TEST_DB})`, () => {
  it('cancels it at its next batch: the answer is ImportCancelled and not one of its rows is stored', async () => {
    const ctx = await startTestApp();
    const t = await seedTenant(ctx.database, 'Sig');
    const api = await adminCaller(ctx, t);
    await api.create('unit', { name: '个' });
    // Shut the app down (what main.ts does on SIGTERM) once the first batch of rows is written inside the import's transaction.
    const begin = ctx.app.importJobs.begin.bind(ctx.app.importJobs);
    let closing: Promise<void> | undefined;
    ctx.app.importJobs.begin = (req) => {
      const job: ImportJob = begin(req);
      return {
        ...job,
        signal: job.signal,
        maxErrors: job.maxErrors,
        report(update) {
          job.report(update);
          if ((update.rowsWritten ?? 0) > 0 && !closing) closing = ctx.app.close();
        },
      };
    };
    const res = await api.upload('/api/admin/basic/material/import', await xlsx(MATERIAL_HEADER, materialRows(3000, 'SIG')), 'sig.xlsx');
    expect(closing, 'the import reached its writing phase').toBeDefined();
    expect(res.body).toMatchObject({ message: 'ImportCancelled' });
    await closing;
    expect(await materialCount(ctx, t.tenantId)).toBe(0);
    await ctx.close();
  });
});
