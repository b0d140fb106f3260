import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, startTestApp, type TestContext } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { billPath as path, billSteps, ok, refused } from './bill-fixtures.ts';

/*
 * MRP through the API (PGlite; PostgreSQL with TEST_DB=postgres): a plan takes a sale order and an independent
 * demand, nets them over a two-level BOM against stock, open purchase orders, open production orders and
 * safety stock with lead times and lots, pegs each suggestion, pushes its suggestions down into a purchase
 * requisition and a production order, keeps its demands from withdrawing their audit while it stands, and
 * counts as open supply for the next plan.
 */

let ctx: TestContext;
let api: Caller;
const DAY = '2026-12-01';
const ids = { piece: 0, product: 0, sub: 0, part: 0, screw: 0, w: 0, customer: 0, supplier: 0 };

interface Line {
  id: number;
  materialId: number;
  mrpRole?: string;
  number: number;
  needDate?: string;
  releaseDate?: string;
  bomId?: number | null;
  pegging?: string;
  sourceLineId?: number | null;
}
interface Bill {
  id: number;
  billCode: string;
  billStatus: string;
  progress: Record<string, string>;
  lines: Line[];
}

const { get, pass, saved } = billSteps<Bill>(() => api, DAY);
const suggestionsOf = (plan: Bill) => plan.lines.filter((l) => l.mrpRole !== 'Demand').map((l) => [l.mrpRole, l.materialId, l.number, l.needDate, l.releaseDate, l.pegging]);

beforeAll(async () => {
  ctx = await startTestApp();
  const t = await seedTenant(ctx.database, 'Mrp');
  api = await adminCaller(ctx, t);
  ids.piece = await api.create('unit', { name: 'pc' });
  const box = await api.create('unit', { name: 'box' });
  const material = (code: string, extra: Record<string, unknown> = {}) => api.create('material', { code, name: code, units: [{ unitId: ids.piece, isMain: true }], ...extra });
  ids.product = await material('CTRL', { leadTimeDays: 3 });
  ids.sub = await material('BOARD', { leadTimeDays: 2 });
  ids.part = await material('CHIP', { leadTimeDays: 5, lotPolicy: 'fixed', lotSize: 50 });
  // Screws are bought by the box of 100 and kept at a safety stock of 20.
  ids.screw = await api.create('material', { code: 'SCREW', name: 'SCREW', units: [{ unitId: ids.piece, isMain: true }, { unitId: box, ratio: 100 }], safetyStock: 20 });
  ids.w = await api.create('stock', { code: 'W', name: 'Main' });
  ids.customer = await api.create('customer', { code: 'C', name: 'Customer' });
  ids.supplier = await api.create('supplier', { code: 'S', name: 'Supplier' });
  // A controller: 2 boards and 4 screws; a board: 3 chips (10 % lost) and 2 screws.
  await api.create('bom', { materialId: ids.product, version: 'V1', isDefault: true, lines: [{ materialId: ids.sub, quantity: 2 }, { materialId: ids.screw, quantity: 4 }] });
  await api.create('bom', { materialId: ids.sub, version: 'V1', isDefault: true, lines: [{ materialId: ids.part, quantity: 3, lossRate: 10 }, { materialId: ids.screw, quantity: 2 }] });
  // Stock: 5 boards, 30 screws. Open supply: 40 chips on a purchase order.
  await pass('OtherInstock', await saved('OtherInstock', { warehouseId: ids.w, lines: [{ materialId: ids.sub, number: 5, unitPrice: 10 }, { materialId: ids.screw, number: 30, unitPrice: 0.1 }] }));
  await pass('PurchaseOrder', await saved('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ids.part, number: 40, unitPrice: 1 }] }));
});
afterAll(() => ctx.close());

describe('MRP plans', () => {
  it('plan sale orders and independent demands through the BOMs by low-level code, pegging each suggestion', async () => {
    const order = await saved('SaleOrder', { customerId: ids.customer, deliveryDate: '2026-12-20', lines: [{ materialId: ids.product, number: 10, unitPrice: 100 }] });
    await pass('SaleOrder', order);
    const demand = await saved('IndependentDemand', { deliveryDate: '2026-12-18', lines: [{ materialId: ids.sub, number: 3, needDate: '2026-12-16' }] });
    await pass('IndependentDemand', demand);
    const [orderLine] = (await get('SaleOrder', order)).lines;
    const [demandLine] = (await get('IndependentDemand', demand)).lines;
    // The plan offers both as sources; its demand lines come from them.
    const plan = await saved('MrpPlan', {
      planBucket: 'day',
      lines: [
        { mrpRole: 'Demand', materialId: ids.product, number: 10, sourceLineId: orderLine.id },
        { mrpRole: 'Demand', materialId: ids.sub, number: 3, needDate: '2026-12-16', sourceLineId: demandLine.id },
      ],
    });
    const p = await get('MrpPlan', plan);
    // Controllers (level 0): 10 due on the order's delivery date, started 3 days before — line #3.
    // Boards (level 1): 3 demanded on 12-16 and 20 for the controllers on 12-17, less 5 on hand: 18 — line #4.
    // Chips (level 2): 18 × 3 × 1.1 = 59.4 on 12-15, less 40 on order = 19.4, in fixed lots of 50 (30.6 extra).
    // Screws (level 2, under the controller and the board): 36 on 12-15 and 40 on 12-17; 30 on hand less the
    // safety stock of 20 leaves 10 for the first.
    expect(suggestionsOf(p)).toEqual([
      ['Produce', ids.product, 10, '2026-12-20', '2026-12-17', '#1×10'],
      ['Produce', ids.sub, 18, '2026-12-17', '2026-12-15', '#3×18'],
      ['Purchase', ids.part, 50, '2026-12-15', '2026-12-10', '#4×19.4, LOT×30.6'],
      ['Purchase', ids.screw, 26, '2026-12-15', '2026-12-15', '#4×26'],
      ['Purchase', ids.screw, 40, '2026-12-17', '2026-12-17', '#3×40'],
    ]);
    expect((p as unknown as { number: number }).number).toBe(144);
    expect(p.lines.find((l) => l.materialId === ids.sub && l.mrpRole === 'Produce')?.bomId).toBeTruthy();

    await refused(api.post(path('MrpPlan'), { billDate: DAY, lines: [{ mrpRole: 'Purchase', materialId: ids.part, number: 1 }] }), 'MrpPlanNeedsDemand');
    await pass('MrpPlan', plan);
    // The demands are planned, and keep their audit while the plan stands.
    expect((await get('SaleOrder', order)).progress.plan).toBe('AllPlan');
    expect((await get('IndependentDemand', demand)).billStatus).toBe('Complete');
    await refused(api.post(`${path('SaleOrder')}/abandonAudit`, { id: order }), 'BillIsMrpOperationProhibitAbandonAudit');
  });

  it('push their suggestions down into requisitions and production orders, kept for the plan that made them', async () => {
    const demand = await saved('IndependentDemand', { deliveryDate: '2026-12-28', lines: [{ materialId: ids.sub, number: 30 }] });
    await pass('IndependentDemand', demand);
    const [demandLine] = (await get('IndependentDemand', demand)).lines;
    const plan = await saved('MrpPlan', { planBucket: 'day', lines: [{ mrpRole: 'Demand', materialId: ids.sub, number: 30, sourceLineId: demandLine.id }] });
    await pass('MrpPlan', plan);
    const p = await get('MrpPlan', plan);
    // The first plan's suggestions are its own: this one nets against stock and the purchase order again.
    // Boards: 30 on the demand's date less 5 on hand. Chips: 25 × 3.3 = 82.5 less 40 on order, in lots of 50.
    // Screws: 50 less the 10 above safety stock.
    const expected = [
      ['Produce', ids.sub, 25, '2026-12-28', '2026-12-26', '#1×25'],
      ['Purchase', ids.part, 50, '2026-12-26', '2026-12-21', '#2×42.5, LOT×7.5'],
      ['Purchase', ids.screw, 40, '2026-12-26', '2026-12-26', '#2×40'],
    ];
    expect(suggestionsOf(p)).toEqual(expected);
    const [, board, chip] = p.lines;
    // Only buy suggestions push into a requisition; only make suggestions into a production order.
    await refused(api.post(`${path('PurchaseRequisition')}/pushDown`, { sourceType: 'MrpPlan', sourceLineIds: [board.id] }), 'SourceBillNotExist');
    await refused(api.post(`${path('ProductionOrder')}/pushDown`, { sourceType: 'MrpPlan', sourceLineIds: [chip.id] }), 'SourceBillNotExist');
    const requisition = (await ok(api.post<{ id: number }>(`${path('PurchaseRequisition')}/pushDown`, { sourceType: 'MrpPlan', sourceLineIds: [chip.id] }))).id;
    await pass('PurchaseRequisition', requisition);
    const production = (await ok(api.post<{ id: number }>(`${path('ProductionOrder')}/pushDown`, { sourceType: 'MrpPlan', sourceLineIds: [board.id] }))).id;
    const made = await get('ProductionOrder', production);
    // The order makes the boards by the plan's BOM and takes its materials from it.
    expect(made.lines.map((l) => [(l as unknown as { role: string }).role, l.materialId, l.number])).toEqual([
      ['Product', ids.sub, 25],
      ['Material', ids.part, 82.5],
      ['Material', ids.screw, 50],
    ]);
    await pass('ProductionOrder', production);
    expect((await get('MrpPlan', plan)).progress.push).toBe('PartiallyPushed');

    // What was pushed down from a plan stays that plan's: planned again, the same demand plans the same.
    const again = await saved('MrpPlan', { planBucket: 'day', lines: [{ mrpRole: 'Demand', materialId: ids.sub, number: 30, needDate: '2026-12-28' }] });
    expect(suggestionsOf(await get('MrpPlan', again))).toEqual(expected);
    // An order made by hand is open supply, and its unpicked components are demand: 10 boards on order leave
    // 15 to make, and its 33 chips come first.
    const manual = await saved('ProductionOrder', { deliveryDate: '2026-12-20', lines: [{ role: 'Product', materialId: ids.sub, number: 10 }] });
    await pass('ProductionOrder', manual);
    const third = await saved('MrpPlan', { planBucket: 'day', lines: [{ mrpRole: 'Demand', materialId: ids.sub, number: 30, needDate: '2026-12-28' }] });
    const code = (await get('ProductionOrder', manual)).billCode;
    expect(suggestionsOf(await get('MrpPlan', third))).toEqual([
      ['Produce', ids.sub, 15, '2026-12-28', '2026-12-26', '#1×15'],
      // 33 for the order on 12-20 and 49.5 for the boards on 12-26, less 40 on order: 42.5 in lots of 50.
      ['Purchase', ids.part, 50, '2026-12-26', '2026-12-21', '#2×42.5, LOT×7.5'],
      // 20 for the order (12-20): 10 above safety stock, 10 short; 30 for the boards.
      ['Purchase', ids.screw, 10, '2026-12-20', '2026-12-20', `${code}×10`],
      ['Purchase', ids.screw, 30, '2026-12-26', '2026-12-26', '#2×30'],
    ]);
  });

  it('keep stock for what open outsourcing orders still have to send their suppliers', async () => {
    const wire = await api.create('material', { code: 'WIRE', name: 'WIRE', units: [{ unitId: ids.piece, isMain: true }] });
    const kit = await api.create('material', { code: 'KIT', name: 'KIT', tags: ['outsource'], units: [{ unitId: ids.piece, isMain: true }] });
    await api.create('bom', { materialId: kit, version: 'V1', isDefault: true, lines: [{ materialId: wire, quantity: 4 }] });
    // Five kits made by the supplier from 20 wires we have yet to send them, due on 12-22.
    const order = await saved('OutsourcingOrder', { supplierId: ids.supplier, deliveryDate: '2026-12-22', lines: [{ role: 'Product', materialId: kit, number: 5, unitPrice: 2 }] });
    await pass('OutsourcingOrder', order);
    const code = (await get('OutsourcingOrder', order)).billCode;
    const plan = await saved('MrpPlan', { planBucket: 'day', lines: [{ mrpRole: 'Demand', materialId: wire, number: 1, needDate: '2026-12-20' }] });
    expect(suggestionsOf(await get('MrpPlan', plan)).filter((s) => s[1] === wire)).toEqual([
      ['Purchase', wire, 1, '2026-12-20', '2026-12-20', '#1×1'],
      ['Purchase', wire, 20, '2026-12-22', '2026-12-22', `${code}×20`],
    ]);
  });
});
