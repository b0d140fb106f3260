import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { headerFields, lineFields, lineKindOf, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { FieldDecl } from '@p8/contract/bills/fields';
import { RECORD_KINDS, recordKind } from '@p8/contract/records/catalogue';
import { RECORD_REFS } from '@p8/contract/records/references';
import { everyRecordField, recordApiPath, type RecordFieldDecl } from '@p8/contract/records/registry';
import { nameKey } from '@p8/contract/bills/fields';
import { sampleLine, sampleNamedRecords, sampleRecordBody, type SampleNamed } from './record-samples.ts';
import { sourcedRefs } from '../src/core/record-refs.ts';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, setTenantConfig, staffCaller, type Caller } from './basic-fixtures.ts';
import { billPath, billPayload, createBillRecords, ok, refused, type BillRecords } from './bill-fixtures.ts';

/*
 * Fields that name records (`kind: 'record'`), walked over every bill type: a missing record is refused with the
 * referenced kind's own key, a record inside a parent (a location in a warehouse, a BOM of a material) only within
 * it, the names beside the ids come back, and a record a bill names cannot be deleted. Everything comes from the
 * kind's declaration (records/references.ts) and its one source (core/record-refs.ts), so a bill type naming a new
 * kind is held to it the day it is declared.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let records: BillRecords;
const DAY = '2026-11-20';
const NOBODY = 999_999_999;

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'RecordRefs');
  api = await adminCaller(ctx, t);
  records = await createBillRecords(api);
  await setTenantConfig(ctx, t.tenantId, { openShelves: true, openSaleOrderBomSelect: true });
  await audited('OtherInstock', { warehouseId: records.warehouse, lines: [{ materialId: records.material, number: 100, unitPrice: 5 }] });
});
afterAll(() => ctx.close());

async function audited(type: string, body: Record<string, unknown>): Promise<number> {
  const { id } = await ok(api.post<{ id: number }>(billPath(type), { billDate: DAY, ...body }));
  await ok(api.post(`${billPath(type)}/submit`, { id }));
  await ok(api.post(`${billPath(type)}/audit`, { id }));
  return id;
}

/** The record fields a save of the type takes (shown, not computed), header and lines. */
function namedFields(decl: BillTypeDecl): Array<{ part: 'header' | 'line'; field: FieldDecl }> {
  const take = (f: FieldDecl) => f.kind === 'record' && !f.readOnly;
  return [
    ...headerFields(decl).filter((f) => take(f) && !f.shownWhen).map((field) => ({ part: 'header' as const, field })),
    // A material line's material and unit are the line's own checks (MaterialNotExist, UnitNotExist).
    ...lineFields(decl).filter((f) => take(f) && !(lineKindOf(decl) === 'material' && ['materialId', 'unitId'].includes(f.key))).map((field) => ({ part: 'line' as const, field })),
  ];
}

describe('every referable kind has one source', () => {
  it('the server stores every kind the contract declares referable, and no other', () => {
    expect(sourcedRefs().sort()).toEqual(Object.keys(RECORD_REFS).sort());
  });
});

describe.each(BILL_TYPES.filter((decl) => namedFields(decl).length).map((decl) => [decl.type, decl] as const))('%s', (_type, decl) => {
  it.each(namedFields(decl).map(({ part, field }) => [`${part} ${field.key} → ${field.ref}`, part, field] as const))('a missing %s is refused with the kind’s key', async (_name, part, field) => {
    const payload = billPayload(decl, records, { billDate: DAY });
    if (part === 'header') payload[field.key] = NOBODY;
    else {
      const lines = payload.lines as Array<Record<string, unknown>>;
      // A type saved without lines (an advance) gets one line of its kind for the walk.
      if (!lines.length) return;
      lines[0][field.key] = NOBODY;
    }
    await refused(api.post(billPath(decl.type), payload), RECORD_REFS[field.ref!].missing);
  });
});

describe('a record inside a parent is named only within it', () => {
  it("a line's location must be one of its warehouse's (the line's own, else the bill's)", async () => {
    const here = await api.create('location', { warehouseId: records.warehouse, name: 'A-01' });
    const there = await api.create('location', { warehouseId: records.otherWarehouse, name: 'B-01' });
    const line = { materialId: records.material, number: 1, unitPrice: 5 };
    await refused(api.post(billPath('OtherInstock'), { billDate: DAY, warehouseId: records.warehouse, lines: [{ ...line, locationId: there }] }), 'LocationNotExist');
    await refused(api.post(billPath('OtherInstock'), { billDate: DAY, warehouseId: records.warehouse, lines: [{ ...line, warehouseId: records.warehouse, locationId: there }] }), 'LocationNotExist');
    const { id } = await ok(api.post<{ id: number }>(billPath('OtherInstock'), { billDate: DAY, warehouseId: records.warehouse, lines: [{ ...line, locationId: here }, { ...line, warehouseId: records.otherWarehouse, locationId: there }] }));
    const bill = await ok(api.get<{ warehouseName: string; lines: Array<{ locationName: string; warehouseName: string }> }>(`${billPath('OtherInstock')}/${id}`));
    expect(bill.warehouseName).toBe('Main');
    expect(bill.lines.map((l) => [l.warehouseName, l.locationName])).toEqual([
      ['Main', 'A-01'],
      ['Second', 'B-01'],
    ]);
    // The transfer's target location within the target warehouse.
    await refused(
      api.post(billPath('StockTransfer'), { billDate: DAY, warehouseId: records.warehouse, targetWarehouseId: records.otherWarehouse, lines: [{ materialId: records.material, number: 1, targetLocationId: here }] }),
      'LocationNotExist',
    );
  });
});

describe('a record a bill names is held', () => {
  it('a BOM chosen on a sale order line cannot be deleted', async () => {
    const bomId = await api.create('bom', { materialId: records.material, version: 'V7', lines: [{ materialId: records.component, quantity: 1 }] });
    const { id } = await ok(api.post<{ id: number }>(billPath('SaleOrder'), { billDate: DAY, customerId: records.customer, lines: [{ materialId: records.material, number: 1, unitPrice: 9, bomId }] }));
    const order = await ok(api.get<{ lines: Array<{ bomId: number; bomName: string }> }>(`${billPath('SaleOrder')}/${id}`));
    expect(order.lines[0]).toMatchObject({ bomId, bomName: 'V7' });
    await refused(api.del('/api/admin/basic/bom', { ids: [bomId] }), 'BomInUseProhibitDelete');
  });

  it('a department a bill names cannot be deleted', async () => {
    const dept = await ok(api.post<{ id: number }>('/api/admin/security/dept', { name: 'Purchasing' }));
    await ok(api.post(billPath('PurchaseOrder'), { billDate: DAY, supplierId: records.supplier, deptId: dept.id, lines: [{ materialId: records.material, number: 1, unitPrice: 5 }] }));
    await refused(api.del('/api/admin/security/dept', { ids: [dept.id] }), 'DeptInUseProhibitDelete');
  });

  it('the names beside the ids: a fee bill shows its fund account, handler and each line’s fee type', async () => {
    const { id } = await ok(api.post<{ id: number }>(billPath('Fee'), { billDate: DAY, fundAccountId: records.fundAccount, handlerId: api.adminId, lines: [{ feeTypeId: records.expenseFee, amount: '3' }] }));
    const fee = await ok(api.get<{ fundAccountName: string; handlerName: string; lines: Array<{ feeTypeName: string }> }>(`${billPath('Fee')}/${id}`));
    expect(fee.fundAccountName).toBe('F-fund');
    expect(fee.handlerName).toBeTruthy();
    expect(fee.lines[0].feeTypeName).toBe('F-freight');
  });
});

/** Where the kinds that are not declared records are deleted, and what refuses it while they are named. */
const HAND_WRITTEN_DELETES: Record<string, { url: string; inUse: string }> = {
  department: { url: '/api/admin/security/dept', inUse: 'DeptInUseProhibitDelete' },
  material: { url: '/api/admin/basic/material', inUse: 'MaterialInUseProhibitDelete' },
};

describe.each(RECORD_KINDS.filter((decl) => everyRecordField(decl).some((f) => f.kind === 'record')).map((decl) => [decl.kind, decl] as const))('declared kind %s', (_kind, decl) => {
  let n = 0;
  /**
   * A record of kind `ref` made through the API: a department, a material, a declared kind's sample; staff: a new
   * colleague (the caller is in an attendance group already — the bill fixtures' — and a person is in one group).
   */
  async function referable(ref: string): Promise<number> {
    n += 1;
    if (ref === 'staff') return (await staffCaller(ctx, t)).adminId;
    if (ref === 'department') return (await ok(api.post<{ id: number }>('/api/admin/security/dept', { name: `${decl.kind}-dept-${n}` }))).id;
    // A material (hand-written: its units) in its main unit.
    if (ref === 'material') return api.create('material', { code: `${decl.kind}-M${n}`, name: `${decl.kind}-material-${n}`, units: [{ unitId: await referable('unit'), isMain: true }] });
    const named = recordKind(ref);
    if (!named) throw new Error(`the walk cannot make a ${ref}`);
    const seed = `${decl.kind}-${ref}-${n}`;
    return ok(api.post<{ id: number }>(`/api${recordApiPath(named)}`, sampleRecordBody(named, seed, await sampleNamedRecords(api.create, named, seed)))).then((r) => r.id);
  }
  const url = `/api${recordApiPath(decl)}`;
  let named: SampleNamed | undefined;
  /** A sample body whose field (the record's own, or each line's) names `value`. */
  async function naming(field: RecordFieldDecl, seed: string, value: number) {
    named ??= await sampleNamedRecords(api.create, decl, `refs-${decl.kind}`);
    const body = sampleRecordBody(decl, seed, named);
    if (decl.fields.includes(field)) return { ...body, [field.key]: value };
    const key = decl.lines!.key;
    // A kind whose samples have no lines (its lines name staff): one line made for the field.
    const lines = (body[key] as Array<Record<string, unknown>> | undefined) ?? [sampleLine(decl, seed, named)];
    return { ...body, [key]: lines.map((line) => ({ ...line, [field.key]: value })) };
  }

  it.each(everyRecordField(decl).filter((f) => f.kind === 'record').map((f) => [f.key, f] as const))('%s: a missing record is refused, a named one is listed by name and held', async (_key, field) => {
    await refused(api.post(url, await naming(field, `missing-${field.key}`, NOBODY)), RECORD_REFS[field.ref!].missing);
    const target = await referable(field.ref!);
    const { id } = await ok(api.post<{ id: number }>(url, await naming(field, `named-${field.key}`, target)));
    if (decl.fields.includes(field)) {
      const listed = await ok(api.get<Array<Record<string, unknown>>>(`${url}?current=1&pageSize=100`));
      const row = listed.find((r) => r.id === id)!;
      expect(row[field.key]).toBe(target);
      expect(row[nameKey(field.key)]).toBeTruthy();
    } else {
      // A line's: the detail's lines name it.
      const [line] = (await ok(api.get<Record<string, unknown>>(`${url}/${id}`)))[decl.lines!.key] as Array<Record<string, unknown>>;
      expect(line[field.key]).toBe(target);
      expect(line[nameKey(field.key)]).toBeTruthy();
    }
    // Held: the named record's delete is refused while this record names it (staff are disabled, never deleted by this walk).
    if (field.ref !== 'staff') {
      const handWritten = HAND_WRITTEN_DELETES[field.ref!];
      const namedUrl = handWritten?.url ?? `/api${recordApiPath(recordKind(field.ref!)!)}`;
      const inUse = handWritten?.inUse ?? recordKind(field.ref!)!.inUse;
      await refused(api.del(namedUrl, { ids: [target] }), inUse);
    }
  });
});
