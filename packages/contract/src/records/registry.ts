import { z } from 'zod';
import type { FieldOption } from '../bills/fields.ts';
import type { Label } from '../bills/status.ts';
import type { ErrorKey } from '../errors.ts';
import { storableText } from '../text.ts';

/*
 * Declared records. A record kind (units, brands, processes…) is one declaration here, as a bill type is
 * one declaration in bills/registry.ts: its fields, unique keys with their catalogued refusals, its menu,
 * its Excel names and the data category "clear data" empties. From it the server builds the routes (list,
 * detail, add, update, delete, enable, picker, import, export — one route kit for every module), the menu
 * entry with its button codes, the "in use" refusal and the audit name; the web builds the whole list
 * screen (search, columns, the add / edit / view dialog, Excel buttons) with no file of its own.
 *
 * Every declared record also has the common columns: sort, remark, enabled, created and updated at.
 * Storage: a table of the record's own whose columns are the field keys in snake_case (the server names
 * the table in one place, modules/<area>/declared-records.ts).
 */

/**
 * The kind of value, which decides the form control, the list cell and the Excel cell: text / textarea,
 * number (plain, the field's schema bounds it), quantity (tenant's number digits) and amount (tenant's amount
 * digits), enum (one of `options`, radio buttons), boolean (a yes / no switch), values (a list of short texts,
 * edited as tags), record (the id of another record, of the kind `ref` names: records/references.ts).
 */
export type RecordFieldKind = 'text' | 'textarea' | 'number' | 'quantity' | 'amount' | 'enum' | 'boolean' | 'values' | 'record';

export interface RecordFieldDecl {
  key: string;
  label: Label;
  kind: RecordFieldKind;
  /**
   * With kind `record`: the kind of record it names (a key of `RECORD_REFS`). The record must exist (the kind's
   * refusal), lists and exports show its name, imports match its code or name, and it cannot be deleted while
   * named.
   */
  ref?: string;
  /** The value's schema in a save payload, without `.optional()`: `required` decides. */
  schema: z.ZodType;
  /** Required at create (an update may leave it out and keeps the stored value). */
  required?: boolean;
  options?: readonly FieldOption[];
  /** Searchable in the list: text contains, enum equals. */
  search?: boolean;
  sortable?: boolean;
  /** List column width in px at 1440 px. */
  width?: number;
  /**
   * Valid values, where a made-up one would not do (a date, a clock time, a year): what the tests' samples take —
   * a record's field the first, the lines of a record one each in turn (periods in order, dates apart).
   */
  examples?: readonly unknown[];
  /** What a new record's form starts with (the choice most records take). */
  initial?: unknown;
  /** With kind `number`: the decimal places the form takes (0: whole numbers); the tenant's quantity places unless given. */
  precision?: number;
  /** Help under the form field. */
  help?: Label;
  /** The column title in Excel templates and exports, where it differs from the label. */
  excelTitle?: Label;
  /** The record's name: shown in refusals and confirmations (one per kind). */
  title?: boolean;
  /**
   * With kind `record`, for a kind that lives inside another (a BOM is one of a material's): the key of the field
   * of the same record (or line) naming that parent. A value outside the parent is refused as missing, and the
   * form offers only the parent's records.
   */
  within?: string;
}

/**
 * The lines of a record (a routing's steps): rows of their own fields, kept in their order. A save sends them
 * all, and they replace the stored ones; the detail answers them in order, each with the names of the records
 * its fields name. Excel writes one row per line, the record's own cells repeated on each, and an import makes
 * consecutive rows with the same record key (its first unique key) one record.
 */
export interface RecordLinesDecl {
  /** The key of the lines in a body and the detail (`steps`). */
  key: string;
  /** The lines' title on the form ("Steps"). */
  label: Label;
  fields: readonly RecordFieldDecl[];
  /** The fewest lines a record keeps, with the refusal for fewer. */
  min: number;
  tooFew: ErrorKey;
  /** The most lines a record keeps (more is refused `RecordLinesTooMany`). */
  max: number;
  /** How a list joins the names of the lines in one cell: ' → ' (steps in order) unless given. */
  summaryJoin?: string;
  /** A field no two lines may share (a team's staff member), with the refusal naming the repeat. */
  distinct?: { field: string; refusal: ErrorKey };
}

/**
 * A record kind kept as a tree (material categories): each record names its parent (`parentId`, none for a
 * top-level record) and knows its level (1 at the top). Stored in the record's table as `parent_id` and
 * `level`. The kit refuses a parent that is the record itself or one of its descendants (`ParentCannotBeSelf`),
 * a record — or a moved record with its subtree — below `maxLevel` (`tooDeep`), and deleting a record whose
 * children are not deleted with it (`hasChildren`); a move carries the subtree's levels along. A unique key
 * naming `parentId` is unique among siblings. Routes add GET /tree (the whole tree, nested, `enabled=`
 * filtering); Excel names the parent by its name or its path (`A/B`); the web shows a tree table with
 * "add below" on each row and a parent picker in the dialog.
 */
export interface RecordTreeDecl {
  /** The deepest level a record may sit on (a top-level record is level 1). */
  maxLevel: number;
  tooDeep: ErrorKey;
  hasChildren: ErrorKey;
  /** The parent field's label ("Parent category"), in the dialog and Excel. */
  parentLabel: Label;
  /** The dialog's hint under the parent picker ("Categories allow at most three levels"). */
  parentTip: Label;
  /** The parent picker's placeholder: what no parent means ("None: a top-level category"). */
  parentPlaceholder: Label;
  /** The row link adding a record below ("Add sub-category"). */
  addChild: Label;
  /** Why a row on the deepest level adds nothing below; `{{max}}` is the depth. */
  maxLevelTip: Label;
  /** Why a row with children cannot be deleted ("Delete its sub-categories first"). */
  hasChildrenTip: Label;
  /** The export's column with a record's own path from the top ("Path"). */
  pathLabel: Label;
}

/** The parent field of a tree kind, in bodies, details and lists (with `parentName` and `level` beside it). */
export const RECORD_TREE_PARENT = 'parentId';

/** The data categories of "clear data": business records (bills, orders…) or basic records. */
export type RecordDataCategory = 'basic' | 'business';

/** The menu areas declared records live in. */
export type RecordArea = 'basic' | 'people' | 'quality';

export interface RecordKindDecl {
  /** Route segment and menu suffix: `/api/admin/<area>/<kind>`, menu `<area>_<kind>`. */
  kind: string;
  /** `basic` (basic records), `people` (attendance: docs/people.md) or `quality` (inspection templates: docs/quality.md). */
  area: RecordArea;
  /** The record's name in the audit log and the API summaries (English, singular). */
  entity: string;
  /** The screen's menu title. */
  label: Label;
  /** One record, for dialogs ("Edit unit"). */
  noun: Label;
  icon: string;
  fields: readonly RecordFieldDecl[];
  /** The record's lines, where it has any (a routing's steps). */
  lines?: RecordLinesDecl;
  /** The kind is a tree: its records name their parent (material categories). */
  tree?: RecordTreeDecl;
  /**
   * Keys unique in the tenant (case as typed), each with the refusal naming the repeated value. A key naming a
   * tree's `parentId` is unique among the records of one parent (top-level records count as siblings).
   */
  unique: ReadonlyArray<{ fields: readonly string[]; error: ErrorKey }>;
  /** The refusal for an id that is not there (or not the tenant's). */
  notExist: ErrorKey;
  /** The refusal for deleting a record that something refers to. */
  inUse: ErrorKey;
  category: RecordDataCategory;
  /** Import template key (`/api/base/template/<key>.xlsx`) and download names. */
  template: string;
  filename: Label;
  /**
   * The record takes generated codes: a new record (added or imported) whose `field` is left empty gets the
   * tenant's next `<prefix><sequence>` (the server's core/code-generator.ts; the tenant may set its own
   * prefix in the system settings, which list every kind declaring one). The field is declared without
   * `required`: it may be empty when a record is added, never emptied by an update (its schema refuses that).
   */
  generatedCode?: { field: string; prefix: string };
}

const sort = z.number().int().min(0).max(999_999);
const remark = storableText().trim().max(500);

/** The common fields every declared record has besides its own. */
export const RECORD_COMMON_FIELDS = { sort, remark } as const;

/** The menu name (and button prefix) of a record kind: `basic_unit`. */
export const recordMenuName = (decl: Pick<RecordKindDecl, 'area' | 'kind'>) => `${decl.area}_${decl.kind}`;

/** The API path of a record kind, without the `/api` prefix the web's client adds: `/admin/basic/unit`. */
export const recordApiPath = (decl: Pick<RecordKindDecl, 'area' | 'kind'>) => `/admin/${decl.area}/${decl.kind}`;

/** The field that names a record (its `title` field, else the first). */
export const recordTitleField = (decl: RecordKindDecl) => decl.fields.find((f) => f.title) ?? decl.fields[0];

/** The buttons of a record screen, in the menu's order. */
export const RECORD_ACTIONS = ['add', 'update', 'delete', 'enable', 'import', 'export'] as const;

/** An empty (or blank) generated field at create is no value: the server generates it. */
const emptyIsGenerated = (schema: z.ZodType) => z.preprocess((value) => (typeof value === 'string' && !value.trim() ? undefined : value), schema.optional());

/**
 * The create and update bodies of a record kind: create requires the `required` fields (their schema's own
 * message answers a missing value) and takes the rest optionally (a generated code may be empty; lines a record
 * may be without); update takes every field optionally plus `id`. Unknown keys are dropped.
 */
export function recordSchemas(decl: RecordKindDecl) {
  const own: Record<string, z.ZodType> = Object.fromEntries(decl.fields.map((f) => [f.key, f.schema]));
  if (decl.lines) own[decl.lines.key] = recordLinesSchema(decl.lines);
  // A tree's parent: a record of the same kind, or null for the top level.
  if (decl.tree) own[RECORD_TREE_PARENT] = z.number().int().positive().nullable();
  const shape = { ...own, ...RECORD_COMMON_FIELDS };
  const create = z.object(
    Object.fromEntries(
      Object.entries(shape).map(([key, schema]) => [
        key,
        key === decl.generatedCode?.field ? emptyIsGenerated(schema) : decl.fields.some((f) => f.key === key && f.required) || (key === decl.lines?.key && decl.lines.min > 0) ? schema : (schema as z.ZodType).optional(),
      ]),
    ),
  );
  const update = z.object(shape).partial().extend({ id: z.number().int().positive() });
  return { create, update };
}

/**
 * The lines of a save body: each line's required fields required, the others optional; between `min` and `max`
 * lines; the `distinct` field's values once each.
 */
export function recordLinesSchema(lines: RecordLinesDecl) {
  const line = z.object(Object.fromEntries(lines.fields.map((f) => [f.key, f.required ? f.schema : f.schema.nullish()])));
  const array = z
    .array(line, { error: lines.tooFew })
    .min(lines.min, { message: lines.tooFew })
    .max(lines.max, { message: 'RecordLinesTooMany' });
  const distinct = lines.distinct;
  if (!distinct) return array;
  return array.superRefine((values, check) => {
    const seen = new Set<unknown>();
    values.forEach((value, index) => {
      const key = (value as Record<string, unknown>)[distinct.field];
      if (key != null && seen.has(key)) check.addIssue({ code: 'custom', message: distinct.refusal, path: [index, distinct.field] });
      seen.add(key);
    });
  });
}

/** A declared record as the list and the detail answer it. */
export interface DeclaredRecord {
  id: number;
  sort: number;
  remark: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

/** Every field of a kind, its own and its lines' (whatever names another record, wherever it sits). */
export const everyRecordField = (decl: RecordKindDecl): readonly RecordFieldDecl[] => [...decl.fields, ...(decl.lines?.fields ?? [])];

/** The list's cell summing up a record's lines, by what names each line (`steps` → `stepsSummary`). */
export const lineSummaryKey = (lines: RecordLinesDecl) => `${lines.key}Summary`;
