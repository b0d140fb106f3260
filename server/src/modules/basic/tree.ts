import { and, asc, eq, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import type { ErrorKey } from '@p8/contract/errors';
import type { Tx } from '../../db/connection.ts';
import { category, district } from '../../db/schema/index.ts';
import { audit } from '../../core/audit.ts';
import { ok } from '../../core/envelope.ts';
import type { RecordUsage } from '../../core/record-usage.ts';
import { BizError } from '../../core/errors.ts';
import type { Lang } from '../../core/excel.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { assertAllFound, boolLabel, cellNumber, cellText, col, distinct, EXPORT_MAX_ROWS, q } from './kit.ts';
import { buildTree, subtreeIds } from '../../core/tree.ts';
import type { RecordDefinition } from './record-routes.ts';

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
  const [row] = await tx
    .insert(cfg.table)
    .values({ tenantId, parentId, level, name: body.name!, sort: body.sort ?? 0, ...(cfg.name === 'category' ? { remark: body.remark ?? '' } : { code: body.code ?? '' }) } as never)
    .returning({ id: cfg.table.id });
  return row;
}

async function updateNode(tx: Tx, cfg: TreeConfig, tenantId: number, body: TreeInput & { id: number }) {
  const t = cfg.table;
  const current = await nodeOf(tx, cfg, tenantId, body.id);
  const values: Record<string, unknown> = { updatedAt: new Date() };
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
    if (shift !== 0) await tx.update(t).set({ level: sql`${t.level} + ${shift}` } as never).where(and(eq(t.tenantId, tenantId), inArray(t.id, subtree)));
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
  await tx.update(t).set(values as never).where(and(eq(t.tenantId, tenantId), eq(t.id, body.id)));
}

async function deleteNodes(tx: Tx, usage: RecordUsage, cfg: TreeConfig, tenantId: number, ids: number[]) {
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
  await usage.refuseIfInUse(tx, tenantId, cfg.name, ids);
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

export const categoryDefinition: RecordDefinition<TreeInput, TreeInput> = {
  record: 'category',
  entity: 'category',
  createSchema: categorySchemas.create as never,
  updateSchema: categorySchemas.update as never,
  async list(tx, req, query) {
    const parsed = parseList(categorySpec, query, [eq(category.tenantId, req.auth.tenantId)]);
    return runPage(parsed, tx.select(categorySelection).from(category).$dynamic(), tx.select(countAll()).from(category).$dynamic());
  },
  async detail(tx, req, id): Promise<Category> {
    const [row] = await tx.select(categorySelection).from(category).where(and(eq(category.tenantId, req.auth.tenantId), eq(category.id, id)));
    if (!row) throw new BizError('CategoryNotExist', { additional: id });
    return row as unknown as Category;
  },
  create: (tx, req, body) => createNode(tx, CATEGORY, req.auth.tenantId, body),
  update: (tx, req, body) => updateNode(tx, CATEGORY, req.auth.tenantId, body),
  remove: (tx, req, ids) => deleteNodes(tx, req.server.recordUsage, CATEGORY, req.auth.tenantId, ids),
  async enable(tx, req, ids, enabled) {
    const found = await tx.select({ id: category.id }).from(category).where(and(eq(category.tenantId, req.auth.tenantId), inArray(category.id, ids)));
    assertAllFound(ids, found, 'CategoryNotExist');
    await tx.update(category).set({ enabled, updatedAt: new Date() }).where(and(eq(category.tenantId, req.auth.tenantId), inArray(category.id, ids)));
  },
  excel: {
    template: 'category',
    importColumns: [
      col('name', '分类名称', 'Name', true),
      col('parent', '上级分类(名称或路径 A/B)', 'Parent (name or path A/B)', false, 30),
      col('sort', '排序', 'Sort'),
      col('remark', '备注', 'Remark', false, 30),
    ],
    async importer(_tx, req) {
      return async (savepoint, row) => {
        const d = row.data;
        const parentText = cellText(d.parent);
        // Rows may build a tree top-down, so the parent is looked up after the rows before it.
        const parentId = parentText ? (await categoryResolver(savepoint, req.auth.tenantId))(parentText) : null;
        const input = categorySchemas.create.parse({ name: cellText(d.name) ?? '', parentId, sort: cellNumber(d.sort), remark: cellText(d.remark) });
        await createNode(savepoint, CATEGORY, req.auth.tenantId, input as TreeInput);
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
    async exportRows(tx, req, query, lang: Lang) {
      const parsed = parseList(categorySpec, query, [eq(category.tenantId, req.auth.tenantId)]);
      const rows = await tx.select(categorySelection).from(category).where(parsed.where).orderBy(...parsed.orderBy).limit(EXPORT_MAX_ROWS);
      const paths = await categoryPaths(tx, req.auth.tenantId);
      return rows.map((r) => ({ ...r, path: paths.get(r.id) ?? r.name, enabled: boolLabel(r.enabled, lang) }));
    },
    filename: { zh: '物料分类', en: 'categories' },
  },
};

const treeQuery = z.object({ enabled: z.enum(['true', 'false', '1', '0']).optional() });

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

/**
 * Routes of the trees: GET /category/tree, and districts — GET /district (the tree) with create, update
 * and delete under the basic_district_* button codes.
 */
export async function treeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/admin/basic/category/tree', { schema: { tags: ['basic: category'], summary: 'The category tree', querystring: treeQuery } }, async (req) => {
    const enabled = req.query.enabled === undefined ? undefined : req.query.enabled === 'true' || req.query.enabled === '1';
    const rows = await req.tenant((tx) =>
      tx
        .select(categorySelection)
        .from(category)
        .where(and(eq(category.tenantId, req.auth.tenantId), enabled === undefined ? undefined : eq(category.enabled, enabled))),
    );
    return ok(buildTree(rows as unknown as Category[]) as CategoryNode[]);
  });

  const base = '/api/admin/basic/district';
  const tags = ['basic: district'];
  const tenantOf = (req: FastifyRequest) => req.auth.tenantId;

  r.get(`${base}/tree`, { schema: { tags, summary: 'The district tree' } }, async (req) => {
    const rows = await req.tenant((tx) => tx.select(districtSelection).from(district).where(eq(district.tenantId, tenantOf(req))));
    return ok(buildTree(rows as District[]) as DistrictNode[]);
  });

  r.get(`${base}/:id`, { schema: { tags, summary: 'One district', params: idParamsSchema } }, async (req) =>
    ok(
      await req.tenant(async (tx) => {
        const [row] = await tx.select(districtSelection).from(district).where(and(eq(district.tenantId, tenantOf(req)), eq(district.id, req.params.id)));
        if (!row) throw new BizError('DistrictNotExist', { additional: req.params.id });
        return row;
      }),
    ),
  );

  r.post(base, { config: { permission: 'basic_district_add' }, schema: { tags, summary: 'Create a district', body: districtSchemas.create } }, async (req) =>
    ok(
      await req.tenant(async (tx) => {
        const created = await createNode(tx, DISTRICT, tenantOf(req), req.body as TreeInput);
        await audit(tx, req, { action: 'create', entity: 'district', entityId: created.id, detail: req.body });
        return created;
      }),
    ),
  );

  r.put(base, { config: { permission: 'basic_district_update' }, schema: { tags, summary: 'Update a district', body: districtSchemas.update } }, async (req) =>
    ok(
      await req.tenant(async (tx) => {
        await updateNode(tx, DISTRICT, tenantOf(req), req.body as TreeInput & { id: number });
        await audit(tx, req, { action: 'update', entity: 'district', entityId: req.body.id, detail: req.body });
        return null;
      }),
    ),
  );

  r.delete(base, { config: { permission: 'basic_district_delete' }, schema: { tags, summary: 'Delete districts', body: idsSchema } }, async (req) => {
    const ids = distinct(req.body.ids);
    await req.tenant(async (tx) => {
      await deleteNodes(tx, req.server.recordUsage, DISTRICT, tenantOf(req), ids);
      await audit(tx, req, { action: 'delete', entity: 'district', entityId: ids });
    });
    return ok(null);
  });
}

