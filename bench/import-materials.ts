/**
 * Importing 10,000 materials from an .xlsx (issue 4: under 10 s on this machine), side by side with the
 * bare database work of the same rows.
 *
 *   npx tsx bench/import-materials.ts                         (embedded PGlite, in memory)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/import-materials.ts
 *   npx tsx bench/import-materials.ts --rows 20000 --keep
 *
 * On PostgreSQL it creates a fresh database next to DATABASE_URL's (dropped at the end unless --keep).
 * It seeds one tenant with units, brands and a three-level category tree, writes an .xlsx of N material
 * rows (code, name, specification, category path, brand, main unit, barcode, tags, switches,
 * dimensions, prices), and times POST /api/admin/basic/material/import through the real app (multipart
 * upload, parsing, checks, the inserts, the audit entry). The baseline writes the same rows into the same
 * tables through the same driver with the same multi-row inserts, with no upload, parsing or checks: the
 * ratio is what the endpoint adds to the bare writes. Results go to bench/results/.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { rows, type Database } from '../server/src/db/connection.ts';
import { material, materialUnit } from '../server/src/db/schema/index.ts';
import { BENCH_PASSWORD, materialRow as row, seedMaterialTenant as seed, TAG_ZH as tagZh, type MaterialFixture as Fixture } from './material-fixture.ts';
import { scratchDatabase } from './scratch-database.ts';

const HERE = import.meta.dirname;
const { values: flags } = parseArgs({ options: { rows: { type: 'string' }, keep: { type: 'boolean', default: false }, 'no-baseline': { type: 'boolean', default: false } } });
const ROWS = Number(flags.rows ?? process.env.BENCH_ROWS ?? 10_000);
if (!Number.isSafeInteger(ROWS) || ROWS <= 0) throw new Error('--rows must be a positive integer');
const TARGET_SECONDS = 10;

async function buildFile(f: Fixture, prefix: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  sheet.addRow(['*物料编码', '*物料名称', '规格', '分类(名称或路径 A/B)', '品牌', '*主单位', '条码', '业务属性(销售,采购,生产,委外,耗材,受托)', '批次管理(是/否)', '长(cm)', '重量(kg)', '采购价', '销售价']);
  for (let i = 1; i <= ROWS; i++) {
    const r = row(f, i, prefix);
    sheet.addRow([
      r.code,
      r.name,
      r.specification,
      f.categoryPaths[r.categoryIndex],
      f.brandNames[r.brandIndex],
      f.unitNames[r.unitIndex],
      r.barcode,
      r.tags.map((t) => tagZh[t]).join(','),
      r.batchNumber ? '是' : '否',
      r.length,
      r.weight,
      r.purchasePrice,
      r.salePrice,
    ]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function multipart(file: Buffer) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  return {
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="materials.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * The bare database work of the same rows: one transaction, the materials then their unit rows, 500 to an
 * insert — what the import itself writes, without the upload, the parsing and the checks.
 */
async function baseline(database: Database, f: Fixture): Promise<number> {
  const started = performance.now();
  await database.withTenant(f.tenantId, async (tx) => {
    const all = Array.from({ length: ROWS }, (_, i) => row(f, i + 1, 'BASE'));
    const ids = new Map<string, number>();
    for (let start = 0; start < all.length; start += 500) {
      const created = await tx
        .insert(material)
        .values(
          all.slice(start, start + 500).map((r) => ({
            tenantId: f.tenantId,
            code: r.code,
            name: r.name,
            specification: r.specification,
            categoryId: f.categoryIds[r.categoryIndex],
            brandId: f.brandIds[r.brandIndex],
            tags: r.tags,
            batchNumber: r.batchNumber,
            length: r.length,
            weight: r.weight,
            purchasePrice: r.purchasePrice,
            salePrice: r.salePrice,
            createdBy: f.adminId,
          })),
        )
        .returning({ id: material.id, code: material.code });
      for (const c of created) ids.set(c.code, c.id);
    }
    for (let start = 0; start < all.length; start += 500) {
      await tx.insert(materialUnit).values(
        all.slice(start, start + 500).map((r) => ({ tenantId: f.tenantId, materialId: ids.get(r.code)!, unitId: f.unitIds[r.unitIndex], ratio: 1, barcode: r.barcode, isMain: true })),
      );
    }
  });
  return performance.now() - started;
}

async function main() {
  const scratch = await scratchDatabase({ prefix: 'p8_bench_import', poolSize: 4, keep: flags.keep, pglite: true });
  const { database, kind } = scratch;
  try {
    const config = loadConfig({ env: 'test', seedDemo: false, logLevel: 'silent', webDist: undefined });
    const app = await buildApp({ config, database, logger: false });
    const f = await seed(database, 'A');
    const login = await app.inject({ method: 'POST', url: '/api/auth/admin/name', payload: { name: f.adminName, password: BENCH_PASSWORD } });
    const token = (login.json() as { data: { token: string } }).data.token;

    const fileStarted = performance.now();
    const file = await buildFile(f, 'IMP');
    const fileMs = performance.now() - fileStarted;
    const form = multipart(file);

    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const res = await app.inject({ method: 'POST', url: '/api/admin/basic/material/import', headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType }, payload: form.payload });
    const importMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuStarted);
    const importCpuMs = (cpu.user + cpu.system) / 1000;
    const body = res.json() as { status: number; message: string; data: { total: number; successCount: number; errorCount: number; errList: unknown[] } };
    if (body.status !== 0 || body.data.successCount !== ROWS) throw new Error(`import failed: ${JSON.stringify({ ...body, data: { ...body.data, errList: body.data?.errList?.slice(0, 3) } })}`);

    const [{ count }] = await database.withTenant(f.tenantId, (tx) => rows<{ count: number }>(tx, sql`select count(*)::int as count from material where tenant_id = ${f.tenantId}`));
    console.log(`import of ${ROWS} rows: ${(importMs / 1000).toFixed(2)} s (file built in ${(fileMs / 1000).toFixed(2)} s); baseline running…`);
    const baselineMs = flags['no-baseline'] ? Number.NaN : await baseline(database, f);

    const result = {
      date: new Date().toISOString(),
      database: kind,
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
      rows: ROWS,
      fileBytes: file.length,
      fileBuildSeconds: +(fileMs / 1000).toFixed(2),
      importSeconds: +(importMs / 1000).toFixed(2),
      // CPU time of this process during the import (PGlite runs in it; PostgreSQL's own work is not counted):
      // on a busy machine the wall time includes waiting for a core, this does not.
      importCpuSeconds: +(importCpuMs / 1000).toFixed(2),
      loadAverage: os.loadavg().map((l) => +l.toFixed(1)),
      rowsPerSecond: Math.round(ROWS / (importMs / 1000)),
      baselineSeconds: +(baselineMs / 1000).toFixed(2),
      ratio: +(importMs / baselineMs).toFixed(2),
      targetSeconds: TARGET_SECONDS,
      withinTarget: importMs / 1000 < TARGET_SECONDS,
      saved: count,
    };
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(path.join(HERE, 'results'), { recursive: true });
    writeFileSync(path.join(HERE, 'results', `import-materials-${kind.split(' ')[0]}-${result.date.replace(/[:.]/g, '-')}.json`), `${JSON.stringify(result, null, 2)}\n`);
    await app.close();
  } finally {
    await scratch.close();
  }
}

await main();
