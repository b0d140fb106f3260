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
        .map((e) => ({ rowNum: Number(e.rowNum), data: e.data ?? {}, errorMsg: String(e.errorMsg ?? '') }))
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

/**
 * The row errors as lines (`{ row, message }`), at most `max`, messages translated; `more` counts the
 * rest.
 */
export function importErrorLines(
  result: ImportResult,
  translate: (key: string) => string,
  max = 10,
): { lines: Array<{ row: number; message: string }>; more: number } {
  const lines = result.errList.slice(0, max).map((e) => ({ row: e.rowNum, message: translate(e.errorMsg) }));
  return { lines, more: Math.max(0, result.errList.length - max) };
}
