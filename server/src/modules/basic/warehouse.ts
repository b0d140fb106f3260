import { and, asc, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { locationSchemas, warehouseSchemas, type Location, type PickerQuery, type WarehouseDetail } from '@p8/contract/basic';
import type { Tx } from '../../db/connection.ts';
import { admin, location, partner, warehouse } from '../../db/schema/index.ts';
import { assignmentOf, assignmentRangeWhere, forgetAssignments } from '../../core/assignment-range.ts';
import { codeOrNext, codesStoredIn } from '../../core/code-generator.ts';
import { BizError } from '../../core/errors.ts';
import { assertAllVisible, assertIdsExist } from '../../core/ids.ts';
import type { Lang } from '../../core/excel.ts';
import { containsPattern, countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { creatorOf, staffResolver } from './owner.ts';
import { boolLabel, cellBool, cellNumber, cellText, col } from '../../core/excel-cells.ts';
import { EXPORT_MAX_ROWS, importedRows, refuseIfHoldingStock, q } from './kit.ts';
import { inSavepoint, type RecordDefinition } from '../../core/record-routes.ts';

/*
 * Warehouses (the spec's `stock`) and their storage locations. A warehouse or location that holds stock
 * can be neither deleted nor disabled; a warehouse with locations is in use. While the tenant's
 * applyRangeStock is on, warehouses (and their locations) follow the assignment range.
 */

interface WarehouseInput {
  code?: string;
  name?: string;
  address?: string;
  managerId?: number | null;
  phone?: string;
  rejects?: boolean;
  customerId?: number | null;
  sort?: number;
  remark?: string;
}
interface LocationInput {
  warehouseId?: number;
  code?: string;
  name?: string;
  sort?: number;
  remark?: string;
}

const managerName = sql<string | null>`(select coalesce(nullif(a.real_name, ''), a.name) from ${admin} a where a.tenant_id = ${q('warehouse', 'tenant_id')} and a.id = ${q('warehouse', 'manager_id')})`;
const customerName = sql<string | null>`(select p.name from ${partner} p where p.tenant_id = ${q('warehouse', 'tenant_id')} and p.id = ${q('warehouse', 'customer_id')})`;
const warehouseSelection = {
  id: warehouse.id,
  code: warehouse.code,
  name: warehouse.name,
  address: warehouse.address,
  managerId: warehouse.managerId,
  managerName,
  phone: warehouse.phone,
  rejects: warehouse.rejects,
  customerId: warehouse.customerId,
  customerName,
  sort: warehouse.sort,
  remark: warehouse.remark,
  enabled: warehouse.enabled,
  deptId: warehouse.deptId,
  createdBy: warehouse.createdBy,
  createdAt: warehouse.createdAt,
  updatedAt: warehouse.updatedAt,
};

const warehouseSpec: ListSpec = {
  fields: {
    id: { column: warehouse.id, notIn: true },
    code: { column: warehouse.code, filter: 'like', sortable: true },
    name: { column: warehouse.name, filter: 'like', sortable: true },
    address: { column: warehouse.address, filter: 'like' },
    managerId: { column: warehouse.managerId, filter: 'in' },
    rejects: { column: warehouse.rejects, filter: 'bool', sortable: true },
    customerId: { column: warehouse.customerId, filter: 'in' },
    enabled: { column: warehouse.enabled, filter: 'bool', sortable: true },
    sort: { column: warehouse.sort, sortable: true },
    createdAt: { column: warehouse.createdAt, sortable: true },
  },
  dateColumn: warehouse.createdAt,
  defaultOrder: [asc(warehouse.sort), desc(warehouse.id)],
};

async function assertWarehouseFree(tx: Tx, tenantId: number, field: 'code' | 'name', value: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: warehouse.id })
    .from(warehouse)
    .where(and(eq(warehouse.tenantId, tenantId), eq(warehouse[field], value), exceptId === undefined ? undefined : ne(warehouse.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError(field === 'code' ? 'CodeRepeat' : 'NameRepeat', { additional: value });
}

/** A consignment warehouse's customer is an existing customer of the tenant. */
async function assertCustomer(tx: Tx, tenantId: number, customerId: number | null | undefined) {
  if (!customerId) return;
  const [found] = await tx
    .select({ id: partner.id })
    .from(partner)
    .where(and(eq(partner.tenantId, tenantId), eq(partner.id, customerId), eq(partner.kind, 'customer')));
  if (!found) throw new BizError('CustomerNotExist', { additional: customerId });
}

async function warehouseWhere({ tx, tenantId, account }: ServiceContext): Promise<Array<SQL | undefined>> {
  return [eq(warehouse.tenantId, tenantId), await assignmentRangeWhere(tx, account, 'stock', warehouse.id)];
}

async function createWarehouse(ctx: ServiceContext, body: WarehouseInput, owner?: { deptId: number | null; createdBy: number }) {
  const { tx, tenantId } = ctx;
  if (body.code) await assertWarehouseFree(tx, tenantId, 'code', body.code);
  await assertWarehouseFree(tx, tenantId, 'name', body.name!);
  await assertIdsExist(tx, admin, tenantId, [body.managerId], 'AdminNotExist');
  await assertCustomer(tx, tenantId, body.customerId);
  const [row] = await tx
    .insert(warehouse)
    .values({
      tenantId,
      code: await codeOrNext(tx, tenantId, 'warehouse', body.code, codesStoredIn(tx, warehouse, warehouse.code, [eq(warehouse.tenantId, tenantId)])),
      name: body.name!,
      address: body.address ?? '',
      managerId: body.managerId ?? null,
      phone: body.phone ?? '',
      rejects: body.rejects ?? false,
      customerId: body.customerId ?? null,
      sort: body.sort ?? 0,
      remark: body.remark ?? '',
      ...(owner ?? (await creatorOf(ctx))),
    })
    .returning({ id: warehouse.id });
  return row;
}

async function warehouseDetail(ctx: ServiceContext, id: number): Promise<WarehouseDetail> {
  const [row] = await ctx.tx
    .select(warehouseSelection)
    .from(warehouse)
    .where(and(...(await warehouseWhere(ctx)), eq(warehouse.id, id)));
  if (!row) throw new BizError('WarehouseNotExist', { additional: id });
  return { ...(row as unknown as WarehouseDetail), assignment: await assignmentOf(ctx.tx, ctx.tenantId, 'stock', id) };
}

export const warehouseDefinition: RecordDefinition<WarehouseInput, WarehouseInput & { id: number }> = {
  record: 'stock',
  entity: 'warehouse',
  assignable: 'stock',
  createSchema: warehouseSchemas.create,
  updateSchema: warehouseSchemas.update,
  async list(ctx, query) {
    const parsed = parseList(warehouseSpec, query, await warehouseWhere(ctx));
    return runPage(parsed, ctx.tx.select(warehouseSelection).from(warehouse).$dynamic(), ctx.tx.select(countAll()).from(warehouse).$dynamic());
  },
  detail: warehouseDetail,
  create: (ctx, body) => createWarehouse(ctx, body),
  async update(ctx, body) {
    const { tx, tenantId } = ctx;
    const before = await warehouseDetail(ctx, body.id);
    // What is in a warehouse was received for what it is (good goods or rejects): it changes only when empty.
    if (body.rejects !== undefined && body.rejects !== before.rejects) await refuseIfHoldingStock(tx, tenantId, 'warehouseId', [body.id], 'WarehouseRejectsChangeHoldingStock');
    // …and for whom: the company's own goods, or one customer's materials held at no value.
    if (body.customerId !== undefined && (body.customerId ?? null) !== before.customerId) await refuseIfHoldingStock(tx, tenantId, 'warehouseId', [body.id], 'WarehouseCustomerChangeHoldingStock');
    await assertCustomer(tx, tenantId, body.customerId);
    if (body.code !== undefined) await assertWarehouseFree(tx, tenantId, 'code', body.code, body.id);
    if (body.name !== undefined) await assertWarehouseFree(tx, tenantId, 'name', body.name, body.id);
    await assertIdsExist(tx, admin, tenantId, [body.managerId], 'AdminNotExist');
    const { id, ...fields } = body;
    await tx
      .update(warehouse)
      .set({ ...fields, updatedAt: new Date() })
      .where(and(eq(warehouse.tenantId, tenantId), eq(warehouse.id, id)));
  },
  async remove(ctx, ids) {
    const { tx, tenantId } = ctx;
    await assertAllVisible(tx, warehouse, await warehouseWhere(ctx), ids, 'WarehouseNotExist');
    await refuseIfHoldingStock(tx, tenantId, 'warehouseId', ids, 'WarehouseExistInventoryProhibitDelete');
    await ctx.registries.recordUsage.refuseIfInUse(tx, tenantId, 'stock', ids);
    await tx.delete(warehouse).where(and(eq(warehouse.tenantId, tenantId), inArray(warehouse.id, ids)));
    await forgetAssignments(tx, tenantId, 'stock', ids);
  },
  async enable(ctx, ids, enabled) {
    const { tx, tenantId } = ctx;
    await assertAllVisible(tx, warehouse, await warehouseWhere(ctx), ids, 'WarehouseNotExist');
    if (!enabled) await refuseIfHoldingStock(tx, tenantId, 'warehouseId', ids, 'WarehouseExistInventoryProhibitClose');
    await tx.update(warehouse).set({ enabled, updatedAt: new Date() }).where(and(eq(warehouse.tenantId, tenantId), inArray(warehouse.id, ids)));
  },
  async picker(ctx, query: PickerQuery) {
    const { tx } = ctx;
    const conditions = [...(await warehouseWhere(ctx)), eq(warehouse.enabled, true)];
    if (query.keyword) conditions.push(or(ilike(warehouse.code, containsPattern(query.keyword)), ilike(warehouse.name, containsPattern(query.keyword))));
    return runPage(
      { current: query.current, pageSize: query.pageSize, where: and(...conditions), orderBy: warehouseSpec.defaultOrder },
      tx.select(warehouseSelection).from(warehouse).$dynamic(),
      tx.select(countAll()).from(warehouse).$dynamic(),
    );
  },
  excel: {
    template: 'stock',
    importedIds: (ctx, importJob) => importedRows(ctx, warehouse, importJob),
    stagedTables: ['warehouse'],
    importColumns: [
      col('code', '仓库编码', 'Code'),
      col('name', '仓库名称', 'Name', true),
      col('address', '地址', 'Address', false, 30),
      col('manager', '负责人(账号或姓名)', 'Manager (account or name)', false, 20),
      col('phone', '电话', 'Phone'),
      col('rejects', '不良品仓(是/否)', 'Reject warehouse (yes/no)'),
      col('sort', '排序', 'Sort'),
      col('remark', '备注', 'Remark', false, 30),
    ],
    async importer(ctx) {
      const owner = await creatorOf(ctx);
      const staff = await staffResolver(ctx.tx, ctx.tenantId);
      return async (savepoint, row) => {
        const d = row.data;
        const manager = cellText(d.manager);
        const input = warehouseSchemas.create.parse({
          code: cellText(d.code) ?? '',
          name: cellText(d.name) ?? '',
          address: cellText(d.address),
          managerId: manager ? staff(manager) : undefined,
          phone: cellText(d.phone),
          rejects: cellBool(d.rejects),
          sort: cellNumber(d.sort),
          remark: cellText(d.remark),
        });
        await createWarehouse(inSavepoint(ctx, savepoint), input, owner);
      };
    },
    exportColumns: [
      col('code', '仓库编码', 'Code'),
      col('name', '仓库名称', 'Name'),
      col('address', '地址', 'Address', false, 30),
      col('managerName', '负责人', 'Manager'),
      col('phone', '电话', 'Phone'),
      col('rejects', '不良品仓', 'Reject warehouse'),
      col('sort', '排序', 'Sort'),
      col('enabled', '启用', 'Enabled'),
      col('remark', '备注', 'Remark', false, 30),
    ],
    async exportRows(ctx, query, lang: Lang) {
      const parsed = parseList(warehouseSpec, query, await warehouseWhere(ctx));
      const rows = await ctx.tx.select(warehouseSelection).from(warehouse).where(parsed.where).orderBy(...parsed.orderBy).limit(EXPORT_MAX_ROWS);
      return rows.map((r) => ({ ...r, rejects: boolLabel(r.rejects, lang), enabled: boolLabel(r.enabled, lang) }));
    },
    filename: { zh: '仓库', en: 'warehouses' },
  },
};

// ---------------------------------------------------------------- locations

const locationSelection = {
  id: location.id,
  warehouseId: location.warehouseId,
  warehouseName: warehouse.name,
  code: location.code,
  name: location.name,
  sort: location.sort,
  remark: location.remark,
  enabled: location.enabled,
  createdAt: location.createdAt,
  updatedAt: location.updatedAt,
};

const locationSpec: ListSpec = {
  fields: {
    id: { column: location.id, notIn: true },
    warehouseId: { column: location.warehouseId, filter: 'in', sortable: true },
    code: { column: location.code, filter: 'like', sortable: true },
    name: { column: location.name, filter: 'like', sortable: true },
    enabled: { column: location.enabled, filter: 'bool', sortable: true },
    sort: { column: location.sort, sortable: true },
    createdAt: { column: location.createdAt, sortable: true },
  },
  dateColumn: location.createdAt,
  defaultOrder: [asc(location.warehouseId), asc(location.sort), asc(location.id)],
};

const locationsJoined = (tx: Tx) =>
  tx
    .select(locationSelection)
    .from(location)
    .innerJoin(warehouse, and(eq(warehouse.tenantId, location.tenantId), eq(warehouse.id, location.warehouseId)))
    .$dynamic();

async function locationWhere({ tx, tenantId, account }: ServiceContext): Promise<Array<SQL | undefined>> {
  // A location is seen by whoever sees its warehouse.
  return [eq(location.tenantId, tenantId), await assignmentRangeWhere(tx, account, 'stock', location.warehouseId)];
}

async function assertLocationNameFree(tx: Tx, tenantId: number, warehouseId: number, name: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: location.id })
    .from(location)
    .where(and(eq(location.tenantId, tenantId), eq(location.warehouseId, warehouseId), eq(location.name, name), exceptId === undefined ? undefined : ne(location.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('NameRepeat', { additional: name });
}

async function createLocation(tx: Tx, tenantId: number, body: LocationInput) {
  await assertIdsExist(tx, warehouse, tenantId, [body.warehouseId], 'WarehouseNotExist');
  await assertLocationNameFree(tx, tenantId, body.warehouseId!, body.name!);
  const [row] = await tx
    .insert(location)
    .values({
      tenantId,
      warehouseId: body.warehouseId!,
      code: await codeOrNext(tx, tenantId, 'location', body.code, codesStoredIn(tx, location, location.code, [eq(location.tenantId, tenantId)])),
      name: body.name!,
      sort: body.sort ?? 0,
      remark: body.remark ?? '',
    })
    .returning({ id: location.id });
  return row;
}

async function locationDetail(ctx: ServiceContext, id: number): Promise<Location> {
  const [row] = await locationsJoined(ctx.tx).where(and(...(await locationWhere(ctx)), eq(location.id, id)));
  if (!row) throw new BizError('LocationNotExist', { additional: id });
  return row as unknown as Location;
}

export const locationDefinition: RecordDefinition<LocationInput, LocationInput & { id: number }> = {
  record: 'location',
  entity: 'location',
  createSchema: locationSchemas.create,
  updateSchema: locationSchemas.update,
  async list(ctx, query) {
    const parsed = parseList(locationSpec, query, await locationWhere(ctx));
    return runPage(parsed, locationsJoined(ctx.tx), ctx.tx.select(countAll()).from(location).$dynamic());
  },
  detail: locationDetail,
  create: ({ tx, tenantId }, body) => createLocation(tx, tenantId, body),
  async update(ctx, body) {
    const { tx, tenantId } = ctx;
    const current = await locationDetail(ctx, body.id);
    const warehouseId = body.warehouseId ?? current.warehouseId;
    if (warehouseId !== current.warehouseId) {
      await assertIdsExist(tx, warehouse, tenantId, [warehouseId], 'WarehouseNotExist');
      // Stock stays where it is: a location holding stock cannot move to another warehouse.
      await refuseIfHoldingStock(tx, tenantId, 'locationId', [body.id], 'LocationExistInventoryProhibitClose');
    }
    await assertLocationNameFree(tx, tenantId, warehouseId, body.name ?? current.name, body.id);
    const { id, ...fields } = body;
    await tx
      .update(location)
      .set({ ...fields, updatedAt: new Date() })
      .where(and(eq(location.tenantId, tenantId), eq(location.id, id)));
  },
  async remove(ctx, ids) {
    const { tx, tenantId } = ctx;
    await assertAllVisible(tx, location, await locationWhere(ctx), ids, 'LocationNotExist');
    await refuseIfHoldingStock(tx, tenantId, 'locationId', ids, 'LocationExistInventoryProhibitDelete');
    await ctx.registries.recordUsage.refuseIfInUse(tx, tenantId, 'location', ids);
    await tx.delete(location).where(and(eq(location.tenantId, tenantId), inArray(location.id, ids)));
  },
  async enable(ctx, ids, enabled) {
    const { tx, tenantId } = ctx;
    await assertAllVisible(tx, location, await locationWhere(ctx), ids, 'LocationNotExist');
    if (!enabled) await refuseIfHoldingStock(tx, tenantId, 'locationId', ids, 'LocationExistInventoryProhibitClose');
    await tx.update(location).set({ enabled, updatedAt: new Date() }).where(and(eq(location.tenantId, tenantId), inArray(location.id, ids)));
  },
  async picker(ctx, query: PickerQuery) {
    const { tx } = ctx;
    const conditions = [...(await locationWhere(ctx)), eq(location.enabled, true), eq(warehouse.enabled, true)];
    if (query.warehouseId) conditions.push(eq(location.warehouseId, query.warehouseId));
    if (query.keyword) conditions.push(or(ilike(location.code, containsPattern(query.keyword)), ilike(location.name, containsPattern(query.keyword))));
    return runPage(
      { current: query.current, pageSize: query.pageSize, where: and(...conditions), orderBy: locationSpec.defaultOrder },
      locationsJoined(tx),
      tx
        .select(countAll())
        .from(location)
        .innerJoin(warehouse, and(eq(warehouse.tenantId, location.tenantId), eq(warehouse.id, location.warehouseId)))
        .$dynamic(),
    );
  },
  excel: {
    template: 'location',
    stagedTables: ['location'],
    importColumns: [
      col('warehouse', '仓库(编码或名称)', 'Warehouse (code or name)', true, 20),
      col('name', '库位名称', 'Name', true),
      col('code', '库位编码', 'Code'),
      col('sort', '排序', 'Sort'),
      col('remark', '备注', 'Remark', false, 30),
    ],
    async importer({ tx, tenantId }) {
      const warehouses = await tx.select({ id: warehouse.id, code: warehouse.code, name: warehouse.name }).from(warehouse).where(eq(warehouse.tenantId, tenantId));
      return async (savepoint, row) => {
        const d = row.data;
        const text = cellText(d.warehouse);
        const found = text ? (warehouses.find((w) => w.code === text) ?? warehouses.find((w) => w.name === text)) : undefined;
        if (!found) throw new BizError(text ? 'WarehouseNotExist' : 'PleaseSelectWarehouse', { additional: text });
        const input = locationSchemas.create.parse({ warehouseId: found.id, name: cellText(d.name) ?? '', code: cellText(d.code), sort: cellNumber(d.sort), remark: cellText(d.remark) });
        await createLocation(savepoint, tenantId, input);
      };
    },
    exportColumns: [
      col('warehouseName', '仓库', 'Warehouse', false, 20),
      col('name', '库位名称', 'Name'),
      col('code', '库位编码', 'Code'),
      col('sort', '排序', 'Sort'),
      col('enabled', '启用', 'Enabled'),
      col('remark', '备注', 'Remark', false, 30),
    ],
    async exportRows(ctx, query, lang: Lang) {
      const parsed = parseList(locationSpec, query, await locationWhere(ctx));
      const rows = await locationsJoined(ctx.tx).where(parsed.where).orderBy(...parsed.orderBy).limit(EXPORT_MAX_ROWS);
      return rows.map((r) => ({ ...r, enabled: boolLabel(r.enabled, lang) }));
    },
    filename: { zh: '库位', en: 'locations' },
  },
};
