import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import { recordRef, type HandWrittenRef } from '@p8/contract/records/references';
import { recordTitleField } from '@p8/contract/records/registry';
import { BizError, refusal } from './errors.ts';
import { distinct } from './ids.ts';
import { idArray } from './tree.ts';
import { qualified } from './list-query.ts';
import type { Tx } from '../db/connection.ts';
import { admin, bom, declaredRecordTable, department, finFundAccount, location, material, partner, warehouse } from '../db/schema/index.ts';

/*
 * Where each referable record kind (packages/contract/src/records/references.ts) is stored, in one place: its
 * table, the text shown beside its id, the text an export writes, the columns an import's text may equal (in
 * order), the rows of the table that are of the kind (partners are suppliers or customers) and the column naming
 * its parent. The bill engine reads the records its fields name only through here — existence at save, the
 * names beside the ids, Excel matching — so a bill field naming a new kind needs no engine change. Declared
 * record kinds are derived from their declaration and their table (`declaredRecordTable`).
 */

export interface RecordRefSource {
  table: PgTable;
  id: AnyPgColumn;
  tenantId: AnyPgColumn;
  /** What a form and a list show beside the id. */
  shown: AnyPgColumn | SQL;
  /** What an export writes (an import matches it first). */
  exported: AnyPgColumn;
  /** The columns an import's text may equal, tried together (the lowest id wins). */
  matched: readonly AnyPgColumn[];
  /** The rows of the table that are records of this kind. */
  scope?: SQL;
  /** The parent's id column, for a kind that belongs to one (`RecordRefDecl.parent`). */
  parent?: AnyPgColumn;
  /** A record a bill names must be enabled (a BOM, a fee type, a process); without it a disabled one is still named. */
  enabled?: AnyPgColumn;
}

const staffShown = sql`coalesce(nullif(${admin.realName}, ''), ${admin.name})`;

const HAND_WRITTEN_SOURCES: Record<HandWrittenRef, RecordRefSource> = {
  supplier: { table: partner, id: partner.id, tenantId: partner.tenantId, shown: partner.name, exported: partner.code, matched: [partner.code, partner.name], scope: eq(partner.kind, 'supplier') },
  customer: { table: partner, id: partner.id, tenantId: partner.tenantId, shown: partner.name, exported: partner.code, matched: [partner.code, partner.name], scope: eq(partner.kind, 'customer') },
  warehouse: { table: warehouse, id: warehouse.id, tenantId: warehouse.tenantId, shown: warehouse.name, exported: warehouse.code, matched: [warehouse.code, warehouse.name] },
  location: { table: location, id: location.id, tenantId: location.tenantId, shown: location.name, exported: location.name, matched: [location.name, location.code], parent: location.warehouseId },
  material: { table: material, id: material.id, tenantId: material.tenantId, shown: material.name, exported: material.code, matched: [material.code, material.name] },
  bom: { table: bom, id: bom.id, tenantId: bom.tenantId, shown: bom.version, exported: bom.version, matched: [bom.version], parent: bom.materialId, enabled: bom.enabled },
  staff: { table: admin, id: admin.id, tenantId: admin.tenantId, shown: staffShown, exported: admin.name, matched: [admin.name, admin.realName] },
  department: { table: department, id: department.id, tenantId: department.tenantId, shown: department.name, exported: department.name, matched: [department.name] },
  fundAccount: { table: finFundAccount, id: finFundAccount.id, tenantId: finFundAccount.tenantId, shown: finFundAccount.name, exported: finFundAccount.name, matched: [finFundAccount.name] },
};

/**
 * A declared kind: its table; shown and exported by its title field, matched by its code (when it has one) and
 * title; named only while enabled.
 */
function declaredSource(kind: string): RecordRefSource {
  const decl = RECORD_KINDS.find((d) => d.kind === kind)!;
  const table = declaredRecordTable(kind) as unknown as PgTable & Record<string, AnyPgColumn>;
  const title = table[recordTitleField(decl).key];
  const code = decl.fields.some((f) => f.key === 'code') ? table.code : undefined;
  return { table, id: table.id, tenantId: table.tenantId, shown: title, exported: code ?? title, matched: code ? [code, title] : [title], enabled: table.enabled };
}

const SOURCES: ReadonlyMap<string, RecordRefSource> = new Map([
  ...Object.entries(HAND_WRITTEN_SOURCES),
  ...RECORD_KINDS.map((decl) => [decl.kind, declaredSource(decl.kind)] as const),
]);

/** Where a referable kind is stored; every kind of `RECORD_REFS` has a source (record-refs.test.ts walks them). */
export function refSource(ref: string): RecordRefSource {
  const found = SOURCES.get(ref);
  if (!found) throw new Error(`record kind "${ref}" has no source (server/src/core/record-refs.ts)`);
  return found;
}

/** The kinds that have a source: what the walker compares with the contract's `RECORD_REFS`. */
export const sourcedRefs = () => [...SOURCES.keys()];

const ids = (values: Iterable<number | null | undefined>) => distinct([...values].filter((id): id is number => typeof id === 'number' && id > 0));

/**
 * A text of each of `wanted` records of a kind that exist for the tenant, in one query: what forms and lists show
 * beside the id (`shown`), or what an export writes (`exported`).
 */
async function refTexts(tx: Tx, tenantId: number, ref: string, wanted: Iterable<number | null | undefined>, text: 'shown' | 'exported'): Promise<Map<number, string>> {
  const list = ids(wanted);
  if (!list.length) return new Map();
  const s = refSource(ref);
  const found = await tx
    .select({ id: s.id, name: sql<string>`${s[text]}` })
    .from(s.table)
    .where(and(eq(s.tenantId, tenantId), inArray(s.id, list), s.scope));
  return new Map(found.map((f) => [Number(f.id), f.name]));
}

/** The shown text (the name) of each of `wanted` records of a kind. */
export const refNames = (tx: Tx, tenantId: number, ref: string, wanted: Iterable<number | null | undefined>) => refTexts(tx, tenantId, ref, wanted, 'shown');

/** The exported text of each of `wanted` records of a kind (an export's cells). */
export const refExportedNames = (tx: Tx, tenantId: number, ref: string, wanted: Iterable<number | null | undefined>) => refTexts(tx, tenantId, ref, wanted, 'exported');

/** A record id a bill (or import) names: with its parent's id for a kind that has one, and the line naming it. */
export interface NamedRecord {
  id: number;
  parent?: number | null;
  line?: number;
}

/**
 * Refuses with the kind's catalogued `missing` key (naming the line, else the id) any of `wanted` that is not a
 * record of the kind of the tenant — enabled, for a kind whose source asks it — or, for a kind with a parent, not
 * one of the parent given (an item without a parent id is checked for existence only).
 */
export async function assertRefsExist(tx: Tx, tenantId: number, ref: string, wanted: readonly NamedRecord[]): Promise<void> {
  const items = wanted.filter((w) => typeof w.id === 'number' && w.id > 0);
  if (!items.length) return;
  const s = refSource(ref);
  const found = await tx
    .select({ id: s.id, parent: s.parent ? sql<string>`${s.parent}` : sql<null>`null` })
    .from(s.table)
    .where(and(eq(s.tenantId, tenantId), sql`${s.id} = any(${idArray(ids(items.map((w) => w.id)))})`, s.scope, s.enabled ? eq(s.enabled, true) : undefined));
  const parentOf = new Map(found.map((f) => [Number(f.id), f.parent === null ? null : Number(f.parent)]));
  const wrong = items.find((w) => !parentOf.has(w.id) || (s.parent && w.parent && parentOf.get(w.id) !== w.parent));
  if (!wrong) return;
  const missing = recordRef(ref).missing;
  throw wrong.line ? refusal(missing, {}, { line: wrong.line }) : new BizError(missing, { additional: wrong.id });
}

/**
 * The shown text of a kind's record as a scalar subquery, for a list's select: `outerTenant` and `id` are the
 * listing row's columns (each subquery uses the (tenant, id) key of what it looks up).
 */
export function refNameSubquery(ref: string, outerTenant: AnyPgColumn | SQL, id: AnyPgColumn | SQL): SQL<string | null> {
  const s = refSource(ref);
  return sql<string | null>`(select ${s.shown} from ${s.table} where ${qualified(s.tenantId)} = ${qualified(outerTenant)} and ${qualified(s.id)} = ${qualified(id)})`;
}

/** Record ids by the text an import gives (code or name, as the kind's source matches), looked up once per text. */
export class RefResolver {
  constructor(
    private readonly tx: Tx,
    private readonly tenantId: number,
    private readonly cache = new Map<string, number>(),
  ) {}

  /**
   * The same resolver, with its cache, asking through `tx`: a staged import runs each batch in a transaction of
   * its own, after the one its row handler was built in has ended.
   */
  on(tx: Tx): RefResolver {
    return new RefResolver(tx, this.tenantId, this.cache);
  }

  async id(ref: string, text: string, parentId?: number): Promise<number> {
    const key = `${ref}\u0000${parentId ?? ''}\u0000${text}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const s = refSource(ref);
    const [found] = (await this.tx
      .select({ id: s.id })
      .from(s.table)
      .where(and(eq(s.tenantId, this.tenantId), or(...s.matched.map((c) => eq(c, text))), s.scope, s.parent && parentId ? eq(s.parent, parentId) : undefined))
      .orderBy(asc(s.id))
      .limit(1)) as Array<{ id: number }>;
    if (!found) throw new BizError(recordRef(ref).missing, { additional: text });
    this.cache.set(key, Number(found.id));
    return Number(found.id);
  }
}
