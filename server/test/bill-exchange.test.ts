import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillSourceLine } from '@p8/contract/bills/api';
import { BILL_TYPES, billType } from '@p8/contract/bills/catalogue';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { allowDirectBills, billPath as path, ok, refused, stockOf, verifyEmpty } from './bill-fixtures.ts';

/*
 * The exchange bills (purchase and sale), on PGlite and on PostgreSQL (TEST_DB=postgres): pushed down only
 * from audited Exchange refunds (OnlyExchangeBillCanPushExchange otherwise), never beyond the refund line's
 * open quantity; the goods exchanged and their replacements move stock both ways on audit and back on
 * abandon audit; the refund shows the exchange progress. Each walk ends with stock verify empty.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
const ids = { piece: 0, part: 0, supplier: 0, customer: 0, w1: 0, w2: 0 };
const DAY = '2026-11-24';

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Exchange');
  api = await adminCaller(ctx, t);
  await allowDirectBills(api);
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.part = await api.create('material', { code: 'X1', name: 'Part', units: [{ unitId: ids.piece, isMain: true }] });
  ids.supplier = await api.create('supplier', { code: 'S1', name: 'Supplier one' });
  ids.customer = await api.create('customer', { code: 'C1', name: 'Customer one' });
  ids.w1 = await api.create('stock', { code: 'W1', name: 'Main' });
  ids.w2 = await api.create('stock', { code: 'W2', name: 'Second' });
  await audited('OtherInstock', { warehouseId: ids.w1, lines: [{ materialId: ids.part, number: 100, unitPrice: 2 }] });
});
afterAll(() => ctx.close());

async function audited(type: string, body: Record<string, unknown>): Promise<number> {
  const { id } = await ok(api.post<{ id: number }>(path(type), { billDate: DAY, ...body }));
  await ok(api.post(`${path(type)}/submit`, { id }));
  await ok(api.post(`${path(type)}/audit`, { id }));
  return id;
}

const firstLine = async (type: string, id: number) => (await ok(api.get<{ lines: Array<{ id: number }> }>(`${path(type)}/${id}`))).lines[0].id;
const balances = async () => [await stockOf(api, ids.part, ids.w1), await stockOf(api, ids.part, ids.w2)];

interface ExchangeLine {
  id: number;
  number: number;
  sourceLineId: number | null;
  exchangeType: string;
  warehouseId: number;
  unitPrice: number;
}

/**
 * Every declared exchange type whose refund's origin is entered directly: its refund, the bill the refund comes from
 * and the partner both name. An outsourcing exchange's origin (a receipt) is only ever pushed down from an order
 * whose materials were sent; server/test/bills.test.ts walks it through that chain.
 */
const EXCHANGES = BILL_TYPES.filter((d) => d.pairedLines)
  .map((decl) => {
    const refund = billType(decl.sources[0].type)!;
    return [decl.type, decl, refund, billType(refund.sources[0].type)!] as const;
  })
  .filter(([, , , origin]) => !origin.sourceRequired);

it('declares an exchange bill on each side', () => {
  expect(BILL_TYPES.filter((d) => d.pairedLines).map((d) => d.type).sort()).toEqual(['OutsourcingExchange', 'PurchaseExchange', 'SaleExchange']);
  expect(EXCHANGES.map(([type]) => type).sort()).toEqual(['PurchaseExchange', 'SaleExchange']);
});

describe.each(EXCHANGES)('%s', (type, decl, refundDecl, originDecl) => {
  const party = () => (decl.header.some((f) => f.key === 'supplierId') ? { supplierId: ids.supplier } : { customerId: ids.customer });
  const { field, taking, twin } = decl.pairedLines!;

  it('is pushed down only from exchange refunds, within their open quantity; moves stock both ways on audit and back on abandon', async () => {
    // The goods the refunds come from: 10 received from the supplier, or sent to the customer.
    const origin = await audited(originDecl.type, { ...party(), warehouseId: ids.w1, lines: [{ materialId: ids.part, number: 10, unitPrice: 2 }] });
    const originLine = await firstLine(originDecl.type, origin);
    const refund = (refundType: string, number: number) =>
      audited(refundDecl.type, { ...party(), warehouseId: ids.w1, refundType, lines: [{ materialId: ids.part, number, unitPrice: 2, sourceLineId: originLine }] });
    const exchangeRefund = await refund('Exchange', 4);
    const returned = await refund('ReturnsRefunds', 1);
    const exchangeLine = await firstLine(refundDecl.type, exchangeRefund);
    const returnedLine = await firstLine(refundDecl.type, returned);
    const before = await balances();

    // The picker offers the exchange refund's line only; another refund type is refused, by push down and by save.
    const picker = await ok(api.get<BillSourceLine[]>(`${path(type)}/sources?sourceType=${refundDecl.type}&pageSize=200`));
    expect(picker.map((l) => l.sourceLineId)).toEqual([exchangeLine]);
    await refused(api.post(`${path(type)}/pushDown`, { sourceType: refundDecl.type, sourceLineIds: [returnedLine] }), 'OnlyExchangeBillCanPushExchange');
    const byHand = (number: number, sourceLineId: number, extra: Record<string, unknown> = {}) =>
      api.post<{ id: number }>(path(type), { billDate: DAY, ...party(), warehouseId: ids.w1, lines: [{ materialId: ids.part, number, sourceLineId, [field]: taking }], ...extra });
    await refused(byHand(1, returnedLine), 'OnlyExchangeBillCanPushExchange');
    // Without a refund line, the goods exchanged are refused.
    await refused(api.post(path(type), { billDate: DAY, ...party(), warehouseId: ids.w1, lines: [{ materialId: ids.part, number: 1, [field]: taking }] }), 'PleaseSelectSourceBill');

    // Push down 3 of the 4: the goods exchanged take from the refund line, their replacement beside them takes nothing.
    const pushed = await ok(api.post<{ id: number; billCode: string }>(`${path(type)}/pushDown`, { sourceType: refundDecl.type, sourceLineIds: [exchangeLine], numbers: [{ sourceLineId: exchangeLine, number: 3 }] }));
    expect(pushed.billCode.startsWith(decl.codePrefix)).toBe(true);
    const draft = await ok(api.get<{ warehouseId: number; number: number; lines: ExchangeLine[] }>(`${path(type)}/${pushed.id}`));
    expect(draft.warehouseId).toBe(ids.w1);
    // The goods exchanged count once in the header: the replacement is not added to them.
    expect(Number(draft.number)).toBe(3);
    expect(draft.lines.map((l) => [l.exchangeType, l.number, l.sourceLineId])).toEqual([
      [taking, 3, exchangeLine],
      [twin, 3, null],
    ]);
    // No price copied: what comes in takes the cost of what goes out.
    expect(draft.lines.map((l) => l.unitPrice)).toEqual([0, 0]);
    // Only 1 is open now: a second bill may not take 2.
    await refused(byHand(2, exchangeLine), 'NumberExceedSourceBill');
    // The line coming in goes to W2, the line going out leaves W1 (a source line named on the replacement is dropped).
    const lines = draft.lines.map((l) => ({
      materialId: ids.part,
      number: l.number,
      [field]: l.exchangeType,
      sourceLineId: exchangeLine,
      warehouseId: l.exchangeType === 'ExchangeIn' ? ids.w2 : ids.w1,
    }));
    await ok(api.put(path(type), { id: pushed.id, billDate: DAY, ...party(), warehouseId: ids.w1, lines }));
    expect((await ok(api.get<{ lines: ExchangeLine[] }>(`${path(type)}/${pushed.id}`))).lines.map((l) => l.sourceLineId)).toEqual([exchangeLine, null]);

    const refundState = async () => {
      const head = await ok(api.get<{ billStatus: string; progress: Record<string, string>; lines: Array<{ progress: { exchange: { done: number; taken: number } } }> }>(`${path(refundDecl.type)}/${exchangeRefund}`));
      return { status: head.billStatus, state: head.progress.exchange, ...head.lines[0].progress.exchange };
    };
    expect(await refundState()).toEqual({ status: 'Audit', state: 'NoExchange', done: 0, taken: 3 });

    await ok(api.post(`${path(type)}/submit`, { id: pushed.id }));
    await ok(api.post(`${path(type)}/audit`, { id: pushed.id }));
    expect(await balances()).toEqual([before[0] - 3, before[1] + 3]);
    expect(await refundState()).toEqual({ status: 'Partially', state: 'PartialExchange', done: 3, taken: 3 });
    await refused(api.post(`${path(refundDecl.type)}/abandonAudit`, { id: exchangeRefund }), 'ExistChildrenBillProhibitAbandonAudit');
    await verifyEmpty(api);

    // Abandoning the exchange's audit takes both movements and the progress back.
    await ok(api.post(`${path(type)}/abandonAudit`, { id: pushed.id }));
    expect(await balances()).toEqual(before);
    expect(await refundState()).toEqual({ status: 'Audit', state: 'NoExchange', done: 0, taken: 3 });
    await verifyEmpty(api);

    // The last open unit by hand (with its replacement), both audited: the refund is exchanged whole.
    await ok(api.post(`${path(type)}/submit`, { id: pushed.id }));
    await ok(api.post(`${path(type)}/audit`, { id: pushed.id }));
    const rest = (await ok(byHand(1, exchangeLine, { lines: [{ materialId: ids.part, number: 1, sourceLineId: exchangeLine, [field]: taking }, { materialId: ids.part, number: 1, [field]: twin }] }))).id;
    await ok(api.post(`${path(type)}/submit`, { id: rest }));
    await ok(api.post(`${path(type)}/audit`, { id: rest }));
    expect(await refundState()).toEqual({ status: 'Complete', state: 'AllExchange', done: 4, taken: 4 });
    expect(await balances()).toEqual([before[0] - 3, before[1] + 3]);
    await verifyEmpty(api);
  });
});
