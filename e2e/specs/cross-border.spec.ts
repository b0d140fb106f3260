import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startSuite, waitUntil, type Suite } from '../harness.ts';
import { demoPage, pageCaller, submitAuditAndClose, type Lang } from '../bill-steps.ts';

/**
 * Cross-border commerce (docs/cross-border.md) in the browser, zh and en: a sale out-stock to an export
 * customer whose currency is USD takes the dollar and the day's rate on the bill form; audited, it is booked in
 * CNY; its commercial invoice and packing list (built-in English templates) print with the materials' English
 * names, HS codes and weights and the bill's dollar amounts.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('cross-border');
});
afterAll(async () => {
  await suite?.close();
});

const TODAY = new Date().toISOString().slice(0, 10);

describe('cross-border (browser)', () => {
  it.each<[Lang, string]>([
    ['zh', 'zh-CN'],
    ['en', 'en-US'],
  ])('a USD sale to an export customer, its commercial invoice and packing list printed (%s)', async (lang, locale) => {
    const page = await demoPage(suite, lang, locale);
    const call = await pageCaller(suite, page);
    const stamp = `${lang}${Date.now().toString(36)}`;
    // The demo's dollar (seeded with two weeks of rates) and its motor, with its export data.
    const currencies = await call<Array<{ id: number; code: string }>>('GET', '/admin/basic/currency?current=1&pageSize=50');
    const usd = currencies.find((c) => c.code === 'USD')!;
    expect(usd).toBeTruthy();
    const material = (await call<Array<{ id: number; name: string }>>('GET', '/admin/basic/material?current=1&pageSize=100')).find((m) => m.name === '直流无刷电机')!;
    await call('PUT', '/admin/basic/material', { id: material.id, englishName: 'Brushless DC motor', hsCode: '8501.31', netWeight: 1.2, grossWeight: 1.45, originCountry: 'CN' });
    const customer = await call<{ id: number }>('POST', '/admin/basic/customer', { name: `Export buyer ${stamp}`, country: 'US', currencyId: usd.id, contacts: [], addresses: [] });
    const [warehouse] = await call<Array<{ id: number }>>('GET', '/admin/basic/stock?current=1&pageSize=1');
    await call('PUT', '/admin/admin/tenant', { openDirectOutstock: true });
    // Saved without a currency: the customer's dollar and today's rate are the server's.
    const made = await call<{ id: number; billCode: string }>('POST', '/admin/sale/outstock', { billDate: TODAY, customerId: customer.id, warehouseId: warehouse.id, lines: [{ materialId: material.id, number: 2, unitPrice: 52.5, warehouseId: warehouse.id }] });
    const bill = async () => call<{ billCode: string; currencyId: number; exchangeRate: number; billStatus: string }>('GET', `/admin/sale/outstock/${made.id}`);
    const saved = await bill();
    expect(saved.currencyId).toBe(usd.id);
    expect(saved.exchangeRate).toBeGreaterThan(0);

    // The form shows the dollar and the rate; submitted and audited there.
    await page.goto('/sale/outstock');
    await page.getByTestId('bill-screen-SaleOutstock').waitFor();
    await page.getByTestId(`bill-open-${made.id}`).click({ timeout: 30_000 });
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-field-exchangeRate').waitFor();
    await waitUntil(() => form.getByTestId('bill-field-exchangeRate').inputValue(), (v) => Number(v) === saved.exchangeRate, 'the rate on the form');
    await screenshot(page, `cross-border-outstock-${lang}`);
    await submitAuditAndClose(form);
    await waitUntil(bill, (b) => b.billStatus === 'Audit', 'audited');
    expect(await call<unknown[]>('POST', '/admin/finance/verify')).toEqual([]);

    // The commercial invoice, then the packing list, from the print dialog.
    await page.getByTestId(`bill-open-${made.id}`).click({ timeout: 30_000 });
    await page.getByTestId('bill-print').click({ timeout: 45_000 });
    const preview = page.getByTestId('bill-print-preview');
    const sheet = preview.getByTestId('print-page').first();
    await sheet.waitFor();
    for (const [name, title, expected] of [
      ['Commercial invoice', 'COMMERCIAL INVOICE', ['Brushless DC motor', '8501.31', 'Description of goods', '105.00']],
      ['Packing list', 'PACKING LIST', ['Brushless DC motor', 'Net weight (kg)', '2.40', '2.90']],
    ] as const) {
      await preview.getByTestId('bill-print-template').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }).click();
      await expect.poll(() => sheet.innerText(), { timeout: 20_000 }).toContain(title);
      const text = await sheet.innerText();
      for (const e of expected) expect(text, `${name}: ${e}`).toContain(e);
      expect(text).toContain(saved.billCode);
      await screenshot(page, `cross-border-${title.toLowerCase().replace(/ /g, '-')}-${lang}`);
    }
  }, 240_000);
});
