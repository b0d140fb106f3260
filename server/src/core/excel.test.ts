import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { registerEnvelopeHandlers } from './envelope.ts';
import { exportXlsx, importRows, readImportFile, receiveImportFile, RowSpill, sendXlsx, templateXlsx, type ExcelColumn } from './excel.ts';
import { multipartPlugin } from './uploads.ts';
import { ok } from './envelope.ts';
import { multipart } from '../../test/office-fixtures.ts';
import { zipOf } from '../../test/zip-fixtures.ts';

const columns: ExcelColumn[] = [
  { prop: 'name', title: { zh: '名称', en: 'Name' }, required: true },
  { prop: 'qty', title: { zh: '数量', en: 'Quantity' } },
  { prop: 'date', title: { zh: '日期', en: 'Date' } },
];

async function sheetOf(buffer: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  return workbook.worksheets[0];
}

/** A workbook written cell by cell, for the import side. */
async function workbookOf(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('data');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('Excel export and templates', () => {
  it('reads multi-byte text whole however the unzipped sheet is cut into chunks (inline and shared strings)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'p8-xlsx-utf8-'));
    try {
      const columns: ExcelColumn[] = [{ prop: 'code', title: { zh: '编码', en: 'Code' } }, { prop: 'tags', title: { zh: '业务属性', en: 'Tags' } }];
      const rows = Array.from({ length: 30_000 }, (_, i) => ({ code: `C${i}`, tags: ['生产', '销售,采购', '委外加工', '耗材'][i % 4] }));
      for (const useSharedStrings of [false, true]) {
        const file = path.join(dir, `utf8-${useSharedStrings}.xlsx`);
        const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings });
        const sheet = writer.addWorksheet('Sheet1');
        sheet.addRow(['编码', '业务属性']).commit();
        for (const r of rows) sheet.addRow([r.code, r.tags]).commit();
        sheet.commit();
        await writer.commit();
        const back = await readImportFile(file, 'utf8.xlsx', { columns });
        expect(back.length).toBe(rows.length);
        const broken = back.filter((r, i) => r.data.tags !== rows[i].tags);
        expect(broken.slice(0, 3), `useSharedStrings: ${useSharedStrings}`).toEqual([]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exports rows under titles in the asked language and reads them back unchanged', async () => {
    const rows = [
      { name: '螺丝 M3', qty: 12.5, date: '2026-01-31', ignored: 'x' },
      { name: '=HYPERLINK("http://evil")', qty: 0, date: null },
    ];
    const zh = await sheetOf(await exportXlsx(columns, rows, 'zh'));
    expect(zh.getRow(1).values).toEqual([undefined, '名称', '数量', '日期']);
    const en = await exportXlsx(columns, rows, 'en');
    expect((await sheetOf(en)).getRow(1).values).toEqual([undefined, 'Name', 'Quantity', 'Date']);
    // A text that looks like a formula stays text.
    expect((await sheetOf(en)).getRow(3).getCell(1).value).toBe('=HYPERLINK("http://evil")');

    const back = await readImportFile(en, 'export.xlsx', { columns });
    expect(back).toEqual([
      { rowNum: 2, data: { name: '螺丝 M3', qty: 12.5, date: '2026-01-31' } },
      { rowNum: 3, data: { name: '=HYPERLINK("http://evil")', qty: 0 } },
    ]);
  });

  it('makes a template with the header row only, required columns starred, that imports as a template', async () => {
    const sheet = await sheetOf(await templateXlsx(columns, 'zh'));
    expect(sheet.getRow(1).values).toEqual([undefined, '*名称', '数量', '日期']);
    expect(sheet.rowCount).toBe(1);
    sheet.addRow(['bolt', 3]);
    const workbook = sheet.workbook;
    const filled = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(await readImportFile(filled, 'filled.xlsx', { columns })).toEqual([{ rowNum: 2, data: { name: 'bolt', qty: 3 } }]);
  });

  it('sends a download with the xlsx type and a UTF-8 file name', async () => {
    const app = Fastify();
    app.get('/x', (_req, reply) => sendXlsx(reply, Buffer.from('x'), '员工列表'));
    const res = await app.inject({ method: 'GET', url: '/x' });
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('员工列表.xlsx')}`);
    await app.close();
  });
});

describe('reading an import file', () => {
  it('maps zh or en headers to props, skips empty rows, reads dates, formulas and rich text', async () => {
    const buffer = await workbookOf([
      ['Quantity', '*名称', 'Unknown', '日期'],
      [5, '  padded  ', 'x', new Date(Date.UTC(2026, 2, 1))],
      [],
      [null, null, 'only an unknown column'],
      [{ formula: '2*3', result: 6 }, { richText: [{ text: 'ri' }, { text: 'ch' }] }],
    ]);
    expect(await readImportFile(buffer, 'in.xlsx', { columns })).toEqual([
      { rowNum: 2, data: { qty: 5, name: 'padded', date: '2026-03-01' } },
      { rowNum: 5, data: { qty: 6, name: 'rich' } },
    ]);
  });

  it('answers a date-formatted number beyond any date as text the row checks can refuse, not with a 500', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('data');
    sheet.addRow(['名称', '日期']);
    sheet.addRow(['far', 1e12]).getCell(2).numFmt = 'yyyy-mm-dd';
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(await readImportFile(buffer, 'in.xlsx', { columns })).toEqual([{ rowNum: 2, data: { name: 'far', date: 'Invalid Date' } }]);
  });

  it('keys rows by header text without columns, never by __proto__', async () => {
    const buffer = await workbookOf([
      ['a', '__proto__'],
      [1, 'polluted'],
    ]);
    const rows = await readImportFile(buffer, 'in.xlsx');
    expect(rows).toEqual([{ rowNum: 2, data: { a: 1 } }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a template without a required column, an empty sheet, and files that are not xlsx', async () => {
    await expect(readImportFile(await workbookOf([['数量'], [1]]), 'in.xlsx', { columns })).rejects.toMatchObject({ key: 'ImportTemplateError', additional: '名称' });
    await expect(readImportFile(await workbookOf([['名称']]), 'in.xlsx', { columns })).rejects.toMatchObject({ key: 'ImportFileEmpty' });
    const xlsx = await workbookOf([['名称'], ['a']]);
    await expect(readImportFile(xlsx, 'in.xls')).rejects.toMatchObject({ key: 'ImportFileTypeError', additional: 'xls' });
    await expect(readImportFile(xlsx, 'in.csv')).rejects.toMatchObject({ key: 'ImportFileTypeError' });
    await expect(readImportFile(Buffer.from('name\na\n'), 'in.xlsx')).rejects.toMatchObject({ key: 'ImportFileTypeError' });
    await expect(readImportFile(xlsx, 'in.xlsx', { maxBytes: 100 })).rejects.toMatchObject({ key: 'UploadSizeExceeded' });
  });

  it('refuses a zip bomb from its central directory, before unpacking it', async () => {
    // One entry of 50 MB of zeros deflates to ~50 KB: a ratio far beyond any spreadsheet.
    const bomb = zipOf([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(50 * 1024 * 1024) }]);
    await expect(readImportFile(bomb, 'bomb.xlsx')).rejects.toMatchObject({ key: 'ImportUnpackedSizeExceeded', additional: '256MB' });
  });
});

describe('receiving an import upload', () => {
  let dataDir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'p8-excel-'));
    const config = loadConfig({ dataDir, upload: { type: 'location', domain: '', imageMaxMb: 5, fileMaxMb: 500, excelMaxMb: 1, orphanHours: 24 } });
    app = Fastify();
    registerEnvelopeHandlers(app);
    await app.register(multipartPlugin, { config });
    app.post('/import', async (req) => ok(await receiveImportFile(req, config, columns)));
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const post = (parts: Parameters<typeof multipart>[0]) => {
    const form = multipart(parts);
    return app.inject({ method: 'POST', url: '/import', headers: form.headers, payload: form.payload });
  };

  it('reads one .xlsx and leaves no temporary file behind', async () => {
    const res = await post([{ name: 'file', filename: '导入.xlsx', content: await workbookOf([['名称'], ['a'], ['b']]) }]);
    expect(res.json().data).toEqual([
      { rowNum: 2, data: { name: 'a' } },
      { rowNum: 3, data: { name: 'b' } },
    ]);
    expect(await readdir(path.join(dataDir, 'uploads', '.tmp'))).toEqual([]);
  });

  it('takes one file at a time, at most the Excel limit, and only real workbooks', async () => {
    const xlsx = await workbookOf([['名称'], ['a']]);
    const two = await post([
      { name: 'file', filename: 'a.xlsx', content: xlsx },
      { name: 'file', filename: 'b.xlsx', content: xlsx },
    ]);
    expect(two.json()).toMatchObject({ status: 40001, message: 'UploadCountExceeded' });
    const big = await post([{ name: 'file', filename: 'a.xlsx', content: Buffer.alloc(1024 * 1024 + 1) }]);
    expect(big.json()).toMatchObject({ status: 40001, message: 'UploadSizeExceeded', additional: '1MB' });
    const xls = await post([{ name: 'file', filename: 'old.xls', content: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...Buffer.alloc(600)]) }]);
    expect(xls.json()).toMatchObject({ status: 40001, message: 'ImportFileTypeError', additional: 'xls' });
    const none = await app.inject({ method: 'POST', url: '/import', payload: { a: 1 } });
    expect(none.json()).toMatchObject({ status: 40001, message: 'PleaseSelectFile' });
    expect(await readdir(path.join(dataDir, 'uploads', '.tmp'))).toEqual([]);
  });
});

describe('streamed import rows', () => {
  it('hands rows over one by one: a consumer sees the first rows before the limit refuses the file', async () => {
    const file = await workbookOf([['名称'], ...Array.from({ length: 30 }, (_, i) => [`n${i}`])]);
    const seen: string[] = [];
    const reading = (async () => {
      for await (const row of importRows(file, 'in.xlsx', { columns, limits: { maxRows: 20, maxUnpackedMb: 256 } })) seen.push(String(row.data.name));
    })();
    await expect(reading).rejects.toMatchObject({ key: 'ImportRowLimitExceeded', additional: '20' });
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => `n${i}`));
  });

  it('spills rows to disk and reads them back in order, across write batches, then deletes the file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'p8-spill-'));
    try {
      const spill = new RowSpill<{ rowNum: number; data: Record<string, unknown> }>(path.join(dir, 'rows'));
      const rows = Array.from({ length: 2500 }, (_, i) => ({ rowNum: i + 2, data: { name: `名称 ${i}\n"quoted"`, qty: i / 3, on: i % 2 === 0 } }));
      for (const row of rows) await spill.add(row);
      expect(spill.size).toBe(rows.length);
      const back = [];
      for await (const row of spill.rows()) back.push(row);
      expect(back).toEqual(rows);
      await spill.discard();
      expect(await readdir(dir)).toEqual([]);
      // Nothing added: nothing read, no file made.
      const empty = new RowSpill(path.join(dir, 'empty'));
      for await (const row of empty.rows()) throw new Error(`unexpected ${JSON.stringify(row)}`);
      await empty.discard();
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
