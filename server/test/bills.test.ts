import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillSourceLine, BillTransitionView } from '@p8/contract/bills/api';
import { BILL_TYPES, billType } from '@p8/contract/bills/catalogue';
import { billApiPath, billButtonCode, type BillTypeDecl } from '@p8/contract/bills/registry';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, setTenantConfig, staffCaller, type Caller } from './basic-fixtures.ts';
import { allowDirectBills, billPath, billPayload, createOtherBillRecords, feedingSource, ok, refused, sourcedLines, stockOf, verifyEmpty as verifyFixture, type BillRecords, feedConsumed, runCostJob, WALKED_TAGS } from './bill-fixtures.ts';

/*
 * The bill engine through the API, on PGlite and on PostgreSQL (TEST_DB=postgres): every declared bill
 * type through its whole life, the purchase and sale flows with push down and progress, the refusals, and
 * stock under concurrency. Every test that moves stock ends with POST /api/admin/stock/verify empty.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
const ids = { piece: 0, box: 0, m1: 0, m2: 0, m3: 0, supplier: 0, customer: 0, w1: 0, w2: 0, l1: 0 };
let money: Awaited<ReturnType<typeof createOtherBillRecords>>;
const DAY = '2026-11-24';

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Bills');
  api = await adminCaller(ctx, t);
  await allowDirectBills(api);
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.box = await api.create('unit', { name: 'box' });
  ids.m1 = await api.create('material', { code: 'M1', name: 'Board', units: [{ unitId: ids.piece, isMain: true }, { unitId: ids.box, ratio: 12 }], tags: WALKED_TAGS });
  ids.m2 = await api.create('material', { code: 'M2', name: 'Cable', units: [{ unitId: ids.piece, isMain: true }] });
  ids.m3 = await api.create('material', { code: 'M3', name: 'Screw', units: [{ unitId: ids.piece, isMain: true }] });
  ids.supplier = await api.create('supplier', { code: 'S1', name: 'Supplier one' });
  ids.customer = await api.create('customer', { code: 'C1', name: 'Customer one' });
  ids.w1 = await api.create('stock', { code: 'W1', name: 'Main' });
  ids.w2 = await api.create('stock', { code: 'W2', name: 'Second' });
  ids.l1 = await api.create('location', { warehouseId: ids.w1, name: 'A-01' });
  money = await createOtherBillRecords(api);
  // Stock to take from: 1000 of M1 and M3 in W1.
  const opening = await saved('OtherInstock', { warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: 1000, unitPrice: 2 }, { materialId: ids.m3, number: 1000, unitPrice: 0.5 }] });
  await passAudit('OtherInstock', opening);
});
afterAll(() => ctx.close());

const path = billPath;

const records = (): BillRecords => ({ supplier: ids.supplier, customer: ids.customer, warehouse: ids.w1, otherWarehouse: ids.w2, material: ids.m1, product: ids.m2, component: ids.m3, ...money });
const payload = (decl: BillTypeDecl, overrides: Record<string, unknown> = {}) => billPayload(decl, records(), overrides);

async function saved(type: string, body: Record<string, unknown>): Promise<number> {
  return (await ok(api.post<{ id: number }>(path(type), { billDate: DAY, ...body }))).id;
}

async function passAudit(type: string, id: number, who: Caller = api) {
  await ok(who.post(`${path(type)}/submit`, { id }));
  await ok(who.post(`${path(type)}/audit`, { id }));
}

const verifyEmpty = () => verifyFixture(api);
const balance = (materialId: number, warehouseId = ids.w1) => stockOf(api, materialId, warehouseId);

/**
 * A save payload of `decl`; a type whose lines must come from a source (invoices) takes its line from an
 * audited bill of its first source type, made here.
 */
async function walkPayload(decl: BillTypeDecl, overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  if (!decl.sourceRequired) return payload(decl, overrides);
  const sourceType = decl.sources[0].type;
  // A source that needs a source of its own (a production return's pick, from its order) is made the same way.
  const source = await saved(sourceType, await walkPayload(billType(sourceType)!, feedingSource(decl)));
  await passAudit(sourceType, source);
  const { lines } = await ok(api.get<{ lines: Array<{ id: number }> }>(`${path(sourceType)}/${source}`));
  // What the bill consumes of its source (an outsourcing receipt: the materials picks sent) goes first.
  await feedConsumed(async (url, body) => (await api.post(url, body)).body, decl, records(), { lines });
  const body = payload(decl, overrides);
  return { ...body, lines: sourcedLines(decl, body.lines as Array<Record<string, unknown>>, { id: source, lines }) };
}

describe.each(BILL_TYPES.map((decl) => [decl.type, decl] as const))('bill type %s', (_type, decl) => {
  it('lives through save, submit, audit and abandon audit, with its list, tabs, detail and timeline', async () => {
    const url = billApiPath(decl);
    const body = await walkPayload(decl);
    if (decl.sourceRequired) await refused(api.post(url, payload(decl)), 'PleaseSelectSourceBill');
    const created = await ok(api.post<{ id: number; billCode: string }>(url, body));
    expect(created.billCode).toMatch(new RegExp(`^${decl.codePrefix}20261124\\d{4}$`));
    await refused(api.post(`${url}/audit`, { id: created.id }), 'CurrentStatusBillProhibitAudit');
    await passAudit(decl.type, created.id);
    const detail = await ok(api.get<{ billStatus: string; lines: Array<{ materialCode: string; baseNumber: number }> }>(`${url}/${created.id}`));
    expect(detail.billStatus).toBe('Audit');
    expect(detail.lines.length).toBe((body.lines as unknown[]).length);
    const list = await ok(api.get<Array<{ id: number; billStatus: string }>>(`${url}?billStatus=Audit&billCode=${created.billCode}`));
    expect(list.map((b) => b.id)).toEqual([created.id]);
    const tabs = await ok(api.get<Record<string, number>>(`${url}/tabs`));
    expect(tabs.Audit).toBeGreaterThanOrEqual(1);
    expect(tabs.all).toBe(Object.entries(tabs).filter(([k]) => k !== 'all').reduce((s, [, v]) => s + v, 0));
    await ok(api.post(`${url}/abandonAudit`, { id: created.id }));
    const timeline = await ok(api.get<BillTransitionView[]>(`${url}/${created.id}/timeline`));
    expect(timeline.map((s) => s.toStatus)).toEqual(['Saved', 'Submitted', 'Audit', 'AbandonAudit']);
    // Back to a draft: edited, then deleted.
    await ok(api.put(url, { ...body, id: created.id, billCode: created.billCode }));
    await ok(api.del(url, { ids: [created.id] }));
    await refused(api.get(`${url}/${created.id}`), 'BillNotExist');
    await verifyEmpty();
  });
});

/** Runs the month-end cost of `period` (a background job) and waits for it to succeed. */
async function costed(period: string) {
  const job = await runCostJob(ctx, api, period);
  if (job.status !== 'succeeded') throw new Error(`cost run ${job.status} ${job.errorKey}`);
}

describe.each(BILL_TYPES.filter((decl) => decl.costRun).map((decl) => [decl.type, decl] as const))('bill type %s, read by the month-end cost run', (_type, decl) => {
  it('is not audited into a calculated month, and keeps its audit while its month is calculated', async () => {
    const period = '2026-08';
    const url = billApiPath(decl);
    // A fee counts with a line of an overhead fee type; a bill of a pay period takes the month from it.
    const own: Record<string, unknown> = { billDate: `${period}-12`, ...(decl.costRun!.period ? { [decl.costRun!.period]: period } : {}) };
    const body = await walkPayload(decl, own);
    if (decl.costRun!.overheadLines) body.lines = [{ feeTypeId: await api.create('fee', { name: `Power ${decl.type}`, kind: 'expense', overhead: true }), amount: '10.50' }];
    const { id } = await ok(api.post<{ id: number }>(url, body));
    await ok(api.post(`${url}/submit`, { id }));
    await costed(period);
    await refused(api.post(`${url}/audit`, { id }), 'ProductionCostAccounted');
    await ok(api.post('/api/admin/production/cost/cancel', { period }));
    await ok(api.post(`${url}/audit`, { id }));
    await costed(period);
    await refused(api.post(`${url}/abandonAudit`, { id }), 'BillCostAccountedProhibitAbandonAudit');
    await ok(api.post('/api/admin/production/cost/cancel', { period }));
    await ok(api.post(`${url}/abandonAudit`, { id }));
    await verifyEmpty();
  });
});

/** Every command a type declares for its list is served by its module, behind the declared button's code. */
describe.each(BILL_TYPES.flatMap((decl) => (decl.commands ?? []).map((command) => [`${decl.type} ${command.key}`, decl, command] as const)))('list command %s', (_name, decl, command) => {
  it('is a route of the app, refused to staff without the button', async () => {
    const url = `${billApiPath(decl)}/${command.key}`;
    expect(ctx.app.hasRoute({ method: 'POST', url }), url).toBe(true);
    const staff = await staffCaller(ctx, t, []);
    const res = await staff.post(url, {});
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 40300, message: 'Forbidden', additional: billButtonCode(decl, command.action) });
  });
});

describe('purchase order → in-stock, sale order → out-stock', () => {
  it('pushes down open quantities, follows progress and stock, and rolls both back', async () => {
    const order = await saved('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ids.m2, number: 10, unitPrice: 3 }] });
    await refused(api.post(`${path('PurchaseInstock')}/pushDown`, { sourceType: 'PurchaseOrder', sourceLineIds: [order] }), 'SourceBillNotExist');
    const orderDetail = await ok(api.get<{ lines: Array<{ id: number }> }>(`${path('PurchaseOrder')}/${order}`));
    const lineId = orderDetail.lines[0].id;
    await refused(api.post(`${path('PurchaseInstock')}/pushDown`, { sourceType: 'PurchaseOrder', sourceLineIds: [lineId] }), 'SourceBillNotAudit');
    await passAudit('PurchaseOrder', order);

    const picker = await ok(api.get<BillSourceLine[]>(`${path('PurchaseInstock')}/sources?sourceType=PurchaseOrder&partnerId=${ids.supplier}`));
    expect(picker.find((l) => l.sourceLineId === lineId)).toMatchObject({ openNumber: '10.000000', takenNumber: '0.000000' });
    const pushed = await ok(api.post<{ id: number }>(`${path('PurchaseInstock')}/pushDown`, { sourceType: 'PurchaseOrder', sourceLineIds: [lineId] }));
    // The draft has no warehouse yet (the order had none): it cannot be submitted so.
    await refused(api.post(`${path('PurchaseInstock')}/submit`, { id: pushed.id }), 'PleaseSelectWarehouse');
    const instock = await ok(api.get<{ supplierId: number; lines: Array<Record<string, unknown>> }>(`${path('PurchaseInstock')}/${pushed.id}`));
    expect(instock.supplierId).toBe(ids.supplier);
    expect(instock.lines[0]).toMatchObject({ number: 10, unitPrice: 3, sourceLineId: lineId, sourceBillCode: expect.any(String) });
    // Take 6 of 10 in W1; a second draft may then take at most 4.
    await ok(api.put(path('PurchaseInstock'), { id: pushed.id, billDate: DAY, supplierId: ids.supplier, warehouseId: ids.w1, lines: [{ materialId: ids.m2, number: 6, unitPrice: 3, sourceLineId: lineId }] }));
    await refused(api.post(path('PurchaseInstock'), { billDate: DAY, supplierId: ids.supplier, warehouseId: ids.w1, lines: [{ materialId: ids.m2, number: 5, sourceLineId: lineId }] }), 'NumberExceedSourceBill');
    await setTenantConfig(ctx, t.tenantId, { allowPurchaseInstockBeyond: true });
    const beyond = await saved('PurchaseInstock', { supplierId: ids.supplier, warehouseId: ids.w1, lines: [{ materialId: ids.m2, number: 5, sourceLineId: lineId }] });
    await ok(api.del(path('PurchaseInstock'), { ids: [beyond] }));
    await setTenantConfig(ctx, t.tenantId, { allowPurchaseInstockBeyond: false });

    await passAudit('PurchaseInstock', pushed.id);
    expect(await balance(ids.m2)).toBe(6);
    const partly = await ok(api.get<{ billStatus: string; progress: Record<string, string>; lines: Array<{ progress: Record<string, { state: string; done: number }> }> }>(`${path('PurchaseOrder')}/${order}`));
    expect(partly.billStatus).toBe('Partially');
    expect(partly.progress.instock).toBe('PartialInStock');
    expect(partly.lines[0].progress.instock).toMatchObject({ state: 'PartialInStock', done: 6 });
    await refused(api.post(`${path('PurchaseOrder')}/abandonAudit`, { id: order }), 'ExistChildrenBillProhibitAbandonAudit');

    // The sale side: 4 of the 6 out through an out-stock pushed from a sale order.
    const sale = await saved('SaleOrder', { customerId: ids.customer, lines: [{ materialId: ids.m2, number: 4, unitPrice: 8 }] });
    await passAudit('SaleOrder', sale);
    const saleLine = (await ok(api.get<{ lines: Array<{ id: number }> }>(`${path('SaleOrder')}/${sale}`))).lines[0].id;
    const out = await ok(api.post<{ id: number }>(`${path('SaleOutstock')}/pushDown`, { sourceType: 'SaleOrder', sourceLineIds: [saleLine] }));
    await ok(api.put(path('SaleOutstock'), { id: out.id, billDate: DAY, customerId: ids.customer, warehouseId: ids.w1, lines: [{ materialId: ids.m2, number: 4, unitPrice: 8, sourceLineId: saleLine }] }));
    await passAudit('SaleOutstock', out.id);
    expect(await balance(ids.m2)).toBe(2);
    expect((await ok(api.get<{ billStatus: string }>(`${path('SaleOrder')}/${sale}`))).billStatus).toBe('Complete');
    // Abandoning the out-stock's audit restores the stock and the order's progress.
    await ok(api.post(`${path('SaleOutstock')}/abandonAudit`, { id: out.id }));
    expect(await balance(ids.m2)).toBe(6);
    expect((await ok(api.get<{ billStatus: string; progress: Record<string, string> }>(`${path('SaleOrder')}/${sale}`))).progress.outstock).toBe('NoOutstock');
    // Manual completion closes the purchase order's open 4.
    await ok(api.post(`${path('PurchaseOrder')}/manualCompletion`, { id: order }));
    const after = await ok(api.get<BillSourceLine[]>(`${path('PurchaseInstock')}/sources?sourceType=PurchaseOrder`));
    expect(after.some((l) => l.sourceLineId === lineId)).toBe(false);
    await verifyEmpty();
  });
});

describe('push down with quantities chosen in the dialog', () => {
  it('takes the quantities asked for, within the open quantity unless the beyond switch is on; dropped lines stay open', async () => {
    const order = await saved('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ids.m2, number: 10, unitPrice: 3 }, { materialId: ids.m3, number: 5, unitPrice: 1 }] });
    await passAudit('PurchaseOrder', order);
    const [first, second] = (await ok(api.get<{ lines: Array<{ id: number }> }>(`${path('PurchaseOrder')}/${order}`))).lines.map((l) => l.id);
    const pushDown = (body: Record<string, unknown>) => api.post<{ id: number }>(`${path('PurchaseInstock')}/pushDown`, { sourceType: 'PurchaseOrder', ...body });
    await refused(pushDown({ sourceLineIds: [first], numbers: [{ sourceLineId: first, number: 11 }] }), 'NumberExceedSourceBill');
    await refused(pushDown({ sourceLineIds: [first], numbers: [{ sourceLineId: first, number: 0 }] }), 'NumberMustGreaterThanZero');
    // Only the first line, 4 of its 10: the second line is dropped and stays open, as do the first's other 6.
    const made = await ok(pushDown({ sourceLineIds: [first], numbers: [{ sourceLineId: first, number: 4 }] }));
    const draft = await ok(api.get<{ lines: Array<{ number: number; sourceLineId: number }> }>(`${path('PurchaseInstock')}/${made.id}`));
    expect(draft.lines.map((l) => [l.sourceLineId, l.number])).toEqual([[first, 4]]);
    const open = await ok(api.get<BillSourceLine[]>(`${path('PurchaseInstock')}/sources?sourceType=PurchaseOrder&pageSize=200`));
    expect(open.filter((l) => l.sourceLineId === first || l.sourceLineId === second).map((l) => [l.sourceLineId, l.openNumber])).toEqual([
      [first, '6.000000'],
      [second, '5.000000'],
    ]);
    await setTenantConfig(ctx, t.tenantId, { allowPurchaseInstockBeyond: true });
    const beyond = await ok(pushDown({ sourceLineIds: [first, second], numbers: [{ sourceLineId: first, number: 9 }] }));
    const beyondLines = (await ok(api.get<{ lines: Array<{ number: number }> }>(`${path('PurchaseInstock')}/${beyond.id}`))).lines.map((l) => l.number);
    expect(beyondLines).toEqual([9, 5]);
    await setTenantConfig(ctx, t.tenantId, { allowPurchaseInstockBeyond: false });
    await ok(api.del(path('PurchaseInstock'), { ids: [made.id, beyond.id] }));
  });
});

describe('lists and reports', () => {
  it('takes the "all" status tab as no status filter in lists and statistics', async () => {
    const url = path('OtherInstock');
    const all = await api.get<unknown[]>(`${url}?billStatus=all&pageSize=200`);
    const none = await api.get<unknown[]>(`${url}?pageSize=200`);
    expect(all.body.status).toBe(0);
    expect(all.body.data).toEqual(none.body.data);
    expect(await ok(api.get(`${url}/statistics?billStatus=all`))).toEqual(await ok(api.get(`${url}/statistics`)));
    await refused(api.get(`${url}?billStatus=Nonsense`), 'BadRequest');
  });

  it('nets a withdrawn audit out of the in / out summary: the reversal takes back its movement, it is no movement the other way', async () => {
    const material = await api.create('material', { code: 'M-SUMMARY', name: 'Summary probe', units: [{ unitId: ids.piece, isMain: true }] });
    const inBill = await saved('OtherInstock', { billDate: '2026-11-20', warehouseId: ids.w2, lines: [{ materialId: material, number: 50, unitPrice: 1 }] });
    await passAudit('OtherInstock', inBill);
    const outBill = await saved('OtherOutstock', { billDate: '2026-11-21', warehouseId: ids.w2, lines: [{ materialId: material, number: 20 }] });
    await passAudit('OtherOutstock', outBill);
    // 30 out, then withdrawn: the ledger keeps the -30 and its reversal +30, neither of which is stock that went out or came in.
    const withdrawn = await saved('OtherOutstock', { billDate: '2026-11-22', warehouseId: ids.w2, lines: [{ materialId: material, number: 30 }] });
    await passAudit('OtherOutstock', withdrawn);
    await ok(api.post(`${path('OtherOutstock')}/abandonAudit`, { id: withdrawn }));
    // And an in-stock of 5 withdrawn likewise.
    const withdrawnIn = await saved('OtherInstock', { billDate: '2026-11-22', warehouseId: ids.w2, lines: [{ materialId: material, number: 5, unitPrice: 1 }] });
    await passAudit('OtherInstock', withdrawnIn);
    await ok(api.post(`${path('OtherInstock')}/abandonAudit`, { id: withdrawnIn }));
    const [row] = await ok(api.get<Array<Record<string, string>>>(`/api/admin/stock/summary?materialId=${material}&start=2026-11-21&end=2026-11-30`));
    expect([row.opening, row.inQuantity, row.outQuantity, row.closing].map(Number)).toEqual([50, 0, 20, 30]);
    const [whole] = await ok(api.get<Array<Record<string, string>>>(`/api/admin/stock/summary?materialId=${material}`));
    expect([whole.opening, whole.inQuantity, whole.outQuantity, whole.closing].map(Number)).toEqual([0, 50, 20, 30]);
    await verifyEmpty();
  });

  it('answers ids in stock reports as numbers (PostgreSQL gives bigint as text)', async () => {
    const current = await ok(api.get<Array<Record<string, unknown>>>(`/api/admin/stock/current?materialId=${ids.m1}&pageSize=200`));
    const ledger = await ok(api.get<Array<Record<string, unknown>>>(`/api/admin/stock/ledger?materialId=${ids.m1}&pageSize=200`));
    const summary = await ok(api.get<Array<Record<string, unknown>>>(`/api/admin/stock/summary?materialId=${ids.m1}&pageSize=200`));
    for (const rows of [current, ledger, summary]) {
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) for (const [key, value] of Object.entries(row)) if (key === 'id' || key.endsWith('Id')) expect(value === null || typeof value === 'number', `${key}: ${String(value)}`).toBe(true);
    }
    expect(current.find((r) => r.warehouseId === ids.w1)).toMatchObject({ materialId: ids.m1, warehouseId: ids.w1 });
    expect(ledger[0]).toMatchObject({ materialId: ids.m1, billId: expect.any(Number), id: expect.any(Number) });
  });
});

describe('refusals', () => {
  it('refuses figures out of range with catalogued keys, not the validator\'s English', async () => {
    const line = (over: Record<string, unknown>) => ({ supplierId: ids.supplier, billDate: DAY, lines: [{ materialId: ids.m1, number: 1, unitPrice: 1, ...over }] });
    await refused(api.post(path('PurchaseOrder'), line({ number: 1e14 })), 'AmountOutOfRange');
    await refused(api.post(path('PurchaseOrder'), line({ unitPrice: -1 })), 'NumberMustNotBeNegative');
    await refused(api.post(path('PurchaseOrder'), line({ giftNumber: 1e14 })), 'AmountOutOfRange');
    await refused(api.post(path('PurchaseOrder'), { ...line({}), payWarnDays: 5000 }), 'WarnDaysOutOfRange');
  });

  it('refuses stock below zero and changes nothing; allows it with openNegativeInventory', async () => {
    const out = await saved('OtherOutstock', { warehouseId: ids.w2, lines: [{ materialId: ids.m1, number: 1 }] });
    await ok(api.post(`${path('OtherOutstock')}/submit`, { id: out }));
    await refused(api.post(`${path('OtherOutstock')}/audit`, { id: out }), 'InsufficientInventory');
    expect((await ok(api.get<{ billStatus: string }>(`${path('OtherOutstock')}/${out}`))).billStatus).toBe('Submitted');
    await setTenantConfig(ctx, t.tenantId, { openNegativeInventory: true });
    await ok(api.post(`${path('OtherOutstock')}/audit`, { id: out }));
    expect(await balance(ids.m1, ids.w2)).toBe(-1);
    await ok(api.post(`${path('OtherOutstock')}/abandonAudit`, { id: out }));
    await setTenantConfig(ctx, t.tenantId, { openNegativeInventory: false });
    await verifyEmpty();
  });

  it('converts units: 2 boxes of 12 move 24 pieces', async () => {
    const before = await balance(ids.m1);
    const id = await saved('OtherOutstock', { warehouseId: ids.w1, lines: [{ materialId: ids.m1, unitId: ids.box, number: 2 }] });
    await passAudit('OtherOutstock', id);
    expect(await balance(ids.m1)).toBe(before - 24);
    await verifyEmpty();
  });

  it('lets only the creator operate; refuses with a reason on the timeline', async () => {
    const id = await saved('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ids.m1, number: 1 }] });
    const other = await staffCaller(ctx, t, ['purchase_order_submit', 'purchase_order_audit', 'purchase_order_delete']);
    await refused(other.post(`${path('PurchaseOrder')}/submit`, { id }), 'OnlyCreatorCanOperate');
    await refused(other.del(path('PurchaseOrder'), { ids: [id] }), 'OnlyCreatorCanOperate');
    await ok(api.post(`${path('PurchaseOrder')}/submit`, { id }));
    await refused(other.post(`${path('PurchaseOrder')}/refuse`, { id, reason: ' ' }), 'PleaseInputRejectReason');
    await ok(other.post(`${path('PurchaseOrder')}/refuse`, { id, reason: 'Price too high' }));
    const timeline = await ok(api.get<BillTransitionView[]>(`${path('PurchaseOrder')}/${id}/timeline`));
    expect(timeline.at(-1)).toMatchObject({ operation: 'refuse', toStatus: 'Refuse', reason: 'Price too high' });
    // Without the audit button code, no audit.
    const clerk = await staffCaller(ctx, t, ['purchase_order_add']);
    await ok(api.post(`${path('PurchaseOrder')}/submit`, { id }));
    expect((await clerk.post(`${path('PurchaseOrder')}/audit`, { id })).body.status).toBe(40300);
  });

  it('refuses a repeated bill code, an empty bill, a same-warehouse transfer; keeps used records from deletion', async () => {
    const first = await ok(api.post<{ billCode: string }>(path('PurchaseOrder'), payload(billType('PurchaseOrder')!)));
    await refused(api.post(path('PurchaseOrder'), payload(billType('PurchaseOrder')!, { billCode: first.billCode })), 'BillCodeRepeat');
    await refused(api.post(path('PurchaseOrder'), payload(billType('PurchaseOrder')!, { lines: [] })), 'BillItemsEmpty');
    await refused(api.post(path('StockTransfer'), payload(billType('StockTransfer')!, { targetWarehouseId: ids.w1 })), 'TransferWarehouseSame');
    const ordered = await api.create('material', { code: 'ORDERED', name: 'Ordered only', units: [{ unitId: ids.piece, isMain: true }] });
    await saved('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ordered, number: 1 }] });
    await refused(api.del('/api/admin/basic/material', { ids: [ordered] }), 'MaterialInUseProhibitDelete');
    await refused(api.del('/api/admin/basic/supplier', { ids: [ids.supplier] }), 'SupplierInUseProhibitDelete');
    // A staff member who made a bill is disabled, not deleted: the bill keeps its creator.
    const clerk = await staffCaller(ctx, t, ['purchase_order_add']);
    await ok(clerk.post(path('PurchaseOrder'), payload(billType('PurchaseOrder')!)));
    await refused(api.del('/api/admin/security/admin', { ids: [clerk.adminId] }), 'StaffInUseProhibitDelete');
  });

  it('merges compatible order drafts and refuses merging stock bills', async () => {
    const a = await saved('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ids.m1, number: 1 }] });
    const b = await saved('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ids.m2, number: 2 }] });
    const merged = await ok(api.post<{ id: number }>(`${path('PurchaseOrder')}/merge`, { ids: [a, b] }));
    expect((await ok(api.get<{ lines: unknown[] }>(`${path('PurchaseOrder')}/${merged.id}`))).lines).toHaveLength(2);
    expect((await ok(api.get<{ billStatus: string; mergedInto: number }>(`${path('PurchaseOrder')}/${a}`)))).toMatchObject({ billStatus: 'Merged', mergedInto: merged.id });
    await refused(api.post(`${path('PurchaseOrder')}/merge`, { ids: [a, merged.id] }), 'CurrentStatusBillProhibitMerge');
  });
});

describe('concurrency', () => {
  // On PGlite (one connection) the requests queue; on PostgreSQL they race for the balance row's lock.
  it('audits 50 one-unit out-stocks against a balance of 10: exactly 10 succeed, the rest InsufficientInventory', async () => {
    const material = await api.create('material', { code: `RACE-${TEST_DB}`, name: 'Race', units: [{ unitId: ids.piece, isMain: true }] });
    const inId = await saved('OtherInstock', { warehouseId: ids.w2, lines: [{ materialId: material, number: 10, unitPrice: 1 }] });
    await passAudit('OtherInstock', inId);
    const outs: number[] = [];
    for (let i = 0; i < 50; i++) {
      const id = await saved('OtherOutstock', { warehouseId: ids.w2, lines: [{ materialId: material, number: 1 }] });
      await ok(api.post(`${path('OtherOutstock')}/submit`, { id }));
      outs.push(id);
    }
    const results = await Promise.all(outs.map((id) => api.post(`${path('OtherOutstock')}/audit`, { id })));
    expect(results.filter((r) => r.body.status === 0)).toHaveLength(10);
    expect(results.filter((r) => r.body.status !== 0).map((r) => r.body.message)).toEqual(Array(40).fill('InsufficientInventory'));
    expect(await balance(material, ids.w2)).toBe(0);
    await verifyEmpty();
  });

  it('gives 20 concurrent creates 20 distinct codes', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => api.post<{ billCode: string }>(path('SaleQuotation'), payload(billType('SaleQuotation')!))));
    const codes = results.map((r) => r.body.data.billCode);
    expect(results.every((r) => r.body.status === 0)).toBe(true);
    expect(new Set(codes).size).toBe(20);
  });
});
