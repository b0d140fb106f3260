import { RECORD_KINDS, recordKind } from '@p8/contract/records/catalogue';
import { recordTitleField, type RecordFieldDecl, type RecordKindDecl } from '@p8/contract/records/registry';
import { declaredRecordLineTable, declaredRecordTable } from '../src/db/schema/index.ts';
import { sampledLines, sampleNamedRecords, sampleNeeds, sampleValue } from './record-samples.ts';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, count, eq, getTableName, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '@p8/contract/upload';
import { bom, bomLine, importJob, material, materialUnit } from '../src/db/schema/index.ts';
import type { ImportJob } from '../src/core/import-job.ts';
import { removeUnpublishedImports } from '../src/core/staged-import.ts';
import { rows as rowsOf } from '../src/db/connection.ts';
import { seedTenant, startTestApp, TEST_DB, type Reply, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, xlsx, type Caller } from './basic-fixtures.ts';
import { sheetXml, xlsxWithSheet } from './zip-fixtures.ts';

/*
 * The attacks of issue 8 on the import routes, through the real app: files that would have taken the
 * server down are refused early with catalogued keys and write nothing; a big import lets another tenant's
 * requests through (also on PGlite's single connection); a shutdown during an import leaves no row of it.
 */

const LIMITS = { maxRows: 300, maxErrors: 5, maxUnpackedMb: 8, rowsPerBatch: 250 };
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

  it('leaves no upload or spilled rows behind once the import has answered', async () => {
    const res = await api.upload<ImportResult>('/api/admin/basic/material/import', await xlsx(MATERIAL_HEADER, materialRows(20, 'PRG')), 'p.xlsx');
    expect(res.body.data).toMatchObject({ total: 20, successCount: 20 });
    expect(await readdir(path.join(dataDir, 'uploads', '.tmp'))).toEqual([]);
  });
});

/** Wraps the app's next import jobs: `atCheckpoint` runs at each checkpoint between two written batches. */
function onCheckpoints(ctx: TestContext, atCheckpoint: (progress: { rowsWritten: number }) => Promise<void>) {
  const begin = ctx.app.importJobs.begin.bind(ctx.app.importJobs);
  ctx.app.importJobs.begin = (req) => {
    const job: ImportJob = begin(req);
    let rowsWritten = 0;
    return {
      ...job,
      signal: job.signal,
      maxErrors: job.maxErrors,
      report(update) {
        job.report(update);
        rowsWritten = update.rowsWritten ?? rowsWritten;
      },
      async checkpoint() {
        await atCheckpoint({ rowsWritten });
        await job.checkpoint();
      },
    };
  };
}

const totalOf = (reply: Reply<unknown>) => (reply.body.pagination as { total: number }).total;

/** Every material row of a tenant, hidden ones included (the owner connection sees past RLS), and its import jobs. */
async function storedRows(ctx: TestContext, tenantId: number) {
  return ctx.database.withSystem(async (tx) => ({
    materials: Number((await tx.select({ n: count() }).from(material).where(eq(material.tenantId, tenantId)))[0].n),
    units: Number((await tx.select({ n: count() }).from(materialUnit).where(eq(materialUnit.tenantId, tenantId)))[0].n),
    jobs: Number((await tx.select({ n: count() }).from(importJob).where(eq(importJob.tenantId, tenantId)))[0].n),
  }));
}

describe(`a big import shares the server and shows nothing before it ends (${TEST_DB})`, () => {
  const ROWS = 4100; // three write batches of 2,000 rows (PostgreSQL), nine of 500 (PGlite)
  // Generous: a loaded 2-core CI machine has taken 45 s for 2,500 rows on PGlite; nothing here is timed.
  const SLOW = 600_000;
  let ctx: TestContext;
  let a: Caller;
  let b: Caller;
  let tenantA: TestTenant;
  let unitId: number;
  let file: Buffer;
  beforeAll(async () => {
    ctx = await startTestApp();
    tenantA = await seedTenant(ctx.database, 'BigA');
    a = await adminCaller(ctx, tenantA);
    b = await adminCaller(ctx, await seedTenant(ctx.database, 'BigB'));
    unitId = await a.create('unit', { name: '个' });
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
  }, SLOW);

  it('a series of transactions gives the event loop a turn before each (PGlite settles in microtasks: a loop of them used to starve every other request)', async () => {
    // What the clean-up of a published or discarded import does: 2 × 50 short transactions in a row. It
    // stalled every tenant for 15 s after a 100,000-row import before each transaction yielded.
    let turns = 0;
    let looping = true;
    const turn = () => {
      turns++;
      if (looping) setImmediate(turn);
    };
    setImmediate(turn);
    for (let i = 0; i < 20; i++) await ctx.database.withTenant(tenantA.tenantId, (tx) => tx.execute(sql`select 1`));
    looping = false;
    expect(turns).toBeGreaterThanOrEqual(19);
  });

  it('between two written batches: the other tenant is answered, the importing tenant sees none of its rows, and a create of an imported code is refused', async () => {
    const prefix = 'MID';
    const seen: Array<{ rowsWritten: number; bBrands: number; aTotal: number; aPicker: number; aByCode: number }> = [];
    let create: Promise<{ body: { status: number; message?: string } }> | undefined;
    // Each checkpoint waits for these requests to be answered: had the import kept the embedded database's
    // one connection (one transaction for the whole write), they could never be answered and the import
    // would never end. So this also proves that the connection is free between batches, without timing.
    onCheckpoints(ctx, async ({ rowsWritten }) => {
      const [bBrands, aList, aPicker, aByCode] = await Promise.all([
        b.get<unknown[]>('/api/admin/basic/brand'),
        a.get<unknown[]>('/api/admin/basic/material?pageSize=10'),
        a.get<unknown[]>('/api/admin/basic/material/picker?pageSize=10'),
        a.get<unknown[]>(`/api/admin/basic/material?code=${prefix}-0`),
      ]);
      seen.push({ rowsWritten, bBrands: bBrands.body.data.length, aTotal: totalOf(aList), aPicker: totalOf(aPicker), aByCode: totalOf(aByCode) });
      // A colleague creates a material with a code the import has written: refused by the unique index
      // even though no reader sees the row (on PostgreSQL it waits for the import's transaction, so it is
      // awaited after the import).
      create ??= a.post('/api/admin/basic/material', { code: `${prefix}-1`, name: 'concurrent', units: [{ unitId, isMain: true }] });
    });
    const res = await a.upload<ImportResult>('/api/admin/basic/material/import', await xlsx(MATERIAL_HEADER, materialRows(ROWS, prefix)), 'mid.xlsx');
    expect(res.body.data).toMatchObject({ total: ROWS, successCount: ROWS, errorCount: 0 });
    // Batches of 2,000 rows in the import's one transaction (PostgreSQL), of 500 committed one by one (PGlite).
    const batch = TEST_DB === 'postgres' ? 2000 : 500;
    expect(seen.map((s) => s.rowsWritten)).toEqual([...Array.from({ length: Math.floor(ROWS / batch) }, (_, i) => (i + 1) * batch), ROWS]);
    for (const s of seen) expect(s, `at ${s.rowsWritten} rows written`).toMatchObject({ bBrands: 1, aTotal: ROWS, aPicker: ROWS, aByCode: 0 });
    expect((await create!).body).toMatchObject({ message: 'CodeRepeat' });
    // Published as a whole: every row visible, none still marked, the job gone.
    expect(totalOf(await a.get<unknown[]>('/api/admin/basic/material?pageSize=10'))).toBe(2 * ROWS);
    expect(await storedRows(ctx, tenantA.tenantId)).toEqual({ materials: 2 * ROWS, units: 2 * ROWS, jobs: 0 });
  }, SLOW);
});

/**
 * The row-by-row imports (every record but materials): what each writes and a file of `n` rows
 * for it. On PGlite they are staged like the material import, `ROW_BY_ROW_BATCH` rows per transaction.
 */
/** Rows per batch of the row-by-row imports here (IMPORT_ROWS_PER_BATCH; 250 by default). */
const ROW_BY_ROW_BATCH = 20;
const ROW_LIMITS = { maxRows: 100_000, maxErrors: 1000, maxUnpackedMb: 256, rowsPerBatch: ROW_BY_ROW_BATCH };
interface RowImportCase {
  record: string;
  url: string;
  /** Tables it writes; the first is the one counted (its rows are the file's rows). */
  tables: string[];
  prepare?(api: Caller): Promise<void>;
  file(n: number, prefix: string): Promise<Buffer>;
  /** What else the published import must show. */
  published?(api: Caller): Promise<void>;
}
/** The BOMs of a material as its list shows them: version → default. */
const bomDefaults = async (api: Caller, code: string) =>
  Object.fromEntries((await api.get<Array<{ version: string; isDefault: boolean }>>(`/api/admin/basic/bom?materialCode=${code}`)).body.data.map((b) => [b.version, b.isDefault]));
/** Materials BM-0 … BM-n (the material import) and a default BOM `OLD` of BM-0, made of BM-n. */
async function prepareBoms(api: Caller, n: number) {
  await api.create('unit', { name: '个' });
  const res = await api.upload<ImportResult>('/api/admin/basic/material/import', await xlsx(MATERIAL_HEADER, materialRows(n + 1, 'BM')), 'bm.xlsx');
  expect(res.body.data).toMatchObject({ errorCount: 0 });
  const id = async (code: string) => (await api.get<Array<{ id: number }>>(`/api/admin/basic/material?code=${code}`)).body.data[0].id;
  await api.create('bom', { materialId: await id('BM-0'), version: 'OLD', lines: [{ materialId: await id(`BM-${n}`), quantity: 1 }] });
}
const named = (header: string[], row: (i: number, prefix: string) => unknown[]) => (n: number, prefix: string) => xlsx(header, Array.from({ length: n }, (_, i) => row(i, prefix)));
/** The seed of the records a declared kind's import rows name (made by `prepare`, named by their code or title in the cells). */
const NAMED_SEED = 'imp';
/** An import file of a declared record kind: its required columns (its lines' too) titled as its template, each row unique. */
const declaredImportFile = (decl: RecordKindDecl) => {
  const own = decl.fields.filter((f) => f.required);
  const lineFields = sampledLines(decl) ? decl.lines!.fields.filter((f) => f.required) : [];
  const title = (f: RecordFieldDecl) => {
    const { zh } = f.excelTitle ?? f.label;
    return `*${f.kind === 'enum' ? `${zh}(${f.options!.map((o) => o.label.zh).join('/')})` : zh}`;
  };
  const cell = (f: RecordFieldDecl, p: string, i: number) => {
    if (f.kind === 'enum') return f.options![0].label.zh;
    // A value of a shape of its own (a date, a year, a clock time) or a number: a valid sample; text unique per row.
    // (The i-th of its examples: a unique key of an example field, an exchange rate's day, differs per row.)
    if (f.examples?.length || ['number', 'quantity', 'amount'].includes(f.kind)) return sampleValue(f, p, {}, i);
    if (f.kind !== 'record') return `${p}-${i}-${f.key}`;
    // The record `prepare` made, by what its kind exports (its code, else its title).
    const named = recordKind(f.ref!)!;
    return `${NAMED_SEED}-${f.ref}-${named.fields.some((x) => x.key === 'code') ? 'code' : recordTitleField(named).key}`;
  };
  // A tree kind's rows build the tree top-down: the first row is the parent of the others.
  const parent = decl.tree ? { header: [`${decl.tree.parentLabel.zh}(名称或路径 A/B)`], cells: (p: string, i: number) => [i ? cell(recordTitleField(decl), p, 0) : ''] } : undefined;
  return named([...[...own, ...lineFields].map(title), ...(parent?.header ?? [])], (i, p) => [...[...own, ...lineFields].map((f) => cell(f, p, i)), ...(parent?.cells(p, i) ?? [])]);
};
const ROW_IMPORTS: RowImportCase[] = [
  // Every declared record kind, its file built from its declaration.
  ...RECORD_KINDS.map((decl) => ({
    record: decl.kind,
    url: `/api/admin/${decl.area}/${decl.kind}/import`,
    tables: [getTableName(declaredRecordTable(decl.kind)), ...(decl.lines ? [getTableName(declaredRecordLineTable(decl.kind))] : [])],
    prepare: sampleNeeds(decl).length ? async (api: Caller) => void (await sampleNamedRecords(api.create, decl, NAMED_SEED)) : undefined,
    file: declaredImportFile(decl),
  })),
  ...(['customer', 'supplier'] as const).map((record) => ({
    record,
    url: `/api/admin/basic/${record}/import`,
    tables: ['partner', 'partner_contact', 'partner_address'],
    file: named([`*${record === 'customer' ? '客户' : '供应商'}名称`, '联系人', '联系电话', '地址'], (i, p) => [`${p} ${i}`, `Contact ${i}`, `1380000${String(i).padStart(4, '0')}`, `Road ${i}`]),
  })),
  { record: 'stock', url: '/api/admin/basic/stock/import', tables: ['warehouse'], file: named(['*仓库名称'], (i, p) => [`${p}-${i}`]) },
  {
    record: 'location',
    url: '/api/admin/basic/location/import',
    tables: ['location'],
    prepare: async (api) => void (await api.create('stock', { name: 'Main' })),
    file: named(['*仓库(编码或名称)', '*库位名称'], (i, p) => ['Main', `${p}-${i}`]),
  },
  {
    record: 'material unit',
    url: '/api/admin/basic/material/unit/import',
    tables: ['material_unit'],
    // One conversion unit for each of as many materials, made by the (bulk) material import first.
    prepare: async (api) => {
      await api.create('unit', { name: '个' });
      await api.create('unit', { name: '箱' });
      const res = await api.upload<ImportResult>('/api/admin/basic/material/import', await xlsx(MATERIAL_HEADER, materialRows(ROW_BY_ROW_BATCH + 20, 'MU')), 'mu.xlsx');
      expect(res.body.data).toMatchObject({ errorCount: 0 });
    },
    file: named(['*物料编码', '*单位', '*换算率(相对主单位)'], (i) => [`MU-${i}`, '箱', 12]),
  },
  {
    // One BOM per row, each of BM-i made of BM-n; the first made default over BM-0's existing one at publishing.
    record: 'bom',
    url: '/api/admin/basic/bom/import',
    tables: ['bom', 'bom_line'],
    prepare: (api) => prepareBoms(api, ROW_BY_ROW_BATCH * 2),
    file: named(['*父件物料编码', '*BOM版本', '默认(是/否)', '*子件物料编码', '*子件用量'], (i) => [`BM-${i}`, 'V1', i ? '' : '是', `BM-${ROW_BY_ROW_BATCH * 2}`, 1]),
    async published(api) {
      expect(await bomDefaults(api, 'BM-0')).toEqual({ OLD: false, V1: true });
      expect(await bomDefaults(api, 'BM-1')).toEqual({ V1: true });
    },
  },
];

/** Rows of `table` in the tenant: as its users see them (RLS, hidden import rows left out), and stored. */
async function tableRows(ctx: TestContext, tenantId: number, table: string) {
  const counted = sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${tenantId}`;
  const [visible] = await ctx.database.withTenant(tenantId, (tx) => rowsOf<{ n: number }>(tx, counted));
  const [stored] = await ctx.database.withSystem((tx) => rowsOf<{ n: number }>(tx, counted));
  const [marked] = await ctx.database.withSystem((tx) => rowsOf<{ n: number }>(tx, sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${tenantId} and import_job is not null`));
  return { visible: visible.n, stored: stored.n, marked: marked.n };
}

describe(`every row-by-row import shares the server and shows nothing before it ends (${TEST_DB})`, () => {
  const ROWS = ROW_BY_ROW_BATCH + 20; // two write batches
  let ctx: TestContext;
  let b: Caller;
  beforeAll(async () => {
    ctx = await startTestApp({ import: ROW_LIMITS });
    b = await adminCaller(ctx, await seedTenant(ctx.database, 'RowB'));
    await b.create('brand', { name: 'B-brand' });
  });
  afterAll(() => ctx.close());

  it('every record with a row-by-row import is staged on PGlite and is walked here', () => {
    const source = (file: string) => readFileSync(path.join(import.meta.dirname, '../src/modules/basic', file), 'utf8');
    // A new importer is either staged (stagedTables) and added to ROW_IMPORTS, or says why not.
    const importers = ['../../core/declared-records.ts', 'partner.ts', 'warehouse.ts', 'bom.ts', 'material.ts'].map((f) => [f, (source(f).match(/async importer\(/g) ?? []).length + (source(f).match(/importer: unitItemImporter/g) ?? []).length] as const);
    expect(Object.fromEntries(importers)).toEqual({ '../../core/declared-records.ts': 1, 'partner.ts': 1, 'warehouse.ts': 2, 'bom.ts': 1, 'material.ts': 1 });
    expect(ROW_IMPORTS.map((c) => c.record).sort()).toEqual([...RECORD_KINDS.map((d) => d.kind), 'bom', 'customer', 'location', 'material unit', 'stock', 'supplier'].sort());
  });

  it.each(ROW_IMPORTS)('$record: other tenants are answered between batches, the importer sees none of its rows until the end', async (c) => {
    const t = await seedTenant(ctx.database, 'Row');
    const api = await adminCaller(ctx, t);
    await c.prepare?.(api);
    const [counted] = c.tables;
    const before = await tableRows(ctx, t.tenantId, counted);
    const seen: Array<{ rowsWritten: number; bBrands: number; visible: number; stored: number }> = [];
    onCheckpoints(ctx, async ({ rowsWritten }) => {
      const [bBrands, rows] = await Promise.all([b.get<unknown[]>('/api/admin/basic/brand'), tableRows(ctx, t.tenantId, counted)]);
      seen.push({ rowsWritten, bBrands: bBrands.body.data.length, visible: rows.visible, stored: rows.stored });
    });
    const res = await api.upload<ImportResult>(c.url, await c.file(ROWS, 'ROW'), 'rows.xlsx');
    expect(res.body.data, JSON.stringify(res.body)).toMatchObject({ total: ROWS, successCount: ROWS, errorCount: 0 });
    expect(seen.map((x) => x.rowsWritten)).toEqual([ROW_BY_ROW_BATCH, ROWS]);
    for (const x of seen) {
      expect(x, `at ${x.rowsWritten} rows written`).toMatchObject({ bBrands: 1, visible: before.visible });
      // PGlite committed the batch, hidden; PostgreSQL keeps it in the import's one transaction.
      expect(x.stored).toBe(TEST_DB === 'postgres' ? before.stored : before.stored + x.rowsWritten);
    }
    // Published as a whole: every row visible, none still marked, the job gone.
    for (const table of c.tables) expect((await tableRows(ctx, t.tenantId, table)).marked, table).toBe(0);
    expect(await tableRows(ctx, t.tenantId, counted)).toEqual({ visible: before.visible + ROWS, stored: before.stored + ROWS, marked: 0 });
    expect(await storedRows(ctx, t.tenantId)).toMatchObject({ jobs: 0 });
    await c.published?.(api);
  }, 600_000);
});

describe(`an import cut short (${TEST_DB})`, () => {
  it('shutdown: cancelled at its next batch, the answer is ImportCancelled and not one of its rows is stored, hidden or not', async () => {
    const ctx = await startTestApp();
    const t = await seedTenant(ctx.database, 'Sig');
    const api = await adminCaller(ctx, t);
    await api.create('unit', { name: '个' });
    // Shut the app down (what main.ts does on SIGTERM) once the first batch of rows is written.
    let closing: Promise<void> | undefined;
    let writtenBeforeClose: Awaited<ReturnType<typeof storedRows>> | undefined;
    onCheckpoints(ctx, async () => {
      if (closing) return;
      writtenBeforeClose = await storedRows(ctx, t.tenantId);
      closing = ctx.app.close();
    });
    const res = await api.upload('/api/admin/basic/material/import', await xlsx(MATERIAL_HEADER, materialRows(3000, 'SIG')), 'sig.xlsx');
    expect(closing, 'the import reached its writing phase').toBeDefined();
    expect(res.body).toMatchObject({ message: 'ImportCancelled' });
    await closing;
    // On PGlite the first batch was committed, hidden, and is removed; on PostgreSQL it was never committed.
    expect(writtenBeforeClose).toEqual(TEST_DB === 'postgres' ? { materials: 0, units: 0, jobs: 0 } : { materials: 500, units: 500, jobs: 1 });
    expect(await storedRows(ctx, t.tenantId)).toEqual({ materials: 0, units: 0, jobs: 0 });
    await ctx.close();
  }, 600_000);

  it.each(ROW_IMPORTS.filter((c) => ['customer', 'category', 'bom'].includes(c.record)))('shutdown during a $record import: ImportCancelled, and not one of its rows is stored in any table', async (c) => {
    const ctx = await startTestApp({ import: ROW_LIMITS });
    const t = await seedTenant(ctx.database, 'SigRow');
    const api = await adminCaller(ctx, t);
    await c.prepare?.(api);
    const before = await Promise.all(c.tables.map((table) => tableRows(ctx, t.tenantId, table)));
    let closing: Promise<void> | undefined;
    let storedBeforeClose: number | undefined;
    onCheckpoints(ctx, async () => {
      if (closing) return;
      storedBeforeClose = (await tableRows(ctx, t.tenantId, c.tables[0])).stored;
      closing = ctx.app.close();
    });
    const res = await api.upload(c.url, await c.file(ROW_BY_ROW_BATCH * 2, 'SIG'), 'sig.xlsx');
    expect(closing, 'the import reached its writing phase').toBeDefined();
    expect(res.body).toMatchObject({ message: 'ImportCancelled' });
    await closing;
    expect(storedBeforeClose).toBe(before[0].stored + (TEST_DB === 'postgres' ? 0 : ROW_BY_ROW_BATCH));
    for (const [i, table] of c.tables.entries()) expect(await tableRows(ctx, t.tenantId, table), table).toEqual(before[i]);
    expect(await storedRows(ctx, t.tenantId)).toMatchObject({ jobs: 0 });
    await ctx.close();
  }, 600_000);

  it('crash: the rows an unpublished import left are never shown and are removed at the next start; a published one only loses its marks', async () => {
    const ctx = await startTestApp();
    const t = await seedTenant(ctx.database, 'Crash');
    const api = await adminCaller(ctx, t);
    const unitId = await api.create('unit', { name: '个' });
    const keep = await api.create('material', { code: 'KEEP', name: 'keep', units: [{ unitId, isMain: true }] });
    // What a kill -9 leaves on PGlite: a job still unpublished with its committed, marked rows; and one
    // killed after publishing, while its marks were being cleared. And a BOM import killed before publishing.
    await ctx.database.withSystem(async (tx) => {
      const [left, done] = await tx.insert(importJob).values([{ tenantId: t.tenantId, entity: 'material' }, { tenantId: t.tenantId, entity: 'material', published: true }]).returning({ id: importJob.id });
      const made = await tx
        .insert(material)
        .values([
          { tenantId: t.tenantId, code: 'LEFT-1', name: 'left 1', importJob: left.id },
          { tenantId: t.tenantId, code: 'LEFT-2', name: 'left 2', importJob: left.id },
          { tenantId: t.tenantId, code: 'DONE-1', name: 'done 1', importJob: done.id },
        ])
        .returning({ id: material.id, importJob: material.importJob });
      await tx.insert(materialUnit).values(made.map((m) => ({ tenantId: t.tenantId, materialId: m.id, unitId, isMain: true, importJob: m.importJob })));
      const [bomJob] = await tx.insert(importJob).values({ tenantId: t.tenantId, entity: 'bom' }).returning({ id: importJob.id });
      const [leftBom] = await tx.insert(bom).values({ tenantId: t.tenantId, materialId: keep, version: 'LEFT', importDefault: true, importJob: bomJob.id }).returning({ id: bom.id });
      await tx.insert(bomLine).values({ tenantId: t.tenantId, bomId: leftBom.id, materialId: made[2].id, quantity: 1, importJob: bomJob.id });
    });
    const bomRows = () => ctx.database.withSystem(async (tx) => [(await tx.select({ n: count() }).from(bom).where(eq(bom.tenantId, t.tenantId)))[0].n, (await tx.select({ n: count() }).from(bomLine).where(eq(bomLine.tenantId, t.tenantId)))[0].n].map(Number));
    expect((await api.get<unknown[]>('/api/admin/basic/bom')).body.data).toEqual([]);
    expect(await bomRows()).toEqual([1, 1]);
    const codes = async () => (await api.get<Array<{ code: string }>>('/api/admin/basic/material')).body.data.map((m) => m.code).sort();
    expect(await codes()).toEqual(['DONE-1', 'KEEP']);
    expect(await removeUnpublishedImports(ctx.database)).toBe(3);
    expect(await codes()).toEqual(['DONE-1', 'KEEP']);
    expect(await storedRows(ctx, t.tenantId)).toEqual({ materials: 2, units: 2, jobs: 0 });
    expect(await bomRows()).toEqual([0, 0]);
    const marked = await ctx.database.withSystem((tx) => tx.select({ n: count() }).from(material).where(and(eq(material.tenantId, t.tenantId), isNotNull(material.importJob))));
    expect(Number(marked[0].n)).toBe(0);
    // The start runs it: db/open.ts, before the app serves.
    expect(readFileSync(path.join(import.meta.dirname, '../src/db/open.ts'), 'utf8')).toContain('await removeUnpublishedImports(database)');
    await ctx.close();
  });
});
