import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';
import { demoPage, pageCaller, searchPushDown, type Lang } from '../bill-steps.ts';

/**
 * Quality in Chromium, in zh and en: an incoming inspection pushed down from a purchase order of MCUs (whose
 * template holds the goods back), its readings entered against the template's items in the line's dialog — a
 * reading out of tolerance judged failed as typed — saved with the verdict the server gives, audited on its form;
 * then the in-stock takes what it accepted; the pass-rate report shows the month by supplier. A shipment inspection
 * packed into boxes in its packing drawer (what each line accepted against what its boxes hold), and the open
 * rejects (the demo's failed MCUs among them).
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('quality');
});
afterAll(() => suite?.close());

interface Named {
  id: number;
  name: string;
}

describe('quality (browser)', () => {
  it.each<[Lang, string, string, string]>([
    ['zh', 'zh-CN', '合格', '不合格'],
    ['en', 'en-US', 'Pass', 'Fail'],
  ])('inspects a delivery on the incoming inspection screen and lets in only what passed (%s)', async (lang, locale, pass, fail) => {
    const page = await demoPage(suite, lang, locale);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const call = await pageCaller(suite, page);
    const mcu = (await call<Named[]>('GET', '/admin/basic/material?current=1&pageSize=200')).find((m) => m.name === '单片机')!.id;
    const supplier = (await call<Array<Named & { shortName?: string }>>('GET', '/admin/basic/supplier?current=1&pageSize=100'))[0].id;
    const raw = (await call<Named[]>('GET', '/admin/basic/stock?current=1&pageSize=50')).find((w) => w.name === '原料仓')!.id;
    const today = new Date().toISOString().slice(0, 10);
    const order = await call<{ id: number; billCode: string }>('POST', '/admin/purchase/order', { billDate: today, supplierId: supplier, remark: `E2E ${lang}`, lines: [{ materialId: mcu, number: 40, unitPrice: 9.6 }] });
    for (const step of ['submit', 'audit']) await call('POST', `/admin/purchase/order/${step}`, { id: order.id });
    const [orderLine] = (await call<{ lines: Array<{ id: number }> }>('GET', `/admin/purchase/order/${order.id}`)).lines;

    // Nothing inspected: the in-stock is refused.
    const receipt = (number: number) => ({ billDate: today, supplierId: supplier, warehouseId: raw, lines: [{ materialId: mcu, number, unitPrice: 9.6, sourceLineId: orderLine.id, warehouseId: raw }] });
    const token = await storedToken(page);
    expect((await api(suite.server, 'POST', '/admin/purchase/instock', receipt(40), token)).message).toBe('InspectionReportNotAudit');

    // The incoming inspection screen's push down from the order.
    await page.goto('/quality/incoming');
    await page.getByTestId('bill-add').click();
    await page.getByTestId('bill-pushdown').click();
    const dialog = page.getByTestId('bill-pushdown-dialog');
    await searchPushDown(dialog, order.billCode);
    await dialog.locator(`tr[data-row-key="${orderLine.id}"] .ant-checkbox-input`).click();
    await dialog.getByTestId('bill-pushdown-next').click();
    await dialog.getByTestId(`bill-pushdown-number-${orderLine.id}`).waitFor();
    await dialog.getByTestId('bill-pushdown-ok').click();
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-status').waitFor();

    // The readings, against the MCU template's three items: the coplanarity out of tolerance fails the lot as typed.
    await form.getByTestId('bill-line-0-readings').click();
    const cell = 'bill-line-0-readings';
    await page.getByTestId(`${cell}-item-3`).waitFor();
    await page.getByTestId(`${cell}-item-1`).locator('.ant-radio-wrapper').first().click();
    await page.getByTestId(`${cell}-item-2`).locator('.ant-radio-wrapper').first().click();
    await page.getByTestId(`${cell}-item-3`).fill('0.2');
    await waitUntil(() => page.getByTestId('readings-verdict').textContent(), (text) => !!text?.includes(fail), 'the lot judged failed');
    await page.getByTestId(`${cell}-item-3`).fill('0.05');
    await waitUntil(() => page.getByTestId('readings-verdict').textContent(), (text) => !!text?.includes(pass) && !text.includes(fail), 'the lot judged passed');
    await screenshot(page, `quality-${lang}-readings`);
    await page.getByTestId('readings-ok').click();
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/quality/incoming')), form.getByTestId('bill-save').click()]);
    // The server's verdict and the template it followed, shown on the line.
    await waitUntil(() => form.getByTestId('bill-line-0-verdict').textContent(), (text) => text === pass, 'the verdict saved');
    await waitUntil(() => form.getByTestId('bill-line-0-templateId').textContent(), (text) => text === '单片机来料检验', 'the template named');
    await screenshot(page, `quality-${lang}-inspection`);
    for (const step of ['submit', 'audit']) {
      await form.getByTestId(`bill-op-${step}`).click();
      await form.getByTestId(`bill-op-${step}`).waitFor({ state: 'detached' });
    }
    await form.getByTestId('bill-close').click();

    // What passed goes in now.
    const taken = await call<{ id: number }>('POST', '/admin/purchase/instock', receipt(40));
    expect(taken.id).toBeGreaterThan(0);

    // The pass rate of the month by supplier, as bars and rows (the demo's MCU deliveries among them).
    await page.goto('/quality/passRate');
    await page.getByTestId('pass-rate-cell').first().waitFor();
    await page.getByTestId('pass-rate-chart').locator('canvas').waitFor();
    await screenshot(page, `quality-${lang}-pass-rate`);
    expect(pageErrors).toEqual([]);
  });

  it.each<[Lang, string, string]>([
    ['zh', 'zh-CN', '待处理数'],
    ['en', 'en-US', 'Open'],
  ])('packs a shipment inspection into boxes and lists the open rejects (%s)', async (lang, locale, openTitle) => {
    const page = await demoPage(suite, lang, locale);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const call = await pageCaller(suite, page);
    const motor = (await call<Named[]>('GET', '/admin/basic/material?current=1&pageSize=200')).find((m) => m.name === '直流无刷电机')!.id;
    const customer = (await call<Named[]>('GET', '/admin/basic/customer?current=1&pageSize=100'))[0].id;
    const today = new Date().toISOString().slice(0, 10);
    const order = await call<{ id: number }>('POST', '/admin/sale/order', { billDate: today, customerId: customer, lines: [{ materialId: motor, number: 6, unitPrice: 320 }] });
    for (const step of ['submit', 'audit']) await call('POST', `/admin/sale/order/${step}`, { id: order.id });
    const [orderLine] = (await call<{ lines: Array<{ id: number }> }>('GET', `/admin/sale/order/${order.id}`)).lines;
    const check = await call<{ id: number }>('POST', '/admin/quality/shipment', { billDate: today, customerId: customer, lines: [{ materialId: motor, number: 6, sourceLineId: orderLine.id, readings: [{ item: 1, passed: true }, { item: 2, passed: true }] }] });

    await page.goto('/quality/shipment');
    await page.getByTestId(`bill-open-${check.id}`).click();
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-status').waitFor();
    await page.getByTestId('bill-packing').click();
    const drawer = page.getByTestId('bill-packing-drawer');
    for (const quantity of ['4', '2']) {
      await drawer.getByTestId('bill-packing-quantity').fill(quantity);
      await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/quality/shipment/box')), drawer.getByTestId('bill-packing-go').click()]);
    }
    await waitUntil(() => drawer.getByTestId('bill-packing-boxes').locator('tbody tr.ant-table-row').count(), (n) => n === 2, 'two boxes');
    await waitUntil(() => drawer.getByTestId('bill-packing-line-1').getAttribute('class'), (c) => !!c?.includes('green'), 'the line all boxed');
    await screenshot(page, `quality-${lang}-packing`);
    // The boxes' labels: one each, the box code as its QR code.
    await drawer.getByTestId('bill-packing-labels').click();
    await page.getByTestId('label-print-sheets').locator('svg, canvas, img').first().waitFor();
    await screenshot(page, `quality-${lang}-box-labels`);

    // The open rejects: the demo's 200 MCUs that failed on coplanarity, still with the supplier.
    await page.goto('/quality/openRejects');
    const table = page.getByTestId('open-rejects');
    await table.getByText(openTitle, { exact: true }).first().waitFor();
    await waitUntil(() => table.locator('tbody').textContent(), (text) => !!text?.includes('单片机') && !!text.includes('200'), 'the MCUs listed');
    await screenshot(page, `quality-${lang}-open-rejects`);
    expect(pageErrors).toEqual([]);
  });
});
