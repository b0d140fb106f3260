import { and, asc, desc, eq, getTableName, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { PickerQuery } from '@p8/contract/basic';
import { nameKey } from '@p8/contract/bills/fields';
import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import { recordRef } from '@p8/contract/records/references';
import { everyRecordField, lineSummaryKey, RECORD_TREE_PARENT, recordLinesSchema, recordSchemas, recordTitleField, type DeclaredRecord, type RecordFieldDecl, type RecordKindDecl, type RecordLinesDecl } from '@p8/contract/records/registry';
import type { RecordCodeKind } from '@p8/contract/tenant-config';
import type { Tx } from '../db/connection.ts';
import { codeOrNext, codesStoredIn } from './code-generator.ts';
import { declaredTree, type TreeColumns } from './declared-tree.ts';
import { BizError } from './errors.ts';
import { boolLabel, cellBool, cellEnum, cellNumber, cellText, col } from './excel-cells.ts';
import { EXPORT_MAX_ROWS, type ExcelColumn, type Lang } from './excel.ts';
import { assertAllFound } from './ids.ts';
import { containsPattern, countAll, parseList, qualified, runPage, type ListField, type ListSpec } from './list-query.ts';
import { inSavepoint, type RecordDefinition, type RecordReaders } from './record-routes.ts';
import { assertRefsExist, refExportedNames, refNameSubquery, RefResolver } from './record-refs.ts';
import { heldBy, type RecordUsage } from './record-usage.ts';
import { buildTree } from './tree.ts';
import type { ServiceContext } from './service-context.ts';

/*
 * The services of a declared record kind (packages/contract/src/records): list, detail, add, update,
 * delete, enable, picker, Excel import and export, all derived from the declaration and the record's
 * table. `recordRoutes` turns them into the routes, so a declared kind costs its declaration, its table
 * and — only where it has rules of its own — a hook.
 */

/** The columns every declared record's table has (db/schema/basic.ts `recordCommonColumns`). */
type CommonColumns = { tenantId: AnyPgColumn; id: AnyPgColumn; sort: AnyPgColumn; remark: AnyPgColumn; enabled: AnyPgColumn; createdAt: AnyPgColumn; updatedAt: AnyPgColumn };
export type DeclaredRecordTable = PgTable & CommonColumns;
/** The columns every declared record's line table has (db/schema/basic.ts `recordLineColumns`). */
export type DeclaredRecordLineTable = PgTable & { tenantId: AnyPgColumn; id: AnyPgColumn; recordId: AnyPgColumn; lineNo: AnyPgColumn };

type Body = Record<string, unknown> & { sort?: number; remark?: string };

/** What a kind adds to the derived services: its own rules, run inside the write's transaction. */
export interface DeclaredRecordHooks {
  /** Before an update is written, after the record was found and its unique keys checked. */
  beforeUpdate?(ctx: ServiceContext, id: number, body: Body): Promise<void>;
  /**
   * Before an add (an import's row too) or an update is written, after its unique keys and named records were
   * checked: the kind's own rules over the whole record — the body as sent, and at an update the stored record
   * (with its lines) it changes. It may answer the body to write instead (a default the kind computes).
   */
  beforeSave?(ctx: ServiceContext, body: Body, current?: DeclaredRecord): Promise<Body | void>;
}

export interface DeclaredRecordOptions {
  table: DeclaredRecordTable;
  /** The table of the kind's lines (with `lines` declared). */
  lineTable?: DeclaredRecordLineTable;
  readers?: RecordReaders;
  hooks?: DeclaredRecordHooks;
}

const numericKinds = new Set<RecordFieldDecl['kind']>(['number', 'quantity', 'amount']);

function columnOf(decl: RecordKindDecl, table: PgTable, key: string): AnyPgColumn {
  const column = (table as unknown as Record<string, AnyPgColumn | undefined>)[key];
  if (!column) throw new Error(`record ${decl.kind}: its table ${getTableName(table)} has no column for field "${key}"`);
  return column;
}

/** An enum field's options as the Excel cell parser and the export label them. */
const optionLabels = (field: RecordFieldDecl) => Object.fromEntries((field.options ?? []).map((o) => [o.value, o.label])) as Record<string, { zh: string; en: string }>;

/** The import column of a field: its label, with the choices or the separator where the cell needs them. */
function importColumn(field: RecordFieldDecl): ExcelColumn {
  const { zh, en } = field.excelTitle ?? field.label;
  if (field.kind === 'enum') {
    const options = field.options ?? [];
    return col(field.key, `${zh}(${options.map((o) => o.label.zh).join('/')})`, `${en} (${options.map((o) => o.label.en).join('/')})`, field.required);
  }
  if (field.kind === 'values') return col(field.key, `${zh}(逗号分隔)`, `${en} (comma separated)`, field.required, 40);
  if (field.kind === 'boolean') return col(field.key, `${zh}(是/否)`, `${en} (Yes/No)`, field.required);
  return col(field.key, zh, en, field.required, field.kind === 'textarea' ? 30 : undefined);
}

/** A field's value from an import cell, before the declaration's schema checks it (a named record by its code or name). */
async function cellValue(field: RecordFieldDecl, cell: unknown, refs: RefResolver): Promise<unknown> {
  switch (field.kind) {
    case 'record': {
      const text = cellText(cell);
      return text ? refs.id(field.ref!, text) : undefined;
    }
    case 'number':
    case 'quantity':
    case 'amount':
      return cellNumber(cell);
    case 'enum':
      return cellEnum(cell, optionLabels(field));
    case 'boolean':
      // An empty cell leaves it to the declared default (the column's).
      return cell === undefined || cell === null || cell === '' ? undefined : cellBool(cell);
    case 'values':
      return [...new Set((cellText(cell) ?? '').split(/[,，、;；]/).map((v) => v.trim()).filter(Boolean))];
    default:
      return field.required ? (cellText(cell) ?? '') : cellText(cell);
  }
}

/** A field's value in an export row, in the reader's language (a named record by what its kind exports). */
function exportValue(field: RecordFieldDecl, value: unknown, lang: Lang, names: Map<string, Map<number, string>>): unknown {
  if (field.kind === 'record') return value == null ? null : (names.get(field.ref!)?.get(Number(value)) ?? null);
  if (field.kind === 'enum') return optionLabels(field)[value as string]?.[lang] ?? value;
  if (field.kind === 'values') return ((value as string[] | null) ?? []).join(',');
  if (field.kind === 'boolean') return boolLabel(Boolean(value), lang);
  return value;
}

type Line = Record<string, unknown>;

/**
 * The record ids a record's (or a line's) fields name, checked as the kinds' refusals say: the tenant's, enabled
 * where the kind asks it, inside their parent (`within`); a line's refusal names its line number.
 */
async function assertRefsOf(tx: Tx, tenantId: number, fields: readonly RecordFieldDecl[], rows: ReadonlyArray<{ values: Line; line?: number }>) {
  for (const f of fields.filter((field) => field.kind === 'record')) {
    const named = rows.filter((r) => typeof r.values[f.key] === 'number').map((r) => ({ id: r.values[f.key] as number, parent: f.within ? (r.values[f.within] as number | null) : undefined, line: r.line }));
    await assertRefsExist(tx, tenantId, f.ref!, named);
  }
}

/**
 * A kind's lines (`RecordLinesDecl`): read in order with the names of what they name, replaced whole by a save,
 * appended one by one by an import. A record's lines are deleted with it (the table's foreign key).
 */
function declaredLines(decl: RecordKindDecl, lines: RecordLinesDecl, t: DeclaredRecordLineTable) {
  const column = (key: string) => columnOf(decl, t, key);
  const refFields = lines.fields.filter((f) => f.kind === 'record');
  const selection = {
    recordId: t.recordId,
    ...Object.fromEntries(lines.fields.map((f) => [f.key, column(f.key)])),
    ...Object.fromEntries(refFields.map((f) => [nameKey(f.key), refNameSubquery(f.ref!, t.tenantId, column(f.key))])),
  };
  const ofRecords = (tenantId: number, ids: number[]) => and(eq(t.tenantId, tenantId), inArray(t.recordId, ids));
  // What names a line in a list: its first required field naming a record (a step's process).
  const shownField = refFields.find((f) => f.required);
  // A field a line leaves out takes its column's default (Drizzle writes `default` for undefined), as a record's do.
  const valuesOf = (line: Line) => Object.fromEntries(lines.fields.map((f) => [f.key, line[f.key]]));

  async function insert(tx: Tx, tenantId: number, recordId: number, firstNo: number, sent: Line[]) {
    await assertRefsOf(tx, tenantId, lines.fields, sent.map((values, i) => ({ values, line: firstNo + i })));
    if (sent.length) await tx.insert(t).values(sent.map((line, i) => ({ tenantId, recordId, lineNo: firstNo + i, ...valuesOf(line) })) as never);
  }

  return {
    /**
     * The lines of a listed record in one cell, by what names each (`steps` → `stepsSummary`: "Cut → Bend →
     * Weld"; a team's members "Li, Wang"), as a subquery of the list's row (`outerTenant`, `outerId`); none when no field names a line.
     */
    summary(outerTenant: AnyPgColumn, outerId: AnyPgColumn): Record<string, SQL<string | null>> {
      if (!shownField) return {};
      const name = refNameSubquery(shownField.ref!, t.tenantId, column(shownField.key));
      const [lineTenant, lineRecord, lineNo] = [t.tenantId, t.recordId, t.lineNo].map(qualified);
      return {
        [lineSummaryKey(lines)]: sql<string | null>`(select string_agg(${name}, ${lines.summaryJoin ?? ' → '} order by ${lineNo}) from ${t} where ${lineTenant} = ${qualified(outerTenant)} and ${lineRecord} = ${qualified(outerId)})`,
      };
    },
    /** The lines of each of `ids`, in their order (the names of the records they name beside the ids). */
    async read(tx: Tx, tenantId: number, ids: number[]): Promise<Map<number, Line[]>> {
      const byRecord = new Map<number, Line[]>(ids.map((id) => [id, []]));
      if (!ids.length) return byRecord;
      const rows = await tx.select(selection).from(t as PgTable).where(ofRecords(tenantId, ids)).orderBy(asc(t.recordId), asc(t.lineNo));
      for (const { recordId, ...line } of rows as Array<Line & { recordId: number }>) byRecord.get(Number(recordId))?.push(line);
      return byRecord;
    },
    /** A save's lines replace the stored ones, numbered in the order sent. */
    async replace(tx: Tx, tenantId: number, recordId: number, sent: Line[]) {
      await tx.delete(t).where(ofRecords(tenantId, [recordId]));
      await insert(tx, tenantId, recordId, 1, sent);
    },
    /** One more line after the record's last (an import row continuing a record), within the declared most. */
    async append(tx: Tx, tenantId: number, recordId: number, line: Line) {
      const [{ total: count }] = await tx.select(countAll()).from(t as PgTable).where(ofRecords(tenantId, [recordId]));
      if (count >= lines.max) throw new BizError('RecordLinesTooMany', { additional: lines.max });
      const distinct = lines.distinct;
      if (distinct && line[distinct.field] != null) {
        const [{ total: repeats }] = await tx.select(countAll()).from(t as PgTable).where(and(ofRecords(tenantId, [recordId]), eq(column(distinct.field), line[distinct.field])));
        if (repeats) throw new BizError(distinct.refusal, { additional: distinct.field });
      }
      await insert(tx, tenantId, recordId, count + 1, [line]);
    },
  };
}

/** The Excel column of a line field: keyed apart from the record's own fields (`steps.processId`). */
const lineCellKey = (lines: RecordLinesDecl, field: RecordFieldDecl) => `${lines.key}.${field.key}`;

export function declaredRecordDefinition(decl: RecordKindDecl, options: DeclaredRecordOptions): RecordDefinition<Body, Body & { id: number }> {
  const { table: t, readers, hooks } = options;
  if (decl.lines && !options.lineTable) throw new Error(`record ${decl.kind} declares lines: give its line table`);
  const lines = decl.lines && options.lineTable ? { decl: decl.lines, store: declaredLines(decl, decl.lines, options.lineTable) } : undefined;
  const column = (key: string) => columnOf(decl, t, key);
  const schemas = recordSchemas(decl);
  // A tree kind: its table's parent and level columns (core/declared-tree.ts).
  const tree = decl.tree ? declaredTree(decl.tree, t as unknown as PgTable & TreeColumns, column(recordTitleField(decl).key), decl.notExist) : undefined;

  const listFields: Record<string, ListField> = {
    id: { column: t.id, notIn: true },
    remark: { column: t.remark, filter: 'like' },
    enabled: { column: t.enabled, filter: 'bool', sortable: true },
    sort: { column: t.sort, sortable: true },
    createdAt: { column: t.createdAt, sortable: true },
  };
  for (const field of decl.fields) {
    const filter = field.search ? (field.kind === 'enum' || field.kind === 'record' ? 'eq' : field.kind === 'boolean' ? 'bool' : numericKinds.has(field.kind) ? 'number' : 'like') : undefined;
    listFields[field.key] = { column: column(field.key), ...(filter ? { filter } : {}), ...(field.sortable ? { sortable: true } : {}) };
  }
  if (tree) Object.assign(listFields, tree.listFields);
  const spec: ListSpec = { fields: listFields, dateColumn: t.createdAt, defaultOrder: tree ? tree.defaultOrder : [asc(t.sort), desc(t.id)] };

  const refFields = decl.fields.filter((f) => f.kind === 'record');
  const selection = {
    id: t.id,
    ...Object.fromEntries(decl.fields.map((f) => [f.key, column(f.key)])),
    // The name beside each record a field names (`leaderId` → `leaderName`).
    ...Object.fromEntries(refFields.map((f) => [nameKey(f.key), refNameSubquery(f.ref!, t.tenantId, column(f.key))])),
    // A tree: the parent, its name and the level.
    ...tree?.selection,
    // A kind with lines: the lines in one cell (a routing's steps in order).
    ...lines?.store.summary(t.tenantId, t.id),
    sort: t.sort,
    remark: t.remark,
    enabled: t.enabled,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
  const rowsOf = (tx: Tx) => tx.select(selection).from(t as PgTable).$dynamic();
  const ofTenant = (tenantId: number) => eq(t.tenantId, tenantId);

  /** The declared fields a body sends, as column values (undefined ones left out by Drizzle). */
  const ownValues = (body: Body) => Object.fromEntries(decl.fields.map((f) => [f.key, body[f.key]]));

  /** Each unique key the body sets must be free in the tenant (another record than `exceptId`). */
  async function assertUniqueFree(tx: Tx, tenantId: number, body: Body, current?: Record<string, unknown>, exceptId?: number) {
    for (const key of decl.unique) {
      if (!key.fields.some((f) => body[f] !== undefined)) continue;
      // A value the body sends (a tree's parent sent as null: the top level), else the stored one.
      const values = key.fields.map((f) => (body[f] !== undefined ? body[f] : current?.[f]));
      const [taken] = await tx
        .select({ id: t.id })
        .from(t as PgTable)
        .where(and(ofTenant(tenantId), ...key.fields.map((f, i) => (values[i] == null ? isNull(column(f)) : eq(column(f), values[i]))), exceptId === undefined ? undefined : ne(t.id, exceptId)))
        .limit(1);
      if (taken) throw new BizError(key.error, { additional: values.filter((v) => v != null).join(' / ') });
    }
  }

  /** The records the body's fields name are the tenant's, of their kinds (enabled, for declared kinds). */
  const assertNamedRecords = ({ tx, tenantId }: ServiceContext, body: Body) => assertRefsOf(tx, tenantId, decl.fields, [{ values: body }]);

  async function detail({ tx, tenantId }: ServiceContext, id: number): Promise<DeclaredRecord> {
    const [row] = await rowsOf(tx).where(and(ofTenant(tenantId), eq(t.id, id)));
    if (!row) throw new BizError(decl.notExist, { additional: id });
    if (!lines) return row as DeclaredRecord;
    return { ...row, [lines.decl.key]: (await lines.store.read(tx, tenantId, [id])).get(id) } as DeclaredRecord;
  }

  /** The lines a save sends (a create always, an update where it sends them) replace the stored ones. */
  async function saveLines({ tx, tenantId }: ServiceContext, id: number, body: Body) {
    const sent = lines ? (body[lines.decl.key] as Line[] | undefined) : undefined;
    if (sent) await lines!.store.replace(tx, tenantId, id, sent);
  }

  async function create(ctx: ServiceContext, body: Body) {
    const { tx, tenantId } = ctx;
    // A kind that takes generated codes fills an empty one from the tenant's counter (never a stored code).
    const generated = decl.generatedCode;
    if (generated && !body[generated.field]) {
      const field = column(generated.field);
      body = { ...body, [generated.field]: await codeOrNext(tx, tenantId, decl.kind as RecordCodeKind, undefined, codesStoredIn(tx, t, field, [ofTenant(tenantId)])) };
    }
    await assertUniqueFree(tx, tenantId, body);
    await assertNamedRecords(ctx, body);
    body = (await hooks?.beforeSave?.(ctx, body)) ?? body;
    const parentId = (body[RECORD_TREE_PARENT] as number | null | undefined) ?? null;
    const placed = tree ? { parentId, level: await tree.levelUnder(tx, tenantId, parentId) } : {};
    const [row] = await tx
      .insert(t)
      .values({ tenantId, ...ownValues(body), ...placed, sort: body.sort ?? 0, remark: body.remark ?? '' } as never)
      .returning({ id: t.id });
    await saveLines(ctx, (row as { id: number }).id, body);
    return row as { id: number };
  }

  async function foundIds({ tx, tenantId }: ServiceContext, ids: number[]) {
    const found = await tx.select({ id: t.id }).from(t as PgTable).where(and(ofTenant(tenantId), inArray(t.id, ids)));
    assertAllFound(ids, found as Array<{ id: number }>, decl.notExist);
  }

  const enumFields = decl.fields.filter((f) => f.kind === 'enum');
  const textFields = decl.fields.filter((f) => f.kind === 'text');

  async function picker({ tx, tenantId }: ServiceContext, query: PickerQuery) {
    const conditions: Array<SQL | undefined> = [ofTenant(tenantId), eq(t.enabled, true)];
    if (query.keyword) conditions.push(or(...textFields.map((f) => ilike(column(f.key), containsPattern(query.keyword!)))));
    for (const field of enumFields) {
      const wanted = (query as Record<string, unknown>)[field.key];
      if (typeof wanted === 'string') conditions.push(eq(column(field.key), wanted));
    }
    return runPage({ current: query.current, pageSize: query.pageSize, where: and(...conditions), orderBy: spec.defaultOrder }, rowsOf(tx), tx.select(countAll()).from(t as PgTable).$dynamic());
  }

  const commonImportColumns = [col('sort', '排序', 'Sort'), col('remark', '备注', 'Remark', false, 30)];
  // A line's columns after the record's own, keyed apart (an import row is the record and one of its lines).
  // A record that may be without lines takes rows without them: their columns are then never required.
  const lineColumns = lines ? lines.decl.fields.map((f) => ({ ...importColumn(f), prop: lineCellKey(lines.decl, f), ...(lines.decl.min ? {} : { required: false }) })) : [];
  const lineSchema = lines ? recordLinesSchema(lines.decl).element : undefined;
  const titleKey = recordTitleField(decl).key;

  /**
   * A line's values from an import row's line cells, checked by the line's schema; none when the row leaves every
   * line cell empty and the record may be without lines.
   */
  async function lineOfRow(cells: Record<string, unknown>, refs: RefResolver): Promise<Line | undefined> {
    const cellsOf = lines!.decl.fields.map((f) => cells[lineCellKey(lines!.decl, f)]);
    if (!lines!.decl.min && cellsOf.every((c) => c === undefined || c === null || cellText(c) === '')) return undefined;
    const values: Line = {};
    for (const f of lines!.decl.fields) values[f.key] = await cellValue(f, cells[lineCellKey(lines!.decl, f)], refs);
    return lineSchema!.parse(values) as Line;
  }

  return {
    area: decl.area,
    record: decl.kind,
    entity: decl.entity,
    readers,
    createSchema: schemas.create as never,
    updateSchema: schemas.update as never,
    async list({ tx, tenantId }, query) {
      const parsed = parseList(spec, query, [ofTenant(tenantId)]);
      return runPage(parsed, rowsOf(tx), tx.select(countAll()).from(t as PgTable).$dynamic());
    },
    detail,
    create,
    async update(ctx, body) {
      const current = await detail(ctx, body.id);
      await assertUniqueFree(ctx.tx, ctx.tenantId, body, current, body.id);
      await assertNamedRecords(ctx, body);
      await hooks?.beforeUpdate?.(ctx, body.id, body);
      body = ((await hooks?.beforeSave?.(ctx, body, current)) as typeof body | undefined) ?? body;
      const parentId = body[RECORD_TREE_PARENT] as number | null | undefined;
      if (tree && parentId !== undefined) await tree.move(ctx.tx, ctx.tenantId, body.id, parentId);
      await ctx.tx
        .update(t)
        .set({ ...ownValues(body), sort: body.sort, remark: body.remark, updatedAt: new Date() } as never)
        .where(and(ofTenant(ctx.tenantId), eq(t.id, body.id)));
      await saveLines(ctx, body.id, body);
    },
    async remove(ctx, ids) {
      await foundIds(ctx, ids);
      if (tree) await tree.refuseOrphans(ctx.tx, ctx.tenantId, ids);
      await ctx.registries.recordUsage.refuseIfInUse(ctx.tx, ctx.tenantId, decl.kind, ids);
      await ctx.tx.delete(t).where(and(ofTenant(ctx.tenantId), inArray(t.id, ids)));
    },
    async enable(ctx, ids, enabled) {
      await foundIds(ctx, ids);
      await ctx.tx
        .update(t)
        .set({ enabled, updatedAt: new Date() } as never)
        .where(and(ofTenant(ctx.tenantId), inArray(t.id, ids)));
    },
    // A picker lists enabled records, matching the keyword in any text field; an enum field filters when
    // the picker query names it (fee types of one kind). Only a kind other screens pick from has one.
    picker: readers?.picker ? picker : undefined,
    // A tree: the whole of it, nested (`enabled` keeps the enabled or the disabled records only).
    tree: tree
      ? async ({ tx, tenantId }, enabled) => buildTree((await rowsOf(tx).where(and(ofTenant(tenantId), enabled === undefined ? undefined : eq(t.enabled, enabled)))) as Array<DeclaredRecord & { parentId: number | null }>)
      : undefined,
    excel: {
      template: decl.template,
      // A row may continue a record an earlier batch made: the batch sees it (its own import's rows).
      stagedTables: [getTableName(t), ...(lines ? [getTableName(options.lineTable!)] : [])],
      importColumns: [...decl.fields.map(importColumn), ...(tree ? [tree.parentColumn] : []), ...commonImportColumns, ...lineColumns],
      async importer(ctx) {
        const refs = new RefResolver(ctx.tx, ctx.tenantId);
        // With lines: the records this import made, by title — a later row with the same title adds its line.
        const made = new Map<string, number>();
        return async (savepoint, row) => {
          const cells = row.data;
          const rowRefs = refs.on(savepoint);
          const line = lines ? await lineOfRow(cells, rowRefs) : undefined;
          const continued = lines ? made.get(String(cellText(cells[titleKey]) ?? '')) : undefined;
          if (continued !== undefined) return line ? lines!.store.append(savepoint, ctx.tenantId, continued, line) : undefined;
          const values: Record<string, unknown> = {};
          for (const f of decl.fields) values[f.key] = await cellValue(f, cells[f.key], rowRefs);
          // A tree's parent by its path or name, among the records so far (rows may build a tree top-down).
          const parentText = tree ? cellText(cells[RECORD_TREE_PARENT]) : undefined;
          if (tree) values[RECORD_TREE_PARENT] = parentText ? (await tree.resolver(savepoint, ctx.tenantId))(parentText) : null;
          const input = schemas.create.parse({
            ...values,
            ...(lines ? { [lines.decl.key]: line ? [line] : [] } : {}),
            sort: cellNumber(cells.sort),
            remark: cellText(cells.remark),
          }) as Body;
          const { id } = await create(inSavepoint(ctx, savepoint), input);
          if (lines) made.set(String(input[titleKey]), id);
        };
      },
      exportColumns: [
        // Titled as the import's columns, so that an exported sheet imports as it is.
        ...decl.fields.map((f) => ({ ...importColumn(f), required: false })),
        // A tree: the parent as the import reads it, then the record's own path and level.
        ...(tree ? [tree.parentColumn, ...tree.exportColumns] : []),
        col('sort', '排序', 'Sort'),
        col('enabled', '启用', 'Enabled'),
        col('remark', '备注', 'Remark', false, 30),
        col('createdAt', '创建时间', 'Created at', false, 20),
        ...lineColumns.map((c) => ({ ...c, required: false })),
      ],
      async exportRows({ tx, tenantId }, query, lang: Lang) {
        const parsed = parseList(spec, query, [ofTenant(tenantId)]);
        // With lines, one row per line: fewer records, so that the sheet stays within the export's bound.
        const limit = lines ? Math.max(1, Math.floor(EXPORT_MAX_ROWS / lines.decl.max)) : EXPORT_MAX_ROWS;
        const rows = (await rowsOf(tx).where(parsed.where).orderBy(...parsed.orderBy).limit(limit)) as Array<Record<string, unknown>>;
        const linesOf = lines ? await lines.store.read(tx, tenantId, rows.map((r) => Number(r.id))) : undefined;
        const names = new Map<string, Map<number, string>>();
        const nameAll = async (fields: readonly RecordFieldDecl[], held: Line[]) => {
          for (const f of fields.filter((field) => field.kind === 'record')) {
            const named = await refExportedNames(tx, tenantId, f.ref!, held.map((r) => r[f.key] as number | null));
            names.set(f.ref!, new Map([...(names.get(f.ref!) ?? []), ...named]));
          }
        };
        await nameAll(decl.fields, rows);
        if (lines) await nameAll(lines.decl.fields, [...linesOf!.values()].flat());
        const paths = tree ? await tree.paths(tx, tenantId) : undefined;
        const placed = (r: Record<string, unknown>) => (paths ? { parentId: r.parentId == null ? null : (paths.get(Number(r.parentId)) ?? null), path: paths.get(Number(r.id)) } : {});
        const own = (r: Record<string, unknown>) => ({ ...r, ...Object.fromEntries(decl.fields.map((f) => [f.key, exportValue(f, r[f.key], lang, names)])), ...placed(r), enabled: boolLabel(Boolean(r.enabled), lang) });
        if (!lines) return rows.map(own);
        // A record without lines (a team with no members yet) is one row of its own cells.
        const sheetRows = (r: Record<string, unknown>) => {
          const held = linesOf!.get(Number(r.id)) ?? [];
          return held.length ? held.map((line) => ({ ...own(r), ...Object.fromEntries(lines.decl.fields.map((f) => [lineCellKey(lines.decl, f), exportValue(f, line[f.key], lang, names)])) })) : [own(r)];
        };
        return rows.flatMap(sheetRows);
      },
      filename: decl.filename,
    },
  };
}

/**
 * A record a declared kind's field names (a work team's leader, a machine's team) cannot be deleted while named:
 * each such field registers its check under the named kind's `usage`, from the declarations alone.
 */
export function registerDeclaredRecordUsage(usage: RecordUsage, tableOf: (kind: string) => DeclaredRecordTable, lineTableOf: (kind: string) => DeclaredRecordLineTable) {
  for (const decl of RECORD_KINDS) {
    for (const field of everyRecordField(decl)) {
      const kind = field.kind === 'record' ? recordRef(field.ref!).usage : undefined;
      if (!kind) continue;
      const table = decl.fields.includes(field) ? tableOf(decl.kind) : lineTableOf(decl.kind);
      usage.register(kind, `${decl.kind}: ${field.key}`, heldBy(table, columnOf(decl, table, field.key)));
    }
  }
}
