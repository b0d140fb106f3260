import { and, eq, inArray, isNull, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import { DISTRICT_MAX_LEVEL, districtSchemas, idParamsSchema, idsSchema, type District, type DistrictNode } from '@p8/contract/basic';
import type { Tx } from '../../db/connection.ts';
import { district } from '../../db/schema/index.ts';
import { changes } from '../../core/audit.ts';
import { BizError } from '../../core/errors.ts';
import { assertAllFound, distinct } from '../../core/ids.ts';
import { route } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { buildTree, subtreeIds } from '../../core/tree.ts';

/*
 * The districts of partner addresses: the tenant's own tree of at most four levels beside the shared national
 * regions (region.ts), without enable, import or export — so hand-written, not a declared tree like material
 * categories (packages/contract/src/records/catalogue.ts). A parent can be neither the node itself nor one of
 * its descendants; moving a node moves its subtree, whose depth must still fit.
 */

interface DistrictInput {
  parentId?: number | null;
  name?: string;
  sort?: number;
  code?: string;
}

async function nodeOf(tx: Tx, tenantId: number, id: number) {
  const t = district;
  const [row] = await tx.select({ id: t.id, parentId: t.parentId, level: t.level }).from(t).where(and(eq(t.tenantId, tenantId), eq(t.id, id)));
  if (!row) throw new BizError('DistrictNotExist', { additional: id });
  return row;
}

async function assertSiblingNameFree(tx: Tx, tenantId: number, parentId: number | null, name: string, exceptId?: number) {
  const t = district;
  const [taken] = await tx
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.tenantId, tenantId), parentId === null ? isNull(t.parentId) : eq(t.parentId, parentId), eq(t.name, name), exceptId === undefined ? undefined : ne(t.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('NameRepeat', { additional: name });
}

/** Level a new child of `parentId` gets (1 for a root), refused beyond the tree's depth. */
async function levelUnder(tx: Tx, tenantId: number, parentId: number | null | undefined): Promise<number> {
  if (parentId == null) return 1;
  const parent = await nodeOf(tx, tenantId, parentId);
  const level = parent.level + 1;
  if (level > DISTRICT_MAX_LEVEL) throw new BizError('DistrictMaxFourLevels');
  return level;
}

async function createNode(tx: Tx, tenantId: number, body: DistrictInput): Promise<{ id: number }> {
  const parentId = body.parentId ?? null;
  const level = await levelUnder(tx, tenantId, parentId);
  await assertSiblingNameFree(tx, tenantId, parentId, body.name!);
  const [row] = await tx.insert(district).values({ tenantId, parentId, level, name: body.name!, sort: body.sort ?? 0, code: body.code ?? '' }).returning({ id: district.id });
  return row;
}

type NodeValues = Partial<Pick<typeof district.$inferInsert, 'parentId' | 'name' | 'sort' | 'code' | 'updatedAt'>> & { level?: number | SQL };

async function updateNode(tx: Tx, tenantId: number, body: DistrictInput & { id: number }) {
  const t = district;
  const current = await nodeOf(tx, tenantId, body.id);
  const values: NodeValues = { updatedAt: new Date() };
  let parentId = current.parentId;
  if (body.parentId !== undefined && body.parentId !== current.parentId) {
    parentId = body.parentId;
    if (parentId === body.id) throw new BizError('ParentCannotBeSelf');
    const subtree = await subtreeIds(tx, 'district', tenantId, [body.id]);
    if (parentId !== null && subtree.includes(parentId)) throw new BizError('ParentCannotBeSelf');
    const level = parentId === null ? 1 : (await nodeOf(tx, tenantId, parentId)).level + 1;
    // The deepest node below keeps its distance from the moved node.
    const [{ deepest }] = await tx
      .select({ deepest: sql<number>`coalesce(max(${t.level}), 0)::int` })
      .from(t)
      .where(and(eq(t.tenantId, tenantId), inArray(t.id, subtree)));
    if (level + (deepest - current.level) > DISTRICT_MAX_LEVEL) throw new BizError('DistrictMaxFourLevels');
    const shift = level - current.level;
    if (shift !== 0) await tx.update(t).set({ level: sql`${t.level} + ${shift}` }).where(and(eq(t.tenantId, tenantId), inArray(t.id, subtree)));
    values.parentId = parentId;
  }
  if (body.name !== undefined) {
    await assertSiblingNameFree(tx, tenantId, parentId, body.name, body.id);
    values.name = body.name;
  } else if (parentId !== current.parentId) {
    const [me] = await tx.select({ name: t.name }).from(t).where(and(eq(t.tenantId, tenantId), eq(t.id, body.id)));
    await assertSiblingNameFree(tx, tenantId, parentId, me.name, body.id);
  }
  if (body.sort !== undefined) values.sort = body.sort;
  if (body.code !== undefined) values.code = body.code;
  await tx.update(t).set(values).where(and(eq(t.tenantId, tenantId), eq(t.id, body.id)));
}

async function deleteNodes({ tx, tenantId, registries }: ServiceContext, ids: number[]) {
  const t = district;
  const found = await tx.select({ id: t.id }).from(t).where(and(eq(t.tenantId, tenantId), inArray(t.id, ids)));
  assertAllFound(ids, found, 'DistrictNotExist');
  // Children deleted together with their parent are fine; a child left behind is not.
  const [child] = await tx
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.tenantId, tenantId), inArray(t.parentId, ids), notInArray(t.id, ids)))
    .limit(1);
  if (child) throw new BizError('DistrictHasChildrenProhibitDelete', { additional: child.id });
  await registries.recordUsage.refuseIfInUse(tx, tenantId, 'district', ids);
  await tx.delete(t).where(and(eq(t.tenantId, tenantId), inArray(t.id, ids)));
}

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

/** The district tree's routes: GET /district/tree with the detail, create, update and delete under the basic_district_* button codes. */
export const treeRoutes = [
  route({ method: 'GET', url: `${DISTRICT_URL}/tree`, picker: ['basic_district', 'basic_supplier', 'basic_customer'], tags: districtTags, summary: 'The district tree', handler: (ctx) => districtTree(ctx) }),
  route({ method: 'GET', url: `${DISTRICT_URL}/:id`, permission: 'basic_district', tags: districtTags, summary: 'One district', params: idParamsSchema, handler: (ctx, { params }) => districtDetail(ctx, params.id) }),
  route({
    method: 'POST', url: DISTRICT_URL, tags: districtTags, summary: 'Create a district', permission: 'basic_district_add', body: districtSchemas.create,
    async handler(ctx, { body }) {
      const created = await createNode(ctx.tx, ctx.tenantId, body);
      ctx.audit({ action: 'create', entity: 'district', entityId: created.id, detail: body });
      return created;
    },
  }),
  route({
    method: 'PUT', url: DISTRICT_URL, tags: districtTags, summary: 'Update a district', permission: 'basic_district_update', body: districtSchemas.update,
    async handler(ctx, { body }) {
      const before = await districtDetail(ctx, body.id);
      await updateNode(ctx.tx, ctx.tenantId, body);
      const changed = changes(before, body);
      if (Object.keys(changed).length) ctx.audit({ action: 'update', entity: 'district', entityId: body.id, detail: changed });
    },
  }),
  route({
    method: 'DELETE', url: DISTRICT_URL, tags: districtTags, summary: 'Delete districts', permission: 'basic_district_delete', body: idsSchema,
    async handler(ctx, { body }) {
      const ids = distinct(body.ids);
      await deleteNodes(ctx, ids);
      ctx.audit({ action: 'delete', entity: 'district', entityId: ids });
    },
  }),
];
