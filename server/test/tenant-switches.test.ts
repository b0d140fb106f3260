import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, setTenantConfig, type Caller } from './basic-fixtures.ts';
import { billPath, ok, refused } from './bill-fixtures.ts';

/*
 * Each tenant switch the bill engine and the services read, flipped: the behaviour changes with it.
 * (Which rule reads which key is recorded in the contract's CONFIG_READERS; tenant-config-readers.test.ts
 * walks it.)
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
const ids = { piece: 0, material: 0, customer: 0, supplier: 0, w1: 0 };
const DAY = '2026-11-20';

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Switches');
  api = await adminCaller(ctx, t);
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.material = await api.create('material', { code: 'M1', name: 'Motor', units: [{ unitId: ids.piece, isMain: true }] });
  ids.customer = await api.create('customer', { code: 'C1', name: 'Customer one' });
  ids.supplier = await api.create('supplier', { code: 'S1', name: 'Supplier one' });
  ids.w1 = await api.create('stock', { code: 'W1', name: 'Main' });
  await audited('OtherInstock', { warehouseId: ids.w1, lines: [{ materialId: ids.material, number: 100, unitPrice: 5 }] });
});
afterAll(() => ctx.close());

const save = (type: string, body: Record<string, unknown>) => api.post<{ id: number }>(billPath(type), { billDate: DAY, ...body });
async function audited(type: string, body: Record<string, unknown>): Promise<number> {
  const { id } = await ok(save(type, body));
  await ok(api.post(`${billPath(type)}/submit`, { id }));
  await ok(api.post(`${billPath(type)}/audit`, { id }));
  return id;
}
const count = async (type: string) => ((await api.get<unknown[]>(`${billPath(type)}?current=1&pageSize=200`)).body.pagination as { total: number }).total;

describe('openDirectOutstock', () => {
  const body = () => ({ customerId: ids.customer, warehouseId: ids.w1, lines: [{ materialId: ids.material, number: 2, unitPrice: 9 }] });

  it('off (the default): a sale out-stock without an order or notice is refused at save, and nothing is saved', async () => {
    const before = await count('SaleOutstock');
    await refused(save('SaleOutstock', body()), 'DirectBillNotOpen');
    expect(await count('SaleOutstock')).toBe(before);
  });

  it('off: one pushed down from a sale order saves, submits and audits', async () => {
    const order = await audited('SaleOrder', { customerId: ids.customer, lines: [{ materialId: ids.material, number: 3, unitPrice: 9 }] });
    const [line] = (await ok(api.get<{ lines: Array<{ id: number }> }>(`${billPath('SaleOrder')}/${order}`))).lines;
    const out = await ok(api.post<{ id: number }>(`${billPath('SaleOutstock')}/pushDown`, { sourceType: 'SaleOrder', sourceLineIds: [line.id] }));
    await ok(api.put(billPath('SaleOutstock'), { id: out.id, billDate: DAY, customerId: ids.customer, warehouseId: ids.w1, lines: [{ materialId: ids.material, number: 3, unitPrice: 9, sourceLineId: line.id }] }));
    await ok(api.post(`${billPath('SaleOutstock')}/submit`, { id: out.id }));
    await ok(api.post(`${billPath('SaleOutstock')}/audit`, { id: out.id }));
  });

  it('on: a direct sale out-stock saves; turned off again, submitting the draft is refused', async () => {
    await setTenantConfig(ctx, t.tenantId, { openDirectOutstock: true });
    const { id } = await ok(save('SaleOutstock', body()));
    await setTenantConfig(ctx, t.tenantId, { openDirectOutstock: false });
    await refused(api.post(`${billPath('SaleOutstock')}/submit`, { id }), 'DirectBillNotOpen');
    const { billStatus } = await ok(api.get<{ billStatus: string }>(`${billPath('SaleOutstock')}/${id}`));
    expect(billStatus).toBe('Saved');
    await setTenantConfig(ctx, t.tenantId, { openDirectOutstock: true });
    await ok(api.post(`${billPath('SaleOutstock')}/submit`, { id }));
  });

  it('only the types that declare it: a direct purchase in-stock saves with the switch off', async () => {
    await setTenantConfig(ctx, t.tenantId, { openDirectOutstock: false });
    await ok(save('PurchaseInstock', { supplierId: ids.supplier, warehouseId: ids.w1, lines: [{ materialId: ids.material, number: 1, unitPrice: 5 }] }));
  });
});

describe('openShelves', () => {
  const stockOnLocation = async (locationId: number) =>
    (await ok(api.get<Array<{ quantity: string; locationId: number | null }>>(`/api/admin/stock/current?materialId=${ids.material}&warehouseId=${ids.w1}&pageSize=200`)))
      .filter((r) => r.locationId === locationId)
      .reduce((s, r) => s + Number(r.quantity), 0);
  const turn = (openShelves: boolean) => api.put('/api/admin/admin/tenant', { openShelves });
  let shelf = 0;

  it('off (the default): a line naming a storage location is refused at save, and nothing is saved', async () => {
    shelf = await api.create('location', { warehouseId: ids.w1, name: 'A-01' });
    const before = await count('OtherInstock');
    await refused(save('OtherInstock', { warehouseId: ids.w1, lines: [{ materialId: ids.material, number: 1, unitPrice: 5 }, { materialId: ids.material, number: 4, unitPrice: 5, locationId: shelf }] }), 'ShelvesNotOpen');
    expect(await count('OtherInstock')).toBe(before);
  });

  it('on: stock goes onto the location; turning it off is refused while stock sits there, allowed once it is gone', async () => {
    await ok(turn(true));
    await audited('OtherInstock', { warehouseId: ids.w1, lines: [{ materialId: ids.material, number: 4, unitPrice: 5, locationId: shelf }] });
    expect(await stockOnLocation(shelf)).toBe(4);
    await refused(turn(false), 'LocationExistInventoryProhibitClose');
    expect((await ok(api.get<{ openShelves: boolean }>('/api/admin/admin/tenant'))).openShelves).toBe(true);
    await audited('OtherOutstock', { warehouseId: ids.w1, lines: [{ materialId: ids.material, number: 4, locationId: shelf }] });
    expect(await stockOnLocation(shelf)).toBe(0);
    await ok(turn(false));
  });

  it('off again: a draft saved with a location while on cannot post onto it; push down drops the location', async () => {
    await ok(turn(true));
    const { id } = await ok(save('OtherInstock', { warehouseId: ids.w1, lines: [{ materialId: ids.material, number: 2, unitPrice: 5, locationId: shelf }] }));
    await ok(api.post(`${billPath('OtherInstock')}/submit`, { id }));
    const order = await audited('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ids.material, number: 3, unitPrice: 5 }] });
    await ok(turn(false));
    await refused(api.post(`${billPath('OtherInstock')}/audit`, { id }), 'ShelvesNotOpen');
    expect(await stockOnLocation(shelf)).toBe(0);
    // A refund pushed down from an in-stock that named the location carries no location now.
    await ok(turn(true));
    const received = await audited('PurchaseInstock', { supplierId: ids.supplier, warehouseId: ids.w1, lines: [{ materialId: ids.material, number: 3, unitPrice: 5, locationId: shelf, sourceLineId: (await ok(api.get<{ lines: Array<{ id: number }> }>(`${billPath('PurchaseOrder')}/${order}`))).lines[0].id }] });
    const [line] = (await ok(api.get<{ lines: Array<{ id: number }> }>(`${billPath('PurchaseInstock')}/${received}`))).lines;
    await audited('OtherOutstock', { warehouseId: ids.w1, lines: [{ materialId: ids.material, number: 3, locationId: shelf }] });
    await ok(turn(false));
    const refund = await ok(api.post<{ id: number }>(`${billPath('PurchaseRefund')}/pushDown`, { sourceType: 'PurchaseInstock', sourceLineIds: [line.id] }));
    const [copied] = (await ok(api.get<{ lines: Array<{ locationId: number | null }> }>(`${billPath('PurchaseRefund')}/${refund.id}`))).lines;
    expect(copied.locationId).toBeNull();
  });
});

describe('openSaleOrderBomSelect', () => {
  const bomIds = { own: 0, other: 0 };
  const order = (bomId: number) => save('SaleOrder', { customerId: ids.customer, lines: [{ materialId: ids.material, number: 1, unitPrice: 9, bomId }] });

  it('off (the default): a sale order line naming a BOM is refused, and nothing is saved', async () => {
    const part = await api.create('material', { code: 'M2', name: 'Rotor', units: [{ unitId: ids.piece, isMain: true }] });
    const other = await api.create('material', { code: 'M3', name: 'Pump', units: [{ unitId: ids.piece, isMain: true }] });
    bomIds.own = await api.create('bom', { materialId: ids.material, version: 'V1', lines: [{ materialId: part, quantity: 1 }] });
    bomIds.other = await api.create('bom', { materialId: other, version: 'V1', lines: [{ materialId: part, quantity: 2 }] });
    const before = await count('SaleOrder');
    await refused(order(bomIds.own), 'SaleOrderBomSelectNotOpen');
    expect(await count('SaleOrder')).toBe(before);
  });

  it("on: the line keeps a BOM of its own material; another material's BOM is refused; the picker offers the material's BOMs", async () => {
    await setTenantConfig(ctx, t.tenantId, { openSaleOrderBomSelect: true });
    const { id } = await ok(order(bomIds.own));
    const [line] = (await ok(api.get<{ lines: Array<{ bomId?: number }> }>(`${billPath('SaleOrder')}/${id}`))).lines;
    expect(line.bomId).toBe(bomIds.own);
    await refused(order(bomIds.other), 'BomNotExist');
    const offered = await ok(api.get<Array<{ id: number }>>(`/api/admin/basic/bom/picker?current=1&pageSize=50&materialId=${ids.material}`));
    expect(offered.map((b) => b.id)).toEqual([bomIds.own]);
  });
});

describe('autoOpenFlow', () => {
  const RULES = '/api/admin/system/verify';
  const rule = (billType: string) => ({ billType, auditType: 'AnyVerify', sequential: false, reviewerIds: [api.adminId] });
  const joint = async () => (await ok(api.get<{ openVerify: boolean }>('/api/admin/admin/tenant'))).openVerify;

  it('on (the default): a review rule coming into force turns joint review on, and bills of its type go to its reviewers', async () => {
    await setTenantConfig(ctx, t.tenantId, { openVerify: false });
    expect(await joint()).toBe(false);
    const created = await ok(api.post<{ id: number }>(RULES, rule('SaleQuotation')));
    expect(await joint()).toBe(true);
    const { id } = await ok(save('SaleQuotation', { customerId: ids.customer, lines: [{ materialId: ids.material, number: 1, unitPrice: 9 }] }));
    await ok(api.post(`${billPath('SaleQuotation')}/submit`, { id }));
    // The reviewer's approval completes it: the bill went through the rule (AnyVerify), not the plain audit.
    await ok(api.post(`${billPath('SaleQuotation')}/audit`, { id }));
    expect((await ok(api.get<{ billStatus: string }>(`${billPath('SaleQuotation')}/${id}`))).billStatus).toBe('Audit');
    // Turned off by the administrator, it stays off while no rule newly comes into force (an edit of one in force).
    await setTenantConfig(ctx, t.tenantId, { openVerify: false });
    await ok(api.put(RULES, { id: created.id, ...rule('SaleQuotation'), remark: 'edited' }));
    expect(await joint()).toBe(false);
  });

  it('off: a new rule leaves joint review off', async () => {
    await setTenantConfig(ctx, t.tenantId, { autoOpenFlow: false, openVerify: false });
    await ok(api.post(RULES, rule('PurchaseRequisition')));
    expect(await joint()).toBe(false);
  });
});
