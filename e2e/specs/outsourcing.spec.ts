import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';
import { demoPage, pageCaller, type Lang } from '../bill-steps.ts';

/**
 * Outsourcing in Chromium, in zh and en: an order for motor brackets (materials from the bracket's BOM), its
 * materials sent, five brackets inspected with one rejected (a template that holds the brackets back until then)
 * and the four accepted received, through the API as signed in; the inspection shows on the incoming inspection
 * screen, the order list shows the order part received, and the materials-at-suppliers screen shows what the
 * supplier still holds of the order's materials.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('outsourcing');
});
afterAll(() => suite?.close());

interface Named {
  id: number;
  name: string;
  shortName?: string;
}
interface OrderLine {
  id: number;
  role: string;
  materialId: number;
  number: number;
}

describe('outsourcing (browser)', () => {
  it.each<[Lang, string, string]>([
    ['zh', 'zh-CN', '部分入库'],
    ['en', 'en-US', 'Partly in stock'],
  ])('sends materials, receives part, and shows what the supplier holds (%s)', async (lang, locale, partly) => {
    const page = await demoPage(suite, lang, locale);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const call = await pageCaller(suite, page);
    const materials = await call<Named[]>('GET', '/admin/basic/material?current=1&pageSize=200');
    const bracket = materials.find((m) => m.name === '电机安装支架')!.id;
    const supplier = (await call<Named[]>('GET', '/admin/basic/supplier?current=1&pageSize=50')).find((s) => s.shortName === '恒通五金')!.id;
    const warehouses = await call<Named[]>('GET', '/admin/basic/stock?current=1&pageSize=50');
    const raw = warehouses.find((w) => w.name === '原料仓')!.id;
    const semi = warehouses.find((w) => w.name === '半成品仓')!.id;
    const locations = await call<Named[]>('GET', '/admin/basic/location?current=1&pageSize=50');
    const place = (name: string) => locations.find((l) => l.name === name)!.id;
    const today = new Date().toISOString().slice(0, 10);
    const pass = async (route: string, id: number) => {
      for (const step of ['submit', 'audit']) await call('POST', `/admin/outsourcing/${route}/${step}`, { id });
    };

    // 10 brackets at 6.00: 5 kg of steel and 40 screws to send, from the BOM.
    const order = await call<{ id: number }>('POST', '/admin/outsourcing/order', { billDate: today, supplierId: supplier, remark: `E2E ${lang}`, lines: [{ role: 'Product', materialId: bracket, number: 10, unitPrice: 6, warehouseId: semi }] });
    await pass('order', order.id);
    const detail = await call<{ billCode: string; lines: OrderLine[] }>('GET', `/admin/outsourcing/order/${order.id}`);
    const [product, ...sent] = detail.lines;
    expect(sent.map((l) => l.number)).toEqual([5, 40]);
    const steelPlace = place('A-01 钢材区');
    const screwPlace = place('A-03 五金区');
    const pick = await call<{ id: number }>('POST', '/admin/outsourcing/pick', {
      billDate: today,
      supplierId: supplier,
      warehouseId: raw,
      lines: sent.map((l, i) => ({ materialId: l.materialId, number: l.number, sourceLineId: l.id, warehouseId: raw, locationId: i === 0 ? steelPlace : screwPlace })),
    });
    await pass('pick', pick.id);
    // The brackets wait for their incoming inspection: five looked at, one rejected, four accepted.
    await call('POST', '/admin/quality/inspectionTemplate', {
      code: `IQC-BRK-${lang}`, name: `支架来料检验 ${lang}`, inspectionKind: 'Incoming', materialId: bracket, sampling: 'All', gates: true,
      items: [{ name: '孔位', method: '检具', valueKind: 'PassFail', blocks: true }],
    });
    const receiptOf = (number: number) => ({ billDate: today, supplierId: supplier, warehouseId: semi, lines: [{ materialId: bracket, number, unitPrice: 6, sourceLineId: product.id, warehouseId: semi }] });
    expect((await api(suite.server, 'POST', '/admin/outsourcing/instock', receiptOf(4), await storedToken(page))).message).toBe('InspectionReportNotAudit');
    const inspection = await call<{ id: number }>('POST', '/admin/quality/incoming', {
      billDate: today, supplierId: supplier, lines: [{ materialId: bracket, number: 5, sourceLineId: product.id, acceptedNumber: 4, rejectedNumber: 1, readings: [{ item: 1, passed: true }] }],
    });
    for (const step of ['submit', 'audit']) await call('POST', `/admin/quality/incoming/${step}`, { id: inspection.id });
    expect((await api(suite.server, 'POST', '/admin/outsourcing/instock', receiptOf(5), await storedToken(page))).message).toBe('NumberExceedInspected');
    await page.goto('/quality/incoming');
    await page.getByTestId(`bill-open-${inspection.id}`).click();
    await page.getByTestId('bill-form').getByTestId('bill-status').waitFor();
    await screenshot(page, `outsourcing-${lang}-inspection`);
    await page.getByTestId('bill-form').getByTestId('bill-close').click();

    // 4 accepted: 2 kg of steel and 16 screws consumed; 3 kg and 24 screws still at the supplier.
    const receipt = await call<{ id: number }>('POST', '/admin/outsourcing/instock', { billDate: today, supplierId: supplier, warehouseId: semi, lines: [{ materialId: bracket, number: 4, unitPrice: 6, sourceLineId: product.id, warehouseId: semi }] });
    await pass('instock', receipt.id);

    await page.goto('/outsourcing/order');
    const row = page.locator('tr', { hasText: detail.billCode });
    await waitUntil(() => row.textContent(), (text) => !!text?.includes(partly), 'the order part received');
    await screenshot(page, `outsourcing-${lang}-orders`);

    await page.goto('/outsourcing/atSupplier');
    const table = page.getByTestId('outsourcing-at-supplier');
    await table.locator('input').first().waitFor();
    const rows = table.locator('tbody tr', { hasText: detail.billCode });
    await waitUntil(() => rows.count(), (n) => n === 2, 'the order’s two materials listed');
    const texts = await rows.allTextContents();
    expect(texts.some((t) => t.includes('冷轧钢板') && t.includes('3'))).toBe(true);
    expect(texts.some((t) => t.includes('内六角螺钉') && t.includes('24'))).toBe(true);
    await screenshot(page, `outsourcing-${lang}-at-supplier`);
    expect(pageErrors).toEqual([]);
  });
});
