import { and, asc, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  BOM_ITEM_TYPE_LABELS,
  BomItemType,
  bomSchemas,
  explodeQuerySchema,
  idParamsSchema,
  type BomCreate,
  type BomDetail,
  type BomLine,
  type BomLineInput,
  type BomRequirement,
  type BomTreeNode,
  type BomUpdate,
  type PickerQuery,
} from '@p8/contract/basic';
import { rows as rawRows, type Tx } from '../../db/connection.ts';
import { bom, bomLine, material, materialUnit, unit } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import { readTenantConfig } from '../../core/tenant-config.ts';
import { idList } from '../../core/tree.ts';
import { assertRefsExist, refExportedNames, refNameSubquery, RefResolver } from '../../core/record-refs.ts';
import type { Lang } from '../../core/excel.ts';
import { assertAllFound } from '../../core/ids.ts';
import { containsPattern, countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { route } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { boolLabel, cellBool, cellNumber, cellText, col } from '../../core/excel-cells.ts';
import { EXPORT_MAX_ROWS, q } from './kit.ts';
import { inSavepoint, type RecordDefinition } from '../../core/record-routes.ts';
import { changingBoms, lockBomStructure } from './bom-levels.ts';

/*
 * Bills of materials: a parent material made (in `quantity`) from lines of child materials with their
 * quantity and loss rate. Versions are unique per material (MaterialBomVersionRepeat); one BOM per
 * material is the default, and multi-level structures follow each child's default (enabled) BOM. A BOM
 * may contain neither its own material nor, through its children's default BOMs, anything that contains
 * it again (BomCycleDetected). On PGlite the import is staged (core/staged-import.ts): the defaults it sets
 * wait in `import_default` until it is published (`makeImportDefault`, `publishImportedDefaults`). Every write
 * keeps the low-level codes of the materials below it (bom-levels.ts), the tenant's BOM writes taking turns.
 */

/** A line's material, beside the BOM's own (`material`) in one query. */
const component = alias(material, 'component');

/** Deeper than any real product structure; a guard, not a rule users meet. */
const MAX_DEPTH = 20;

const selection = {
  id: bom.id,
  materialId: bom.materialId,
  materialCode: material.code,
  materialName: material.name,
  specification: material.specification,
  lowLevelCode: material.lowLevelCode,
  version: bom.version,
  quantity: bom.quantity,
  isDefault: bom.isDefault,
  routingId: bom.routingId,
  routingName: refNameSubquery('routing', bom.tenantId, bom.routingId),
  remark: bom.remark,
  enabled: bom.enabled,
  lineCount: sql<number>`(select count(*)::int from ${bomLine} l where l.tenant_id = ${q('bom', 'tenant_id')} and l.bom_id = ${q('bom', 'id')})`,
  createdBy: bom.createdBy,
  createdAt: bom.createdAt,
  updatedAt: bom.updatedAt,
};

const spec: ListSpec = {
  fields: {
    id: { column: bom.id, notIn: true },
    materialId: { column: bom.materialId, filter: 'in' },
    version: { column: bom.version, filter: 'like', sortable: true },
    isDefault: { column: bom.isDefault, filter: 'bool', sortable: true },
    enabled: { column: bom.enabled, filter: 'bool', sortable: true },
    materialCode: { column: material.code, filter: 'like', sortable: true },
    materialName: { column: material.name, filter: 'like', sortable: true },
    createdAt: { column: bom.createdAt, sortable: true },
  },
  dateColumn: bom.createdAt,
  defaultOrder: [desc(bom.id)],
};

const joined = (tx: Tx) =>
  tx
    .select(selection)
    .from(bom)
    .innerJoin(material, and(eq(material.tenantId, bom.tenantId), eq(material.id, bom.materialId)))
    .$dynamic();
const counted = (tx: Tx) =>
  tx
    .select(countAll())
    .from(bom)
    .innerJoin(material, and(eq(material.tenantId, bom.tenantId), eq(material.id, bom.materialId)))
    .$dynamic();

function where(tenantId: number, query: Record<string, unknown>): Array<SQL | undefined> {
  const keyword = typeof query.keyword === 'string' ? query.keyword.trim() : '';
  const like = containsPattern(keyword);
  return [eq(bom.tenantId, tenantId), keyword ? or(ilike(material.code, like), ilike(material.name, like), ilike(bom.version, like)) : undefined];
}

// ---------------------------------------------------------------- rules

/**
 * Refuses lines whose materials lead back to `parentMaterialId` through default BOMs (a cycle), walking
 * down in one recursive query; `union` keeps the walk finite whatever the data. In a staged import the
 * defaults it set (`import_default`, seen by that import only) stand for their materials' current ones.
 */
async function assertNoCycle(tx: Tx, tenantId: number, parentMaterialId: number, childIds: number[]) {
  if (childIds.includes(parentMaterialId)) throw new BizError('BomCannotContainSelf');
  const found = await rawRows<{ hit: number }>(
    tx,
    sql`with recursive reach(material_id, depth) as (
          select m.id, 1 from material m where m.tenant_id = ${tenantId} and m.id in (${sql.join(childIds.map((id) => sql`${id}`), sql`, `)})
          union
          select l.material_id, r.depth + 1 from reach r
            join bom b on b.tenant_id = ${tenantId} and b.material_id = r.material_id and (b.import_default or (b.is_default and not exists (
              select 1 from bom p where p.tenant_id = ${tenantId} and p.material_id = r.material_id and p.import_default)))
            join bom_line l on l.tenant_id = ${tenantId} and l.bom_id = b.id
          where r.depth < ${MAX_DEPTH * 2}
        ) select 1 as hit from reach where material_id = ${parentMaterialId} limit 1`,
  );
  if (found.length) throw new BizError('BomCycleDetected');
}

async function checkLines(tx: Tx, tenantId: number, parentMaterialId: number, lines: BomLineInput[]) {
  const childIds = lines.map((l) => l.materialId);
  if (new Set(childIds).size !== childIds.length) throw new BizError('ItemMaterialRepeat', { additional: childIds.find((id, i) => childIds.indexOf(id) !== i) });
  const distinctIds = [...new Set([parentMaterialId, ...childIds])];
  const found = await tx.select({ id: material.id }).from(material).where(and(eq(material.tenantId, tenantId), inArray(material.id, distinctIds)));
  assertAllFound(distinctIds, found, 'MaterialNotExist');
  // A line's unit must be one of its material's units.
  const withUnit = lines.filter((l) => l.unitId != null);
  if (withUnit.length) {
    const pairs = await tx
      .select({ materialId: materialUnit.materialId, unitId: materialUnit.unitId })
      .from(materialUnit)
      .where(and(eq(materialUnit.tenantId, tenantId), inArray(materialUnit.materialId, withUnit.map((l) => l.materialId))));
    const bad = withUnit.find((l) => !pairs.some((p) => p.materialId === l.materialId && p.unitId === l.unitId));
    if (bad) throw new BizError('UnitNotExist', { additional: bad.unitId });
  }
  await assertNoCycle(tx, tenantId, parentMaterialId, childIds);
}

async function assertVersionFree(tx: Tx, tenantId: number, materialId: number, version: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: bom.id })
    .from(bom)
    .where(and(eq(bom.tenantId, tenantId), eq(bom.materialId, materialId), eq(bom.version, version), exceptId === undefined ? undefined : ne(bom.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('MaterialBomVersionRepeat', { additional: version });
}

/** Makes `bomId` its material's only default. */
async function makeDefault(tx: Tx, tenantId: number, materialId: number, bomId: number) {
  await tx
    .update(bom)
    .set({ isDefault: false })
    .where(and(eq(bom.tenantId, tenantId), eq(bom.materialId, materialId), ne(bom.id, bomId), eq(bom.isDefault, true)));
  await tx.update(bom).set({ isDefault: true }).where(and(eq(bom.tenantId, tenantId), eq(bom.id, bomId)));
}

/**
 * `makeDefault` in a staged import, which changes no existing BOM before it is published: marks `bomId`
 * (and no other BOM of the import for its material) to become the default at publishing (`publishImportedDefaults`).
 */
async function makeImportDefault(tx: Tx, tenantId: number, materialId: number, bomId: number) {
  await tx
    .update(bom)
    .set({ importDefault: sql`${bom.id} = ${bomId}` })
    .where(and(eq(bom.tenantId, tenantId), eq(bom.materialId, materialId), or(eq(bom.importDefault, true), eq(bom.id, bomId))));
}

/**
 * Publishing a staged BOM import: the defaults it set replace their materials' ones, set-based, and the codes
 * below every material it gave a BOM are computed again.
 */
async function publishImportedDefaults({ tx, tenantId }: ServiceContext, importJob: number) {
  const parents = (await tx.selectDistinct({ id: bom.materialId }).from(bom).where(and(eq(bom.tenantId, tenantId), eq(bom.importJob, importJob)))).map((b) => b.id);
  await changingBoms(tx, tenantId, parents, async () => {
    await tx.execute(sql`update bom o set is_default = false from bom n
      where n.tenant_id = ${tenantId} and n.import_job = ${importJob} and n.import_default and o.tenant_id = ${tenantId} and o.material_id = n.material_id and o.is_default`);
    await tx
      .update(bom)
      .set({ isDefault: true, importDefault: false })
      .where(and(eq(bom.tenantId, tenantId), eq(bom.importJob, importJob), eq(bom.importDefault, true)));
  });
}

/** The routing a BOM names is an enabled routing of the tenant (`RoutingNotExist`). */
const assertRoutingExists = (tx: Tx, tenantId: number, routingId: number | null | undefined) => assertRefsExist(tx, tenantId, 'routing', routingId ? [{ id: routingId }] : []);

async function writeLines(tx: Tx, tenantId: number, bomId: number, lines: BomLineInput[], startSort = 0) {
  if (!lines.length) return;
  await tx.insert(bomLine).values(lines.map((l, i) => ({ ...l, tenantId, bomId, sort: startSort + i })));
}

async function hasDefault(tx: Tx, tenantId: number, materialId: number, exceptId?: number) {
  const [row] = await tx
    .select({ id: bom.id })
    .from(bom)
    .where(and(eq(bom.tenantId, tenantId), eq(bom.materialId, materialId), or(eq(bom.isDefault, true), eq(bom.importDefault, true)), exceptId === undefined ? undefined : ne(bom.id, exceptId)))
    .limit(1);
  return Boolean(row);
}

/** Creates a BOM; `staged`: in a staged import (its default waits for the publishing, `makeImportDefault`). */
async function createBom(ctx: ServiceContext, body: BomCreate, staged = false): Promise<{ id: number }> {
  return changingBoms(ctx.tx, ctx.tenantId, [body.materialId], () => insertBom(ctx, body, staged));
}

async function insertBom({ tx, tenantId, account }: ServiceContext, body: BomCreate, staged: boolean): Promise<{ id: number }> {
  await checkLines(tx, tenantId, body.materialId, body.lines);
  await assertRoutingExists(tx, tenantId, body.routingId);
  await assertVersionFree(tx, tenantId, body.materialId, body.version);
  // A material's first BOM is its default.
  const isDefault = body.isDefault ?? !(await hasDefault(tx, tenantId, body.materialId));
  const [row] = await tx
    .insert(bom)
    .values({ tenantId, materialId: body.materialId, version: body.version, quantity: body.quantity ?? 1, routingId: body.routingId ?? null, remark: body.remark ?? '', createdBy: account.adminId })
    .returning({ id: bom.id });
  await writeLines(tx, tenantId, row.id, body.lines);
  if (isDefault) await (staged ? makeImportDefault : makeDefault)(tx, tenantId, body.materialId, row.id);
  return row;
}

/** A line with its material (`component`) and unit: what the detail shows and the export writes. */
const lineSelection = {
  id: bomLine.id,
  materialId: bomLine.materialId,
  materialCode: component.code,
  materialName: component.name,
  specification: component.specification,
  quantity: bomLine.quantity,
  lossRate: bomLine.lossRate,
  itemType: bomLine.itemType,
  unitId: bomLine.unitId,
  unitName: unit.name,
  remark: bomLine.remark,
};
const lineComponent = and(eq(component.tenantId, bomLine.tenantId), eq(component.id, bomLine.materialId));
const lineUnit = and(eq(unit.tenantId, bomLine.tenantId), eq(unit.id, bomLine.unitId));
const lineOrder = [asc(bomLine.sort), asc(bomLine.id)];

async function linesOf(tx: Tx, tenantId: number, bomId: number): Promise<BomLine[]> {
  return tx
    .select(lineSelection)
    .from(bomLine)
    .innerJoin(component, lineComponent)
    .leftJoin(unit, lineUnit)
    .where(and(eq(bomLine.tenantId, tenantId), eq(bomLine.bomId, bomId)))
    .orderBy(...lineOrder);
}

async function detail({ tx, tenantId }: ServiceContext, id: number): Promise<BomDetail> {
  const [row] = await joined(tx).where(and(eq(bom.tenantId, tenantId), eq(bom.id, id)));
  if (!row) throw new BizError('BomNotExist', { additional: id });
  return { ...(row as unknown as BomDetail), lines: await linesOf(tx, tenantId, id) };
}

// ---------------------------------------------------------------- multi-level structure

interface Structure {
  boms: Map<number, { id: number; materialId: number; version: string; quantity: number }>;
  lines: Map<number, Array<{ materialId: number; quantity: number; lossRate: number; unitId: number | null }>>;
  /** Default enabled BOM of each material met. */
  defaults: Map<number, number>;
  materials: Map<number, { code: string; name: string; specification: string; lowLevelCode: number; mainUnitName: string | null }>;
  /** `${materialId}:${unitId}` → ratio to the main unit; unit names by id. */
  ratios: Map<string, number>;
  unitNames: Map<number, string>;
}

/** Loads a BOM and everything below it level by level (one round of queries per level, not per line). */
async function loadStructure(tx: Tx, tenantId: number, rootId: number): Promise<Structure> {
  const s: Structure = { boms: new Map(), lines: new Map(), defaults: new Map(), materials: new Map(), ratios: new Map(), unitNames: new Map() };
  const [root] = await tx
    .select({ id: bom.id, materialId: bom.materialId, version: bom.version, quantity: bom.quantity })
    .from(bom)
    .where(and(eq(bom.tenantId, tenantId), eq(bom.id, rootId)));
  if (!root) throw new BizError('BomNotExist', { additional: rootId });
  s.boms.set(root.id, root);
  const materialIds = new Set<number>([root.materialId]);
  let frontier = [root.id];
  for (let depth = 0; frontier.length && depth < MAX_DEPTH; depth++) {
    const lines = await tx
      .select({ bomId: bomLine.bomId, materialId: bomLine.materialId, quantity: bomLine.quantity, lossRate: bomLine.lossRate, unitId: bomLine.unitId })
      .from(bomLine)
      .where(and(eq(bomLine.tenantId, tenantId), inArray(bomLine.bomId, frontier)))
      .orderBy(asc(bomLine.sort), asc(bomLine.id));
    for (const l of lines) {
      s.lines.set(l.bomId, [...(s.lines.get(l.bomId) ?? []), l]);
      materialIds.add(l.materialId);
    }
    const children = [...new Set(lines.map((l) => l.materialId))].filter((m) => !s.defaults.has(m));
    if (!children.length) break;
    const subBoms = await tx
      .select({ id: bom.id, materialId: bom.materialId, version: bom.version, quantity: bom.quantity })
      .from(bom)
      .where(and(eq(bom.tenantId, tenantId), inArray(bom.materialId, children), eq(bom.isDefault, true), eq(bom.enabled, true)));
    frontier = [];
    for (const b of subBoms) {
      s.defaults.set(b.materialId, b.id);
      if (!s.boms.has(b.id)) {
        s.boms.set(b.id, b);
        frontier.push(b.id);
      }
    }
  }
  const ids = [...materialIds];
  const mats = await tx
    .select({ id: material.id, code: material.code, name: material.name, specification: material.specification, lowLevelCode: material.lowLevelCode })
    .from(material)
    .where(and(eq(material.tenantId, tenantId), inArray(material.id, ids)));
  const units = await tx
    .select({ materialId: materialUnit.materialId, unitId: materialUnit.unitId, ratio: materialUnit.ratio, isMain: materialUnit.isMain, name: unit.name })
    .from(materialUnit)
    .innerJoin(unit, and(eq(unit.tenantId, materialUnit.tenantId), eq(unit.id, materialUnit.unitId)))
    .where(and(eq(materialUnit.tenantId, tenantId), inArray(materialUnit.materialId, ids)));
  for (const u of units) {
    s.ratios.set(`${u.materialId}:${u.unitId}`, u.ratio);
    s.unitNames.set(u.unitId, u.name);
  }
  for (const m of mats) s.materials.set(m.id, { ...m, mainUnitName: units.find((u) => u.materialId === m.id && u.isMain)?.name ?? null });
  return s;
}

/** Rounds away binary noise (0.1 × 3) without hiding real precision (numeric(20,6) holds 6 places). */
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

function treeOf(s: Structure, bomId: number, level: number, path: Set<number>): BomTreeNode[] {
  const header = s.boms.get(bomId)!;
  return (s.lines.get(bomId) ?? []).map((l) => {
    const m = s.materials.get(l.materialId);
    const childBom = s.defaults.get(l.materialId);
    const expand = childBom !== undefined && !path.has(l.materialId) && level < MAX_DEPTH;
    return {
      materialId: l.materialId,
      materialCode: m?.code ?? '',
      materialName: m?.name ?? '',
      specification: m?.specification ?? '',
      lowLevelCode: m?.lowLevelCode ?? 0,
      unitName: l.unitId == null ? (m?.mainUnitName ?? null) : (s.unitNames.get(l.unitId) ?? null),
      quantity: round6(l.quantity / header.quantity),
      lossRate: l.lossRate,
      bomId: childBom ?? null,
      bomVersion: childBom === undefined ? null : s.boms.get(childBom)!.version,
      level,
      children: expand ? treeOf(s, childBom, level + 1, new Set([...path, l.materialId])) : [],
    };
  });
}

/** Leaf requirements for `quantity` parents: line quantity × unit ratio × (1 + loss rate), summed per material. */
function explode(s: Structure, bomId: number, quantity: number, into: Map<number, number>, path: Set<number>, depth: number) {
  const header = s.boms.get(bomId)!;
  for (const l of s.lines.get(bomId) ?? []) {
    const ratio = l.unitId == null ? 1 : (s.ratios.get(`${l.materialId}:${l.unitId}`) ?? 1);
    const need = (quantity / header.quantity) * l.quantity * ratio * (1 + l.lossRate / 100);
    const childBom = s.defaults.get(l.materialId);
    if (childBom !== undefined && !path.has(l.materialId) && depth < MAX_DEPTH) explode(s, childBom, need, into, new Set([...path, l.materialId]), depth + 1);
    else into.set(l.materialId, (into.get(l.materialId) ?? 0) + need);
  }
}

// ---------------------------------------------------------------- definition

const importColumns = [
  col('materialCode', '父件物料编码', 'Parent material code', true, 18),
  col('version', 'BOM版本', 'BOM version', true),
  col('quantity', '父件数量', 'Parent quantity'),
  col('isDefault', '默认(是/否)', 'Default (Yes/No)'),
  col('routing', '工艺路线(编码或名称)', 'Routing (code or name)', false, 18),
  col('childCode', '子件物料编码', 'Component material code', true, 18),
  col('childQuantity', '子件用量', 'Component quantity', true),
  col('lossRate', '损耗率(%)', 'Loss rate (%)'),
  col('itemType', '子项类型(标准件/耗材)', 'Item type (Standard/Consumable)', false, 16),
  col('unit', '单位', 'Unit'),
  col('remark', '备注', 'Remark', false, 30),
];

/** A workbook's item type (either language's label, or the value itself); empty: standard. */
function itemTypeOfCell(text: string | undefined): BomItemType {
  if (!text) return 'Standard';
  const found = BomItemType.find((t) => t === text || BOM_ITEM_TYPE_LABELS[t].zh === text || BOM_ITEM_TYPE_LABELS[t].en.toLowerCase() === text.toLowerCase());
  if (!found) throw new BizError('ParamError', { additional: text });
  return found;
}

/** An update's writes, the BOM read (`current`) and its material (`materialId`, perhaps a new one) known. */
async function updateBom({ tx, tenantId }: ServiceContext, body: BomUpdate, current: BomDetail, materialId: number) {
  const lines: BomLineInput[] = body.lines ?? current.lines.map((l) => ({ materialId: l.materialId, quantity: l.quantity, lossRate: l.lossRate, itemType: l.itemType, unitId: l.unitId, remark: l.remark }));
  await checkLines(tx, tenantId, materialId, lines);
  await assertRoutingExists(tx, tenantId, body.routingId);
  if (body.version !== undefined || materialId !== current.materialId) await assertVersionFree(tx, tenantId, materialId, body.version ?? current.version, body.id);
  await tx
    .update(bom)
    .set({ materialId, version: body.version, quantity: body.quantity, routingId: body.routingId, remark: body.remark, isDefault: materialId !== current.materialId ? false : undefined, updatedAt: new Date() })
    .where(and(eq(bom.tenantId, tenantId), eq(bom.id, body.id)));
  if (body.lines) {
    await tx.delete(bomLine).where(and(eq(bomLine.tenantId, tenantId), eq(bomLine.bomId, body.id)));
    await writeLines(tx, tenantId, body.id, body.lines);
  }
  if (body.isDefault === true) await makeDefault(tx, tenantId, materialId, body.id);
  else if (body.isDefault === false) await tx.update(bom).set({ isDefault: false }).where(and(eq(bom.tenantId, tenantId), eq(bom.id, body.id)));
}

export const bomDefinition: RecordDefinition<BomCreate, BomUpdate> = {
  record: 'bom',
  entity: 'bom',
  createSchema: bomSchemas.create,
  updateSchema: bomSchemas.update,
  async list({ tx, tenantId }, query) {
    const parsed = parseList(spec, query, where(tenantId, query));
    return runPage(parsed, joined(tx), counted(tx));
  },
  detail,
  /** The enabled BOMs of one material (a sale order line's choice), the default first, then by version. */
  async picker({ tx, tenantId }, query: PickerQuery) {
    const conditions = [...where(tenantId, query), eq(bom.enabled, true), query.materialId ? eq(bom.materialId, query.materialId) : undefined];
    return runPage({ current: query.current, pageSize: query.pageSize, where: and(...conditions), orderBy: [desc(bom.isDefault), asc(bom.version)] }, joined(tx), counted(tx));
  },
  create: createBom,
  async update(ctx, body) {
    const { tx, tenantId } = ctx;
    // Taken before the BOM is read: a save waiting for another one reads what it wrote.
    await lockBomStructure(tx, tenantId);
    const current = await detail(ctx, body.id);
    const materialId = body.materialId ?? current.materialId;
    await changingBoms(tx, tenantId, [...new Set([current.materialId, materialId])], () => updateBom(ctx, body, current, materialId));
  },
  async remove({ tx, tenantId, registries }, ids) {
    await lockBomStructure(tx, tenantId);
    const found = await tx.select({ id: bom.id, materialId: bom.materialId }).from(bom).where(and(eq(bom.tenantId, tenantId), inArray(bom.id, ids)));
    assertAllFound(ids, found, 'BomNotExist');
    // Production orders and MRP plans register their references with the usage registry.
    await registries.recordUsage.refuseIfInUse(tx, tenantId, 'bom', ids);
    await changingBoms(tx, tenantId, [...new Set(found.map((b) => b.materialId))], () => tx.delete(bom).where(and(eq(bom.tenantId, tenantId), inArray(bom.id, ids))));
  },
  async enable({ tx, tenantId }, ids, enabled) {
    await lockBomStructure(tx, tenantId);
    const found = await tx.select({ id: bom.id, materialId: bom.materialId }).from(bom).where(and(eq(bom.tenantId, tenantId), inArray(bom.id, ids)));
    assertAllFound(ids, found, 'BomNotExist');
    await changingBoms(tx, tenantId, [...new Set(found.map((b) => b.materialId))], () =>
      tx.update(bom).set({ enabled, updatedAt: new Date() }).where(and(eq(bom.tenantId, tenantId), inArray(bom.id, ids))),
    );
  },
  excel: {
    template: 'bom',
    importColumns,
    // Lines go before their BOMs when a discarded import is removed.
    stagedTables: ['bom_line', 'bom'],
    publishStaged: publishImportedDefaults,
    async importer(ctx, staged) {
      const { tx, tenantId } = ctx;
      const units = new Map((await tx.select({ id: unit.id, name: unit.name }).from(unit).where(eq(unit.tenantId, tenantId))).map((u) => [u.name, u.id]));
      const refs = new RefResolver(tx, tenantId);
      const materialByCode = async (q: Tx, code: string | undefined) => {
        if (!code) throw new BizError('PleaseSelectMaterial');
        const [m] = await q.select({ id: material.id }).from(material).where(and(eq(material.tenantId, tenantId), eq(material.code, code))).limit(1);
        if (!m) throw new BizError('MaterialNotExist', { additional: code });
        return m.id;
      };
      // One row is one line; the first line of a (parent, version) creates the BOM, later ones join it.
      return async (savepoint, row) => {
        const d = row.data;
        const parentId = await materialByCode(savepoint, cellText(d.materialCode));
        const childId = await materialByCode(savepoint, cellText(d.childCode));
        const unitText = cellText(d.unit);
        const unitId = unitText ? units.get(unitText) : null;
        if (unitId === undefined) throw new BizError('UnitNotExist', { additional: unitText });
        const line = bomSchemas.create.shape.lines.element.parse({ materialId: childId, quantity: cellNumber(d.childQuantity), lossRate: cellNumber(d.lossRate), itemType: itemTypeOfCell(cellText(d.itemType)), unitId, remark: cellText(d.remark) });
        const version = cellText(d.version);
        if (!version) throw new BizError('PleaseInputBomVersion');
        const [existing] = await savepoint
          .select({ id: bom.id })
          .from(bom)
          .where(and(eq(bom.tenantId, tenantId), eq(bom.materialId, parentId), eq(bom.version, version)))
          .limit(1);
        if (!existing) {
          const quantity = cellNumber(d.quantity);
          const routingText = cellText(d.routing);
          const routingId = routingText ? await refs.on(savepoint).id('routing', routingText) : undefined;
          const header = bomSchemas.create.parse({ materialId: parentId, version, quantity, isDefault: d.isDefault === undefined ? undefined : cellBool(d.isDefault), routingId, lines: [line] });
          await createBom(inSavepoint(ctx, savepoint), header, staged);
          return;
        }
        const lines = await savepoint.select({ materialId: bomLine.materialId }).from(bomLine).where(and(eq(bomLine.tenantId, tenantId), eq(bomLine.bomId, existing.id)));
        await changingBoms(savepoint, tenantId, [parentId], async () => {
          await checkLines(savepoint, tenantId, parentId, [...lines.map((l) => ({ ...line, materialId: l.materialId, unitId: null })), line]);
          await writeLines(savepoint, tenantId, existing.id, [line], lines.length);
        });
      };
    },
    exportColumns: [
      col('materialCode', '父件物料编码', 'Parent material code', false, 18),
      col('materialName', '父件名称', 'Parent name', false, 20),
      col('version', 'BOM版本', 'BOM version'),
      col('quantity', '父件数量', 'Parent quantity'),
      col('isDefault', '默认', 'Default'),
      col('routing', '工艺路线(编码或名称)', 'Routing (code or name)', false, 18),
      col('childCode', '子件物料编码', 'Component material code', false, 18),
      col('childName', '子件名称', 'Component name', false, 20),
      col('childQuantity', '子件用量', 'Component quantity'),
      col('lossRate', '损耗率(%)', 'Loss rate (%)'),
      col('itemType', '子项类型(标准件/耗材)', 'Item type (Standard/Consumable)', false, 16),
      col('unit', '单位', 'Unit'),
      col('enabled', '启用', 'Enabled'),
      col('remark', '备注', 'Remark', false, 30),
    ],
    async exportRows({ tx, tenantId }, query, lang: Lang) {
      // One row per line, the shape the `bom` template imports: one query whatever the number of BOMs,
      // BOMs in the list's order (its last key is unique), lines in theirs.
      const parsed = parseList(spec, query, where(tenantId, query));
      const rows = await tx
        .select({ materialCode: material.code, materialName: material.name, version: bom.version, quantity: bom.quantity, isDefault: bom.isDefault, routingId: bom.routingId, enabled: bom.enabled, line: lineSelection })
        .from(bom)
        .innerJoin(material, and(eq(material.tenantId, bom.tenantId), eq(material.id, bom.materialId)))
        .innerJoin(bomLine, and(eq(bomLine.tenantId, bom.tenantId), eq(bomLine.bomId, bom.id)))
        .innerJoin(component, lineComponent)
        .leftJoin(unit, lineUnit)
        .where(parsed.where)
        .orderBy(...parsed.orderBy, ...lineOrder)
        .limit(EXPORT_MAX_ROWS);
      const routings = await refExportedNames(tx, tenantId, 'routing', rows.map((r) => r.routingId));
      return rows.map(({ line, routingId, ...header }) => ({
        ...header,
        routing: routingId == null ? '' : (routings.get(routingId) ?? ''),
        isDefault: boolLabel(header.isDefault, lang),
        enabled: boolLabel(header.enabled, lang),
        childCode: line.materialCode,
        childName: line.materialName,
        childQuantity: line.quantity,
        lossRate: line.lossRate,
        itemType: BOM_ITEM_TYPE_LABELS[line.itemType][lang],
        unit: line.unitName ?? '',
        remark: line.remark,
      }));
    },
    filename: { zh: 'BOM', en: 'boms' },
  },
};

/** The multi-level tree of a BOM (children by their default BOM). */
async function bomTree({ tx, tenantId }: ServiceContext, id: number): Promise<BomTreeNode> {
  const s = await loadStructure(tx, tenantId, id);
  const root = s.boms.get(id)!;
  const m = s.materials.get(root.materialId);
  return {
    materialId: root.materialId,
    materialCode: m?.code ?? '',
    materialName: m?.name ?? '',
    specification: m?.specification ?? '',
    lowLevelCode: m?.lowLevelCode ?? 0,
    unitName: m?.mainUnitName ?? null,
    quantity: root.quantity,
    lossRate: 0,
    bomId: root.id,
    bomVersion: root.version,
    level: 0,
    children: treeOf(s, root.id, 1, new Set([root.materialId])),
  };
}

/**
 * The leaf materials `quantity` parents need, losses included, by material code; with the tenant's BOM
 * statistics (openBomStatistics) each with its cost: the average cost of its stock over all warehouses (Σ
 * value ÷ Σ quantity of its moving averages), else its purchase price.
 */
async function bomExplosion({ tx, tenantId }: ServiceContext, id: number, quantity: number): Promise<BomRequirement[]> {
  const s = await loadStructure(tx, tenantId, id);
  const root = s.boms.get(id)!;
  const needs = new Map<number, number>();
  explode(s, root.id, quantity, needs, new Set([root.materialId]), 1);
  const costs = (await readTenantConfig(tx, tenantId)).openBomStatistics ? await unitCosts(tx, tenantId, [...needs.keys()]) : new Map<number, number>();
  const result: BomRequirement[] = [...needs].map(([materialId, need]) => {
    const m = s.materials.get(materialId);
    const unitCost = costs.get(materialId) ?? null;
    return {
      materialId,
      materialCode: m?.code ?? '',
      materialName: m?.name ?? '',
      specification: m?.specification ?? '',
      unitName: m?.mainUnitName ?? null,
      quantity: round6(need),
      unitCost,
      cost: unitCost === null ? null : round6(round6(need) * unitCost),
    };
  });
  return result.sort((a, b) => a.materialCode.localeCompare(b.materialCode));
}

/** Each material's average cost in stock (all warehouses), else its purchase price; none without either. */
async function unitCosts(tx: Tx, tenantId: number, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const found = await rawRows<{ id: string; unit_cost: string | null }>(
    tx,
    sql`select m.id, coalesce((select sum(v.amount) / nullif(sum(v.quantity), 0) from stock_valuation v where v.tenant_id = m.tenant_id and v.material_id = m.id and v.quantity > 0),
                              m.purchase_price)::text as unit_cost
        from material m where m.tenant_id = ${tenantId} and m.id in (${idList(ids)})`,
  );
  return new Map(found.flatMap((r) => (r.unit_cost === null ? [] : [[Number(r.id), round6(Number(r.unit_cost))] as [number, number]])));
}

const bomTags = ['basic: bom'];

/** GET /bom/:id/tree and GET /bom/:id/explode?quantity=N. */
export const bomStructureRoutes = [
  route({
    method: 'GET', url: '/api/admin/basic/bom/:id/tree', permission: 'basic_bom', tags: bomTags, summary: 'The multi-level BOM tree (children by their default BOM)', params: idParamsSchema,
    handler: (ctx, { params }) => bomTree(ctx, params.id),
  }),
  route({
    method: 'GET', url: '/api/admin/basic/bom/:id/explode', permission: 'basic_bom', tags: bomTags, summary: 'Leaf material requirements for N parents, losses included', params: idParamsSchema, query: explodeQuerySchema,
    handler: (ctx, { params, query }) => bomExplosion(ctx, params.id, query.quantity),
  }),
];
