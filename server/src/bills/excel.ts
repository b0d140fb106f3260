import type { Reading } from '@p8/contract/quality';
import { and, asc, eq } from 'drizzle-orm';
import { microNumber, microText, toMicro } from '@p8/contract/bills/decimal';
import type { FieldDecl } from '@p8/contract/bills/fields';
import { billCreateSchema, billTemplateKey, headerFields, lineFields, lineKindOf, MAX_BILL_LINES, type BillPayload, type BillTypeDecl } from '@p8/contract/bills/registry';
import { BILL_STATUS_LABELS, type BillStatus } from '@p8/contract/bills/status';
import type { ErrorKey } from '@p8/contract/errors';
import type { ImportResult } from '@p8/contract/upload';
import type { TenantConfig } from '@p8/contract/tenant-config';
import { isErrorKey } from '@p8/contract/errors';
import { EXPORT_MAX_ROWS, importErrorKey, ImportOutcome, IMPORT_BATCH_ROWS, throwIfCancelled, yieldToEventLoop, type ExcelColumn, type ImportRow, type ImportUpload, type Lang } from '../core/excel.ts';
import type { ImportJob } from '../core/import-job.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { readTenantConfig } from '../core/tenant-config.ts';
import type { Tx } from '../db/connection.ts';
import { bill, billLine } from '../db/schema/index.ts';
import { refExportedNames, RefResolver } from '../core/record-refs.ts';
import { parsedListQuery } from './list.ts';
import { createBill } from './service.ts';
import { settlementExportViews } from './settlement-lines.ts';
import { lineTallies } from './push-down.ts';
import type { LineRow } from './bill-rows.ts';

/**
 * Bills as .xlsx, for every type from its declaration: one row per line, the bill's header fields repeated
 * on each of its rows. The columns (and so the export, the import and the template) come from the type's
 * header and line fields; records are written by code (supplier, customer, warehouse, material) or name
 * (unit, location, staff, department) and read back by either. Rows of one bill are consecutive and share
 * its code, or — for new bills numbered on import — a value of the group column.
 *
 * An import is all-or-nothing: every bill is checked as a save is (the save schema, then `createBill`, each
 * in a savepoint), every refusal is listed against its row, and if there is any, nothing is written.
 */

/** A column of the bill workbook: a header or a line field, or the group / status column. */
export interface BillColumn extends ExcelColumn {
  part: 'header' | 'line' | 'group' | 'status';
  field?: FieldDecl;
}

const GROUP: BillColumn = { prop: 'group', part: 'group', title: { zh: '分组', en: 'Group' }, width: 10 };
const STATUS: BillColumn = { prop: 'billStatus', part: 'status', title: { zh: '单据状态', en: 'Status' }, width: 14 };
/** The header fields the lines add up to. */
const SUMMED = ['number', 'priceTotal', 'taxPriceTotal'] as const;
/** Those and attachments: not in the workbook. */
const HEADER_LEFT_OUT = new Set<string>([...SUMMED, 'attachments']);

const width = (field: FieldDecl) => Math.max(10, Math.round((field.width ?? 110) / 8));

/**
 * The workbook's columns of a type: the bill code, the group, the header fields, then the line fields (a
 * line field titled like a header one is marked as the line's). `withComputed` adds what the server
 * computes (the status, line amounts, main-unit quantities): in an export, never in a template.
 */
export function billColumns(decl: BillTypeDecl, withComputed: boolean, config?: TenantConfig): BillColumn[] {
  const on = (f: FieldDecl) => !config || !f.switch || config[f.switch] === true;
  const header = headerFields(decl).filter((f) => !HEADER_LEFT_OUT.has(f.key) && on(f));
  const headerTitles = new Set(header.flatMap((f) => [f.label.zh, f.label.en]));
  const columns: BillColumn[] = [];
  for (const field of header) {
    columns.push({ prop: `h.${field.key}`, part: 'header', field, title: field.label, required: !!field.required && field.key !== 'billCode', width: width(field) });
    if (field.key === 'billCode') columns.push(GROUP);
  }
  if (withComputed) columns.push(STATUS);
  for (const field of lineFields(decl).filter(on)) {
    if (field.readOnly && !withComputed) continue;
    const title = headerTitles.has(field.label.zh) || headerTitles.has(field.label.en) ? { zh: `明细${field.label.zh}`, en: `Line ${field.label.en.toLowerCase()}` } : field.label;
    columns.push({ prop: `l.${field.key}`, part: 'line', field, title, required: !!field.required, width: width(field) });
  }
  return columns;
}

export { billTemplateKey };

// ---------------------------------------------------------------- export

const enumLabel = (field: FieldDecl, value: unknown, lang: Lang) => field.options?.find((o) => o.value === value)?.label[lang] ?? value;

/**
 * The rows of `POST {path}/export`: the lines of the bills the list query finds, in the list's order, one
 * row each (at most EXPORT_MAX_ROWS lines); a bill without lines (an opening balance) is one row of its
 * header. Records appear by code or name.
 */
export async function billExportRows(ctx: ServiceContext, decl: BillTypeDecl, query: Record<string, unknown>, lang: Lang): Promise<{ columns: BillColumn[]; rows: Array<Record<string, unknown>> }> {
  const p = await parsedListQuery(ctx, decl, query);
  const found = await ctx.tx
    .select({ head: bill, line: billLine })
    .from(bill)
    .leftJoin(billLine, and(eq(billLine.tenantId, bill.tenantId), eq(billLine.billId, bill.id)))
    .where(p.where)
    .orderBy(...p.orderBy, asc(billLine.lineNo))
    .limit(EXPORT_MAX_ROWS);
  const names = await exportNames(ctx, decl, found);
  const columns = billColumns(decl, true, await readTenantConfig(ctx.tx, ctx.tenantId));
  // Lines of money (bills.md, "Line kinds") keep their amount in the amount columns and, settlement lines, the
  // bill they settle as the source bill: the export shows them as the form does (the bill by its code, its
  // amount and what was open of it before this bill).
  const moneyLines = lineKindOf(decl) !== 'material';
  const settled = lineKindOf(decl) === 'settlement' ? await settlementExportViews(ctx, found.flatMap(({ head, line }) => (line ? [{ ...line, billStatus: head.billStatus }] : []))) : undefined;
  // What downstream bills tallied on the lines (a production order's steps: their reports' figures), as the form shows them.
  const tallies = await lineTallies(ctx.tx, ctx.tenantId, decl, found.flatMap(({ line }) => (line ? [line as LineRow] : [])));
  const rows = found.map(({ head, line }) => {
    const headValues = { ...head, ...(head.extra as Record<string, unknown>) } as Record<string, unknown>;
    const lineValues = (line ? { ...line, ...(line.extra as Record<string, unknown>), ...tallies.get(line.id) } : {}) as Record<string, unknown>;
    if (line && moneyLines) lineValues.amount = line.priceTotal;
    if (line?.sourceBillId && settled) Object.assign(lineValues, settled.get(`${line.billId}:${line.sourceBillId}`));
    // A bill counting negative (pushed down from a `negative` source: a red-letter invoice) exports its lines'
    // quantity and amounts with its sign, so the workbook's columns sum as the list does.
    if (line && toMicro(head.number) < 0n) for (const key of SUMMED) lineValues[key] = microText(-toMicro(String(line[key])));
    const row: Record<string, unknown> = {};
    for (const column of columns) {
      if (column.part === 'status') row[column.prop] = BILL_STATUS_LABELS[head.billStatus as BillStatus]?.[lang] ?? head.billStatus;
      if (!column.field) continue;
      const value = (column.part === 'header' ? headValues : lineValues)[column.field.key];
      row[column.prop] = exportValue(column.field, value, names, lang);
    }
    return row;
  });
  return { columns, rows };
}

/** Rich text's HTML as the plain text a cell shows: tags dropped, paragraphs and breaks as line breaks, entities read. */
function richTextPlain(html: string): string {
  return html
    .replace(/<\/(p|div|h[1-6]|li)>|<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** The exported text of each record the rows name, by kind and id. */
type Names = Map<string, Map<number, string>>;

function exportValue(field: FieldDecl, value: unknown, names: Names, lang: Lang): unknown {
  if (value === null || value === undefined || value === '') return null;
  if (field.kind === 'record') return names.get(field.ref!)?.get(Number(value)) ?? null;
  // Several staff by name (a task's assignees); rich text as its plain text.
  if (field.kind === 'staffList') return Array.isArray(value) ? value.map((id) => names.get('staff')?.get(Number(id)) ?? `#${String(id)}`).join(', ') : null;
  if (field.kind === 'richText') return richTextPlain(String(value));
  if (field.kind === 'enum') return enumLabel(field, value, lang);
  if (field.kind === 'serials') return Array.isArray(value) ? value.join(',') : value;
  // Readings as "item: value" pairs (an inspection line's), a pass / fail item as ✓ / ✗.
  if (field.kind === 'readings') return Array.isArray(value) ? (value as Reading[]).map((r) => `${r.item}: ${r.value ?? (r.passed === true ? '✓' : r.passed === false ? '✗' : '')}`).join('; ') : null;
  if (['quantity', 'price', 'amount', 'percent', 'number'].includes(field.kind)) return microNumber(toMicro(String(value)));
  return value;
}

/** The codes or names (as each kind exports) of every record the rows' fields name, a query per kind and thousand ids. */
async function exportNames(ctx: ServiceContext, decl: BillTypeDecl, found: Array<{ head: typeof bill.$inferSelect; line: typeof billLine.$inferSelect | null }>): Promise<Names> {
  const ids = new Map<string, Set<number>>();
  const add = (ref: string, id: unknown) => {
    if (!(typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)))) return;
    if (!ids.has(ref)) ids.set(ref, new Set());
    ids.get(ref)!.add(Number(id));
  };
  const headRefs = headerFields(decl).filter((f) => f.kind === 'record');
  const headLists = headerFields(decl).filter((f) => f.kind === 'staffList');
  const lineRefs = lineFields(decl).filter((f) => f.kind === 'record');
  for (const { head, line } of found) {
    const headValues = { ...(head.extra as Record<string, unknown>), ...head } as Record<string, unknown>;
    for (const field of headRefs) add(field.ref!, headValues[field.key]);
    for (const field of headLists) for (const id of Array.isArray(headValues[field.key]) ? (headValues[field.key] as unknown[]) : []) add('staff', id);
    if (!line) continue;
    const lineValues = { ...(line.extra as Record<string, unknown>), ...line } as Record<string, unknown>;
    for (const field of lineRefs) add(field.ref!, lineValues[field.key]);
  }
  const names: Names = new Map();
  for (const [ref, set] of ids) {
    const wanted = [...set];
    const named = new Map<number, string>();
    for (let i = 0; i < wanted.length; i += 1000) for (const [id, name] of await refExportedNames(ctx.tx, ctx.tenantId, ref, wanted.slice(i, i + 1000))) named.set(id, name);
    names.set(ref, named);
  }
  return names;
}

// ---------------------------------------------------------------- import

/** The rows of one bill of an import, in file order. */
type Group = ImportRow[];

/** A refusal that belongs to a row of the file (its bill is not written). */
class RowRefusal extends Error {
  constructor(
    readonly row: ImportRow,
    readonly key: ErrorKey,
  ) {
    super(key);
  }
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());
const groupKey = (row: ImportRow) => {
  const code = text(row.data['h.billCode']);
  if (code) return `code:${code}`;
  const group = text(row.data.group);
  return group ? `group:${group}` : `row:${row.rowNum}`;
};

/**
 * Reads the upload into bills (consecutive rows of one key), set aside on disk: memory holds one bill's
 * rows at a time. A bill whose rows are not together, or whose header differs between its rows, is
 * refused at the row that breaks it.
 */
async function readGroups(upload: ImportUpload, decl: BillTypeDecl, outcome: ImportOutcome) {
  const groups = upload.spill<Group>();
  const headerProps = billColumns(decl, false).filter((c) => c.part === 'header').map((c) => c.prop);
  const seen = new Set<string>();
  let current: Group = [];
  let currentKey = '';
  let rows = 0;
  const close = async () => {
    if (current.length) await groups.add(current);
    current = [];
  };
  for await (const row of upload.rows()) {
    rows++;
    const key = groupKey(row);
    if (key !== currentKey) {
      await close();
      currentKey = key;
      if (seen.has(key)) {
        outcome.failed(row, 'BillImportRowsApart');
        currentKey = '';
        continue;
      }
      seen.add(key);
    } else {
      const first = current[0];
      const differs = headerProps.find((p) => text(row.data[p]) !== '' && text(first.data[p]) !== '' && text(row.data[p]) !== text(first.data[p]));
      if (differs) {
        outcome.failed(row, 'BillImportHeaderDiffers');
        continue;
      }
      if (current.length >= MAX_BILL_LINES) {
        outcome.failed(row, 'BillImportTooManyLines');
        continue;
      }
    }
    current.push(row);
  }
  await close();
  outcome.setTotal(rows);
  return groups;
}

/** A cell as a number (a number cell, or text that is one), else the text (the save schema refuses it). */
function numberOf(value: unknown): unknown {
  if (typeof value === 'number') return value;
  const t = text(value).replace(/,/g, '');
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : t;
}

/**
 * One field's value from its cell: records by what their kind matches (code or name; within `parentId` for a kind
 * that belongs to a parent), enums by value or label, lists split.
 */
async function fieldValue(field: FieldDecl, raw: unknown, row: ImportRow, resolver: RefResolver, parentId?: number): Promise<unknown> {
  if (raw === undefined || text(raw) === '') return undefined;
  if (field.kind === 'record') {
    try {
      return await resolver.id(field.ref!, text(raw), parentId);
    } catch (error) {
      throw new RowRefusal(row, importErrorKey(error));
    }
  }
  if (field.kind === 'enum') {
    const wanted = text(raw);
    return field.options?.find((o) => o.value === wanted || o.label.zh === wanted || o.label.en.toLowerCase() === wanted.toLowerCase())?.value ?? wanted;
  }
  if (field.kind === 'serials') return text(raw).split(/[,，;\s]+/).filter(Boolean);
  if (['quantity', 'price', 'amount', 'percent', 'number'].includes(field.kind)) return numberOf(raw);
  if (field.kind === 'date') return text(raw).slice(0, 10);
  return text(raw);
}

/** The save payload of one bill's rows. */
async function payloadOf(decl: BillTypeDecl, group: Group, resolver: RefResolver): Promise<BillPayload> {
  const columns = billColumns(decl, false);
  const header: Record<string, unknown> = {};
  for (const column of columns.filter((c) => c.part === 'header')) {
    // The first row that fills a header cell gives it (the others repeat it or leave it empty).
    const row = group.find((r) => text(r.data[column.prop]) !== '') ?? group[0];
    const value = await fieldValue(column.field!, row.data[column.prop], row, resolver);
    if (value !== undefined) header[column.field!.key] = value;
  }
  const lines: Array<Record<string, unknown>> = [];
  for (const row of group) {
    const line: Record<string, unknown> = {};
    const lineColumns = columns.filter((c) => c.part === 'line');
    // Parents first: a record that belongs to one (a location, a BOM) is looked up within the parent its line
    // names (or the bill's).
    for (const column of lineColumns.filter((c) => !c.field!.within)) {
      const value = await fieldValue(column.field!, row.data[column.prop], row, resolver);
      if (value !== undefined) line[column.field!.key] = value;
    }
    for (const column of lineColumns.filter((c) => c.field!.within)) {
      const within = column.field!.within!;
      const parentId = (line[within] ?? header[within]) as number | undefined;
      const value = await fieldValue(column.field!, row.data[column.prop], row, resolver, parentId);
      if (value !== undefined) line[column.field!.key] = value;
    }
    lines.push(line);
  }
  return { ...header, lines };
}

/** Checks a payload as the save route does; a refusal names the row of the line it is about. */
function checkPayload(decl: BillTypeDecl, payload: BillPayload, group: Group): BillPayload {
  const parsed = billCreateSchema(decl).safeParse(payload);
  if (parsed.success) return parsed.data as BillPayload;
  const issue = parsed.error.issues[0];
  const row = issue.path[0] === 'lines' && typeof issue.path[1] === 'number' ? (group[issue.path[1]] ?? group[0]) : group[0];
  throw new RowRefusal(row, isErrorKey(issue.message) ? issue.message : 'BadRequest');
}

/** Signals a rollback of an import that had refusals (caught by `importBills`). */
class ImportRefused extends Error {}

/**
 * `POST {path}/import`: reads the upload into bills outside any transaction, then saves them all in one
 * transaction — each checked as a save is, in a savepoint so that every bill's refusal is listed — and
 * rolls it all back if any row was refused. Progress goes to the import's job (reading, writing); its
 * transaction completes the job.
 */
export async function importBills(
  transaction: <T>(fn: (ctx: ServiceContext) => Promise<T>) => Promise<T>,
  decl: BillTypeDecl,
  upload: ImportUpload,
  job: ImportJob,
): Promise<ImportResult> {
  const outcome = new ImportOutcome(0, job.maxErrors);
  const groups = await readGroups(upload, decl, outcome);
  const total = outcome.result.total;
  job.report({ total, phase: 'writing' });
  let written = 0;
  try {
    await transaction(async (ctx) => {
      const resolver = new RefResolver(ctx.tx, ctx.tenantId);
      let bills = 0;
      for await (const group of groups.rows()) {
        try {
          await ctx.tx.transaction(async (savepoint) => {
            const payload = checkPayload(decl, await payloadOf(decl, group, resolver), group);
            await createBill({ ...ctx, tx: savepoint as unknown as Tx }, decl, payload);
          });
        } catch (error) {
          if (error instanceof RowRefusal) outcome.failed(error.row, error.key);
          else outcome.failed(group[0], importErrorKey(error));
        }
        written += group.length;
        if (++bills % 50 === 0 || written % IMPORT_BATCH_ROWS === 0) {
          job.report({ rowsChecked: written, rowsWritten: written });
          await yieldToEventLoop();
          throwIfCancelled(job.signal);
        }
      }
      if (outcome.result.errorCount) throw new ImportRefused();
      outcome.succeeded(total);
      ctx.audit({ action: 'import', entity: decl.type, detail: { total, bills } });
      await job.complete(ctx.tx, outcome.finish());
    });
  } catch (error) {
    if (!(error instanceof ImportRefused)) throw error;
  }
  job.report({ rowsChecked: written, rowsWritten: outcome.result.successCount });
  return outcome.finish();
}

