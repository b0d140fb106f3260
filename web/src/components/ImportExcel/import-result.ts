import type { BackgroundJobView } from '@p8/contract/system';
import type { ImportError, ImportResult } from '@p8/contract/upload';
import { EXCEL_MAX_MB, EXCEL_TYPES, formatSize, isAccepted, MB } from '../Upload/rules.ts';

export type { ImportResult } from '@p8/contract/upload';

/**
 * The Excel import's rules and result: one xls or xlsx file of at
 * most 200 MB; the answer `{ total, successCount, errorCount, errList: [{ rowNum, data, errorMsg }] }`
 * becomes a notice whose row errors are translated by `error.{errorMsg}`. Pure; tested.
 */
export type ImportViolation = { key: 'wrongType' } | { key: 'tooBig'; size: string } | { key: 'onlyOne' };

/** The first rule the picked files break, or null. */
export function checkImportFiles(files: ReadonlyArray<{ name: string; size: number; type?: string }>, maxSizeMB = EXCEL_MAX_MB): ImportViolation | null {
  if (files.length > 1) return { key: 'onlyOne' };
  const [file] = files;
  if (!file) return null;
  if (!isAccepted(file, EXCEL_TYPES)) return { key: 'wrongType' };
  if (file.size > maxSizeMB * MB) return { key: 'tooBig', size: formatSize(maxSizeMB) };
  return null;
}

/** A tolerant reading of the server's answer (missing counts are derived from what is there). */
export function normalizeImportResult(raw: (Omit<Partial<ImportResult>, 'errList'> & { errList?: Array<Partial<ImportError>> }) | null | undefined): ImportResult {
  const errList: ImportError[] = Array.isArray(raw?.errList)
    ? raw.errList
        .filter((e) => e && typeof e === 'object')
        .map((e) => ({
          rowNum: Number(e.rowNum),
          data: e.data ?? {},
          errorMsg: String(e.errorMsg ?? ''),
          ...(e.column && typeof e.column.zh === 'string' && typeof e.column.en === 'string' ? { column: { zh: e.column.zh, en: e.column.en } } : {}),
          ...(typeof e.value === 'string' && e.value ? { value: e.value } : {}),
        }))
    : [];
  const errorCount = Number.isFinite(raw?.errorCount) ? Number(raw?.errorCount) : errList.length;
  const successCount = Number.isFinite(raw?.successCount) ? Number(raw?.successCount) : 0;
  const total = Number.isFinite(raw?.total) ? Number(raw?.total) : successCount + errorCount;
  return { total, successCount, errorCount, errList };
}

/** How the notice looks: all rows in, some in, none in. */
export function importOutcome(result: ImportResult): 'success' | 'warning' | 'error' {
  if (result.errorCount === 0) return 'success';
  return result.successCount > 0 ? 'warning' : 'error';
}

/** One row error as the notice lists it: the row, the column title in the user's language and the cell's text when the server named them. */
export interface ImportErrorLine {
  row: number;
  message: string;
  column?: string;
  value?: string;
}

/**
 * The row errors as lines, at most `max`, messages translated and column titles in `language`; `more`
 * counts the rest.
 */
export function importErrorLines(
  result: ImportResult,
  translate: (key: string) => string,
  language: 'zh' | 'en',
  max = 10,
): { lines: ImportErrorLine[]; more: number } {
  const lines = result.errList.slice(0, max).map((e) => ({
    row: e.rowNum,
    message: translate(e.errorMsg),
    ...(e.column ? { column: e.column[language].replace(/^\*/, '') } : {}),
    ...(e.column && e.value ? { value: e.value } : {}),
  }));
  // The server lists only the first errors (errList) but counts them all (errorCount).
  return { lines, more: Math.max(0, Math.max(result.errorCount, result.errList.length) - lines.length) };
}

/** What the dialog knows of its import's background job. */
export type ImportJobState = Pick<BackgroundJobView, 'status' | 'progress'>;

/**
 * What the dialog shows while its import goes on: the text key (`kit.import.<key>`), its counts, and the
 * bar's percent — the upload's own percent while uploading; then the job, queued, reading the file (rows read,
 * no total yet: the bar stays full and the count says how far), then checking and writing its rows of the total.
 */
export function importProgressView(
  uploadPercent: number,
  job: ImportJobState | null,
): { key: 'uploading' | 'queued' | 'processing' | 'reading' | 'rows'; done: number; total: number; percent: number } {
  if (uploadPercent < 100) return { key: 'uploading', done: 0, total: 0, percent: uploadPercent };
  if (!job || job.status === 'queued') return { key: 'queued', done: 0, total: 0, percent: 100 };
  const { done, total } = job.progress;
  if (job.status !== 'running') return { key: 'processing', done: 0, total: 0, percent: 100 };
  if (total === null) return done > 0 ? { key: 'reading', done, total: 0, percent: 100 } : { key: 'processing', done: 0, total: 0, percent: 100 };
  return { key: 'rows', done, total, percent: total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100 };
}
