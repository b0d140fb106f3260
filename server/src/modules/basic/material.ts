import { and, asc, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  idsSchema,
  MATERIAL_TAG_LABELS,
  materialSchemas,
  materialUnitEnableSchema,
  PART_KIND_LABELS,
  LOT_POLICY_LABELS,
  type LotPolicy,
  type MaterialCreate,
  type MaterialDetail,
  type MaterialTag,
  type MaterialUnit,
  type MaterialUnitInput,
  type MaterialUpdate,
  type PartKind,
  type PickerQuery,
} from '@p8/contract/basic';
import type { TenantConfig } from '@p8/contract/tenant-config';
import type { Tx } from '../../db/connection.ts';
import { attribute, bomLine, brand, category, material, materialUnit, stockBalance, unit } from '../../db/schema/index.ts';
import { assignmentOf, assignmentRangeWhere, forgetAssignments } from '../../core/assignment-range.ts';
import { codesStoredIn, nextRecordCodes } from '../../core/code-generator.ts';
import { BizError } from '../../core/errors.ts';
import { IMPORT_BATCH_ROWS, importFailure, ImportOutcome, importRowByRow, withSpilledImport, type ImportRow, type ImportUpload, type Lang, type PreparedImport } from '../../core/excel.ts';
import { assertAllFound, assertAllVisible, assertIdsExist, distinct } from '../../core/ids.ts';
import { batchOf, reportedImport, type ImportJob } from '../../core/import-job.ts';
import type { ImportBatches } from '../../core/staged-import.ts';
import { containsPattern, countAll, parseList, runPage, statisticsSelection, type ListSpec } from '../../core/list-query.ts';
import { route, untransactedRoute } from '../../core/route.ts';
import type { ServiceContext, TransactingCaller } from '../../core/service-context.ts';
import { queuePictureIndex } from '../../core/picture-index-queue.ts';
import { readTenantConfig } from '../../core/tenant-config.ts';
import { creatorOf } from './owner.ts';
import { analyze, boolLabel, cellBool, cellEnum, cellEnumList, cellNumber, cellText, col, type RowHandler } from '../../core/excel-cells.ts';
import { EXPORT_MAX_ROWS, inCategorySubtree, refuseIfHoldingStock, q, importedRows } from './kit.ts';
import { auditImport, logUnexpectedRow, rowByRowImport, type RecordDefinition } from '../../core/record-routes.ts';
import { categoryResolver } from './declared-records.ts';

/*
 * Materials: code unique (CodeRepeat); name + specification unique (SpecRepeat, or
 * NameRepeat when the specification is empty); exactly one main unit (ratio 1) that can be neither
 * deleted nor disabled, and conversion units with their ratio and barcode; batch and serial numbers never
 * both, consumables neither; the tax rate kept only while the tenant's openTaxRate is on; custom
 * attribute values keyed by attribute id. A material holding stock can be neither deleted nor disabled,
 * and its main unit (the unit stock is counted in) stays.
 */

const t = material;
const stockQuantity = sql<string>`(select coalesce(sum(b.quantity), 0)::text from ${stockBalance} b where b.tenant_id = ${q('material', 'tenant_id')} and b.material_id = ${q('material', 'id')})`;
const selection = {
  id: t.id,
  code: t.code,
  name: t.name,
  specification: t.specification,
  model: t.model,
  categoryId: t.categoryId,
  categoryName: sql<string | null>`(select c.name from ${category} c where c.tenant_id = ${q('material', 'tenant_id')} and c.id = ${q('material', 'category_id')})`,
  brandId: t.brandId,
  brandName: sql<string | null>`(select b.name from ${brand} b where b.tenant_id = ${q('material', 'tenant_id')} and b.id = ${q('material', 'brand_id')})`,
  mainUnitId: sql<number | null>`(select mu.unit_id::int from ${materialUnit} mu where mu.tenant_id = ${q('material', 'tenant_id')} and mu.material_id = ${q('material', 'id')} and mu.is_main)`,
  mainUnitName: sql<string | null>`(select u.name from ${materialUnit} mu join ${unit} u on u.tenant_id = mu.tenant_id and u.id = mu.unit_id
    where mu.tenant_id = ${q('material', 'tenant_id')} and mu.material_id = ${q('material', 'id')} and mu.is_main)`,
  tags: t.tags,
  partKind: t.partKind,
  length: t.length,
  width: t.width,
  height: t.height,
  diameter: t.diameter,
  thickness: t.thickness,
  weight: t.weight,
  volume: t.volume,
  area: t.area,
  materialQuality: t.materialQuality,
  hsCode: t.hsCode,
  englishName: t.englishName,
  netWeight: t.netWeight,
  grossWeight: t.grossWeight,
  originCountry: t.originCountry,
  images: t.images,
  batchNumber: t.batchNumber,
  serialNumber: t.serialNumber,
  safetyStock: t.safetyStock,
  warnDays: t.warnDays,
  leadTimeDays: t.leadTimeDays,
  lotPolicy: t.lotPolicy,
  lotSize: t.lotSize,
  lowLevelCode: t.lowLevelCode,
  purchasePrice: t.purchasePrice,
  salePrice: t.salePrice,
  retailPrice: t.retailPrice,
  taxRate: t.taxRate,
  customAttributes: t.customAttributes,
  remark: t.remark,
  enabled: t.enabled,
  stockQuantity,
  deptId: t.deptId,
  createdBy: t.createdBy,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
};

const spec: ListSpec = {
  fields: {
    id: { column: t.id, notIn: true },
    code: { column: t.code, filter: 'like', sortable: true },
    name: { column: t.name, filter: 'like', sortable: true },
    specification: { column: t.specification, filter: 'like', sortable: true },
    model: { column: t.model, filter: 'like' },
    materialQuality: { column: t.materialQuality, filter: 'like' },
    brandId: { column: t.brandId, filter: 'in' },
    partKind: { column: t.partKind, filter: 'eq' },
    enabled: { column: t.enabled, filter: 'bool', sortable: true },
    batchNumber: { column: t.batchNumber, filter: 'bool' },
    serialNumber: { column: t.serialNumber, filter: 'bool' },
    purchasePrice: { column: t.purchasePrice, sortable: true },
    salePrice: { column: t.salePrice, sortable: true },
    retailPrice: { column: t.retailPrice, sortable: true },
    safetyStock: { column: t.safetyStock, sortable: true },
    createdAt: { column: t.createdAt, sortable: true },
    stockQuantity: { column: sql`(select coalesce(sum(b.quantity), 0) from ${stockBalance} b where b.tenant_id = ${q('material', 'tenant_id')} and b.material_id = ${q('material', 'id')})`, sum: true, sortable: true },
  },
  dateColumn: t.createdAt,
  defaultOrder: [desc(t.id)],
};

/** Filters beyond the declared fields: keyword, category with its sub-categories, business tag. */
function customFilters(tenantId: number, query: Record<string, unknown>): SQL[] {
  const out: SQL[] = [];
  const keyword = typeof query.keyword === 'string' ? query.keyword.trim() : '';
  if (keyword) out.push(keywordCondition(tenantId, keyword));
  if (query.categoryId !== undefined && query.categoryId !== '') {
    const ids = String(query.categoryId).split(',').filter(Boolean).map(Number);
    if (ids.some((n) => !Number.isSafeInteger(n))) throw new BizError('BadRequest', { additional: 'categoryId' });
    if (ids.length) out.push(inCategorySubtree(tenantId, t.categoryId, ids));
  }
  if (typeof query.tag === 'string' && query.tag) {
    const tags = query.tag.split(',').filter(Boolean);
    if (tags.some((tag) => !(tag in MATERIAL_TAG_LABELS))) throw new BizError('BadRequest', { additional: 'tag' });
    out.push(sql`${t.tags} @> ${sql`array[${sql.join(tags.map((tag) => sql`${tag}`), sql`, `)}]::text[]`}`);
  }
  return out;
}

/** Code, name, specification, model or a unit barcode contains the keyword. */
function keywordCondition(tenantId: number, keyword: string): SQL {
  const like = containsPattern(keyword);
  return or(
    ilike(t.code, like),
    ilike(t.name, like),
    ilike(t.specification, like),
    ilike(t.model, like),
    sql`exists (select 1 from ${materialUnit} mu where mu.tenant_id = ${tenantId} and mu.material_id = ${q('material', 'id')} and mu.barcode ilike ${like})`,
  )!;
}

async function baseWhere({ tx, tenantId, account }: ServiceContext): Promise<Array<SQL | undefined>> {
  return [eq(t.tenantId, tenantId), await assignmentRangeWhere(tx, account, 'material', t.id)];
}

// ---------------------------------------------------------------- rules

/** The rules on a material's switches and units, on the state it would have after the write. */
function checkRules(state: { batchNumber: boolean; serialNumber: boolean; tags: readonly string[] }, units?: MaterialUnitInput[]) {
  if (state.batchNumber && state.serialNumber) throw new BizError('BatchAndSerialNumberConflict');
  if (state.tags.includes('consumables') && (state.batchNumber || state.serialNumber)) throw new BizError('ConsumablesProhibitBatchSerial');
  if (!units) return;
  const mains = units.filter((u) => u.isMain);
  if (mains.length !== 1) throw new BizError('MainUnitMustBeOne');
  if (!mains[0].enabled) throw new BizError('MainUnitProhibitDisable');
  const unitIds = units.map((u) => u.unitId);
  if (new Set(unitIds).size !== unitIds.length) throw new BizError('UnitRepeat', { additional: unitIds.find((id, i) => unitIds.indexOf(id) !== i) });
  const barcodes = units.map((u) => u.barcode).filter(Boolean);
  if (new Set(barcodes).size !== barcodes.length) throw new BizError('BarCodeRepeat', { additional: barcodes.find((b, i) => barcodes.indexOf(b) !== i) });
}

/** The main unit's ratio is 1 by definition. */
const normaliseUnits = (units: MaterialUnitInput[]) => units.map((u) => (u.isMain ? { ...u, ratio: 1 } : u));

/**
 * Uniqueness and reference checks. The routes ask the database; an import answers from lookups loaded
 * once (the unique indexes still close any race).
 */
interface MaterialChecks {
  codeTaken(code: string, exceptId?: number): Promise<boolean>;
  nameSpecTaken(name: string, specification: string, exceptId?: number): Promise<boolean>;
  barcodeTaken(barcodes: string[], exceptMaterialId?: number): Promise<string | undefined>;
  /** Category, brand, units and custom attributes exist (and attribute values are allowed). */
  references(input: { categoryId?: number | null; brandId?: number | null; unitIds: number[]; customAttributes?: Record<string, string> }): Promise<void>;
}

function databaseChecks(tx: Tx, tenantId: number): MaterialChecks {
  return {
    async codeTaken(code, exceptId) {
      const [row] = await tx
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.tenantId, tenantId), eq(t.code, code), exceptId === undefined ? undefined : ne(t.id, exceptId)))
        .limit(1);
      return Boolean(row);
    },
    async nameSpecTaken(name, specification, exceptId) {
      const [row] = await tx
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.tenantId, tenantId), eq(t.name, name), eq(t.specification, specification), exceptId === undefined ? undefined : ne(t.id, exceptId)))
        .limit(1);
      return Boolean(row);
    },
    async barcodeTaken(barcodes, exceptMaterialId) {
      if (!barcodes.length) return undefined;
      const [row] = await tx
        .select({ barcode: materialUnit.barcode })
        .from(materialUnit)
        .where(
          and(
            eq(materialUnit.tenantId, tenantId),
            inArray(materialUnit.barcode, barcodes),
            exceptMaterialId === undefined ? undefined : ne(materialUnit.materialId, exceptMaterialId),
          ),
        )
        .limit(1);
      return row?.barcode;
    },
    async references(input) {
      if (input.categoryId != null) await assertIdsExist(tx, category, tenantId, [input.categoryId], 'CategoryNotExist');
      if (input.brandId != null) await assertIdsExist(tx, brand, tenantId, [input.brandId], 'BrandNotExist');
      await assertIdsExist(tx, unit, tenantId, input.unitIds, 'UnitNotExist');
      const attrIds = Object.keys(input.customAttributes ?? {}).map(Number);
      if (attrIds.length) {
        const attrs = await tx.select({ id: attribute.id, values: attribute.values }).from(attribute).where(and(eq(attribute.tenantId, tenantId), inArray(attribute.id, attrIds)));
        assertAllFound(attrIds, attrs, 'AttributeNotExist');
        for (const a of attrs) {
          const value = input.customAttributes![String(a.id)];
          if (a.values.length && value !== '' && !a.values.includes(value)) throw new BizError('AttributeValueNotExist', { additional: value });
        }
      }
    },
  };
}

interface CreateContext {
  config: TenantConfig;
  owner: { deptId: number | null; createdBy: number };
  checks: MaterialChecks;
}

async function assertUnique(checks: MaterialChecks, input: { code?: string; name: string; specification: string }, exceptId?: number) {
  // An empty code of a new material is generated when it is written.
  if (input.code && (await checks.codeTaken(input.code, exceptId))) throw new BizError('CodeRepeat', { additional: input.code });
  if (await checks.nameSpecTaken(input.name, input.specification, exceptId)) {
    throw new BizError(input.specification ? 'SpecRepeat' : 'NameRepeat', { additional: input.specification || input.name });
  }
}

/**
 * Checks a new material against the rules and the tenant's other materials; returns what to insert.
 * The main unit gets ratio 1, the tax rate is dropped unless openTaxRate is on.
 */
async function checkNewMaterial(body: MaterialCreate, ctx: CreateContext): Promise<MaterialCreate> {
  const units = normaliseUnits(body.units);
  const tags = body.tags ?? [];
  checkRules({ batchNumber: body.batchNumber ?? false, serialNumber: body.serialNumber ?? false, tags }, units);
  const specification = body.specification ?? '';
  await assertUnique(ctx.checks, { code: body.code, name: body.name, specification });
  await ctx.checks.references({ categoryId: body.categoryId, brandId: body.brandId, unitIds: units.map((u) => u.unitId), customAttributes: body.customAttributes });
  const taken = await ctx.checks.barcodeTaken(units.map((u) => u.barcode).filter(Boolean));
  if (taken) throw new BizError('BarCodeRepeat', { additional: taken });
  return { ...body, units, tags, specification, taxRate: ctx.config.openTaxRate ? (body.taxRate ?? null) : null };
}

/** Rows written per statement (well under PostgreSQL's 65,535 parameters). */
const INSERT_CHUNK = 500;

/**
 * Inserts checked materials and their units, 500 rows to a statement: every material first, then every
 * unit row. The order matters for the unit rows' foreign-key checks: PostgreSQL plans each check once per
 * connection, and a plan made while the material table is small and never analyzed may walk every material
 * of the tenant (see docs/api-basic.md); made once the materials are in, it is a primary-key lookup.
 */
/** Inserts checked, coded materials with their units; `importJob` marks them as rows of a staged import (hidden until it is published). */
async function insertMaterials(tx: Tx, tenantId: number, inputs: Array<MaterialCreate & { code: string }>, owner: CreateContext['owner'], importJob: number | null = null): Promise<void> {
  const idByCode = new Map<string, number>();
  for (let start = 0; start < inputs.length; start += INSERT_CHUNK) {
    const created = await tx
      .insert(t)
      .values(inputs.slice(start, start + INSERT_CHUNK).map(({ units: _units, ...fields }) => ({ ...fields, tenantId, ...owner, importJob })))
      .returning({ id: t.id, code: t.code });
    for (const c of created) idByCode.set(c.code, c.id);
  }
  const unitRows = inputs.flatMap((input) =>
    input.units.map((u, sort) => ({ tenantId, materialId: idByCode.get(input.code)!, unitId: u.unitId, ratio: u.ratio, barcode: u.barcode, isMain: u.isMain, enabled: u.enabled, sort, importJob })),
  );
  for (let start = 0; start < unitRows.length; start += INSERT_CHUNK) await tx.insert(materialUnit).values(unitRows.slice(start, start + INSERT_CHUNK));
}

/** Gives every material left without a code the next generated one (one draw for the lot). */
async function withCodes(tx: Tx, tenantId: number, inputs: MaterialCreate[], taken: (candidates: string[]) => Promise<Set<string>>): Promise<Array<MaterialCreate & { code: string }>> {
  const codes = await nextRecordCodes(tx, tenantId, 'material', inputs.filter((i) => !i.code).length, taken);
  return inputs.map((input) => ({ ...input, code: input.code || codes.shift()! }));
}

export async function createMaterial(tx: Tx, tenantId: number, body: MaterialCreate, ctx: CreateContext): Promise<{ id: number }> {
  const [input] = await withCodes(tx, tenantId, [await checkNewMaterial(body, ctx)], codesStoredIn(tx, t, t.code, [eq(t.tenantId, tenantId)]));
  await insertMaterials(tx, tenantId, [input], ctx.owner);
  const [row] = await tx.select({ id: t.id }).from(t).where(and(eq(t.tenantId, tenantId), eq(t.code, input.code)));
  return row;
}

async function unitsOf(tx: Tx, tenantId: number, materialId: number): Promise<MaterialUnit[]> {
  return tx
    .select({
      id: materialUnit.id,
      unitId: materialUnit.unitId,
      unitName: unit.name,
      ratio: materialUnit.ratio,
      barcode: materialUnit.barcode,
      isMain: materialUnit.isMain,
      enabled: materialUnit.enabled,
    })
    .from(materialUnit)
    .innerJoin(unit, and(eq(unit.tenantId, materialUnit.tenantId), eq(unit.id, materialUnit.unitId)))
    .where(and(eq(materialUnit.tenantId, tenantId), eq(materialUnit.materialId, materialId)))
    .orderBy(desc(materialUnit.isMain), asc(materialUnit.sort), asc(materialUnit.id));
}

async function detail(ctx: ServiceContext, id: number): Promise<MaterialDetail> {
  const { tx, tenantId } = ctx;
  const [row] = await tx
    .select(selection)
    .from(t)
    .where(and(...(await baseWhere(ctx)), eq(t.id, id)));
  if (!row) throw new BizError('MaterialNotExist', { additional: id });
  return { ...(row as unknown as MaterialDetail), units: await unitsOf(tx, tenantId, id), assignment: await assignmentOf(tx, tenantId, 'material', id) };
}

/** Units used by BOM lines of this material cannot leave it. */
async function refuseIfUnitsInBom(tx: Tx, tenantId: number, materialId: number, unitIds: number[]) {
  if (!unitIds.length) return;
  const [used] = await tx
    .select({ unitId: bomLine.unitId })
    .from(bomLine)
    .where(and(eq(bomLine.tenantId, tenantId), eq(bomLine.materialId, materialId), inArray(bomLine.unitId, unitIds)))
    .limit(1);
  if (used) throw new BizError('UnitInUseProhibitDelete', { additional: used.unitId });
}

/**
 * Stock is counted in the main unit, so the main unit is not switched while the material holds stock.
 * BOM lines without a unit count in the main unit: they are pinned to the unit they meant, the old main
 * unit, which must then stay among the material's units (refuseIfUnitsInBom).
 */
async function switchMainUnit(tx: Tx, tenantId: number, materialId: number, oldMainUnitId: number) {
  await refuseIfHoldingStock(tx, tenantId, 'materialId', [materialId], 'MaterialExistInventoryProhibitChangeMainUnit');
  await tx
    .update(bomLine)
    .set({ unitId: oldMainUnitId })
    .where(and(eq(bomLine.tenantId, tenantId), eq(bomLine.materialId, materialId), isNull(bomLine.unitId)));
}

const TRACKING_REFUSALS = {
  batchNumber: { on: 'MaterialExistInventoryProhibitOpenBatchNumber', off: 'BatchNumberExistInventoryProhibitClose' },
  serialNumber: { on: 'MaterialExistInventoryProhibitOpenSerialNumber', off: 'SerialNumberExistInventoryProhibitClose' },
} as const;

/**
 * Batch or serial management changes only while no stock would be left at odds with it: switching it off
 * is refused while stock with such numbers exists, switching it on while stock without them exists.
 */
async function refuseTrackingChange(tx: Tx, tenantId: number, materialId: number, column: 'batchNumber' | 'serialNumber', on: boolean) {
  const numbered = on ? eq(stockBalance[column], '') : ne(stockBalance[column], '');
  const [held] = await tx
    .select({ id: stockBalance.id })
    .from(stockBalance)
    .where(and(eq(stockBalance.tenantId, tenantId), eq(stockBalance.materialId, materialId), numbered, sql`${stockBalance.quantity} <> 0`))
    .limit(1);
  if (held) throw new BizError(TRACKING_REFUSALS[column][on ? 'on' : 'off']);
}

async function updateMaterial(ctx: ServiceContext, body: MaterialUpdate) {
  const { tx, tenantId } = ctx;
  const current = await detail(ctx, body.id);
  const next = {
    batchNumber: body.batchNumber ?? current.batchNumber,
    serialNumber: body.serialNumber ?? current.serialNumber,
    tags: body.tags ?? current.tags,
  };
  const units = body.units ? normaliseUnits(body.units) : undefined;
  checkRules(next, units);
  for (const column of ['batchNumber', 'serialNumber'] as const) {
    if (current[column] !== next[column]) await refuseTrackingChange(tx, tenantId, body.id, column, next[column]);
  }

  const checks = databaseChecks(tx, tenantId);
  const identity = { code: body.code ?? current.code, name: body.name ?? current.name, specification: body.specification ?? current.specification };
  if (body.code !== undefined || body.name !== undefined || body.specification !== undefined) await assertUnique(checks, identity, body.id);
  await checks.references({ categoryId: body.categoryId, brandId: body.brandId, unitIds: units?.map((u) => u.unitId) ?? [], customAttributes: body.customAttributes });

  const config = await readTenantConfig(tx, tenantId);
  const { id, units: _units, taxRate, ...fields } = body;
  await tx
    .update(t)
    .set({ ...fields, ...(taxRate !== undefined ? { taxRate: config.openTaxRate ? taxRate : null } : {}), updatedAt: new Date() })
    .where(and(eq(t.tenantId, tenantId), eq(t.id, id)));
  // Its pictures changed: picture search indexes them (in the background, when the tenant has it).
  if (body.images && body.images.join('\n') !== current.images.join('\n')) await queuePictureIndex(ctx, 'material', [id]);

  if (units) {
    const stored = current.units;
    const storedIds = new Set(stored.map((u) => u.id));
    const unknown = units.find((u) => u.id !== undefined && !storedIds.has(u.id));
    if (unknown) throw new BizError('UnitNotExist', { additional: unknown.id });
    const main = stored.find((u) => u.isMain)!;
    // The main unit's row stays (it may hand the main role to another unit); checkRules keeps one main, enabled.
    if (!units.some((u) => u.id === main.id)) throw new BizError('MainUnitProhibitDelete');
    if (units.find((u) => u.isMain)!.unitId !== main.unitId) await switchMainUnit(tx, tenantId, id, main.unitId);
    const kept = new Set(units.flatMap((u) => (u.id === undefined ? [] : [u.id])));
    const removed = stored.filter((u) => !kept.has(u.id));
    const keptUnitIds = new Set(units.map((u) => u.unitId));
    // A unit leaves with its row, or when its row is given another unit.
    await refuseIfUnitsInBom(tx, tenantId, id, stored.map((u) => u.unitId).filter((unitId) => !keptUnitIds.has(unitId)));
    const taken = await checks.barcodeTaken(units.map((u) => u.barcode).filter(Boolean), id);
    if (taken) throw new BizError('BarCodeRepeat', { additional: taken });
    if (removed.length) await tx.delete(materialUnit).where(and(eq(materialUnit.tenantId, tenantId), inArray(materialUnit.id, removed.map((u) => u.id))));
    // Rows leaving the main role are written first: a material has one main row at any moment (material_unit_main_uq).
    const writes = [...units.entries()].sort(([, a], [, b]) => Number(a.isMain) - Number(b.isMain));
    for (const [sort, u] of writes) {
      const values = { unitId: u.unitId, ratio: u.ratio, barcode: u.barcode, isMain: u.isMain, enabled: u.enabled, sort };
      if (u.id !== undefined) await tx.update(materialUnit).set(values).where(and(eq(materialUnit.tenantId, tenantId), eq(materialUnit.id, u.id)));
      else await tx.insert(materialUnit).values({ ...values, tenantId, materialId: id });
    }
  }
}

// ---------------------------------------------------------------- import

const materialColumns = [
  col('code', '物料编码', 'Code'),
  col('name', '物料名称', 'Name', true, 24),
  col('specification', '规格', 'Specification', false, 16),
  col('model', '型号', 'Model'),
  col('category', '分类(名称或路径 A/B)', 'Category (name or path A/B)', false, 20),
  col('brand', '品牌', 'Brand'),
  col('mainUnit', '主单位', 'Main unit', true),
  col('barcode', '条码', 'Barcode', false, 16),
  col('partKind', '部件类型(标准件/定制件/虚拟件)', 'Part kind (Standard/Customized/Virtual)', false, 20),
  col('tags', '业务属性(销售,采购,生产,委外,耗材,受托)', 'Business tags (Sale,Purchase,Production,Outsource,Consumables,Entrust)', false, 30),
  col('length', '长(cm)', 'Length (cm)'),
  col('width', '宽(cm)', 'Width (cm)'),
  col('height', '高(cm)', 'Height (cm)'),
  col('diameter', '直径(cm)', 'Diameter (cm)'),
  col('thickness', '厚度(mm)', 'Thickness (mm)'),
  col('weight', '重量(kg)', 'Weight (kg)'),
  col('volume', '体积(m³)', 'Volume (m³)'),
  col('area', '面积(m²)', 'Area (m²)'),
  col('materialQuality', '材质', 'Material quality'),
  col('hsCode', 'HS编码', 'HS code', false, 14),
  col('englishName', '英文名称', 'English name', false, 24),
  col('netWeight', '净重(kg)', 'Net weight (kg)'),
  col('grossWeight', '毛重(kg)', 'Gross weight (kg)'),
  col('originCountry', '原产国', 'Country of origin', false, 14),
  col('batchNumber', '批次管理(是/否)', 'Batch numbers (Yes/No)'),
  col('serialNumber', '序列号管理(是/否)', 'Serial numbers (Yes/No)'),
  col('safetyStock', '安全库存', 'Safety stock'),
  col('warnDays', '预警天数', 'Warning days'),
  col('leadTimeDays', '提前期(天)', 'Lead time (days)'),
  col('lotPolicy', '批量规则(按需/最小批量/固定批量)', 'Lot policy (Lot for lot/Minimum lot/Fixed lot)', false, 24),
  col('lotSize', '批量', 'Lot size'),
  col('purchasePrice', '采购价', 'Purchase price'),
  col('salePrice', '销售价', 'Sale price'),
  col('retailPrice', '零售价', 'Retail price'),
  col('taxRate', '税率(%)', 'Tax rate (%)'),
  col('remark', '备注', 'Remark', false, 30),
];

const nameSpecKey = (name: string, specification: string) => `${name}\u0000${specification}`;

/**
 * Imports materials in two steps, so that a big file never holds a transaction (on the embedded database,
 * the only connection) while it is being checked, and memory never holds the file's rows:
 *
 *  1. check (outside any transaction): the lookups (codes, name + specification pairs, barcodes,
 *     categories, brands, units) are read in one short transaction; then the file is streamed and every
 *     row checked against them and against the rows before it, in batches between which other requests
 *     run. Memory keeps the keys later rows are checked against and the first `maxErrors` errors; each
 *     good row goes, checked, to a spill file on disk (`RowSpill`);
 *  2. write (`PreparedImport.write`, in the route's one final transaction): the spill is read back and
 *     inserted 2,000 rows to a batch, 500 to a statement, each batch in a savepoint. Should the database
 *     still refuse a batch (another user saved the same code meanwhile), that batch is redone row by row,
 *     each in its own savepoint, so every row stays all-or-nothing and every bad row is reported.
 *
 * Holding 100,000 rows as objects, then their checked inputs, then coded copies of those cost the server
 * more than a gigabyte (bench/README.md, "Import under load"). One savepoint and two inserts per row would
 * make 10,000 rows take far longer than the 10 s of issue 4 (bench/import-materials.ts).
 */
async function importMaterials(caller: TransactingCaller, upload: ImportUpload, onUnexpected: (error: unknown, row: ImportRow) => void, job: ImportJob): Promise<PreparedImport> {
  const { tenantId } = caller;
  const lookups = await caller.transaction(async ({ tx, account }) => ({
    config: await readTenantConfig(tx, tenantId),
    owner: await creatorOf({ tx, account }),
    resolveCategory: await categoryResolver(tx, tenantId),
    existing: await tx.select({ code: t.code, name: t.name, specification: t.specification }).from(t).where(eq(t.tenantId, tenantId)),
    barcodes: await tx.select({ barcode: materialUnit.barcode }).from(materialUnit).where(and(eq(materialUnit.tenantId, tenantId), ne(materialUnit.barcode, ''))),
    brands: await tx.select({ id: brand.id, name: brand.name }).from(brand).where(eq(brand.tenantId, tenantId)),
    units: await tx.select({ id: unit.id, name: unit.name }).from(unit).where(eq(unit.tenantId, tenantId)),
  }));
  const { config, owner, resolveCategory } = lookups;
  const codes = new Set(lookups.existing.map((m) => m.code));
  const nameSpecs = new Set(lookups.existing.map((m) => nameSpecKey(m.name, m.specification)));
  const barcodes = new Set(lookups.barcodes.map((b) => b.barcode));
  const brands = new Map(lookups.brands.map((b) => [b.name, b.id]));
  const units = new Map(lookups.units.map((u) => [u.name, u.id]));
  const ctx: CreateContext = {
    config,
    owner,
    checks: {
      codeTaken: async (code) => codes.has(code),
      nameSpecTaken: async (name, specification) => nameSpecs.has(nameSpecKey(name, specification)),
      barcodeTaken: async (list) => list.find((b) => barcodes.has(b)),
      references: async () => {}, // resolved from the lookups while reading the row
    },
  };

  async function checkRow(row: ImportRow): Promise<MaterialCreate> {
    const d = row.data;
    const categoryText = cellText(d.category);
    const brandText = cellText(d.brand);
    const unitText = cellText(d.mainUnit);
    if (!unitText) throw new BizError('PleaseSelectUnit');
    const unitId = units.get(unitText);
    if (unitId === undefined) throw new BizError('UnitNotExist', { additional: unitText });
    const brandId = brandText ? brands.get(brandText) : null;
    if (brandId === undefined) throw new BizError('BrandNotExist', { additional: brandText });
    const input = materialSchemas.create.parse({
      code: cellText(d.code) ?? '',
      name: cellText(d.name) ?? '',
      specification: cellText(d.specification),
      model: cellText(d.model),
      categoryId: categoryText ? resolveCategory(categoryText) : null,
      brandId,
      partKind: cellEnum(d.partKind, PART_KIND_LABELS),
      tags: cellEnumList(d.tags, MATERIAL_TAG_LABELS),
      length: cellNumber(d.length),
      width: cellNumber(d.width),
      height: cellNumber(d.height),
      diameter: cellNumber(d.diameter),
      thickness: cellNumber(d.thickness),
      weight: cellNumber(d.weight),
      volume: cellNumber(d.volume),
      area: cellNumber(d.area),
      materialQuality: cellText(d.materialQuality),
      hsCode: cellText(d.hsCode),
      englishName: cellText(d.englishName),
      netWeight: cellNumber(d.netWeight),
      grossWeight: cellNumber(d.grossWeight),
      originCountry: cellText(d.originCountry),
      batchNumber: cellBool(d.batchNumber),
      serialNumber: cellBool(d.serialNumber),
      safetyStock: cellNumber(d.safetyStock),
      warnDays: cellNumber(d.warnDays),
      leadTimeDays: cellNumber(d.leadTimeDays) ?? 0,
      lotPolicy: cellEnum(d.lotPolicy, LOT_POLICY_LABELS) ?? 'lotForLot',
      lotSize: cellNumber(d.lotSize),
      purchasePrice: cellNumber(d.purchasePrice),
      salePrice: cellNumber(d.salePrice),
      retailPrice: cellNumber(d.retailPrice),
      taxRate: cellNumber(d.taxRate),
      remark: cellText(d.remark),
      units: [{ unitId, ratio: 1, barcode: cellText(d.barcode) ?? '', isMain: true, enabled: true }],
    });
    const checked = await checkNewMaterial(input, ctx);
    // Later rows of the file see this one.
    if (checked.code) codes.add(checked.code);
    nameSpecs.add(nameSpecKey(checked.name, checked.specification ?? ''));
    for (const u of checked.units) if (u.barcode) barcodes.add(u.barcode);
    return checked;
  }

  const outcome = new ImportOutcome(0, job.maxErrors, job.columns);
  /** The good rows, checked: the row (for its number and cells, should the database refuse it) and what to insert. */
  const good = upload.spill<{ row: ImportRow; input: MaterialCreate }>();
  let total = 0;
  job.report({ phase: 'checking' });
  for await (const row of upload.rows()) {
    // `rows` lets the event loop turn every batch and stops at shutdown.
    if (++total % IMPORT_BATCH_ROWS === 0) job.report({ rowsChecked: total });
    let input: MaterialCreate;
    try {
      input = await checkRow(row);
    } catch (error) {
      const failure = importFailure(error, row);
      if (failure.errorMsg === 'ImportFailed') onUnexpected(error, row);
      outcome.failed(row, failure);
      continue;
    }
    await good.add({ row, input });
  }
  outcome.setTotal(total);
  job.report({ rowsChecked: total, total });
  // Only the codes are needed from here on (generated codes skip them).
  nameSpecs.clear();
  barcodes.clear();

  async function write(batches: ImportBatches, importJob: number | null) {
    if (!good.size) return;
    job.report({ phase: 'writing' });
    let written = 0;
    let batch: Array<{ row: ImportRow; input: MaterialCreate }> = [];
    const batchRows = importJob === null ? WRITE_BATCH : STAGED_WRITE_BATCH;
    const flush = async () => {
      await batches(async (tx) => {
        // Rows without a code get generated ones, skipping the codes stored or given in the file.
        const stored = codesStoredIn(tx, t, t.code, [eq(t.tenantId, tenantId)]);
        const taken = async (candidates: string[]) => new Set([...candidates.filter((c) => codes.has(c)), ...(await stored(candidates))]);
        const coded = await withCodes(tx, tenantId, batch.map((b) => b.input), taken);
        try {
          await tx.transaction((savepoint) => insertMaterials(savepoint as unknown as Tx, tenantId, coded, owner, importJob));
          outcome.succeeded(batch.length);
        } catch {
          // The database refused what the checks let through: redo this batch row by row, each in its own
          // savepoint, to keep its good rows and name the bad ones.
          const inputOf = new Map(batch.map((b, i) => [b.row, coded[i]]));
          const quiet = batchOf(job);
          await importRowByRow(tx, batch.map((b) => b.row), (savepoint, row) => insertMaterials(savepoint, tenantId, [inputOf.get(row)!], owner, importJob), outcome, onUnexpected, quiet);
        }
      });
      written += batch.length;
      batch = [];
      job.report({ rowsWritten: written });
      await job.checkpoint();
    };
    for await (const item of good.rows()) {
      batch.push(item);
      if (batch.length >= batchRows) await flush();
    }
    if (batch.length) await flush();
  }
  return { outcome, write };
}

/** Good material rows inserted between two turns of the event loop (and two looks at the shutdown signal). */
const WRITE_BATCH = 2000;
/**
 * The same on PGlite, where each batch is a transaction of its own holding the one connection: 2,000 rows
 * held it for about a second (other tenants' requests waited as long); 500 keep each wait a fraction of it.
 */
const STAGED_WRITE_BATCH = 500;

/** The `item` template: conversion units added to existing materials, one per row. */
const unitItemColumns = [
  col('materialCode', '物料编码', 'Material code', true),
  col('unit', '单位', 'Unit', true),
  col('ratio', '换算率(相对主单位)', 'Ratio to the main unit', true, 20),
  col('barcode', '条码', 'Barcode', false, 16),
];

async function unitItemImporter({ tx, tenantId, account }: ServiceContext): Promise<RowHandler> {
  const units = new Map((await tx.select({ id: unit.id, name: unit.name }).from(unit).where(eq(unit.tenantId, tenantId))).map((u) => [u.name, u.id]));
  const range = await assignmentRangeWhere(tx, account, 'material', t.id);
  return async (savepoint, row) => {
    const d = row.data;
    const code = cellText(d.materialCode);
    if (!code) throw new BizError('PleaseSelectMaterial');
    const [found] = await savepoint.select({ id: t.id }).from(t).where(and(eq(t.tenantId, tenantId), eq(t.code, code), range)).limit(1);
    if (!found) throw new BizError('MaterialNotExist', { additional: code });
    const unitText = cellText(d.unit);
    const unitId = unitText ? units.get(unitText) : undefined;
    if (unitId === undefined) throw new BizError(unitText ? 'UnitNotExist' : 'PleaseSelectUnit', { additional: unitText });
    const ratio = cellNumber(d.ratio);
    if (ratio === undefined || ratio <= 0) throw new BizError('NumberMustGreaterThanZero', { additional: 'ratio' });
    const barcode = cellText(d.barcode) ?? '';
    const [same] = await savepoint
      .select({ id: materialUnit.id })
      .from(materialUnit)
      .where(and(eq(materialUnit.tenantId, tenantId), eq(materialUnit.materialId, found.id), eq(materialUnit.unitId, unitId)))
      .limit(1);
    if (same) throw new BizError('UnitRepeat', { additional: unitText });
    if (barcode && (await databaseChecks(savepoint, tenantId).barcodeTaken([barcode]))) throw new BizError('BarCodeRepeat', { additional: barcode });
    const [{ n }] = await savepoint.select({ n: sql<number>`count(*)::int` }).from(materialUnit).where(and(eq(materialUnit.tenantId, tenantId), eq(materialUnit.materialId, found.id)));
    await savepoint.insert(materialUnit).values({ tenantId, materialId: found.id, unitId, ratio, barcode, isMain: false, sort: n });
  };
}

// ---------------------------------------------------------------- definition and extra routes

const exportColumns = [
  col('code', '物料编码', 'Code'),
  col('name', '物料名称', 'Name', false, 24),
  col('specification', '规格', 'Specification', false, 16),
  col('model', '型号', 'Model'),
  col('categoryName', '分类', 'Category'),
  col('brandName', '品牌', 'Brand'),
  col('mainUnitName', '主单位', 'Main unit'),
  col('partKind', '部件类型', 'Part kind'),
  col('tags', '业务属性', 'Business tags', false, 24),
  ...materialColumns.filter((c) => ['length', 'width', 'height', 'diameter', 'thickness', 'weight', 'volume', 'area', 'materialQuality', 'hsCode', 'englishName', 'netWeight', 'grossWeight', 'originCountry'].includes(c.prop)),
  col('batchNumber', '批次管理', 'Batch numbers'),
  col('serialNumber', '序列号管理', 'Serial numbers'),
  col('safetyStock', '安全库存', 'Safety stock'),
  col('warnDays', '预警天数', 'Warning days'),
  col('leadTimeDays', '提前期(天)', 'Lead time (days)'),
  col('lotPolicy', '批量规则', 'Lot policy'),
  col('lotSize', '批量', 'Lot size'),
  // Kept by the BOMs: exported to read, not imported.
  col('lowLevelCode', '低位码', 'Low-level code'),
  col('purchasePrice', '采购价', 'Purchase price'),
  col('salePrice', '销售价', 'Sale price'),
  col('retailPrice', '零售价', 'Retail price'),
  col('taxRate', '税率(%)', 'Tax rate (%)'),
  col('stockQuantity', '库存', 'Stock'),
  col('enabled', '启用', 'Enabled'),
  col('remark', '备注', 'Remark', false, 30),
];

/** The list's conditions: the caller's range and the query's filters. */
async function listWhere(ctx: ServiceContext, query: Record<string, unknown>) {
  return parseList(spec, query, [...(await baseWhere(ctx)), ...customFilters(ctx.tenantId, query)]);
}

export const materialDefinition: RecordDefinition<MaterialCreate, MaterialUpdate> = {
  record: 'material',
  entity: 'material',
  assignable: 'material',
  createSchema: materialSchemas.create,
  updateSchema: materialSchemas.update,
  async list(ctx, query) {
    return runPage(await listWhere(ctx, query), ctx.tx.select(selection).from(t).$dynamic(), ctx.tx.select(countAll()).from(t).$dynamic());
  },
  async statistics(ctx, query) {
    const parsed = await listWhere(ctx, query);
    const [sums] = await ctx.tx.select(statisticsSelection(spec)).from(t).where(parsed.where);
    return sums;
  },
  detail,
  async create(ctx, body) {
    const { tx, tenantId } = ctx;
    const created = await createMaterial(tx, tenantId, body, { config: await readTenantConfig(tx, tenantId), owner: await creatorOf(ctx), checks: databaseChecks(tx, tenantId) });
    if (body.images?.length) await queuePictureIndex(ctx, 'material', [created.id]);
    return created;
  },
  update: updateMaterial,
  async remove(ctx, ids) {
    const { tx, tenantId } = ctx;
    await assertAllVisible(tx, t, await baseWhere(ctx), ids, 'MaterialNotExist');
    await refuseIfHoldingStock(tx, tenantId, 'materialId', ids, 'MaterialExistInventoryProhibitDelete');
    await ctx.registries.recordUsage.refuseIfInUse(tx, tenantId, 'material', ids);
    await tx.delete(t).where(and(eq(t.tenantId, tenantId), inArray(t.id, ids)));
    await forgetAssignments(tx, tenantId, 'material', ids);
  },
  async enable(ctx, ids, enabled) {
    const { tx, tenantId } = ctx;
    await assertAllVisible(tx, t, await baseWhere(ctx), ids, 'MaterialNotExist');
    if (!enabled) await refuseIfHoldingStock(tx, tenantId, 'materialId', ids, 'MaterialExistInventoryProhibitClose');
    await tx.update(t).set({ enabled, updatedAt: new Date() }).where(and(eq(t.tenantId, tenantId), inArray(t.id, ids)));
  },
  async picker(ctx, query: PickerQuery) {
    const { tx, tenantId } = ctx;
    const conditions: Array<SQL | undefined> = [...(await baseWhere(ctx)), eq(t.enabled, true)];
    if (query.keyword) conditions.push(keywordCondition(tenantId, query.keyword));
    if (query.categoryId) conditions.push(inCategorySubtree(tenantId, t.categoryId, [query.categoryId]));
    if (query.tag) conditions.push(sql`${t.tags} @> array[${query.tag}]::text[]`);
    return runPage(
      { current: query.current, pageSize: query.pageSize, where: and(...conditions), orderBy: [asc(t.code), asc(t.id)] },
      tx.select(selection).from(t).$dynamic(),
      tx.select(countAll()).from(t).$dynamic(),
    );
  },
  excel: {
    template: 'material',
    importColumns: materialColumns,
    bulkImport: importMaterials,
    importedIds: (ctx, importJob) => importedRows(ctx, t, importJob),
    stagedTables: ['material_unit', 'material'],
    analyze: ['material', 'material_unit'],
    exportColumns,
    async exportRows(ctx, query, lang: Lang) {
      const parsed = await listWhere(ctx, query);
      const rows = await ctx.tx.select(selection).from(t).where(parsed.where).orderBy(...parsed.orderBy).limit(EXPORT_MAX_ROWS);
      return rows.map((r) => ({
        ...r,
        partKind: PART_KIND_LABELS[r.partKind as PartKind]?.[lang] ?? r.partKind,
        tags: (r.tags as MaterialTag[]).map((tag) => MATERIAL_TAG_LABELS[tag]?.[lang] ?? tag).join(','),
        lotPolicy: LOT_POLICY_LABELS[r.lotPolicy as LotPolicy]?.[lang] ?? r.lotPolicy,
        batchNumber: boolLabel(r.batchNumber, lang),
        serialNumber: boolLabel(r.serialNumber, lang),
        enabled: boolLabel(r.enabled, lang),
        stockQuantity: Number(r.stockQuantity),
      }));
    },
    filename: { zh: '物料', en: 'materials' },
  },
};

/** The unit rows, each of a material within the caller's assignment range (else UnitNotExist, as for an unknown row). */
async function unitRowsOf({ tx, tenantId, account }: ServiceContext, ids: number[]) {
  const rows = await tx
    .select({ id: materialUnit.id, materialId: materialUnit.materialId, unitId: materialUnit.unitId, isMain: materialUnit.isMain })
    .from(materialUnit)
    .where(and(eq(materialUnit.tenantId, tenantId), inArray(materialUnit.id, ids), await assignmentRangeWhere(tx, account, 'material', materialUnit.materialId)));
  assertAllFound(ids, rows, 'UnitNotExist');
  return rows;
}

/** Deletes conversion unit rows; the main unit stays, and so do units BOM lines count in. */
async function deleteMaterialUnits(ctx: ServiceContext, ids: number[]) {
  const rows = await unitRowsOf(ctx, ids);
  if (rows.some((u) => u.isMain)) throw new BizError('MainUnitProhibitDelete');
  for (const u of rows) await refuseIfUnitsInBom(ctx.tx, ctx.tenantId, u.materialId, [u.unitId]);
  await ctx.tx.delete(materialUnit).where(and(eq(materialUnit.tenantId, ctx.tenantId), inArray(materialUnit.id, ids)));
  ctx.audit({ action: 'delete', entity: 'material unit', entityId: ids });
}

async function enableMaterialUnits(ctx: ServiceContext, ids: number[], enabled: boolean) {
  const rows = await unitRowsOf(ctx, ids);
  if (!enabled && rows.some((u) => u.isMain)) throw new BizError('MainUnitProhibitDisable');
  await ctx.tx.update(materialUnit).set({ enabled }).where(and(eq(materialUnit.tenantId, ctx.tenantId), inArray(materialUnit.id, ids)));
  ctx.audit({ action: enabled ? 'enable' : 'disable', entity: 'material unit', entityId: ids });
}

const UNIT_URL = '/api/admin/basic/material/unit';
const unitTags = ['basic: material'];

/** The import template of conversion units (`item`), registered by the module. */
export const materialUnitTemplate = { key: 'item', columns: unitItemColumns };

/** A material's unit rows: delete or enable/disable them one by one (the main unit is protected), and their import. */
export const materialUnitRoutes = [
  route({
    method: 'DELETE', url: UNIT_URL, tags: unitTags, summary: "Delete a material's conversion units", permission: 'basic_material_update', body: idsSchema,
    handler: (ctx, { body }) => deleteMaterialUnits(ctx, distinct(body.ids)),
  }),
  route({
    method: 'PUT', url: `${UNIT_URL}/enable`, tags: unitTags, summary: "Enable or disable a material's conversion units", permission: 'basic_material_update', body: materialUnitEnableSchema,
    handler: (ctx, { body }) => enableMaterialUnits(ctx, distinct(body.ids), body.enabled),
  }),
  untransactedRoute({
    method: 'POST', url: `${UNIT_URL}/import`, tags: unitTags, summary: 'Import conversion units (template "item")', permission: 'basic_material_import',
    consumes: ['multipart/form-data'],
    handler: (caller, _input, { request }) => {
      const job = request.server.importJobs.begin(request);
      return reportedImport(job, () =>
        withSpilledImport(request, caller.config, unitItemColumns, job, async (rows) => {
          await analyze(caller.database, ['material', 'material_unit']);
          return rowByRowImport(caller, {
            entity: 'material unit',
            stagedTables: ['material_unit'],
            rows,
            importer: unitItemImporter,
            onUnexpected: logUnexpectedRow(caller),
            job,
            finish: async (ctx, outcome) => {
              auditImport(ctx, 'material unit', outcome);
              await job.complete(ctx.tx, outcome);
              return outcome;
            },
          });
        }),
      );
    },
  }),
];
