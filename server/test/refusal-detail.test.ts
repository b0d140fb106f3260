import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MallProduct } from '@p8/contract/mall';
import { refusalShapes, type RefusalDetails, type RefusalShape } from '@p8/contract/refusals';
import { refusalText } from '../../web/src/app/refusal-text.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, setTenantConfig, type Caller } from './basic-fixtures.ts';
import { auditedBill, billPath, ok } from './bill-fixtures.ts';
import { mallApi } from './mall-fixtures.ts';

/*
 * Refusals name what they refuse: every catalogued error that carries values (contract refusals.ts) is
 * triggered through the API, and its envelope names the line, material, warehouse, location, fund account,
 * partner or bill by code and name, with its figures as decimal text and no `additional` — and written as
 * the screens write it (web refusal-text.ts), in zh and en, no raw id and no unrounded decimal appears.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
const DAY = '2026-11-24';
const ids = { piece: 0, screw: 0, milk: 0, supplier: 0, customer: 0, main: 0, shelf: 0, till: 0 };
/** The refusal envelopes seen, by key. */
const seen = new Map<string, { message: string; details?: RefusalDetails; additional?: string }>();
const DIGITS = { numberRetainsSmallDigit: 2, amountRetainsSmallDigit: 2 };

type Body = { status: number; message: string; details?: RefusalDetails; additional?: string };

/** The refusal `key` of `reply`, kept for the walk below; its details must carry what the key declares. */
async function refusedWith(reply: Promise<{ body: unknown }>, key: keyof typeof refusalShapes, expected: RefusalDetails): Promise<RefusalDetails> {
  const body = (await reply).body as Body;
  expect(body.message, JSON.stringify(body)).toBe(key);
  expect(body.additional, JSON.stringify(body)).toBeUndefined();
  expect(body.details).toMatchObject(expected);
  seen.set(key, body);
  return body.details!;
}

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Refusals');
  api = await adminCaller(ctx, t);
  await setTenantConfig(ctx, t.tenantId, { openBatchNumber: true, openDirectOutstock: true });
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.screw = await api.create('material', { code: 'SCR-8', name: 'Screw M8', units: [{ unitId: ids.piece, isMain: true }] });
  ids.milk = await api.create('material', { code: 'MLK-1', name: 'Milk', units: [{ unitId: ids.piece, isMain: true }], batchNumber: true });
  ids.supplier = await api.create('supplier', { code: 'S-ACME', name: 'Acme Supplies' });
  ids.customer = await api.create('customer', { code: 'C-BETA', name: 'Beta Retail' });
  ids.main = await api.create('stock', { code: 'W-MAIN', name: 'Main warehouse' });
  ids.till = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Petty cash', kind: 'cash', openingBalance: '10.00', openingDate: '2026-01-01' }))).id;
  await api.create('stock', { code: 'W-SIDE', name: 'Side warehouse' });
});
afterAll(() => ctx.close());

describe(`refusals name what they refuse (${TEST_DB})`, () => {
  it('a stock shortage names the line, material and warehouse, and what it asks against what there is', async () => {
    await auditedBill(api, 'OtherInstock', { billDate: DAY, warehouseId: ids.main, lines: [{ materialId: ids.screw, number: 13, unitPrice: 1 }] });
    const { id } = await ok(api.post<{ id: number }>(billPath('OtherOutstock'), {
      billDate: DAY,
      warehouseId: ids.main,
      lines: [
        { materialId: ids.screw, number: 1 },
        { materialId: ids.screw, number: 1234.5 },
      ],
    }));
    await ok(api.post(`${billPath('OtherOutstock')}/submit`, { id }));
    await refusedWith(api.post(`${billPath('OtherOutstock')}/audit`, { id }), 'InsufficientInventory', {
      line: 2,
      material: { code: 'SCR-8', name: 'Screw M8' },
      warehouse: 'Main warehouse',
      need: '1234.500000',
      have: '12.000000',
      measure: 'number',
    });
  });

  it('a batch shortage names the batch too', async () => {
    await auditedBill(api, 'OtherInstock', { billDate: DAY, warehouseId: ids.main, lines: [{ materialId: ids.milk, number: 5, unitPrice: 1, batchNumber: 'B-0601' }] });
    const { id } = await ok(api.post<{ id: number }>(billPath('OtherOutstock'), { billDate: DAY, warehouseId: ids.main, lines: [{ materialId: ids.milk, number: 8, batchNumber: 'B-0601' }] }));
    await ok(api.post(`${billPath('OtherOutstock')}/submit`, { id }));
    await refusedWith(api.post(`${billPath('OtherOutstock')}/audit`, { id }), 'BatchNumberInsufficientInventory', {
      line: 1,
      material: { code: 'MLK-1', name: 'Milk' },
      warehouse: 'Main warehouse',
      batch: 'B-0601',
      need: '8.000000',
      have: '5.000000',
    });
  });

  it('a take beyond the source line names this line, its material and the source bill', async () => {
    const order = await auditedBill(api, 'PurchaseOrder', { billDate: DAY, supplierId: ids.supplier, lines: [{ materialId: ids.screw, number: 10, unitPrice: 3 }] });
    const detail = await ok(api.get<{ billCode: string; lines: Array<{ id: number }> }>(`${billPath('PurchaseOrder')}/${order}`));
    await refusedWith(
      api.post(billPath('PurchaseInstock'), { billDate: DAY, supplierId: ids.supplier, warehouseId: ids.main, lines: [{ materialId: ids.screw, number: 11, sourceLineId: detail.lines[0].id }] }),
      'NumberExceedSourceBill',
      { line: 1, material: { code: 'SCR-8', name: 'Screw M8' }, bill: detail.billCode, need: '11.000000', have: '10.000000' },
    );
  });

  it('a process report beyond what the previous step passed names its line and material', async () => {
    const cut = await api.create('process', { name: 'Cut' });
    const bend = await api.create('process', { name: 'Bend' });
    const order = (
      await ok(
        api.post<{ id: number }>(billPath('ProductionOrder'), {
          billDate: DAY,
          lines: [
            { role: 'Product', materialId: ids.screw, number: 5 },
            { role: 'Process', materialId: ids.screw, number: 5, processId: cut },
            { role: 'Process', materialId: ids.screw, number: 5, processId: bend },
          ],
        }),
      )
    ).id;
    for (const step of ['submit', 'audit']) await ok(api.post(`${billPath('ProductionOrder')}/${step}`, { id: order }));
    const [, first, second] = (await ok(api.get<{ lines: Array<{ id: number }> }>(`${billPath('ProductionOrder')}/${order}`))).lines;
    const report = (await ok(api.post<{ id: number }>(billPath('ProcessReport'), { billDate: DAY, lines: [{ materialId: ids.screw, number: 2, processId: cut, sourceLineId: first.id }] }))).id;
    for (const step of ['submit', 'audit']) await ok(api.post(`${billPath('ProcessReport')}/${step}`, { id: report }));
    await refusedWith(api.post(billPath('ProcessReport'), { billDate: DAY, lines: [{ materialId: ids.screw, number: 3, processId: bend, sourceLineId: second.id }] }), 'NumberExceedReportable', {
      line: 1,
      material: { code: 'SCR-8', name: 'Screw M8' },
      need: '3.000000',
      have: '2.000000',
    });
  });

  it('inspections and the goods that wait for them name the line, the material and the quantities', async () => {
    const screw = { code: 'SCR-8', name: 'Screw M8' };
    await ok(api.post('/api/admin/quality/inspectionTemplate', { code: 'IQC-S', name: 'Screw incoming', inspectionKind: 'Incoming', materialId: ids.screw, sampling: 'All', gates: true, items: [{ name: 'Thread', valueKind: 'PassFail', blocks: true }] }));
    const order = await auditedBill(api, 'PurchaseOrder', { billDate: DAY, supplierId: ids.supplier, lines: [{ materialId: ids.screw, number: 10, unitPrice: 3 }, { materialId: ids.milk, number: 2, unitPrice: 1 }] });
    const [screwLine, milkLine] = (await ok(api.get<{ lines: Array<{ id: number }> }>(`${billPath('PurchaseOrder')}/${order}`))).lines;
    const inspection = (line: Record<string, unknown>) => api.post(billPath('IncomingInspection'), { billDate: DAY, supplierId: ids.supplier, lines: [{ materialId: ids.screw, number: 10, sourceLineId: screwLine.id, ...line }] });
    const receipt = (number: number) => api.post(billPath('PurchaseInstock'), { billDate: DAY, supplierId: ids.supplier, warehouseId: ids.main, lines: [{ materialId: ids.screw, number, unitPrice: 3, sourceLineId: screwLine.id }] });
    await refusedWith(api.post(billPath('IncomingInspection'), { billDate: DAY, supplierId: ids.supplier, lines: [{ materialId: ids.milk, number: 2, sourceLineId: milkLine.id }] }), 'InspectionTemplateMissing', { line: 1, material: { code: 'MLK-1', name: 'Milk' } });
    await refusedWith(inspection({ acceptedNumber: 5, rejectedNumber: 1 }), 'InspectionQuantitiesMismatch', { line: 1, need: '10.000000', have: '6.000000' });
    await refusedWith(inspection({ sampleNumber: 11 }), 'InspectionSampleExceeds', { line: 1, need: '11.000000', have: '10.000000' });
    await refusedWith(receipt(4), 'InspectionReportNotAudit', { line: 1, material: screw });
    await auditedBill(api, 'IncomingInspection', { billDate: DAY, supplierId: ids.supplier, lines: [{ materialId: ids.screw, number: 4, sourceLineId: screwLine.id, readings: [{ item: 1, passed: true }] }] });
    await refusedWith(receipt(5), 'NumberExceedInspected', { line: 1, material: screw, need: '5.000000', have: '4.000000' });
    // Into a reject warehouse: what the inspections rejected (none of these four).
    const rejects = await api.create('stock', { code: 'REJ-1', name: 'Rejects', rejects: true });
    const intoRejects = api.post(billPath('PurchaseInstock'), { billDate: DAY, supplierId: ids.supplier, warehouseId: rejects, lines: [{ materialId: ids.screw, number: 1, unitPrice: 3, sourceLineId: screwLine.id }] });
    await refusedWith(intoRejects, 'NumberExceedRejected', { line: 1, material: screw, need: '1.000000', have: '0.000000' });
  });

  it('packing an inspection names the line and what it accepted or what its boxes hold', async () => {
    await ok(api.post('/api/admin/quality/inspectionTemplate', { code: 'OQC-R', name: 'Every shipment', inspectionKind: 'Shipment', sampling: 'All', gates: false, items: [{ name: 'Label', valueKind: 'PassFail', blocks: true }] }));
    const order = await auditedBill(api, 'SaleOrder', { billDate: DAY, customerId: ids.customer, lines: [{ materialId: ids.screw, number: 6, unitPrice: 3 }] });
    const [line] = (await ok(api.get<{ lines: Array<{ id: number }> }>(`${billPath('SaleOrder')}/${order}`))).lines;
    const check = (await ok(api.post<{ id: number }>(billPath('ShipmentInspection'), { billDate: DAY, customerId: ids.customer, lines: [{ materialId: ids.screw, number: 6, sourceLineId: line.id, readings: [{ item: 1, passed: true }] }] }))).id;
    const boxes = `${billPath('ShipmentInspection')}/box`;
    await refusedWith(api.post(boxes, { billId: check, lineNo: 1, quantity: 7 }), 'PackageExceedsAccepted', { line: 1, need: '7.000000', have: '6.000000' });
    await ok(api.post(boxes, { billId: check, lineNo: 1, quantity: 4 }));
    await setTenantConfig(ctx, t.tenantId, { packageResultLimitSubmit: true });
    await refusedWith(api.post(`${billPath('ShipmentInspection')}/submit`, { id: check }), 'PackageResultIncomplete', { line: 1, need: '6.000000', have: '4.000000' });
    await setTenantConfig(ctx, t.tenantId, { packageResultLimitSubmit: false });
  });

  it('an outsourcing receipt the supplier holds too little for names the order, the material and the quantities', async () => {
    const kit = await api.create('material', { code: 'KIT-1', name: 'Kit', units: [{ unitId: ids.piece, isMain: true }] });
    await api.create('bom', { materialId: kit, version: 'V1', isDefault: true, lines: [{ materialId: ids.screw, quantity: 2 }] });
    const order = await auditedBill(api, 'OutsourcingOrder', { billDate: DAY, supplierId: ids.supplier, lines: [{ role: 'Product', materialId: kit, number: 3, unitPrice: 5 }] });
    const detail = await ok(api.get<{ billCode: string; lines: Array<{ id: number; role: string }> }>(`${billPath('OutsourcingOrder')}/${order}`));
    const product = detail.lines.find((l) => l.role === 'Product')!;
    const { id } = await ok(api.post<{ id: number }>(billPath('OutsourcingInstock'), { billDate: DAY, supplierId: ids.supplier, warehouseId: ids.main, lines: [{ materialId: kit, number: 1, unitPrice: 5, sourceLineId: product.id }] }));
    await ok(api.post(`${billPath('OutsourcingInstock')}/submit`, { id }));
    await refusedWith(api.post(`${billPath('OutsourcingInstock')}/audit`, { id }), 'OutsourcingMaterialShort', { bill: detail.billCode, material: { code: 'SCR-8', name: 'Screw M8' } });
  });

  it('a fund account short of money is named by its name', async () => {
    const other = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Bank of Refusals', kind: 'bank', openingBalance: '0', openingDate: '2026-01-01' }))).id;
    await refusedWith(api.post('/api/admin/finance/transfer', { docDate: DAY, fromAccountId: ids.till, toAccountId: other, amount: '10150' }), 'AccountBalanceInsufficient', {
      account: 'Petty cash',
      need: '10150.000000',
      have: '10.000000',
      measure: 'amount',
    });
  });

  it('settling beyond what is open names the bill and the partner; a settled bill is named', async () => {
    const sale = await auditedBill(api, 'SaleOutstock', { billDate: DAY, customerId: ids.customer, warehouseId: ids.main, lines: [{ materialId: ids.screw, number: 1, unitPrice: 100 }] });
    const code = (await ok(api.get<{ billCode: string }>(`${billPath('SaleOutstock')}/${sale}`))).billCode;
    const receipt = (amount: string) => api.post(billPath('Receipt'), { billDate: DAY, customerId: ids.customer, receiptType: 'OrdinaryReceipt', fundAccountId: ids.till, lines: [{ sourceBillId: sale, amount }] });
    await refusedWith(receipt('100.01'), 'ReceiptAmountExceedUnreceived', { bill: code, partner: 'Beta Retail', need: '100.010000', have: '100.000000' });
    await auditedBill(api, 'Receipt', { billDate: DAY, customerId: ids.customer, receiptType: 'OrdinaryReceipt', fundAccountId: ids.till, lines: [{ sourceBillId: sale, amount: '100' }] });
    await refusedWith(receipt('1'), 'BillAllSettled', { bill: code });

    const purchase = await auditedBill(api, 'PurchaseInstock', { billDate: DAY, supplierId: ids.supplier, warehouseId: ids.main, lines: [{ materialId: ids.screw, number: 1, unitPrice: 20 }] });
    const purchaseCode = (await ok(api.get<{ billCode: string }>(`${billPath('PurchaseInstock')}/${purchase}`))).billCode;
    await refusedWith(
      api.post(billPath('Payment'), { billDate: DAY, supplierId: ids.supplier, payType: 'OrdinaryPay', fundAccountId: ids.till, lines: [{ sourceBillId: purchase, amount: '25' }] }),
      'PayAmountExceedUnpaid',
      { bill: purchaseCode, partner: 'Acme Supplies', need: '25.000000', have: '20.000000' },
    );
    // A deduction beyond the prepaid balance (none) names the supplier.
    await refusedWith(
      api.post(billPath('Payment'), { billDate: DAY, supplierId: ids.supplier, payType: 'DeductionAmount', lines: [{ sourceBillId: purchase, amount: '5' }] }),
      'PrepaidAmountExceedBalance',
      { partner: 'Acme Supplies', need: '5.000000', have: '0.000000' },
    );
    await refusedWith(
      api.post(billPath('Receipt'), { billDate: DAY, customerId: ids.customer, receiptType: 'SettlementReceipt', lines: [{ sourceBillId: await auditedBill(api, 'SaleOutstock', { billDate: DAY, customerId: ids.customer, warehouseId: ids.main, lines: [{ materialId: ids.screw, number: 1, unitPrice: 7 }] }), amount: '7' }] }),
      'AdvanceAmountExceedBalance',
      { partner: 'Beta Retail', need: '7.000000', have: '0.000000' },
    );
  });

  it('a settlement or deduction beyond the open amount is named as well', async () => {
    const purchase = await auditedBill(api, 'PurchaseInstock', { billDate: DAY, supplierId: ids.supplier, warehouseId: ids.main, lines: [{ materialId: ids.screw, number: 1, unitPrice: 30 }] });
    const code = (await ok(api.get<{ billCode: string }>(`${billPath('PurchaseInstock')}/${purchase}`))).billCode;
    await auditedBill(api, 'Payment', { billDate: DAY, supplierId: ids.supplier, payType: 'AdvancePay', fundAccountId: ids.till, prepaidAmount: '40.00' });
    await refusedWith(
      api.post(billPath('Payment'), { billDate: DAY, supplierId: ids.supplier, payType: 'DeductionAmount', lines: [{ sourceBillId: purchase, amount: '31' }] }),
      'DeductionAmountExceedUnsettled',
      { bill: code, partner: 'Acme Supplies', need: '31.000000', have: '30.000000' },
    );
    const sale = await auditedBill(api, 'SaleOutstock', { billDate: DAY, customerId: ids.customer, warehouseId: ids.main, lines: [{ materialId: ids.screw, number: 1, unitPrice: 9 }] });
    await auditedBill(api, 'Receipt', { billDate: DAY, customerId: ids.customer, receiptType: 'AdvanceReceipt', fundAccountId: ids.till, advanceAmount: '20.00' });
    const saleCode = (await ok(api.get<{ billCode: string }>(`${billPath('SaleOutstock')}/${sale}`))).billCode;
    await refusedWith(
      api.post(billPath('Receipt'), { billDate: DAY, customerId: ids.customer, receiptType: 'SettlementReceipt', lines: [{ sourceBillId: sale, amount: '9.5' }] }),
      'SettlementAmountExceedUnsettled',
      { bill: saleCode, partner: 'Beta Retail', need: '9.500000', have: '9.000000' },
    );
  });

  it('an invoice beyond the uninvoiced amount names its line and the bill invoiced', async () => {
    const sale = await auditedBill(api, 'SaleOutstock', { billDate: DAY, customerId: ids.customer, warehouseId: ids.main, lines: [{ materialId: ids.screw, number: 2, unitPrice: 10 }] });
    const source = await ok(api.get<{ billCode: string; lines: Array<{ id: number }> }>(`${billPath('SaleOutstock')}/${sale}`));
    await refusedWith(
      api.post(billPath('SaleInvoice'), { billDate: DAY, customerId: ids.customer, lines: [{ materialId: ids.screw, number: 2, unitPrice: 15, sourceLineId: source.lines[0].id }] }),
      'InvoiceAmountExceedUninvoiced',
      { line: 1, bill: source.billCode, need: '30.000000', have: '20.000000' },
    );
  });

  it('the shop names the product short of stock and writes counts and amounts', async () => {
    const mall = mallApi(ctx, api.token);
    const customer = await mall.customer('Shopper');
    const product = await mall.product(await mall.category('Tools'));
    const [sku] = product.skus;
    const order = (items: Array<{ skuId: number; quantity: number }>, extra: Record<string, unknown> = {}) =>
      api.post('/api/admin/mall/proxyOrder', { customerId: customer, consignee: 'a', phone: '1', address: 'x', items, ...extra });
    await refusedWith(order([{ skuId: sku.id, quantity: 21 }]), 'MallStockInsufficient', { product: `${product.name} ${sku.specValues.join(' ')}`, need: '21.000000', have: '20.000000', measure: 'count' });
    await refusedWith(order([{ skuId: sku.id, quantity: 1 }], { discountAmount: 9999 }), 'MallDiscountExceed', { need: '9999.000000', have: '10.000000' });
    const placed = await mall.order(customer, [{ skuId: sku.id, quantity: 2 }]);
    await mall.send('PUT', '/api/admin/mall/order/pay', { id: placed.id });
    await refusedWith(api.put('/api/admin/mall/order/refund/apply', { id: placed.id, reason: 'x', amount: 20.01 }), 'MallRefundAmountExceed', { need: '20.010000', have: '20.000000' });
    expect((product as MallProduct).skus.length).toBeGreaterThan(0);
  });

  it('every value-carrying refusal was met above, carries what its key declares, and reads named and rounded in zh and en', () => {
    expect([...seen.keys()].sort()).toEqual(Object.keys(refusalShapes).sort());
    for (const [key, body] of seen) {
      const shape = refusalShapes[key as keyof typeof refusalShapes] as RefusalShape;
      for (const field of shape.fields) expect(body.details?.[field], `${key}.${field}`).toBeDefined();
      // Names and decimal text only: the line number is the one number, and no field holds an id.
      for (const [field, value] of Object.entries(body.details ?? {})) {
        expect(field, key).not.toMatch(/id$/i);
        if (field === 'line') expect(typeof value).toBe('number');
        else if (field === 'material') expect(Object.keys(value as object).sort()).toEqual(['code', 'name']);
        else expect(typeof value, `${key}.${field}`).toBe('string');
      }
      for (const language of ['zh', 'en'] as const) {
        const text = refusalText(key, body.details, language, DIGITS);
        // No figure with more places than the tenant's, no bare value after a colon ("库存不足: 13").
        expect(text, text).not.toMatch(/\d\.\d{3,}/);
        expect(text, text).not.toMatch(/: ?\d+$/);
      }
    }
    // The figures read grouped: 10,150.00 of the fund account.
    expect(refusalText('AccountBalanceInsufficient', seen.get('AccountBalanceInsufficient')!.details, 'en', DIGITS)).toContain('asked 10,150.00');
    expect(refusalText('InsufficientInventory', seen.get('InsufficientInventory')!.details, 'zh', DIGITS)).toContain('第 2 行，物料 SCR-8 Screw M8，仓库 Main warehouse');
  });
});

describe('raising sites', () => {
  it('raise the keys that carry values only through refusal(), never with a bare additional', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) files.push(path);
      }
    };
    walk(join(import.meta.dirname, '../src'));
    const offenders: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const key of Object.keys(refusalShapes)) if (new RegExp(`new BizError\\(\\s*'${key}'`).test(text)) offenders.push(`${file}: ${key}`);
    }
    expect(offenders).toEqual([]);
  });
});
