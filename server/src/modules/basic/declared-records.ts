import { and, eq, ne, notInArray, sql } from 'drizzle-orm';
import { RECORD_KINDS, recordKind } from '@p8/contract/records/catalogue';
import { BASE_CURRENCY } from '@p8/contract/records/currency';
import type { Tx } from '../../db/connection.ts';
import { category, declaredRecordLineTable, declaredRecordTable, material } from '../../db/schema/index.ts';
import { declaredRecordDefinition, type DeclaredRecordHooks, type DeclaredRecordLineTable, type DeclaredRecordTable } from '../../core/declared-records.ts';
import { declaredTree } from '../../core/declared-tree.ts';
import { BizError } from '../../core/errors.ts';
import type { AnyRecordDefinition, RecordReaders } from '../../core/record-routes.ts';
import { screensNaming } from '../../core/screens.ts';
import { READERS } from './readers.ts';

/*
 * The basic module's declared records (packages/contract/src/records/catalogue.ts): the rules of a kind's
 * own beyond what the declaration derives (its table is named in db/schema/basic.ts).
 */

/**
 * An attribute's values are the choices a material may hold (an empty list: any text). A value some
 * material holds cannot be dropped from the list.
 */
async function refuseDroppingHeldValues(tx: Tx, tenantId: number, attributeId: number, values: string[]) {
  if (!values.length) return;
  const held = sql<string>`${material.customAttributes} ->> ${String(attributeId)}`;
  const [used] = await tx
    .select({ value: held })
    .from(material)
    .where(and(eq(material.tenantId, tenantId), ne(held, ''), notInArray(held, values)))
    .limit(1);
  if (used) throw new BizError('AttributeValueInUseProhibitDelete', { additional: used.value });
}

const HOOKS: Record<string, DeclaredRecordHooks> = {
  // The base currency is no record: a bill without a currency is in CNY (docs/cross-border.md).
  currency: {
    async beforeSave(_ctx, body) {
      if (body.code === BASE_CURRENCY) throw new BizError('CurrencyIsBase', { additional: body.code });
    },
  },
  attribute: {
    async beforeUpdate({ tx, tenantId }, id, body) {
      if (Array.isArray(body.values)) await refuseDroppingHeldValues(tx, tenantId, id, body.values as string[]);
    },
  },
};

/** Who reads a kind beyond its own screen: its named readers, and every screen (bill or record) whose form names the kind. */
function readersOf(kind: string): RecordReaders | undefined {
  const named = READERS[kind];
  const formsNaming = screensNaming(kind);
  if (!formsNaming.length) return named;
  return { ...named, picker: [...new Set([...(named?.picker ?? []), ...formsNaming])] };
}

/** The definitions of the basic area's declared records, for `recordRoutes`. */
export const declaredBasicDefinitions: AnyRecordDefinition[] = RECORD_KINDS.filter((decl) => decl.area === 'basic').map((decl) =>
  declaredRecordDefinition(decl, {
    table: declaredRecordTable(decl.kind) as unknown as DeclaredRecordTable,
    lineTable: decl.lines ? (declaredRecordLineTable(decl.kind) as unknown as DeclaredRecordLineTable) : undefined,
    readers: readersOf(decl.kind),
    hooks: HOOKS[decl.kind],
  }),
);

const categoryTree = declaredTree(recordKind('category')!.tree!, category, category.name, 'CategoryNotExist');

/** Resolves a material's category cell: a full path "A/B/C" or a name only one category has (as a category's parent). */
export const categoryResolver = (tx: Tx, tenantId: number) => categoryTree.resolver(tx, tenantId);
