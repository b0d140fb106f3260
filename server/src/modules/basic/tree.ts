import { and, asc, eq, inArray, isNull, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  CATEGORY_MAX_LEVEL,
  categorySchemas,
  DISTRICT_MAX_LEVEL,
  districtSchemas,
  idParamsSchema,
  idsSchema,
  type Category,
  type CategoryNode,
  type District,
  type DistrictNode,
} from '@p8/contract/basic';
import { treeEnabledFilter, treeQuerySchema } from '@p8/contract/common';
import type { ErrorKey } from '@p8/contract/errors';
import type { Tx } from '../../db/connection.ts';
import { category, district } from '../../db/schema/index.ts';
import { changes } from '../../core/audit.ts';
import { BizError } from '../../core/errors.ts';
import type { Lang } from '../../core/excel.ts';
import { assertAllFound, distinct } from '../../core/ids.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { route } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { buildTree, subtreeIds } from '../../core/tree.ts';
import { boolLabel, cellNumber, cellText, col } from '../../core/excel-cells.ts';
import { EXPORT_MAX_ROWS, q } from './kit.ts';
import type { RecordDefinition } from '../../core/record-routes.ts';

/*
 * The two trees of the basic records: material categories (at most three levels) and districts
 * for partner addresses (at most four). A parent can be neither the node itself nor one of its
 * descendants; moving a node moves its subtree, whose depth must still fit.
 */

interface TreeInput {
  parentId?: number | null;
  name?: string;
  sort?: number;
  remark?: string;
  code?: string;
}

type TreeTable = typeof category | typeof district;

interface TreeConfig {
  table: TreeTable;
  name: 'category' | 'district';
  maxLevel: number;
  tooDeep: ErrorKey;
  notExist: ErrorKey;
  hasChildren: ErrorKey;
}

const CATEGORY: TreeConfig = {
  table: category,
  name: 'category',
  maxLevel: CATEGORY_MAX_LEVEL,
  tooDeep: 'CategoryMaxThreeLevels',
  notExist: 'CategoryNotExist',
  hasChildren: 'CategoryHasChildrenProhibitDelete',
};
const DISTRICT: TreeConfig = {
  table: district,
  name: 'district',
  maxLevel: DISTRICT_MAX_LEVEL,
  tooDeep: 'DistrictMaxFourLevels',
  notExist: 'DistrictNotExist',
  hasChildren: 'DistrictHasChildrenProhibitDelete',
};

async function nodeOf(tx: Tx, cfg: TreeConfig, tenantId: number, id: number) {
  const t = cfg.table;
  const [row] = await tx.select({ id: t.id, parentId: t.parentId, level: t.level }).from(t).where(and(eq(t.tenantId, tenantId), eq(t.id, id)));
  if (!row) throw new BizError(cfg.notExist, { additional: id });
  return row;
}

async function assertSiblingNameFree(tx: Tx, cfg: TreeConfig, tenantId: number, parentId: number | null, name: string, exceptId?: number) {
  const t = cfg.table;
  const [taken] = await tx
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.tenantId, tenantId), parentId === null ? isNull(t.parentId) : eq(t.parentId, parentId), eq(t.name, name), exceptId === undefined ? undefined : ne(t.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('NameRepeat', { additional: name });
}

/** Level a new child of `parentId` gets (1 for a root), refused beyond the tree's depth. */
async function levelUnder(tx: Tx, cfg: TreeConfig, tenantId: number, parentId: number | null | undefined): Promise<number> {
  if (parentId == null) return 1;
  const parent = await nodeOf(tx, cfg, tenantId, parentId);
  const level = parent.level + 1;
  if (level > cfg.maxLevel) throw new BizError(cfg.tooDeep);
  return level;
}

export async function createNode(tx: Tx, cfg: TreeConfig, tenantId: number, body: TreeInput): Promise<{ id: number }> {
  const parentId = body.parentId ?? null;
  const level = await levelUnder(tx, cfg, tenantId, parentId);
  await assertSiblingNameFree(tx, cfg, tenantId, parentId, body.name!);
  const node = { tenantId, parentId, level, name: body.name!, sort: body.sort ?? 0 };
  const [row] =
    cfg.name === 'category'
      ? await tx.insert(category).values({ ...node, remark: body.remark ?? '' }).returning({ id: category.id })
      : await tx.insert(district).values({ ...node, code: body.code ?? '' }).returning({ id: district.id });
  return row;
}

/** What an update may set on a node: the columns both trees have, and each tree's own text column. */
type NodeValues = Partial<Pick<typeof category.$inferInsert, 'parentId' | 'name' | 'sort' | 'updatedAt'>> & { level?: number | SQL; remark?: string; code?: string };

/** Sets `values` on the tree's rows matching `where` (the two trees are two tables with the same shape). */
async function setNodes(tx: Tx, cfg: TreeConfig, { remark, code, ...values }: NodeValues, where: SQL | undefined) {
  if (cfg.name === 'category') await tx.update(category).set({ ...values, remark }).where(where);
  else await tx.update(district).set({ ...values, code }).where(where);
}

async function updateNode(tx: Tx, cfg: TreeConfig, tenantId: number, body: TreeInput & { id: number }) {
  const t = cfg.table;
  const current = await nodeOf(tx, cfg, tenantId, body.id);
  const values: NodeValues = { updatedAt: new Date() };
  let parentId = current.parentId;
  if (body.parentId !== undefined && body.parentId !== current.parentId) {
    parentId = body.parentId;
    if (parentId === body.id) throw new BizError('ParentCannotBeSelf');
    const subtree = await subtreeIds(tx, cfg.name, tenantId, [body.id]);
    if (parentId !== null && subtree.includes(parentId)) throw new BizError('ParentCannotBeSelf');
    const level = parentId === null ? 1 : (await nodeOf(tx, cfg, tenantId, parentId)).level + 1;
    // The deepest node below keeps its distance from the moved node.
    const [{ deepest }] = await tx
      .select({ deepest: sql<number>`coalesce(max(${t.level}), 0)::int` })
      .from(t)
      .where(and(eq(t.tenantId, tenantId), inArray(t.id, subtree)));
    if (level + (deepest - current.level) > cfg.maxLevel) throw new BizError(cfg.tooDeep);
    const shift = level - current.level;
    if (shift !== 0) await setNodes(tx, cfg, { level: sql`${t.level} + ${shift}` }, and(eq(t.tenantId, tenantId), inArray(t.id, subtree)));
    values.parentId = parentId;
  }
  if (body.name !== undefined) {
    await assertSiblingNameFree(tx, cfg, tenantId, parentId, body.name, body.id);
    values.name = body.name;
  } else if (parentId !== current.parentId) {
    const [me] = await tx.select({ name: t.name }).from(t).where(and(eq(t.tenantId, tenantId), eq(t.id, body.id)));
    await assertSiblingNameFree(tx, cfg, tenantId, parentId, me.name, body.id);
  }
  if (body.sort !== undefined) values.sort = body.sort;
  if (cfg.name === 'category' && body.remark !== undefined) values.remark = body.remark;
  if (cfg.name === 'district' && body.code !== undefined) values.code = body.code;
  await setNodes(tx, cfg, values, and(eq(t.tenantId, tenantId), eq(t.id, body.id)));
}

async function deleteNodes({ tx, tenantId, registries }: ServiceContext, cfg: TreeConfig, ids: number[]) {
  const t = cfg.table;
  const found = await tx.select({ id: t.id }).from(t).where(and(eq(t.tenantId, tenantId), inArray(t.id, ids)));
  assertAllFound(ids, found, cfg.notExist);
  // Children deleted together with their parent are fine; a child left behind is not.
  const [child] = await tx
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.tenantId, tenantId), inArray(t.parentId, ids), notInArray(t.id, ids)))
    .limit(1);
  if (child) throw new BizError(cfg.hasChildren, { additional: child.id });
  await registries.recordUsage.refuseIfInUse(tx, tenantId, cfg.name, ids);
  await tx.delete(t).where(and(eq(t.tenantId, tenantId), inArray(t.id, ids)));
}

// ---------------------------------------------------------------- categories

const categoryParent = sql<string | null>`(select p.name from category p where p.tenant_id = ${q('category', 'tenant_id')} and p.id = ${q('category', 'parent_id')})`;
const categorySelection = {
  id: category.id,
  parentId: category.parentId,
  parentName: categoryParent,
  level: category.level,
  name: category.name,
  sort: category.sort,
  remark: category.remark,
  enabled: category.enabled,
  createdAt: category.createdAt,
  updatedAt: category.updatedAt,
};

const categorySpec: ListSpec = {
  fields: {
    id: { column: category.id, notIn: true },
    name: { column: category.name, filter: 'like', sortable: true },
    parentId: { column: category.parentId, filter: 'number' },
    level: { column: category.level, filter: 'number', sortable: true },
    enabled: { column: category.enabled, filter: 'bool' },
    sort: { column: category.sort, sortable: true },
    createdAt: { column: category.createdAt, sortable: true },
  },
  dateColumn: category.createdAt,
  defaultOrder: [asc(category.level), asc(category.sort), asc(category.id)],
};

/** Full paths ("A/B/C") of a tenant's categories, by id. */
async function categoryPaths(tx: Tx, tenantId: number): Promise<Map<number, string>> {
  const all = await tx.select({ id: category.id, parentId: category.parentId, name: category.name }).from(category).where(eq(category.tenantId, tenantId));
  const byId = new Map(all.map((c) => [c.id, c]));
  const paths = new Map<number, string>();
  const pathOf = (id: number, depth = 0): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const path = node.parentId !== null && byId.has(node.parentId) && depth < 10 ? `${pathOf(node.parentId, depth + 1)}/${node.name}` : node.name;
    paths.set(id, path);
    return path;
  };
  for (const c of all) pathOf(c.id);
  return paths;
}

/** Resolves a category cell: a full path "A/B/C" or a name that only one category has. */
export async function categoryResolver(tx: Tx, tenantId: number): Promise<(text: string) => number> {
  const paths = await categoryPaths(tx, tenantId);
  const byPath = new Map<string, number>();
  const byName = new Map<string, number[]>();
  for (const [id, path] of paths) {
    byPath.set(path, id);
    const name = path.split('/').pop()!;
    byName.set(name, [...(byName.get(name) ?? []), id]);
  }
  return (text: string) => {
    const normalised = text.split(/[/>＞／]/).map((p) => p.trim()).filter(Boolean).join('/');
    const id = byPath.get(normalised) ?? (byName.get(normalised)?.length === 1 ? byName.get(normalised)![0] : undefined);
    if (id === undefined) throw new BizError('CategoryNotExist', { additional: text });
    return id;
  };
}

export const categoryDefinition: RecordDefinition<TreeInput, TreeInput & { id: number }> = {
  record: 'category',
  entity: 'category',
  createSchema: categorySchemas.create,
  updateSchema: categorySchemas.update,
  async list({ tx, tenantId }, query) {
    const parsed = parseList(categorySpec, query, [eq(category.tenantId, tenantId)]);
    return runPage(parsed, tx.select(categorySelection).from(category).$dynamic(), tx.select(countAll()).from(category).$dynamic());
  },
  async detail({ tx, tenantId }, id): Promise<Category> {
    const [row] = await tx.select(categorySelection).from(category).where(and(eq(category.tenantId, tenantId), eq(category.id, id)));
    if (!row) throw new BizError('CategoryNotExist', { additional: id });
    return row as unknown as Category;
  },
  create: ({ tx, tenantId }, body) => createNode(tx, CATEGORY, tenantId, body),
  update: ({ tx, tenantId }, body) => updateNode(tx, CATEGORY, tenantId, body),
  remove: (ctx, ids) => deleteNodes(ctx, CATEGORY, ids),
  async enable({ tx, tenantId }, ids, enabled) {
    const found = await tx.select({ id: category.id }).from(category).where(and(eq(category.tenantId, tenantId), inArray(category.id, ids)));
    assertAllFound(ids, found, 'CategoryNotExist');
    await tx.update(category).set({ enabled, updatedAt: new Date() }).where(and(eq(category.tenantId, tenantId), inArray(category.id, ids)));
  },
  excel: {
    template: 'category',
    stagedTables: ['category'],
    importColumns: [
      col('name', '分类名称', 'Name', true),
      col('parent', '上级分类(名称或路径 A/B)', 'Parent (name or path A/B)', false, 30),
      col('sort', '排序', 'Sort'),
      col('remark', '备注', 'Remark', false, 30),
    ],
    async importer({ tenantId }) {
      return async (savepoint, row) => {
        const d = row.data;
        const parentText = cellText(d.parent);
        // Rows may build a tree top-down, so the parent is looked up after the rows before it.
        const parentId = parentText ? (await categoryResolver(savepoint, tenantId))(parentText) : null;
        const input = categorySchemas.create.parse({ name: cellText(d.name) ?? '', parentId, sort: cellNumber(d.sort), remark: cellText(d.remark) });
        await createNode(savepoint, CATEGORY, tenantId, input);
      };
    },
    exportColumns: [
      col('name', '分类名称', 'Name'),
      col('path', '分类路径', 'Path', false, 30),
      col('level', '层级', 'Level'),
      col('sort', '排序', 'Sort'),
      col('enabled', '启用', 'Enabled'),
      col('remark', '备注', 'Remark', false, 30),
    ],
    async exportRows({ tx, tenantId }, query, lang: Lang) {
      const parsed = parseList(categorySpec, query, [eq(category.tenantId, tenantId)]);
      const rows = await tx.select(categorySelection).from(category).where(parsed.where).orderBy(...parsed.orderBy).limit(EXPORT_MAX_ROWS);
      const paths = await categoryPaths(tx, tenantId);
      return rows.map((r) => ({ ...r, path: paths.get(r.id) ?? r.name, enabled: boolLabel(r.enabled, lang) }));
    },
    filename: { zh: '物料分类', en: 'categories' },
  },
};

// ---------------------------------------------------------------- districts

const districtSelection = {
  id: district.id,
  parentId: district.parentId,
  level: district.level,
  name: district.name,
  code: district.code,
  sort: district.sort,
};

/** Names from the root down to each district, for addresses. */
export async function districtPaths(tx: Tx, tenantId: number, ids: number[]): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>();
  if (!ids.length) return result;
  const all = await tx.select({ id: district.id, parentId: district.parentId, name: district.name }).from(district).where(eq(district.tenantId, tenantId));
  const byId = new Map(all.map((d) => [d.id, d]));
  for (const id of ids) {
    const path: string[] = [];
    let node = byId.get(id);
    while (node && path.length < DISTRICT_MAX_LEVEL + 1) {
      path.unshift(node.name);
      node = node.parentId === null ? undefined : byId.get(node.parentId);
    }
    result.set(id, path);
  }
  return result;
}

async function categoryTree({ tx, tenantId }: ServiceContext, enabled: boolean | undefined): Promise<CategoryNode[]> {
  const rows = await tx
    .select(categorySelection)
    .from(category)
    .where(and(eq(category.tenantId, tenantId), enabled === undefined ? undefined : eq(category.enabled, enabled)));
  return buildTree(rows as unknown as Category[]) as CategoryNode[];
}

async function districtTree({ tx, tenantId }: ServiceContext): Promise<DistrictNode[]> {
  const rows = await tx.select(districtSelection).from(district).where(eq(district.tenantId, tenantId));
  return buildTree(rows as District[]) as DistrictNode[];
}

async function districtDetail({ tx, tenantId }: ServiceContext, id: number): Promise<District> {
  const [row] = await tx.select(districtSelection).from(district).where(and(eq(district.tenantId, tenantId), eq(district.id, id)));
  if (!row) throw new BizError('DistrictNotExist', { additional: id });
  return row as District;
}

const DISTRICT_URL = '/api/admin/basic/district';
const districtTags = ['basic: district'];

/**
 * Routes of the trees: GET /category/tree, and districts — GET /district/tree with the detail, create,
 * update and delete under the basic_district_* button codes.
 */
export const treeRoutes = [
  route({
    method: 'GET', url: '/api/admin/basic/category/tree', picker: ['basic_category', 'basic_material'], tags: ['basic: category'], summary: 'The category tree', query: treeQuerySchema,
    handler: (ctx, { query }) => categoryTree(ctx, treeEnabledFilter(query)),
  }),
  route({ method: 'GET', url: `${DISTRICT_URL}/tree`, picker: ['basic_district', 'basic_supplier', 'basic_customer'], tags: districtTags, summary: 'The district tree', handler: (ctx) => districtTree(ctx) }),
  route({ method: 'GET', url: `${DISTRICT_URL}/:id`, permission: 'basic_district', tags: districtTags, summary: 'One district', params: idParamsSchema, handler: (ctx, { params }) => districtDetail(ctx, params.id) }),
  route({
    method: 'POST', url: DISTRICT_URL, tags: districtTags, summary: 'Create a district', permission: 'basic_district_add', body: districtSchemas.create,
    async handler(ctx, { body }) {
      const created = await createNode(ctx.tx, DISTRICT, ctx.tenantId, body);
      ctx.audit({ action: 'create', entity: 'district', entityId: created.id, detail: body });
      return created;
    },
  }),
  route({
    method: 'PUT', url: DISTRICT_URL, tags: districtTags, summary: 'Update a district', permission: 'basic_district_update', body: districtSchemas.update,
    async handler(ctx, { body }) {
      const before = await districtDetail(ctx, body.id);
      await updateNode(ctx.tx, DISTRICT, ctx.tenantId, body);
      const changed = changes(before, body);
      if (Object.keys(changed).length) ctx.audit({ action: 'update', entity: 'district', entityId: body.id, detail: changed });
    },
  }),
  route({
    method: 'DELETE', url: DISTRICT_URL, tags: districtTags, summary: 'Delete districts', permission: 'basic_district_delete', body: idsSchema,
    async handler(ctx, { body }) {
      const ids = distinct(body.ids);
      await deleteNodes(ctx, DISTRICT, ids);
      ctx.audit({ action: 'delete', entity: 'district', entityId: ids });
    },
  }),
];
