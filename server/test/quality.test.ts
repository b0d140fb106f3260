import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicableTemplate, InspectionBox, OpenRejectRow } from '@p8/contract/quality';
import type { EarlyWarning } from '@p8/contract/bills/api';
import { seedTenant, startTestApp, type TestContext } from './harness.ts';
import { adminCaller, setTenantConfig, type Caller } from './basic-fixtures.ts';
import { billPath as path, billSteps, ok, refused, stockOf, verifyEmpty } from './bill-fixtures.ts';

/*
 * Quality (PGlite; PostgreSQL with TEST_DB=postgres): inspection templates and their rules, inspection reports
 * following the template that applies (a material's own before its category's), their verdicts and quantities,
 * staged inspections of one line, and the goods that wait for them — a purchase in-stock takes at most what
 * audited incoming inspections accepted (concessions included), and such an inspection keeps its audit while
 * the in-stock holds what it accepted.
 */

let ctx: TestContext;
let api: Caller;
let tenantId: number;
const ids = { piece: 0, category: 0, resistor: 0, capacitor: 0, screw: 0, supplier: 0, w: 0, order: 0, resistorLine: 0, capacitorLine: 0, template: 0 };
const today = new Date().toISOString().slice(0, 10);
type Detail = { id: number; billStatus: string; progress?: Record<string, string>; lines: Array<Record<string, unknown> & { id: number; materialId: number }> };
const steps = billSteps<Detail>(() => api, today);
const incoming = path('IncomingInspection');
const instock = path('PurchaseInstock');

const template = (body: Record<string, unknown>) => api.post<{ id: number }>('/api/admin/quality/inspectionTemplate', body);
const RESISTOR_ITEMS = [
  { name: 'Resistance', method: 'Multimeter', valueKind: 'Numeric', standard: 100, lower: 98, upper: 102, blocks: true },
  { name: 'Appearance', valueKind: 'PassFail', blocks: false },
];
/** An incoming inspection of `number` resistors from the order's line, with a resistance reading. */
const inspection = (number: number, resistance: number | null, extra: Record<string, unknown> = {}) => ({
  supplierId: ids.supplier,
  lines: [{ materialId: ids.resistor, number, sourceLineId: ids.resistorLine, readings: resistance === null ? [] : [{ item: 1, value: resistance }, { item: 2, passed: true }], ...extra }],
});
const receipt = (number: number, sourceLineId = ids.resistorLine, materialId = ids.resistor) => ({
  supplierId: ids.supplier,
  warehouseId: ids.w,
  lines: [{ materialId, number, unitPrice: 2, sourceLineId }],
});

beforeAll(async () => {
  ctx = await startTestApp();
  const t = await seedTenant(ctx.database, 'Quality');
  tenantId = t.tenantId;
  api = await adminCaller(ctx, t);
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.category = await api.create('category', { name: 'Electronics' });
  const units = [{ unitId: ids.piece, isMain: true }];
  ids.resistor = await api.create('material', { code: 'R100', name: 'Resistor 100Ω', categoryId: ids.category, units });
  ids.capacitor = await api.create('material', { code: 'C10', name: 'Capacitor 10µF', categoryId: ids.category, units });
  ids.screw = await api.create('material', { code: 'M3', name: 'Screw M3', units });
  ids.supplier = await api.create('supplier', { code: 'S', name: 'Parts supplier' });
  ids.w = await api.create('stock', { code: 'W', name: 'Main' });
  ids.template = (await ok(template({ code: 'IQC-E', name: 'Electronics incoming', inspectionKind: 'Incoming', categoryId: ids.category, sampling: 'Percent', sampleValue: 10, gates: true, items: RESISTOR_ITEMS }))).id;
  // The capacitor's own template comes before its category's: looked at, never holding the goods back.
  await ok(template({ code: 'IQC-C', name: 'Capacitor incoming', inspectionKind: 'Incoming', materialId: ids.capacitor, sampling: 'All', gates: false, items: [{ name: 'Look', valueKind: 'PassFail', blocks: true }] }));
  ids.order = await steps.saved('PurchaseOrder', {
    supplierId: ids.supplier,
    lines: [
      { materialId: ids.resistor, number: 100, unitPrice: 2 },
      { materialId: ids.capacitor, number: 50, unitPrice: 3 },
    ],
  });
  await steps.pass('PurchaseOrder', ids.order);
  const order = await steps.get('PurchaseOrder', ids.order);
  ids.resistorLine = order.lines.find((l) => l.materialId === ids.resistor)!.id;
  ids.capacitorLine = order.lines.find((l) => l.materialId === ids.capacitor)!.id;
});
afterAll(() => ctx.close());

describe('inspection templates', () => {
  it('refuses a sampling without its value, reversed limits and a template without items', async () => {
    const base = { inspectionKind: 'Incoming', sampling: 'All', items: [{ name: 'Look', valueKind: 'PassFail' }] };
    await refused(template({ ...base, code: 'X2', name: 'Fixed', materialId: ids.screw, sampling: 'Fixed' }), 'InspectionSamplingInvalid');
    await refused(template({ ...base, code: 'X3', name: 'Percent', materialId: ids.screw, sampling: 'Percent', sampleValue: 120 }), 'InspectionSamplingInvalid');
    await refused(template({ ...base, code: 'X4', name: 'Reversed', materialId: ids.screw, items: [{ name: 'Length', valueKind: 'Numeric', lower: 5, upper: 4 }] }), 'InspectionItemLimitsReversed');
    await refused(template({ ...base, code: 'X5', name: 'No items', materialId: ids.screw, items: [] }), 'InspectionTemplateItemsEmpty');
  });

  it('answers the template that applies: the material’s own before its category’s, none for a material without', async () => {
    const resistor = await ok(api.get<ApplicableTemplate>(`/api/admin/quality/inspectionTemplate/applicable?inspectionKind=Incoming&materialId=${ids.resistor}`));
    expect(resistor).toMatchObject({ id: ids.template, sampling: 'Percent', gates: true, items: [{ item: 1, name: 'Resistance', valueKind: 'Numeric', lower: 98, upper: 102, blocks: true }, { item: 2, name: 'Appearance', blocks: false }] });
    const capacitor = await ok(api.get<ApplicableTemplate>(`/api/admin/quality/inspectionTemplate/applicable?inspectionKind=Incoming&materialId=${ids.capacitor}`));
    expect(capacitor).toMatchObject({ code: 'IQC-C', gates: false });
    expect(await ok(api.get(`/api/admin/quality/inspectionTemplate/applicable?inspectionKind=Incoming&materialId=${ids.screw}`))).toBeNull();
    expect(await ok(api.get(`/api/admin/quality/inspectionTemplate/applicable?inspectionKind=Shipment&materialId=${ids.resistor}`))).toBeNull();
    // A general template (naming neither) covers what no other template of its kind does.
    const general = (await ok(template({ code: 'OQC', name: 'Every shipment', inspectionKind: 'Shipment', sampling: 'Fixed', sampleValue: 5, items: [{ name: 'Packing', valueKind: 'PassFail' }] }))).id;
    expect(await ok(api.get<ApplicableTemplate>(`/api/admin/quality/inspectionTemplate/applicable?inspectionKind=Shipment&materialId=${ids.screw}`))).toMatchObject({ id: general, sampling: 'Fixed', sampleValue: 5 });
  });
});

describe('incoming inspections and the goods that wait for them', () => {
  it('refuses an inspection without a template, quantities that do not add up, a sample beyond the lot and unknown items', async () => {
    const screwOrder = await steps.saved('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ids.screw, number: 5, unitPrice: 1 }] });
    await steps.pass('PurchaseOrder', screwOrder);
    const screwLine = (await steps.get('PurchaseOrder', screwOrder)).lines[0].id;
    await refused(api.post(incoming, { billDate: today, supplierId: ids.supplier, lines: [{ materialId: ids.screw, number: 5, sourceLineId: screwLine }] }), 'InspectionTemplateMissing');
    await refused(api.post(incoming, { billDate: today, ...inspection(60, 100, { acceptedNumber: 50, rejectedNumber: 5 }) }), 'InspectionQuantitiesMismatch');
    await refused(api.post(incoming, { billDate: today, ...inspection(60, 100, { sampleNumber: 61 }) }), 'InspectionSampleExceeds');
    await refused(api.post(incoming, { billDate: today, ...inspection(60, 100, { readings: [{ item: 3, passed: true }] }) }), 'InspectionItemNotInTemplate');
    // Without a direct source: an inspection inspects lines of a bill.
    await refused(api.post(incoming, { billDate: today, supplierId: ids.supplier, lines: [{ materialId: ids.resistor, number: 5 }] }), 'PleaseSelectSourceBill');
  });

  it('holds the in-stock back until an inspection is audited, then up to what it accepted', async () => {
    await refused(api.post(instock, { billDate: today, ...receipt(10) }), 'InspectionReportNotAudit');
    const first = await steps.saved('IncomingInspection', inspection(60, 100));
    const saved = (await steps.get('IncomingInspection', first)).lines[0];
    // The template's sampling (10 % of 60), its verdict, and all of a passed lot accepted.
    expect(saved).toMatchObject({ templateId: ids.template, verdict: 'Pass', sampleNumber: expect.anything(), acceptedNumber: 60, rejectedNumber: 0, concessionNumber: 0 });
    expect(Number(saved.sampleNumber)).toBe(6);
    // Saved is not audited: still nothing to take.
    await refused(api.post(instock, { billDate: today, ...receipt(10) }), 'InspectionReportNotAudit');
    await steps.pass('IncomingInspection', first);
    await refused(api.post(instock, { billDate: today, ...receipt(70) }), 'NumberExceedInspected');
    const firstReceipt = await steps.saved('PurchaseInstock', receipt(60));
    await steps.pass('PurchaseInstock', firstReceipt);
    expect(await stockOf(api, ids.resistor, ids.w)).toBe(60);
    // The receipt holds what the inspection accepted: its audit stays.
    await refused(api.post(`${incoming}/abandonAudit`, { id: first }), 'InspectionReliedProhibitAbandonAudit');
  });

  it('judges a failed blocking item: nothing accepted, the lot rejected or taken on concession', async () => {
    await refused(api.post(incoming, { billDate: today, ...inspection(40, 105, { acceptedNumber: 10, rejectedNumber: 30 }) }), 'InspectionFailedNoAccepted');
    // Left to the rules: a failed lot is all rejected.
    const rejected = await steps.saved('IncomingInspection', inspection(40, 105));
    expect((await steps.get('IncomingInspection', rejected)).lines[0]).toMatchObject({ verdict: 'Fail', acceptedNumber: 0, rejectedNumber: 40 });
    await ok(api.del(incoming, { ids: [rejected] }));
    const second = await steps.saved('IncomingInspection', inspection(40, 105, { rejectedNumber: 30, concessionNumber: 10 }));
    await steps.pass('IncomingInspection', second);
    // The concession is taken in; nothing beyond it.
    await refused(api.post(instock, { billDate: today, ...receipt(11) }), 'NumberExceedInspected');
    await steps.pass('PurchaseInstock', await steps.saved('PurchaseInstock', receipt(10)));
    // Every piece ordered is inspected: no more inspection of the line.
    await refused(api.post(incoming, { billDate: today, ...inspection(1, 100) }), 'NumberExceedSourceBill');
    const order = await steps.get('PurchaseOrder', ids.order);
    expect(order.lines.find((l) => l.id === ids.resistorLine)!.progress).toMatchObject({ inspection: { state: 'AllInspection', done: 100 }, instock: { state: 'PartialInStock', done: 70 } });
    expect(order.progress).toMatchObject({ inspection: 'PartialInspection' });
    await verifyEmpty(api);
  });

  it('asks every blocking item to be read before the inspection is submitted', async () => {
    const look = await steps.saved('IncomingInspection', { supplierId: ids.supplier, lines: [{ materialId: ids.capacitor, number: 5, sourceLineId: ids.capacitorLine }] });
    await refused(api.post(`${incoming}/submit`, { id: look }), 'InspectionReadingMissing');
    await ok(api.put(incoming, { id: look, billDate: today, supplierId: ids.supplier, lines: [{ materialId: ids.capacitor, number: 5, sourceLineId: ids.capacitorLine, readings: [{ item: 1, passed: true }] }] }));
    await steps.pass('IncomingInspection', look);
  });

  it('never lets a withdrawn inspection and an in-stock relying on it both through (two connections on PostgreSQL)', async () => {
    for (let round = 0; round < 3; round++) {
      const order = await steps.saved('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ids.resistor, number: 10, unitPrice: 2 }] });
      await steps.pass('PurchaseOrder', order);
      const line = (await steps.get('PurchaseOrder', order)).lines[0].id;
      const checked = await steps.saved('IncomingInspection', { supplierId: ids.supplier, lines: [{ materialId: ids.resistor, number: 10, sourceLineId: line, readings: [{ item: 1, value: 100 }] }] });
      await steps.pass('IncomingInspection', checked);
      const [withdrawn, taken] = await Promise.all([api.post(`${incoming}/abandonAudit`, { id: checked }), api.post(instock, { billDate: today, ...receipt(10, line) })]);
      // One of them, never both: the in-stock would hold goods no audited inspection accepted.
      expect([withdrawn.body.status, taken.body.status].filter((s) => s === 0)).toHaveLength(1);
      expect(withdrawn.body.status === 0 ? taken.body.message : withdrawn.body.message).toBe(withdrawn.body.status === 0 ? 'InspectionReportNotAudit' : 'InspectionReliedProhibitAbandonAudit');
    }
  });

  it('lets goods whose template does not hold them back in without an inspection', async () => {
    await steps.pass('PurchaseInstock', await steps.saved('PurchaseInstock', receipt(50, ids.capacitorLine, ids.capacitor)));
    expect(await stockOf(api, ids.capacitor, ids.w)).toBe(50);
  });

  it('lists an inspection not audited by its date in the early warning until it is audited', async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const late = await steps.saved('IncomingInspection', { supplierId: ids.supplier, deliveryDate: yesterday, lines: [{ materialId: ids.capacitor, number: 5, sourceLineId: ids.capacitorLine, readings: [{ item: 1, passed: true }] }] });
    const due = async () => (await ok(api.get<EarlyWarning>('/api/admin/stock/warning'))).bills.filter((b) => b.kind === 'inspection' && b.billId === late);
    expect(await due()).toEqual([expect.objectContaining({ billType: 'IncomingInspection', partnerName: 'Parts supplier', date: yesterday, daysLeft: -1 })]);
    await steps.pass('IncomingInspection', late);
    expect(await due()).toEqual([]);
  });

  it('reports the pass rate of audited inspections by material and by supplier', async () => {
    type Row = { id: number; name: string; inspected: string; accepted: string; concession: string; rejected: string; passRate: string };
    const report = (by: string) => ok(api.get<Row[]>(`/api/admin/quality/passRate?by=${by}&from=${today}&to=${today}`));
    const byMaterial = await report('material');
    expect(byMaterial.find((r) => r.id === ids.capacitor)).toMatchObject({ name: 'Capacitor 10µF', inspected: '10.000000', accepted: '10.000000', rejected: '0.000000', passRate: '100.00' });
    const resistor = byMaterial.find((r) => r.id === ids.resistor)!;
    // 60 passed, 40 failed (10 of them taken on concession), and the race's inspections of 10 that kept their audit.
    expect(Number(resistor.rejected)).toBe(30);
    expect(Number(resistor.concession)).toBe(10);
    expect(Number(resistor.passRate)).toBeCloseTo(((Number(resistor.inspected) - 30) / Number(resistor.inspected)) * 100, 2);
    const [supplier] = await report('supplier');
    expect(supplier).toMatchObject({ id: ids.supplier, name: 'Parts supplier' });
    expect(Number(supplier.inspected)).toBe(Number(resistor.inspected) + 10);
    expect(await report('process')).toEqual([]);
  });
});

describe('outsourcing receipts wait for incoming inspections', () => {
  it('takes in at most what audited inspections of the order’s product accepted; the order shows what was inspected', async () => {
    const sensor = await api.create('material', { code: 'SEN', name: 'Sensor', categoryId: ids.category, units: [{ unitId: ids.piece, isMain: true }] });
    await api.create('bom', { materialId: sensor, version: 'V1', isDefault: true, lines: [{ materialId: ids.screw, quantity: 1 }] });
    await steps.pass('OtherInstock', await steps.saved('OtherInstock', { warehouseId: ids.w, lines: [{ materialId: ids.screw, number: 10, unitPrice: 1 }] }));
    const orderId = await steps.saved('OutsourcingOrder', { supplierId: ids.supplier, lines: [{ role: 'Product', materialId: sensor, number: 10, unitPrice: 5, warehouseId: ids.w }] });
    await steps.pass('OutsourcingOrder', orderId);
    const [product, screws] = (await steps.get('OutsourcingOrder', orderId)).lines;
    await steps.pass('OutsourcingPick', await steps.saved('OutsourcingPick', { supplierId: ids.supplier, warehouseId: ids.w, lines: [{ materialId: ids.screw, number: 10, sourceLineId: screws.id }] }));
    const sensorReceipt = (number: number, rejectedNumber = 0) => ({ supplierId: ids.supplier, warehouseId: ids.w, lines: [{ materialId: sensor, number, rejectedNumber, unitPrice: 5, sourceLineId: product.id }] });
    // The sensor's category template holds the goods back: nothing comes in before an audited inspection.
    await refused(api.post(path('OutsourcingInstock'), { billDate: today, ...sensorReceipt(7, 3) }), 'InspectionReportNotAudit');
    const check = await steps.saved('IncomingInspection', {
      supplierId: ids.supplier,
      lines: [{ materialId: sensor, number: 10, sourceLineId: product.id, acceptedNumber: 7, rejectedNumber: 3, readings: [{ item: 1, value: 100 }, { item: 2, passed: true }] }],
    });
    await steps.pass('IncomingInspection', check);
    expect((await steps.get('OutsourcingOrder', orderId)).lines[0].progress).toMatchObject({ inspection: { state: 'AllInspection', done: 10 } });
    await refused(api.post(path('OutsourcingInstock'), { billDate: today, ...sensorReceipt(8, 2) }), 'NumberExceedInspected');
    await steps.pass('OutsourcingInstock', await steps.saved('OutsourcingInstock', sensorReceipt(7, 3)));
    expect(await stockOf(api, sensor, ids.w)).toBe(7);
    await refused(api.post(`${incoming}/abandonAudit`, { id: check }), 'InspectionReliedProhibitAbandonAudit');
  });
});

describe('rejects', () => {
  const openRejects = async (line: number) => (await ok(api.get<OpenRejectRow[]>('/api/admin/quality/openRejects?inspectionKind=Incoming&pageSize=100'))).find((r) => r.id === line);

  it('lists rejects nobody has dealt with until a reject warehouse takes them; the goods go back from there by a refund', async () => {
    // Only the inspection that rejected any is named (the first one passed all sixty).
    expect(await openRejects(ids.resistorLine)).toMatchObject({ inspectionKind: 'Incoming', inspections: expect.stringMatching(/^LLJY\d+$/), sourceBillId: ids.order, partnerName: 'Parts supplier', materialName: 'Resistor 100Ω', rejected: '30.000000', intoRejects: '0.000000', open: '30.000000' });
    const rejects = await api.create('stock', { code: 'REJ', name: 'Rejects', rejects: true });
    const intoRejects = (number: number) => ({ supplierId: ids.supplier, warehouseId: rejects, lines: [{ materialId: ids.resistor, number, unitPrice: 2, sourceLineId: ids.resistorLine }] });
    const held = await steps.saved('PurchaseInstock', intoRejects(20));
    // Saved is not dealt with yet: only what audited bills took.
    expect(await openRejects(ids.resistorLine)).toMatchObject({ open: '30.000000' });
    await steps.pass('PurchaseInstock', held);
    expect(await openRejects(ids.resistorLine)).toMatchObject({ intoRejects: '20.000000', open: '10.000000' });
    expect(await stockOf(api, ids.resistor, rejects)).toBe(20);
    // What a warehouse holds was received for what it is: the flag stays while it holds stock.
    await refused(api.put('/api/admin/basic/stock', { id: rejects, name: 'Rejects', rejects: false }), 'WarehouseRejectsChangeHoldingStock');
    const line = (await steps.get('PurchaseInstock', held)).lines[0].id;
    await steps.pass('PurchaseRefund', await steps.saved('PurchaseRefund', { supplierId: ids.supplier, refundType: 'ReturnsRefunds', warehouseId: rejects, lines: [{ materialId: ids.resistor, number: 20, unitPrice: 2, sourceLineId: line }] }));
    expect(await stockOf(api, ids.resistor, rejects)).toBe(0);
    // Closing the order's line by hand leaves the rest with the supplier: nothing open any more.
    await ok(api.post(`${path('PurchaseOrder')}/manualCompletion`, { id: ids.order }));
    expect(await openRejects(ids.resistorLine)).toBeUndefined();
    await verifyEmpty(api);
  });

  it('takes into a reject warehouse at most what the inspections rejected, and none before an audited inspection', async () => {
    const order = await steps.saved('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ids.resistor, number: 10, unitPrice: 2 }] });
    await steps.pass('PurchaseOrder', order);
    const line = (await steps.get('PurchaseOrder', order)).lines[0].id;
    const rejects = (await ok(api.get<Array<{ id: number; code: string }>>('/api/admin/basic/stock?code=REJ'))).find((w) => w.code === 'REJ')!.id;
    const intoRejects = (number: number) => api.post(instock, { billDate: today, supplierId: ids.supplier, warehouseId: rejects, lines: [{ materialId: ids.resistor, number, unitPrice: 2, sourceLineId: line }] });
    await refused(intoRejects(1), 'InspectionReportNotAudit');
    await steps.pass('IncomingInspection', await steps.saved('IncomingInspection', { supplierId: ids.supplier, lines: [{ materialId: ids.resistor, number: 10, sourceLineId: line, acceptedNumber: 8, rejectedNumber: 2, readings: [{ item: 1, value: 100 }] }] }));
    await refused(intoRejects(3), 'NumberExceedRejected');
    await steps.pass('PurchaseInstock', await steps.saved('PurchaseInstock', { supplierId: ids.supplier, warehouseId: rejects, lines: [{ materialId: ids.resistor, number: 2, unitPrice: 2, sourceLineId: line }] }));
    // The good ones still come in beside them.
    await steps.pass('PurchaseInstock', await steps.saved('PurchaseInstock', receipt(8, line)));
    expect(await openRejects(line)).toBeUndefined();
  });
});

describe('the push-down picker of goods that wait', () => {
  it('offers what the inspections accepted, not the whole open quantity', async () => {
    const order = await steps.saved('PurchaseOrder', { supplierId: ids.supplier, lines: [{ materialId: ids.resistor, number: 10, unitPrice: 2 }] });
    await steps.pass('PurchaseOrder', order);
    const line = (await steps.get('PurchaseOrder', order)).lines[0].id;
    await steps.pass('IncomingInspection', await steps.saved('IncomingInspection', { supplierId: ids.supplier, lines: [{ materialId: ids.resistor, number: 6, sourceLineId: line, acceptedNumber: 5, rejectedNumber: 1, readings: [{ item: 1, value: 100 }] }] }));
    type Offered = { sourceLineId: number; openNumber: string; takenNumber: string };
    const offered = async () => (await ok(api.get<Offered[]>(`${instock}/sources?sourceType=PurchaseOrder&pageSize=200`))).find((r) => r.sourceLineId === line)!;
    expect(await offered()).toMatchObject({ openNumber: '5.000000', takenNumber: '0.000000' });
    const pushed = await ok(api.post<{ id: number }>(`${instock}/pushDown`, { sourceType: 'PurchaseOrder', sourceLineIds: [line] }));
    expect(Number((await steps.get('PurchaseInstock', pushed.id)).lines[0].number)).toBe(5);
    // Taken (saved), nothing accepted is left to offer; the order's other four are not inspected yet.
    expect(await offered()).toMatchObject({ openNumber: '0.000000', takenNumber: '5.000000' });
  });
});

describe('inspection packing', () => {
  it('packs accepted goods into boxes — at most what was accepted, all of it before submit under packageResultLimitSubmit — and a boxed serial leaves only with its box', async () => {
    await setTenantConfig(ctx, tenantId, { openSerialNumber: true, packageResultLimitSubmit: true });
    const shipment = path('ShipmentInspection');
    const boxes = `${shipment}/box`;
    const customer = await api.create('customer', { code: 'CUS', name: 'Buyer' });
    const phone = await api.create('material', { code: 'PH', name: 'Phone', serialNumber: true, units: [{ unitId: ids.piece, isMain: true }] });
    const serials = ['P1', 'P2', 'P3', 'P4'];
    await steps.pass('OtherInstock', await steps.saved('OtherInstock', { warehouseId: ids.w, lines: [{ materialId: phone, number: 4, serialNumbers: serials, unitPrice: 50 }] }));
    const order = await steps.saved('SaleOrder', { customerId: customer, lines: [{ materialId: phone, number: 4, unitPrice: 80 }] });
    await steps.pass('SaleOrder', order);
    const orderLine = (await steps.get('SaleOrder', order)).lines[0].id;
    // The general shipment template (one pass / fail item): all four pass.
    const check = await steps.saved('ShipmentInspection', { customerId: customer, lines: [{ materialId: phone, number: 4, sourceLineId: orderLine, readings: [{ item: 1, passed: true }] }] });
    const code = ((await steps.get('ShipmentInspection', check)) as unknown as { billCode: string }).billCode;
    await refused(api.post(`${shipment}/submit`, { id: check }), 'PackageResultIncomplete');
    const pack = (quantity: number, serialNumbers: string[], extra: Record<string, unknown> = {}) => api.post<{ id: number; code: string }>(boxes, { billId: check, lineNo: 1, quantity, serialNumbers, ...extra });
    await refused(pack(3, ['P1', 'P2']), 'SerialNumberCountMismatch');
    await refused(pack(5, ['P1', 'P2', 'P3', 'P4', 'P5']), 'PackageExceedsAccepted');
    await refused(pack(2, ['P1', 'P1']), 'SerialNumberRepeat');
    expect(await ok(pack(2, ['P1', 'P2']))).toMatchObject({ code: `${code}-1` });
    await refused(pack(2, ['P2', 'P3']), 'SerialNumberIsBoxed');
    await refused(pack(2, ['P3', 'P4'], { code: `${code}-1` }), 'BoxCodeRepeat');
    const second = await ok(pack(2, ['P3', 'P4'], { code: 'BOX-B' }));
    await ok(api.del(boxes, { billId: check, ids: [second.id] }));
    await ok(pack(2, ['P3', 'P4'], { code: 'BOX-B' }));
    const packed = await ok(api.get<InspectionBox[]>(`${boxes}?billId=${check}`));
    expect(packed.map((b) => [b.code, b.lineNo, Number(b.quantity), b.serialNumbers])).toEqual([
      [`${code}-1`, 1, 2, ['P1', 'P2']],
      ['BOX-B', 1, 2, ['P3', 'P4']],
    ]);
    // Their labels (the box label templates), recorded as printed; a box that is not there is refused.
    expect(await ok(api.post(`${boxes}/label/print`, { kind: 'box', templateId: null, ids: packed.map((b) => b.id), labels: 2 }))).toEqual({ labels: 2 });
    await refused(api.post(`${boxes}/label/print`, { kind: 'box', templateId: null, ids: [999_999], labels: 1 }), 'BoxNotExist');
    await steps.pass('ShipmentInspection', check);
    // Submitted, the result is fixed: no more packing.
    expect((await pack(1, ['P9'])).body.status).not.toBe(0);
    const outstock = (serialNumbers: string[]) => ({ customerId: customer, warehouseId: ids.w, lines: [{ materialId: phone, number: serialNumbers.length, serialNumbers, unitPrice: 80, sourceLineId: orderLine }] });
    await refused(api.post(path('SaleOutstock'), { billDate: today, ...outstock(['P1', 'P3']) }), 'SerialBoxMovesWhole');
    await steps.pass('SaleOutstock', await steps.saved('SaleOutstock', outstock(['P1', 'P2'])));
    expect(await stockOf(api, phone, ids.w)).toBe(2);
    await setTenantConfig(ctx, tenantId, { packageResultLimitSubmit: false });
  });
});
