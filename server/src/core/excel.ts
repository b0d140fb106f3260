import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { ZodError } from 'zod';
import { isErrorKey, type ErrorKey } from '@p8/contract/errors';
import type { ImportResult } from '@p8/contract/upload';
import type { Config } from '../config.ts';
import type { Tx } from '../db/connection.ts';
import { BizError, databaseErrorOf, UNIQUE_VIOLATION_KEYS } from './errors.ts';
import { contentDisposition, discard, extensionOf, limitBytes, MB, receiveSingleFile } from './uploads.ts';
import { isCompoundFile, isEncryptedPackage, readXlsSheet } from './xls.ts';

/*
 * Excel import and export (DESIGN §3): `POST {path}/export` answers an .xlsx built by `exportXlsx`;
 * `POST {path}/import` reads one .xlsx or .xls (≤ 200 MB) and runs each row in its own savepoint, answering
 * the batch import result; templates are real .xlsx files served at /api/base/template/<key>.xlsx.
 *
 * .xlsx is read with exceljs; legacy .xls with our own BIFF8 reader (xls.ts), not SheetJS, whose npm
 * release (xlsx@0.18.5) carries known prototype-pollution and ReDoS CVEs (DESIGN §1: isolate or avoid).
 * Both give the same rows, so the importers do not know which format came in.
 */

export type Lang = 'zh' | 'en';

export interface ExcelColumn {
  /** Key of the row object. */
  prop: string;
  title: { zh: string; en: string };
  /** Marked with * in templates; an import whose header lacks it is refused (ImportTemplateError). */
  required?: boolean;
  /** Column width in characters. */
  width?: number;
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Language of a request's texts: `?lang=`, else Accept-Language (zh or cn → Chinese), else Chinese. */
export function langOf(req: Pick<FastifyRequest, 'headers' | 'query'>): Lang {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const wanted = String(query.lang ?? req.headers['accept-language'] ?? 'zh').toLowerCase();
  return wanted.startsWith('zh') || wanted.includes('cn') ? 'zh' : 'en';
}

function headerRow(sheet: ExcelJS.Worksheet, columns: ExcelColumn[], lang: Lang, markRequired: boolean) {
  sheet.columns = columns.map((c) => ({
    key: c.prop,
    header: `${markRequired && c.required ? '*' : ''}${c.title[lang]}`,
    width: c.width ?? Math.max(12, c.title[lang].length * (lang === 'zh' ? 2 : 1) + 4),
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF2F2F2' } };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
}

function exportCell(value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' || value instanceof Date) return value;
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

/** An .xlsx of the rows, one column per `columns` entry, titled in `lang`. */
export async function exportXlsx(columns: ExcelColumn[], rows: Array<Record<string, unknown>>, lang: Lang): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  const sheet = workbook.addWorksheet('Sheet1');
  headerRow(sheet, columns, lang, false);
  for (const row of rows) sheet.addRow(Object.fromEntries(columns.map((c) => [c.prop, exportCell(row[c.prop])])));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** An empty import template: the header row, required columns marked with *. */
export async function templateXlsx(columns: ExcelColumn[], lang: Lang = 'zh'): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  headerRow(sheet, columns, lang, true);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Sends an .xlsx download (exports and templates). */
export function sendXlsx(reply: FastifyReply, buffer: Buffer, filename: string) {
  return reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', contentDisposition('attachment', filename.endsWith('.xlsx') ? filename : `${filename}.xlsx`))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(buffer);
}

// ---------------------------------------------------------------- reading an import file

export interface ImportRow {
  /** Spreadsheet row number: the header is row 1, the first data row 2. */
  rowNum: number;
  data: Record<string, unknown>;
}

/** Limits of what an import file may unpack to: a zip bomb is refused before the parser sees it. */
const MAX_UNCOMPRESSED = 1024 * MB;
const MAX_RATIO = 100;
const MAX_ZIP_ENTRIES = 10_000;

/** Sum of the uncompressed sizes in a zip's central directory; undefined when it is not a plain zip. */
export function zipUncompressedSize(buffer: Buffer): { total: number; entries: number } | undefined {
  const floor = Math.max(0, buffer.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = buffer.length - 22; i >= floor; i--) {
    if (buffer.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const entries = buffer.readUInt16LE(eocd + 10);
  const cdOffset = buffer.readUInt32LE(eocd + 16);
  if (entries === 0xffff || cdOffset === 0xffffffff) return undefined; // ZIP64: no .xlsx we accept needs it
  let offset = cdOffset;
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > buffer.length || buffer.readUInt32LE(offset) !== 0x02014b50) return undefined;
    const size = buffer.readUInt32LE(offset + 24);
    if (size === 0xffffffff) return undefined;
    total += size;
    offset += 46 + buffer.readUInt16LE(offset + 28) + buffer.readUInt16LE(offset + 30) + buffer.readUInt16LE(offset + 32);
  }
  return { total, entries };
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function importCell(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) {
    // exceljs turns a date-formatted number beyond any date (1e12) into an invalid Date; as text, the
    // row's own checks refuse it with a catalogued message instead of toISOString throwing (a 500).
    if (Number.isNaN(value.getTime())) return 'Invalid Date';
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if ('richText' in value) return importCell(value.richText.map((t) => t.text).join(''));
  if ('error' in value) return undefined;
  if ('result' in value) return importCell((value as { result?: ExcelJS.CellValue }).result ?? null);
  if ('text' in value) return importCell(String((value as { text: unknown }).text));
  return undefined;
}

const normaliseTitle = (title: string) => title.replace(/^\s*\*/, '').trim().toLowerCase();

/** The rows of a sheet holding a value: row number and values by column (both 1-based; values sparse, as exceljs `row.values`). */
type SheetRows = Array<{ rowNum: number; values: readonly ExcelJS.CellValue[] }>;

/** The first worksheet of an .xlsx, after the checks that keep a zip bomb from the parser; undefined when it has none. */
async function xlsxSheetRows(buffer: Buffer, ext: string, maxBytes: number): Promise<SheetRows | undefined> {
  const sniffed = await fileTypeFromBuffer(buffer);
  if (!sniffed || (sniffed.ext !== 'xlsx' && sniffed.ext !== 'zip')) throw new BizError('ImportFileTypeError', { additional: ext });
  const zip = zipUncompressedSize(buffer);
  if (!zip) throw new BizError('ImportFileTypeError', { additional: ext });
  if (zip.entries > MAX_ZIP_ENTRIES || zip.total > MAX_UNCOMPRESSED || zip.total > buffer.length * MAX_RATIO) {
    throw new BizError('UploadSizeExceeded', { additional: `${maxBytes / MB}MB` });
  }

  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw new BizError('ImportFileTypeError', { additional: ext });
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return undefined;
  const rows: SheetRows = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNum) => rows.push({ rowNum, values: row.values as ExcelJS.CellValue[] }));
  return rows;
}

/**
 * The rows of the first sheet of an .xlsx or .xls. With `columns`, header cells (zh or en title, or the
 * prop; a leading * ignored) map to props and a missing required column is ImportTemplateError; without,
 * rows are keyed by the header text. Empty rows are skipped; no data row at all is ImportFileEmpty.
 */
export async function readImportFile(buffer: Buffer, filename: string, options: { columns?: ExcelColumn[]; maxBytes?: number } = {}): Promise<ImportRow[]> {
  const ext = extensionOf(filename);
  if (ext !== 'xlsx' && ext !== 'xls') throw new BizError('ImportFileTypeError', { additional: ext || filename });
  const maxBytes = options.maxBytes ?? 200 * MB;
  if (buffer.length > maxBytes) throw new BizError('UploadSizeExceeded', { additional: `${maxBytes / MB}MB` });
  // The bytes choose the reader (.xls is a compound file, .xlsx a zip) and the name must agree with them,
  // as for every upload: an .xlsx renamed .xls is refused, not guessed at.
  const compound = isCompoundFile(buffer);
  if (compound && ext === 'xlsx' && isEncryptedPackage(buffer)) throw new BizError('ImportFileEncrypted');
  if (compound !== (ext === 'xls')) throw new BizError('ImportFileTypeError', { additional: ext });
  const sheetRows = compound ? readXlsSheet(buffer)?.rows : await xlsxSheetRows(buffer, ext, maxBytes);
  if (!sheetRows) throw new BizError('ImportFileEmpty');

  // Column index → key.
  const keys = new Map<number, string>();
  const headerCells = new Map<string, number>();
  const header = sheetRows.find((row) => row.rowNum === 1)?.values ?? [];
  header.forEach((value, col) => {
    const text = importCell(value);
    if (text !== undefined) headerCells.set(normaliseTitle(String(text)), col);
  });
  if (options.columns) {
    for (const column of options.columns) {
      const col = [column.title.zh, column.title.en, column.prop].map(normaliseTitle).map((t) => headerCells.get(t)).find((c) => c !== undefined);
      if (col !== undefined) keys.set(col, column.prop);
      else if (column.required) throw new BizError('ImportTemplateError', { additional: column.title.zh });
    }
  } else {
    header.forEach((value, col) => {
      const text = importCell(value);
      if (text !== undefined && !FORBIDDEN_KEYS.has(String(text))) keys.set(col, String(text));
    });
  }

  const rows: ImportRow[] = [];
  for (const { rowNum, values } of sheetRows) {
    if (rowNum === 1) continue;
    const data: Record<string, unknown> = {};
    let filled = false;
    for (const [col, key] of keys) {
      const value = importCell(values[col]);
      if (value !== undefined) {
        data[key] = value;
        filled = true;
      }
    }
    if (filled) rows.push({ rowNum, data });
  }
  if (!rows.length) throw new BizError('ImportFileEmpty');
  return rows;
}

/** Receives the one file of `POST {path}/import` (≤ config `upload.excelMaxMb`) and reads it. */
export async function receiveImportFile(req: FastifyRequest, config: Config, columns?: ExcelColumn[]): Promise<ImportRow[]> {
  const maxBytes = limitBytes(config, 'excel');
  const file = await receiveSingleFile(req, config, maxBytes);
  try {
    return await readImportFile(await readFile(file.path), file.filename, { columns, maxBytes });
  } finally {
    await discard(file);
  }
}

/** The catalogue key of a row that failed. */
export function importErrorKey(error: unknown): ErrorKey {
  if (error instanceof BizError) return error.key;
  if (error instanceof ZodError) {
    const message = error.issues[0]?.message ?? '';
    return isErrorKey(message) ? message : 'BadRequest';
  }
  const db = databaseErrorOf(error);
  if (db?.code === '23505' && db.constraint && UNIQUE_VIOLATION_KEYS[db.constraint]) return UNIQUE_VIOLATION_KEYS[db.constraint];
  return 'ImportFailed';
}

/**
 * Runs `handleRow` for every row, each in its own savepoint of the request's transaction: a bad row rolls
 * back only itself and is reported with its row number and catalogue key; good rows are kept.
 */
export async function runImport(
  tx: Tx,
  rows: ImportRow[],
  handleRow: (tx: Tx, row: ImportRow) => Promise<unknown>,
  onUnexpected?: (error: unknown, row: ImportRow) => void,
): Promise<ImportResult> {
  const result: ImportResult = { total: rows.length, successCount: 0, errorCount: 0, errList: [] };
  for (const row of rows) {
    try {
      await tx.transaction(async (savepoint) => {
        await handleRow(savepoint as unknown as Tx, row);
      });
      result.successCount++;
    } catch (error) {
      const errorMsg = importErrorKey(error);
      if (errorMsg === 'ImportFailed') onUnexpected?.(error, row);
      result.errorCount++;
      result.errList.push({ rowNum: row.rowNum, data: row.data, errorMsg });
    }
  }
  return result;
}
