import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../db/connection.ts';
import { BizError } from './errors.ts';
import type { ExcelColumn, ImportRow } from './excel.ts';

/** Excel cells of record imports and exports (every record kit's), and the planner refresh around a bulk import. */

/** Refreshes the planner statistics of some basic tables (owner connection; never inside a tenant transaction). */
export async function analyze(database: Database, tables: string[]) {
  const names = tables.filter((name) => /^[a-z_]+$/.test(name));
  if (names.length) await database.db.execute(sql.raw(`analyze ${names.map((n) => `"${n}"`).join(', ')}`));
}


// ---------------------------------------------------------------- Excel cells

export const col = (prop: string, zh: string, en: string, required = false, width?: number): ExcelColumn => ({ prop, title: { zh, en }, required, width });

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'y', '是', '启用', '开启', '√']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'n', '否', '禁用', '关闭', '×']);

/** A yes/no cell: 是/否, yes/no, true/false, 1/0; empty = the fallback. */
export function cellBool(value: unknown, fallback = false): boolean {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'boolean') return value;
  const word = String(value).trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  // The cell's text as `additional`: the import's result names the column holding it (core/excel.ts importFailure).
  throw new BizError('ImportCellNotYesNo', { additional: String(value) });
}

/** A number cell; empty = undefined; text that is no number = ImportCellNotNumber. */
export function cellNumber(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(String(value).replace(/[,，\s%]/g, ''));
  if (!Number.isFinite(n)) throw new BizError('ImportCellNotNumber', { additional: String(value) });
  return n;
}

export function cellText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return String(value).trim();
}

/** The option a text names by its zh or en label or its key, or undefined. */
function optionOf<K extends string>(text: string, labels: Record<K, { zh: string; en: string }>): K | undefined {
  const lower = text.toLowerCase();
  for (const [key, label] of Object.entries(labels) as Array<[K, { zh: string; en: string }]>) {
    if (key.toLowerCase() === lower || label.zh === text || label.en.toLowerCase() === lower) return key;
  }
  return undefined;
}

/** A value given by its zh or en label, or its key. */
export function cellEnum<K extends string>(value: unknown, labels: Record<K, { zh: string; en: string }>): K | undefined {
  const text = cellText(value);
  if (!text) return undefined;
  const option = optionOf(text, labels);
  if (option === undefined) throw new BizError('ImportCellNotOption', { additional: text });
  return option;
}

/** A comma list of enum values (、，, ; separated). */
export function cellEnumList<K extends string>(value: unknown, labels: Record<K, { zh: string; en: string }>): K[] | undefined {
  const text = cellText(value);
  if (!text) return undefined;
  const parts = text.split(/[,，、;；/]/).map((p) => p.trim()).filter(Boolean);
  const unknown = parts.find((p) => !optionOf(p, labels));
  // The whole cell as `additional`, so that the result names its column.
  if (unknown !== undefined) throw new BizError('ImportCellNotOption', { additional: text });
  return [...new Set(parts.map((p) => optionOf(p, labels)!))];
}

export const boolLabel = (value: boolean, lang: 'zh' | 'en') => (value ? (lang === 'zh' ? '是' : 'Yes') : lang === 'zh' ? '否' : 'No');

export type RowHandler = (tx: Tx, row: ImportRow) => Promise<unknown>;
