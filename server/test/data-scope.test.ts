import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billApiPath, billButtonCode, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { DataScope } from '../src/core/data-scope.ts';
import { bill, department } from '../src/db/schema/index.ts';
import { seedTenant, startTestApp, unique, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, caller, readXlsx, type Caller } from './basic-fixtures.ts';
import { billPayload, createBillRecords, ok, refused, type BillRecords } from './bill-fixtures.ts';
import { mallApi } from './mall-fixtures.ts';
import { staffWith } from './system-fixtures.ts';

/*
 * Data scope over every declared bill type (walked from the registry, so a type declared tomorrow is covered
 * the day it is declared): two staff members of different departments, each limited to their own data, create
 * a bill of every type; then each viewer — own data only, own department, custom departments, the super
 * administrator — sees exactly what their scope grants, in the list, its status tabs and sums, the detail by
 * id, writes by id, the export and the push-down pickers.
 */

let ctx: TestContext;
let t: TestTenant;
let admin: Caller;
let records: BillRecords;
let north: number;
let south: number;
/** The creators: own data only, one in each department. */
let a: Caller;
let b: Caller;
/** Viewers who create nothing: own department (North), custom (South), own data only (North). */
let deptViewer: Caller;
let customViewer: Caller;
let selfViewer: Caller;
/** Per type, the id and code of A's and B's bill. */
const made = new Map<string, { a: { id: number; code: string }; b: { id: number; code: string } }>();
type Made = Record<'a' | 'b', { id: number; code: string }>;
const orders = { mall: {} as Made, service: {} as Made, transfer: {} as Made };

/** Every bill type's buttons (open, create, submit, audit, export), and those of the mall's, the service's and the transfers' screens. */
const ALL_BILL_CODES = [
  ...BILL_TYPES.flatMap((d) => (['add', 'submit', 'audit', 'export'] as const).filter((action) => action === 'add' || d.actions.includes(action)).map((action) => billButtonCode(d, action))),
  'mall_proxyOrder_add', 'mall_order_remark', 'mall_order_export', 'mall_proxyOrder_export',
  'service_proxyOrder_add', 'service_order_cancel', 'service_order_export', 'service_proxyOrder_export',
  'finance_transfer_add', 'finance_transfer_abandon', 'finance_transfer_export',
];

async function addDept(name: string): Promise<number> {
  const [row] = await ctx.database.withTenant(t.tenantId, (tx) => tx.insert(department).values({ tenantId: t.tenantId, parentId: t.deptId, name }).returning({ id: department.id }));
  return row.id;
}

async function viewer(dataScope: DataScope, deptId: number, scopeDeptIds: number[] = []): Promise<Caller> {
  const s = await staffWith(ctx, t, { codes: ALL_BILL_CODES, dataScope, deptId, scopeDeptIds });
  return caller(ctx, s.token, s.adminId);
}

/** A bill of `decl` made by `who`: through the API, or — a type that only exists pushed down from another — as its creator would leave it. */
async function makeBill(decl: BillTypeDecl, who: Caller, deptId: number, marker: string): Promise<{ id: number; code: string }> {
  if (!decl.sourceRequired) {
    const created = await ok(who.post<{ id: number; billCode: string }>(billApiPath(decl), billPayload(decl, records, { remark: marker })));
    return { id: created.id, code: created.billCode };
  }
  const code = `${marker}-${unique()}`;
  const [row] = await ctx.database.withTenant(t.tenantId, (tx) =>
    tx.insert(bill).values({ tenantId: t.tenantId, billType: decl.type, billCode: code, billDate: '2026-11-24', createdBy: who.adminId, ownerDeptId: deptId, remark: marker }).returning({ id: bill.id }),
  );
  return { id: row.id, code };
}

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Scope');
  admin = await adminCaller(ctx, t);
  records = await createBillRecords(admin);
  north = await addDept('North');
  south = await addDept('South');
  a = await viewer('Self', north);
  b = await viewer('Self', south);
  deptViewer = await viewer('Dept', north);
  customViewer = await viewer('Custom', north, [south]);
  selfViewer = await viewer('Self', north);
  for (const decl of BILL_TYPES) made.set(decl.type, { a: await makeBill(decl, a, north, 'A'), b: await makeBill(decl, b, south, 'B') });
  // A mall order, a service order and a transfer by each creator.
  const shop = mallApi(ctx, admin.token);
  const product = await shop.product(await shop.category());
  const customer = await shop.customer();
  const secondFund = await ok(admin.post<{ id: number }>('/api/admin/finance/account', { name: 'Scope-cash', kind: 'cash', openingBalance: 1000, openingDate: '2026-01-01' }));
  for (const [key, who] of [['a', a], ['b', b]] as const) {
    const mall = await ok(who.post<{ id: number; orderNo: string }>('/api/admin/mall/proxyOrder', { customerId: customer, consignee: '张三', phone: '13800000000', address: '上海市浦东新区世纪大道1号', items: [{ skuId: product.skus[0].id, quantity: 1 }] }));
    const service = await ok(who.post<{ id: number; orderNo: string }>('/api/admin/service/proxyOrder', { serviceName: `Repair ${key}`, customerName: 'Li', customerPhone: '13900000000', address: 'Road 1' }));
    const transfer = await ok(who.post<{ id: number; docCode: string }>('/api/admin/finance/transfer', { docDate: '2026-11-24', fromAccountId: records.fundAccount, toAccountId: secondFund.id, amount: 1, remark: key }));
    orders.mall[key] = { id: mall.id, code: mall.orderNo };
    orders.service[key] = { id: service.id, code: service.orderNo };
    orders.transfer[key] = { id: transfer.id, code: transfer.docCode };
  }
  // Two bills of every declared type through the API: minutes on a loaded machine.
}, 300_000);

afterAll(async () => {
  await ctx?.close();
});

describe('a bill belongs to its creator and the department they were in', () => {
  it('creating a bill keeps the creator’s department on it', async () => {
    const decl = BILL_TYPES.find((d) => !d.sourceRequired)!;
    const { a: mine } = made.get(decl.type)!;
    const [row] = await ctx.database.withTenant(t.tenantId, (tx) => tx.select({ ownerDeptId: bill.ownerDeptId, createdBy: bill.createdBy }).from(bill).where(and(eq(bill.tenantId, t.tenantId), eq(bill.id, mine.id))));
    expect(row).toEqual({ ownerDeptId: north, createdBy: a.adminId });
  });
});


type Who = 'a' | 'b' | 'dept' | 'custom' | 'self' | 'admin';
const sees: Record<Who, Array<'a' | 'b'>> = { a: ['a'], b: ['b'], dept: ['a'], custom: ['b'], self: [], admin: ['a', 'b'] };
const callers = (): Record<Who, Caller> => ({ a, b, dept: deptViewer, custom: customViewer, self: selfViewer, admin });

describe.each(BILL_TYPES.map((d) => [d.type, d] as const))('bill type %s', (_type, decl) => {
  const path = billApiPath(decl);

  it.each(Object.keys(sees) as Who[])('%s sees only what their data scope grants: list, tabs, sums, detail, export', async (who) => {
    const api = callers()[who];
    const mine = made.get(decl.type)!;
    const visible = sees[who].map((k) => mine[k].id).sort((x, y) => x - y);
    const hidden = (['a', 'b'] as const).filter((k) => !sees[who].includes(k)).map((k) => mine[k].id);
    // Only the two walked bills of this type count (the picker tests below add audited ones of some types).
    const list = await ok(api.get<Array<{ id: number; remark: string }>>(`${path}?billStatus=all&pageSize=100`));
    const listed = list.filter((r) => r.remark === 'A' || r.remark === 'B').map((r) => r.id).sort((x, y) => x - y);
    expect(listed).toEqual(visible);
    const tabs = await ok(api.get<Record<string, number>>(`${path}/tabs`));
    expect(tabs.all).toBe(list.length);
    const stats = await ok(api.get<Record<string, number>>(`${path}/statistics?billStatus=all`));
    if ('number' in stats) expect(stats.number).toBe(list.reduce((s, r) => s + Number((r as unknown as { number: number }).number), 0));
    for (const id of visible) await ok(api.get(`${path}/${id}`));
    for (const id of hidden) {
      await refused(api.get(`${path}/${id}`), 'BillNotExist');
      await refused(api.get(`${path}/${id}/timeline`), 'BillNotExist');
      // A write by id answers as if the bill were not there.
      if (who !== 'admin') await refused(api.post(`${path}/submit`, { id }), 'BillNotExist');
    }
    if (decl.actions.includes('export')) {
      const file = await api.download(`${path}/export?billStatus=all`);
      expect(file.status).toBe(200);
      const cells = new Set((await readXlsx(file.body)).flat().map(String));
      for (const k of ['a', 'b'] as const) expect(cells.has(mine[k].code), `${who} export ${k}`).toBe(sees[who].includes(k));
    }
  });
});

describe('push-down pickers list only source bills in scope', () => {
  it('material lines: B does not see, nor push down, the lines of A’s audited requisition', async () => {
    const source = await ok(a.post<{ id: number }>(billApiPath(BILL_TYPES.find((d) => d.type === 'PurchaseRequisition')!), billPayload(BILL_TYPES.find((d) => d.type === 'PurchaseRequisition')!, records)));
    await ok(a.post('/api/admin/purchase/requisition/submit', { id: source.id }));
    await ok(a.post('/api/admin/purchase/requisition/audit', { id: source.id }));
    const picked = await ok(a.get<Array<{ sourceBillId: number; sourceLineId: number }>>('/api/admin/purchase/order/sources?sourceType=PurchaseRequisition'));
    const lineIds = picked.filter((r) => r.sourceBillId === source.id).map((r) => r.sourceLineId);
    expect(lineIds.length).toBe(1);
    expect((await ok(deptViewer.get<Array<{ sourceBillId: number }>>('/api/admin/purchase/order/sources?sourceType=PurchaseRequisition'))).map((r) => r.sourceBillId)).toContain(source.id);
    expect((await ok(b.get<Array<{ sourceBillId: number }>>('/api/admin/purchase/order/sources?sourceType=PurchaseRequisition'))).map((r) => r.sourceBillId)).not.toContain(source.id);
    await refused(b.post('/api/admin/purchase/order/pushDown', { sourceType: 'PurchaseRequisition', sourceLineIds: lineIds }), 'SourceBillNotExist');
    // Nor by naming the line in a saved bill.
    const order = BILL_TYPES.find((d) => d.type === 'PurchaseOrder')!;
    const payload = billPayload(order, records);
    await refused(b.post(billApiPath(order), { ...payload, lines: (payload.lines as Array<Record<string, unknown>>).map((l) => ({ ...l, sourceLineId: lineIds[0] })) }), 'SourceBillNotExist');
    await ok(a.post('/api/admin/purchase/order/pushDown', { sourceType: 'PurchaseRequisition', sourceLineIds: lineIds }));
  });

  it('settlement lines: B does not see, nor settle, A’s audited purchase in-stock', async () => {
    const instock = BILL_TYPES.find((d) => d.type === 'PurchaseInstock')!;
    // Into the second warehouse: the walked stock check drafts hold the first one.
    const source = await ok(a.post<{ id: number }>(billApiPath(instock), billPayload(instock, records, { warehouseId: records.otherWarehouse })));
    await ok(a.post(`${billApiPath(instock)}/submit`, { id: source.id }));
    await ok(a.post(`${billApiPath(instock)}/audit`, { id: source.id }));
    const url = '/api/admin/finance/payment/sources?sourceType=PurchaseInstock';
    expect((await ok(a.get<Array<{ sourceBillId: number }>>(url))).map((r) => r.sourceBillId)).toContain(source.id);
    expect((await ok(b.get<Array<{ sourceBillId: number }>>(url))).map((r) => r.sourceBillId)).not.toContain(source.id);
    await refused(b.post('/api/admin/finance/payment/pushDown', { sourceType: 'PurchaseInstock', sourceLineIds: [source.id] }), 'SourceBillNotExist');
    await ok(a.post('/api/admin/finance/payment/pushDown', { sourceType: 'PurchaseInstock', sourceLineIds: [source.id] }));
  });
});

/** The other department-owned records: each screen's list, status counts, detail, a write by id and the export. */
const SCREENS = [
  { kind: 'mall', url: '/api/admin/mall/order', counts: '/counts', missing: 'MallOrderNotExist', write: (api: Caller, id: number) => api.put('/api/admin/mall/order/remark', { id, remark: 'x' }) },
  // The proxy orders' detail is the order's.
  { kind: 'mall', url: '/api/admin/mall/proxyOrder', detail: '/api/admin/mall/order', missing: 'MallOrderNotExist' },
  { kind: 'service', url: '/api/admin/service/order', counts: '/counts', missing: 'ServiceOrderNotExist', write: (api: Caller, id: number) => api.put('/api/admin/service/order/cancel', { id, reason: 'x' }) },
  { kind: 'service', url: '/api/admin/service/proxyOrder', counts: '/counts', missing: 'ServiceOrderNotExist' },
  { kind: 'transfer', url: '/api/admin/finance/transfer', missing: 'MoneyDocNotExist', write: (api: Caller, id: number) => api.post(`/api/admin/finance/transfer/${id}/abandon`) },
] as const;

describe.each(SCREENS.map((s) => [s.url, s] as const))('%s', (_url, screen) => {
  it.each(Object.keys(sees) as Who[])('%s sees only what their data scope grants: list, counts, detail, write, export', async (who) => {
    const api = callers()[who];
    const mine = orders[screen.kind];
    const visible = sees[who].map((k) => mine[k].id).sort((x, y) => x - y);
    const hidden = (['a', 'b'] as const).filter((k) => !sees[who].includes(k)).map((k) => mine[k].id);
    const list = await ok(api.get<Array<{ id: number }>>(`${screen.url}?pageSize=100`));
    expect(list.map((r) => r.id).sort((x, y) => x - y)).toEqual(visible);
    if ('counts' in screen) expect((await ok(api.get<Record<string, number>>(`${screen.url}${screen.counts}`))).all).toBe(visible.length);
    const detail = 'detail' in screen ? screen.detail : screen.url;
    for (const id of visible) await ok(api.get(`${detail}/${id}`));
    for (const id of hidden) {
      await refused(api.get(`${detail}/${id}`), screen.missing);
      // A write by id answers as if the record were not there.
      if ('write' in screen && who !== 'admin') await refused(screen.write(api, id), screen.missing);
    }
    const file = await api.download(`${screen.url}/export`);
    expect(file.status).toBe(200);
    const cells = new Set((await readXlsx(file.body)).flat().map(String));
    for (const k of ['a', 'b'] as const) expect(cells.has(mine[k].code), `${who} export ${k}`).toBe(sees[who].includes(k));
  });
});
