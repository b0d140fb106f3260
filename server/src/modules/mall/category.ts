import { and, asc, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { MALL_CATEGORY_MAX_LEVEL, type MallCategory, type MallCategoryCreate, type MallCategoryNode, type MallCategoryUpdate } from '@p8/contract/mall';
import type { Tx } from '../../db/connection.ts';
import { mallCategory, mallProduct } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import { assertIdsExist, distinct } from '../../core/ids.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { buildTree, subtreeIds } from '../../core/tree.ts';

/*
 * Mall → product categories: a tree of two levels (a top category and its sub-categories), each with an
 * icon, an order and a switch. Siblings have distinct names; a category with sub-categories or products
 * cannot be deleted; a disabled category takes no new products.
 */

type Row = typeof mallCategory.$inferSelect;

const listSpec: ListSpec = {
  fields: {
    name: { column: mallCategory.name, filter: 'like', sortable: true },
    parentId: { column: mallCategory.parentId, filter: 'number' },
    enabled: { column: mallCategory.enabled, filter: 'bool' },
    sort: { column: mallCategory.sort, sortable: true },
    createdAt: { column: mallCategory.createdAt, sortable: true },
  },
  dateColumn: mallCategory.createdAt,
  defaultOrder: [asc(mallCategory.sort), asc(mallCategory.id)],
};

// The outer table named in full (drizzle leaves a lone table's columns unqualified).
const productCount = sql<number>`(select count(*)::int from ${mallProduct} p where p.tenant_id = "mall_category"."tenant_id" and p.category_id = "mall_category"."id")`;

const toCategory = (r: Row & { productCount: number }): MallCategory => ({
  id: r.id,
  parentId: r.parentId,
  level: r.level,
  name: r.name,
  icon: r.icon,
  sort: r.sort,
  enabled: r.enabled,
  productCount: Number(r.productCount),
  createdAt: r.createdAt.toISOString(),
});

const where = (ctx: ServiceContext, id: number) => and(eq(mallCategory.tenantId, ctx.tenantId), eq(mallCategory.id, id));

async function findCategory(tx: Tx, tenantId: number, id: number): Promise<Row> {
  const [row] = await tx.select().from(mallCategory).where(and(eq(mallCategory.tenantId, tenantId), eq(mallCategory.id, id)));
  if (!row) throw new BizError('MallCategoryNotExist', { additional: id });
  return row;
}

/** The category a product may be filed under: existing and enabled. */
export async function assertCategoryUsable(tx: Tx, tenantId: number, id: number) {
  const row = await findCategory(tx, tenantId, id);
  if (!row.enabled) throw new BizError('MallCategoryDisabled', { additional: row.name });
}

async function assertNameFree(ctx: ServiceContext, parentId: number | null, name: string, exceptId?: number) {
  const [taken] = await ctx.tx
    .select({ id: mallCategory.id })
    .from(mallCategory)
    .where(
      and(
        eq(mallCategory.tenantId, ctx.tenantId),
        parentId === null ? isNull(mallCategory.parentId) : eq(mallCategory.parentId, parentId),
        eq(mallCategory.name, name),
        exceptId === undefined ? undefined : ne(mallCategory.id, exceptId),
      ),
    )
    .limit(1);
  if (taken) throw new BizError('NameRepeat', { additional: name });
}

/** The level a category gets below `parentId`: a parent must be a top category. */
async function levelUnder(ctx: ServiceContext, parentId: number | null, selfId?: number): Promise<number> {
  if (parentId === null) return 1;
  if (parentId === selfId) throw new BizError('ParentCannotBeSelf');
  const parent = await findCategory(ctx.tx, ctx.tenantId, parentId);
  if (parent.level >= MALL_CATEGORY_MAX_LEVEL) throw new BizError('MallCategoryMaxTwoLevels');
  return parent.level + 1;
}

export async function listCategories(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(listSpec, query, [eq(mallCategory.tenantId, ctx.tenantId)]);
  const page = await runPage(
    parsed,
    ctx.tx.select({ ...mallCategoryColumns(), productCount }).from(mallCategory).$dynamic(),
    ctx.tx.select(countAll()).from(mallCategory).$dynamic(),
  );
  return { data: page.data.map(toCategory), pagination: page.pagination };
}

function mallCategoryColumns() {
  const { tenantId, id, parentId, level, name, icon, sort, enabled, createdAt, updatedAt } = mallCategory;
  return { tenantId, id, parentId, level, name, icon, sort, enabled, createdAt, updatedAt };
}

export async function categoryTree(ctx: ServiceContext, enabled: boolean | undefined): Promise<MallCategoryNode[]> {
  const rows = await ctx.tx
    .select({ ...mallCategoryColumns(), productCount })
    .from(mallCategory)
    .where(and(eq(mallCategory.tenantId, ctx.tenantId), enabled === undefined ? undefined : eq(mallCategory.enabled, enabled)));
  return buildTree(rows.map(toCategory));
}

/** A category as the export lists it: with the path of names from its top category. */
export type MallCategoryExportRow = MallCategory & { path: string };

/**
 * The category tree in its order (a top category, then its sub-categories) for the export, filtered as
 * the screen filters it: `enabled` on the server's tree, `name` keeping the matches and the path to them.
 */
export async function categoryExportRows(ctx: ServiceContext, query: Record<string, unknown>): Promise<MallCategoryExportRow[]> {
  const enabled = query.enabled === undefined || query.enabled === '' ? undefined : String(query.enabled) === 'true' || String(query.enabled) === '1';
  const name = String(query.name ?? '').trim().toLowerCase();
  const out: MallCategoryExportRow[] = [];
  // As the screen's search: a matching category keeps all its sub-categories; a parent shows for a match below.
  const walk = (nodes: MallCategoryNode[], parents: string[], kept: boolean): boolean => {
    let any = false;
    for (const { children, ...node } of nodes) {
      const path = [...parents, node.name];
      const at = out.length;
      const matched = kept || !name || node.name.toLowerCase().includes(name);
      if (walk(children ?? [], path, matched) || matched) {
        out.splice(at, 0, { ...node, path: path.join(' / ') });
        any = true;
      }
    }
    return any;
  };
  walk(await categoryTree(ctx, enabled), [], false);
  return out;
}

export async function getCategory(ctx: ServiceContext, id: number): Promise<MallCategory> {
  const [row] = await ctx.tx.select({ ...mallCategoryColumns(), productCount }).from(mallCategory).where(where(ctx, id));
  if (!row) throw new BizError('MallCategoryNotExist', { additional: id });
  return toCategory(row);
}

export async function createCategory(ctx: ServiceContext, body: MallCategoryCreate): Promise<MallCategory> {
  const level = await levelUnder(ctx, body.parentId);
  await assertNameFree(ctx, body.parentId, body.name);
  const [created] = await ctx.tx.insert(mallCategory).values({ ...body, tenantId: ctx.tenantId, level }).returning({ id: mallCategory.id });
  return getCategory(ctx, created.id);
}

export async function updateCategory(ctx: ServiceContext, { id, ...body }: MallCategoryUpdate): Promise<MallCategory> {
  const before = await findCategory(ctx.tx, ctx.tenantId, id);
  let level = before.level;
  if (body.parentId !== before.parentId) {
    level = await levelUnder(ctx, body.parentId, id);
    // A top category with sub-categories cannot itself go below another.
    if (level > 1) {
      const [child] = await ctx.tx.select({ id: mallCategory.id }).from(mallCategory).where(and(eq(mallCategory.tenantId, ctx.tenantId), eq(mallCategory.parentId, id))).limit(1);
      if (child) throw new BizError('MallCategoryMaxTwoLevels');
    }
  }
  await assertNameFree(ctx, body.parentId, body.name, id);
  await ctx.tx.update(mallCategory).set({ ...body, level, updatedAt: new Date() }).where(where(ctx, id));
  return getCategory(ctx, id);
}


/** Deletes categories; refused while one has a sub-category left behind or any product. */
export async function deleteCategories(ctx: ServiceContext, requested: number[]) {
  const ids = distinct(requested);
  await assertIdsExist(ctx.tx, mallCategory, ctx.tenantId, ids, 'MallCategoryNotExist');
  const subtree = await subtreeIds(ctx.tx, 'mall_category', ctx.tenantId, ids);
  const orphan = subtree.find((id) => !ids.includes(id));
  if (orphan !== undefined) throw new BizError('MallCategoryHasChildren', { additional: orphan });
  const [used] = await ctx.tx
    .select({ id: mallProduct.categoryId, n: count() })
    .from(mallProduct)
    .where(and(eq(mallProduct.tenantId, ctx.tenantId), inArray(mallProduct.categoryId, ids)))
    .groupBy(mallProduct.categoryId)
    .limit(1);
  if (used) throw new BizError('MallCategoryHasProducts', { additional: used.id });
  // Children first: the parent key refers to the same table.
  await ctx.tx.delete(mallCategory).where(and(eq(mallCategory.tenantId, ctx.tenantId), inArray(mallCategory.id, ids), sql`${mallCategory.parentId} is not null`));
  await ctx.tx.delete(mallCategory).where(and(eq(mallCategory.tenantId, ctx.tenantId), inArray(mallCategory.id, ids)));
}

export async function enableCategories(ctx: ServiceContext, requested: number[], enabled: boolean) {
  const ids = distinct(requested);
  await assertIdsExist(ctx.tx, mallCategory, ctx.tenantId, ids, 'MallCategoryNotExist');
  await ctx.tx.update(mallCategory).set({ enabled, updatedAt: new Date() }).where(and(eq(mallCategory.tenantId, ctx.tenantId), inArray(mallCategory.id, ids)));
}
