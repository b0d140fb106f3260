import { createReadStream } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import ExcelJS from 'exceljs';
import { firstWorksheetRows } from './xlsx-stream-reader.ts';
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
import { batchOf, detachedImportJob, type ImportJob } from './import-job.ts';
import type { ImportBatches } from './staged-import.ts';
import { bufferSource, checkZip, fileSource, zipLimits, type ByteSource } from './zip-guard.ts';

/*
 * Excel import and export: `POST {path}/export` answers an .xlsx built by `exportXlsx`;
 * `POST {path}/import` reads one .xlsx or .xls (≤ 200 MB) and runs each row in its own savepoint, answering
 * the batch import result; templates are real .xlsx files served at /api/base/template/<key>.xlsx.
 *
 * .xlsx is read with exceljs; legacy .xls with our own BIFF8 reader (xls.ts), not SheetJS, whose npm
 * release (xlsx@0.18.5) carries known prototype-pollution and ReDoS CVEs: we avoid it (docs/decisions.md).
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

/** Exports are capped: beyond this a user should narrow the query. */
export const EXPORT_MAX_ROWS = 50_000;

/** The list query of an export: the query string and the JSON body (the body wins), paging dropped. */
export function exportQuery(req: Pick<FastifyRequest, 'query' | 'body'>): Record<string, unknown> {
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  const merged: Record<string, unknown> = { ...(req.query as Record<string, unknown>), ...body };
  for (const [k, v] of Object.entries(merged)) {
    if (typeof v === 'number' || typeof v === 'boolean') merged[k] = String(v);
    else if (Array.isArray(v)) merged[k] = v.map(String).join(',');
    else if (typeof v !== 'string') delete merged[k];
  }
  delete merged.current;
  delete merged.pageSize;
  return merged;
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

/** The values of one sheet row by column (1-based, sparse, as exceljs `row.values`). */
type SheetRow = { rowNum: number; values: readonly ExcelJS.CellValue[] };

/** Reading limits of an import, from the config (`import.*`). */
export interface ImportReadLimits {
  /** Data rows per import (ImportRowLimitExceeded beyond). */
  maxRows: number;
  /** What an .xlsx may unpack to (ImportUnpackedSizeExceeded beyond). */
  maxUnpackedMb: number;
}

export const DEFAULT_READ_LIMITS: ImportReadLimits = { maxRows: 100_000, maxUnpackedMb: 256 };

export interface ImportReadOptions {
  columns?: ExcelColumn[];
  /** File size limit (UploadSizeExceeded beyond). */
  maxBytes?: number;
  limits?: ImportReadLimits;
  /** Aborted when the server shuts down: reading stops with ImportCancelled. */
  signal?: AbortSignal;
  /** Told the number of data rows read so far, every batch. */
  onProgress?: (rowsRead: number) => void;
}

/** Rows between two turns of the event loop while reading and checking an import. */
export const IMPORT_BATCH_ROWS = 1000;

/** Lets other requests' work run: the reading and checking of a big import never holds the event loop for long. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function throwIfCancelled(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw new BizError('ImportCancelled');
}

/**
 * The rows of the first worksheet of an .xlsx, streamed (exceljs' reader, fed part by part from the zip's
 * directory: xlsx-stream-reader.ts), after `checkZip` has proved that nothing in it unpacks beyond the limits.
 */
async function* xlsxSheetRows(source: ByteSource, limits: ImportReadLimits, signal?: AbortSignal): AsyncGenerator<SheetRow> {
  const head = await source.read(0, 4100);
  const sniffed = await fileTypeFromBuffer(head);
  if (!sniffed || (sniffed.ext !== 'xlsx' && sniffed.ext !== 'zip')) throw new BizError('ImportFileTypeError', { additional: 'xlsx' });
  const zip = await checkZip(source, zipLimits(limits.maxUnpackedMb), signal);
  try {
    for await (const row of firstWorksheetRows(zip, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' })) {
      if (row.hasValues) yield { rowNum: row.number, values: row.values as ExcelJS.CellValue[] };
    }
  } catch (error) {
    if (error instanceof BizError) throw error;
    // Malformed XML inside a well-formed zip: not a workbook we can read. The parser's words go along as
    // the remark, so a refusal of a file that looks honest can be traced.
    throw new BizError('ImportFileTypeError', { additional: 'xlsx', remark: String((error as Error)?.message ?? error).slice(0, 200) });
  }
}

/** The rows of the first worksheet of an .xls (BIFF8 holds at most 65,536 rows; xls.ts bounds the cells). */
async function* xlsSheetRows(source: ByteSource): AsyncGenerator<SheetRow> {
  const sheet = readXlsSheet(await source.read(0, source.size));
  if (sheet) yield* sheet.rows;
}

/**
 * The data rows of the first sheet of an .xlsx or .xls (a buffer, or the path of an uploaded file), one by
 * one as they are read: nothing but the current row is kept, so a caller that checks or writes each row as
 * it comes holds no more than its own batch. With `columns`, header cells (zh or en title, or the prop; a
 * leading * ignored) map to props and a missing required column is ImportTemplateError; without, rows are
 * keyed by the header text. Empty rows are skipped; no data row at all is ImportFileEmpty; more than
 * `limits.maxRows` is ImportRowLimitExceeded (thrown when the row beyond the limit is reached). Every
 * `IMPORT_BATCH_ROWS` rows it lets the event loop turn and looks at the shutdown signal.
 */
export async function* importRows(input: Buffer | string, filename: string, options: ImportReadOptions = {}): AsyncGenerator<ImportRow> {
  const ext = extensionOf(filename);
  if (ext !== 'xlsx' && ext !== 'xls') throw new BizError('ImportFileTypeError', { additional: ext || filename });
  const maxBytes = options.maxBytes ?? 200 * MB;
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  const source = typeof input === 'string' ? await fileSource(input) : bufferSource(input);
  try {
    if (source.size > maxBytes) throw new BizError('UploadSizeExceeded', { additional: `${maxBytes / MB}MB` });
    // The bytes choose the reader (.xls is a compound file, .xlsx a zip) and the name must agree with them,
    // as for every upload: an .xlsx renamed .xls is refused, not guessed at.
    const head = await source.read(0, 8);
    const compound = isCompoundFile(head);
    if (compound && ext === 'xlsx' && isEncryptedPackage(await source.read(0, source.size))) throw new BizError('ImportFileEncrypted');
    if (compound !== (ext === 'xls')) throw new BizError('ImportFileTypeError', { additional: ext });
    const sheetRows = compound ? xlsSheetRows(source) : xlsxSheetRows(source, limits, options.signal);

    let keys: Map<number, string> | undefined;
    let count = 0;
    let seen = 0;
    for await (const { rowNum, values } of sheetRows) {
      if (++seen % IMPORT_BATCH_ROWS === 0) {
        options.onProgress?.(count);
        await yieldToEventLoop();
        throwIfCancelled(options.signal);
      }
      if (!keys) {
        // The header is row 1; a sheet whose first row is empty has no header at all.
        keys = columnKeys(rowNum === 1 ? values : [], options.columns);
        if (rowNum === 1) continue;
      }
      const data: Record<string, unknown> = {};
      let filled = false;
      for (const [col, key] of keys) {
        const value = importCell(values[col]);
        if (value !== undefined) {
          data[key] = value;
          filled = true;
        }
      }
      if (!filled) continue;
      if (count >= limits.maxRows) throw new BizError('ImportRowLimitExceeded', { additional: limits.maxRows });
      count++;
      yield { rowNum, data };
    }
    if (!count) throw new BizError('ImportFileEmpty');
    options.onProgress?.(count);
  } finally {
    await source.close();
  }
}

/** All data rows of an import file at once (`importRows` collected): for the record imports of modest size. */
export async function readImportFile(input: Buffer | string, filename: string, options: ImportReadOptions = {}): Promise<ImportRow[]> {
  const rows: ImportRow[] = [];
  for await (const row of importRows(input, filename, options)) rows.push(row);
  return rows;
}

/** Column index → row key, from the header row's cells. */
function columnKeys(header: readonly ExcelJS.CellValue[], columns: ExcelColumn[] | undefined): Map<number, string> {
  const keys = new Map<number, string>();
  const headerCells = new Map<string, number>();
  header.forEach((value, col) => {
    const text = importCell(value);
    if (text !== undefined) headerCells.set(normaliseTitle(String(text)), col);
  });
  if (columns) {
    for (const column of columns) {
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
  return keys;
}

/**
 * Checked rows set aside on disk, one JSON line each, until the write transaction reads them back in the
 * order they were added: a big import holds neither its rows nor their checked form in memory, and its
 * write transaction does not parse the spreadsheet again (that would lengthen the time it holds the
 * embedded database's only connection). Values must survive JSON (no Dates, no undefined that matters).
 */
export class RowSpill<T> {
  private pending: string[] = [];
  private handle: FileHandle | undefined;
  private count = 0;
  constructor(readonly path: string) {}

  get size() {
    return this.count;
  }

  async add(row: T): Promise<void> {
    this.pending.push(JSON.stringify(row));
    this.count++;
    if (this.pending.length >= IMPORT_BATCH_ROWS) await this.flush();
  }

  private async flush() {
    if (!this.pending.length) return;
    this.handle ??= await open(this.path, 'wx', 0o600);
    await this.handle.write(`${this.pending.join('\n')}\n`);
    this.pending = [];
  }

  /** The rows added, in order (call once everything is added). */
  async *rows(): AsyncGenerator<T> {
    await this.flush();
    await this.handle?.close();
    this.handle = undefined;
    if (!this.count) return;
    const lines = createInterface({ input: createReadStream(this.path, { encoding: 'utf8' }), crlfDelay: Infinity });
    try {
      for await (const line of lines) if (line) yield JSON.parse(line) as T;
    } finally {
      lines.close();
    }
  }

  async discard() {
    await this.handle?.close().catch(() => {});
    await unlink(this.path).catch(() => {});
  }
}

/** The uploaded file of an import, on disk while the import runs. */
export interface ImportUpload {
  /** Streams its rows (`importRows`), reporting `rowsRead` to the job. */
  rows(): AsyncGenerator<ImportRow>;
  /** A `RowSpill` beside the upload, deleted with it. */
  spill<T>(): RowSpill<T>;
}

/**
 * Receives the one file of `POST {path}/import` (≤ config `upload.excelMaxMb`) and hands it to `use` as an
 * `ImportUpload` read within the config's import limits; the file and its spills are deleted when `use` ends.
 */
export async function withImportUpload<T>(req: FastifyRequest, config: Config, columns: ExcelColumn[] | undefined, job: ImportJob, use: (upload: ImportUpload) => Promise<T>): Promise<T> {
  const maxBytes = limitBytes(config, 'excel');
  const file = await receiveSingleFile(req, config, maxBytes);
  const spills: Array<RowSpill<unknown>> = [];
  // The import's result names a refused cell's column by its title.
  if (columns) job.columns = columns;
  try {
    job.report({ phase: 'reading' });
    return await use({
      rows: () => importRows(file.path, file.filename, { columns, maxBytes, limits: config.import, signal: job.signal, onProgress: (rowsRead) => job.report({ rowsRead }) }),
      spill<R>() {
        const spill = new RowSpill<R>(`${file.path}.${spills.length}.rows`);
        spills.push(spill as RowSpill<unknown>);
        return spill;
      },
    });
  } finally {
    for (const spill of spills) await spill.discard();
    await discard(file);
  }
}

/**
 * Receives the one file of `POST {path}/import` and reads all its rows within the config's import limits,
 * reporting to the import's job.
 */
export async function receiveImportFile(req: FastifyRequest, config: Config, columns?: ExcelColumn[], job: ImportJob = detachedImportJob(config.import.maxErrors)): Promise<ImportRow[]> {
  return withImportUpload(req, config, columns, job, async (upload) => {
    const rows: ImportRow[] = [];
    for await (const row of upload.rows()) rows.push(row);
    job.report({ total: rows.length });
    return rows;
  });
}

/**
 * Receives the one file of `POST {path}/import`, reads its rows within the config's import limits into a
 * `RowSpill` (so memory holds one batch of them, whatever the file's size) and hands that to `use`.
 */
export function withSpilledImport<T>(req: FastifyRequest, config: Config, columns: ExcelColumn[], job: ImportJob, use: (rows: RowSpill<ImportRow>) => Promise<T>): Promise<T> {
  return withImportUpload(req, config, columns, job, async (upload) => {
    const rows = upload.spill<ImportRow>();
    for await (const row of upload.rows()) await rows.add(row);
    job.report({ total: rows.size });
    return use(rows);
  });
}

/** The rows of an import: all in memory, or spilled to disk. */
export type ImportRows = ImportRow[] | RowSpill<ImportRow>;
const countOf = (rows: ImportRows) => (Array.isArray(rows) ? rows.length : rows.size);
const each = (rows: ImportRows): Iterable<ImportRow> | AsyncIterable<ImportRow> => (Array.isArray(rows) ? rows : rows.rows());

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

/** Why a row failed: the catalogue key and, when the failure concerns one cell, that cell's column (row key). */
export interface ImportFailure {
  errorMsg: ErrorKey;
  column?: string;
}

const cellTextOf = (value: unknown) => (value === undefined || value === null ? '' : value instanceof Date ? value.toISOString() : String(value).trim());

/**
 * A row's failure with the cell it concerns, so that the result can say where to look: a schema refusal
 * names its field (the template's column of the same name, if any), a business refusal names the value it could not use
 * (`additional`: a cell parser's text, a unit or category that does not exist…) — the column is the first of
 * the row whose cell holds exactly that text.
 */
export function importFailure(error: unknown, row: ImportRow): ImportFailure {
  const errorMsg = importErrorKey(error);
  if (error instanceof ZodError) {
    // The field's column when the template has one of that name (an empty cell is no key of the row).
    const field = error.issues[0]?.path[0];
    return typeof field === 'string' ? { errorMsg, column: field } : { errorMsg };
  }
  if (error instanceof BizError && error.additional !== undefined) {
    const wanted = error.additional.trim();
    const column = wanted ? Object.keys(row.data).find((key) => cellTextOf(row.data[key]) === wanted) : undefined;
    return column ? { errorMsg, column } : { errorMsg };
  }
  return { errorMsg };
}

const MAX_ERROR_VALUE = 100;

/** An import's result while its rows are processed: every error counted, the first `maxErrors` listed. */
export class ImportOutcome {
  readonly result: ImportResult;
  /** The import's columns: a failure's column is listed by its title. */
  private readonly titles: Map<string, { zh: string; en: string }>;
  constructor(
    total: number,
    private readonly maxErrors: number,
    columns: readonly ExcelColumn[] = [],
  ) {
    this.result = { total, successCount: 0, errorCount: 0, errList: [] };
    this.titles = new Map(columns.map((c) => [c.prop, c.title]));
  }

  /** The number of data rows, once a streamed import has read them all. */
  setTotal(total: number) {
    this.result.total = total;
  }

  succeeded(count = 1) {
    this.result.successCount += count;
  }

  /** A refused row: by its key alone, or with the cell it concerns (`importFailure`). */
  failed(row: ImportRow, failure: ErrorKey | ImportFailure) {
    this.result.errorCount++;
    if (this.result.errList.length >= this.maxErrors) return;
    const { errorMsg, column } = typeof failure === 'string' ? { errorMsg: failure, column: undefined } : failure;
    const title = column === undefined ? undefined : this.titles.get(column);
    const value = column === undefined ? '' : cellTextOf(row.data[column]);
    this.result.errList.push({
      rowNum: row.rowNum,
      data: row.data,
      errorMsg,
      ...(title ? { column: title } : {}),
      ...(title && value ? { value: value.length > MAX_ERROR_VALUE ? `${value.slice(0, MAX_ERROR_VALUE)}…` : value } : {}),
    });
  }

  /** Ends the result: errors in row order (the listed ones are the first of the file when rows were handled in order). */
  finish(): ImportResult {
    this.result.errList.sort((a, b) => a.rowNum - b.rowNum);
    return this.result;
  }
}

/**
 * Runs `handleRow` for every row, each in its own savepoint of the request's transaction: a bad row rolls
 * back only itself and is reported with its row number and catalogue key; good rows are kept. Between
 * batches it lets the event loop turn and stops with ImportCancelled when the server shuts down (the
 * transaction then rolls back as a whole).
 */
export async function importRowByRow(
  tx: Tx,
  rows: ImportRows,
  handleRow: (tx: Tx, row: ImportRow) => Promise<unknown>,
  outcome: ImportOutcome,
  onUnexpected: ((error: unknown, row: ImportRow) => void) | undefined,
  job: ImportJob,
): Promise<void> {
  job.report({ phase: 'writing' });
  let index = 0;
  for await (const row of each(rows)) {
    if (index++ % IMPORT_BATCH_ROWS === 0 && index > 1) {
      job.report({ rowsChecked: index - 1, rowsWritten: index - 1 });
      await yieldToEventLoop();
      throwIfCancelled(job.signal);
    }
    try {
      await tx.transaction(async (savepoint) => {
        await handleRow(savepoint as unknown as Tx, row);
      });
      outcome.succeeded();
    } catch (error) {
      const failure = importFailure(error, row);
      if (failure.errorMsg === 'ImportFailed') onUnexpected?.(error, row);
      outcome.failed(row, failure);
    }
  }
  job.report({ rowsChecked: index, rowsWritten: index });
}

/**
 * `importRowByRow` over all rows of an import, `job.rowsPerBatch` rows per batch, answering its batch
 * import result. `batches` runs each batch: in the import's one transaction (PostgreSQL, whose pool serves
 * the others meanwhile) or in a staged transaction of its own whose rows stay hidden until the import is
 * published (PGlite). Only the batch in hand is held in memory.
 */
export async function runImportInBatches(
  batches: ImportBatches,
  rows: ImportRows,
  handleRow: (tx: Tx, row: ImportRow) => Promise<unknown>,
  onUnexpected?: (error: unknown, row: ImportRow) => void,
  job: ImportJob = detachedImportJob(),
): Promise<ImportResult> {
  const outcome = new ImportOutcome(countOf(rows), job.maxErrors, job.columns);
  const quiet = batchOf(job);
  job.report({ phase: 'writing' });
  let written = 0;
  let batch: ImportRow[] = [];
  const writeBatch = async () => {
    const these = batch;
    batch = [];
    await batches((tx) => importRowByRow(tx, these, handleRow, outcome, onUnexpected, quiet));
    written += these.length;
    job.report({ rowsChecked: written, rowsWritten: written });
    await job.checkpoint();
  };
  for await (const row of each(rows)) {
    batch.push(row);
    if (batch.length >= job.rowsPerBatch) await writeBatch();
  }
  if (batch.length) await writeBatch();
  return outcome.finish();
}

/** `runImportInBatches` inside one transaction. */
export const runImport = (
  tx: Tx,
  rows: ImportRows,
  handleRow: (tx: Tx, row: ImportRow) => Promise<unknown>,
  onUnexpected?: (error: unknown, row: ImportRow) => void,
  job: ImportJob = detachedImportJob(),
): Promise<ImportResult> => runImportInBatches((fn) => fn(tx), rows, handleRow, onUnexpected, job);

/**
 * An import whose rows were checked outside any transaction: `write` applies the good ones batch by batch
 * (`batches`: the route's one transaction on PostgreSQL, a hidden staged transaction each on PGlite —
 * core/staged-import.ts), marking its rows with `importJob` when given, and adds what the database still
 * refuses to `outcome`.
 */
export interface PreparedImport {
  outcome: ImportOutcome;
  write(batches: ImportBatches, importJob: number | null): Promise<void>;
}
