import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { errorCatalogue } from '@p8/contract/errors';
import { api, DEMO, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';

/**
 * Issue 10 evidence, in Chromium, once in Chinese and once in English: a purchase order (set up through
 * the API) pushed down into a purchase in-stock through the bill screens, audited, and the current stock
 * screen shows it; a sale order pushed down into an out-stock, audited, stock reduced; withdrawing the
 * audit restores it; a refused bill shows its reason on the timeline. Each language works on a material
 * of its own, so the quantities are exact.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('bills');
});
afterAll(() => suite?.close());

interface Named {
  id: number;
  name: string;
}

const LANGUAGES = [
  { lang: 'zh', locale: 'zh-CN', quantity: '数量' },
  { lang: 'en', locale: 'en-US', quantity: 'Quantity' },
] as const;

describe.each(LANGUAGES)('bills in $lang', ({ lang, locale, quantity }) => {
  let page: Page;
  let token = '';
  /** Uncaught errors of the page (an unhandled rejection of a refused operation among them): none allowed. */
  const pageErrors: string[] = [];
  afterEach(() => expect(pageErrors).toEqual([]));
  const ids = { unit: 0, material: 0, supplier: 0, customer: 0, warehouse: 0, location: 0 };
  const code = `E2E-${lang.toUpperCase()}-${Date.now() % 100000}`;

  async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await api<T>(suite.server, method, url, body, token);
    expect(res.status, `${method} ${url}: ${res.message}`).toBe(0);
    return res.data;
  }
  const first = async (url: string, name?: string) => (await call<Named[]>('GET', `${url}?current=1&pageSize=50`)).find((r) => !name || r.name === name)!.id;

  /** A bill made through the API and audited (the source of a push down). */
  async function auditedOrder(path: string, header: Record<string, unknown>, number: number, unitPrice: number) {
    const made = await call<{ id: number }>('POST', path, { billDate: new Date().toISOString().slice(0, 10), ...header, lines: [{ materialId: ids.material, number, unitPrice }] });
    await call('POST', `${path}/submit`, { id: made.id });
    await call('POST', `${path}/audit`, { id: made.id });
    const detail = await call<{ lines: Array<{ id: number }> }>('GET', `${path}/${made.id}`);
    return { id: made.id, lineId: detail.lines[0].id };
  }

  /** Opens a bill screen from its address and waits for its list. */
  async function openScreen(path: string) {
    await page.goto(path);
    await page.locator('.ant-table-tbody').first().waitFor();
  }

  /** Push down on the screen: new bill → from source bills → the source line → a draft in the form. */
  async function pushDown(sourceLineId: number): Promise<number> {
    await page.getByTestId('bill-add').click();
    await page.getByTestId('bill-pushdown').click();
    const dialog = page.getByTestId('bill-pushdown-dialog');
    await dialog.locator(`tr[data-row-key="${sourceLineId}"] .ant-checkbox-input`).click();
    // Second step: the chosen lines with their quantities (left at the open quantity here).
    await dialog.getByTestId('bill-pushdown-next').click();
    await dialog.getByTestId(`bill-pushdown-number-${sourceLineId}`).waitFor();
    await screenshot(page, `bills-${lang}-pushdown-adjust`);
    const answer = page.waitForResponse((r) => r.url().includes('/pushDown') && r.request().method() === 'POST');
    await dialog.getByTestId('bill-pushdown-ok').click();
    const made = (await (await answer).json()) as { data: { id: number } };
    await page.getByTestId('bill-status').waitFor();
    return made.data.id;
  }

  /** The draft gets its warehouse and location (the picker dialogs are covered by basic-records), then is submitted and audited on the screen. */
  async function placeSubmitAudit(path: string, id: number, screen: string, editedOnScreen = false) {
    const draft = await call<Record<string, unknown> & { lines: Array<Record<string, unknown>> }>('GET', `${path}/${id}`);
    const placed = { warehouseId: ids.warehouse, locationId: ids.location };
    await call('PUT', path, {
      id,
      billDate: draft.billDate,
      supplierId: draft.supplierId ?? undefined,
      customerId: draft.customerId ?? undefined,
      warehouseId: ids.warehouse,
      lines: draft.lines.map((l) => ({ materialId: l.materialId, unitId: l.unitId, number: l.number, unitPrice: l.unitPrice, sourceLineId: l.sourceLineId, ...placed })),
    });
    // Reopen the bill from the list: the form shows what was saved. A form edited on screen and not saved
    // there asks before closing: the edit is discarded.
    await page.getByTestId('bill-close').click();
    if (editedOnScreen) await page.getByTestId('discard-ok').click();
    await page.getByTestId('pro-table-refresh').first().click();
    await page.getByTestId(`bill-open-${id}`).click();
    await page.getByTestId('bill-op-submit').click();
    await page.getByTestId('bill-op-audit').waitFor();
    await screenshot(page, `bills-${lang}-${screen}-submitted`);
    await page.getByTestId('bill-op-audit').click();
    await page.getByTestId('bill-op-abandonAudit').waitFor();
  }

  /** The current stock of the material on the stock screen (searched by its code). */
  async function stockOnScreen(): Promise<number> {
    await openScreen('/stock/current');
    await page.locator('#search_stock_current_keyword').fill(code);
    await page.locator('[data-testid="stock-current"] [data-testid="pro-table-search-submit"]').click();
    const headers = await page.locator('[data-testid="stock-current"] thead th').allTextContents();
    const column = headers.findIndex((h) => h.trim() === quantity);
    const rows = page.locator(`[data-testid="stock-current"] tbody tr[data-row-key^="${ids.material}:"]`);
    return waitUntil(
      async () => (await rows.count()) === 0 ? 0 : Number((await rows.first().locator('td').nth(column).textContent())?.replace(/,/g, '')),
      (n) => Number.isFinite(n),
      'the stock row',
    );
  }

  it('sets up a material of its own through the API', async () => {
    page = await suite.signedInPage(DEMO, { locale });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    token = await storedToken(page);
    ids.unit = await first('/admin/basic/unit', '台');
    ids.supplier = await first('/admin/basic/supplier');
    ids.customer = await first('/admin/basic/customer');
    ids.warehouse = await first('/admin/basic/stock', '成品仓');
    ids.location = (await call<Named[]>('GET', `/admin/basic/location/picker?current=1&pageSize=50&warehouseId=${ids.warehouse}`)).find((l) => l.name.startsWith('C-01'))!.id;
    ids.material = (await call<{ id: number }>('POST', '/admin/basic/material', { code, name: `E2E ${lang} 电机`, units: [{ unitId: ids.unit, ratio: 1, isMain: true }] })).id;
  });

  it('pushes a purchase order down into an in-stock, audits it, and the current stock screen shows it', async () => {
    const order = await auditedOrder('/admin/purchase/order', { supplierId: ids.supplier }, 30, 100);
    await openScreen('/purchase/instock');
    await screenshot(page, `bills-${lang}-instock-list`);
    const instock = await pushDown(order.lineId);
    await screenshot(page, `bills-${lang}-instock-draft`);
    // A quantity of 0 is refused on its cell in the page's language before anything is sent: Submit checks the form first.
    await page.getByTestId('bill-line-0-number').fill('0');
    await page.getByTestId('bill-op-submit').click();
    await page.getByText(errorCatalogue.NumberMustGreaterThanZero[lang]).waitFor();
    expect((await call<{ billStatus: string }>('GET', `/admin/purchase/instock/${instock}`)).billStatus).toBe('Saved');
    await placeSubmitAudit('/admin/purchase/instock', instock, 'instock', true);
    await screenshot(page, `bills-${lang}-instock-audited`);
    expect(await stockOnScreen()).toBe(30);
    await screenshot(page, `bills-${lang}-stock-current`);
  }, 180_000);

  it('pushes a sale order down into an out-stock: audited, stock goes down; withdrawn, it comes back', async () => {
    const order = await auditedOrder('/admin/sale/order', { customerId: ids.customer }, 12, 150);
    await openScreen('/sale/outstock');
    const outstock = await pushDown(order.lineId);
    await placeSubmitAudit('/admin/sale/outstock', outstock, 'outstock');
    expect(await stockOnScreen()).toBe(18);

    await openScreen('/sale/outstock');
    await page.getByTestId(`bill-open-${outstock}`).click();
    await page.getByTestId('bill-op-abandonAudit').click();
    await page.getByTestId('bill-op-submit').waitFor();
    await screenshot(page, `bills-${lang}-outstock-withdrawn`);
    expect(await stockOnScreen()).toBe(30);
    expect(await call('POST', '/admin/stock/verify')).toEqual([]);
    await openScreen('/stock/ledger');
    await screenshot(page, `bills-${lang}-stock-ledger`);
    await openScreen('/stock/summary');
    await screenshot(page, `bills-${lang}-stock-summary`);
  }, 240_000);

  it('refuses a submitted bill with a reason that the timeline shows', async () => {
    const made = await call<{ id: number }>('POST', '/admin/sale/order', { billDate: new Date().toISOString().slice(0, 10), customerId: ids.customer, lines: [{ materialId: ids.material, number: 5, unitPrice: 90 }] });
    await call('POST', '/admin/sale/order/submit', { id: made.id });
    await openScreen('/sale/order');
    await page.getByTestId(`bill-open-${made.id}`).click();
    await page.getByTestId('bill-op-refuse').click();
    const reason = lang === 'zh' ? '单价低于最低售价' : 'Price below the floor';
    await page.getByTestId('bill-refuse-reason').fill(reason);
    await page.getByTestId('bill-refuse-ok').click();
    await page.getByTestId('bill-reject-reason').waitFor();
    const timeline = page.getByTestId('bill-timeline');
    await waitUntil(() => timeline.textContent(), (text) => !!text?.includes(reason), 'the reason on the timeline');
    await screenshot(page, `bills-${lang}-refused-timeline`);
  }, 120_000);

  it('shows a refused operation as its catalogued message, without a page error', async () => {
    const made = await call<{ id: number }>('POST', '/admin/stock/otherOutstock', {
      billDate: new Date().toISOString().slice(0, 10),
      warehouseId: ids.warehouse,
      lines: [{ materialId: ids.material, number: 99_999 }],
    });
    await call('POST', '/admin/stock/otherOutstock/submit', { id: made.id });
    await openScreen('/stock/otherOutstock');
    await page.getByTestId(`bill-open-${made.id}`).click();
    await page.getByTestId('bill-op-audit').click();
    await page.locator('.ant-message').getByText(errorCatalogue.InsufficientInventory[lang]).waitFor();
    // The bill stays where it was, its buttons still there.
    await page.getByTestId('bill-op-audit').waitFor();
    await screenshot(page, `bills-${lang}-refused-audit`);
    await page.getByTestId('bill-close').click();
  }, 120_000);

  it('exports the purchase order list and imports new orders from a workbook', async () => {
    await openScreen('/purchase/order');
    await screenshot(page, `bills-${lang}-order-list`);
    const download = page.waitForEvent('download');
    await page.getByTestId('export-button').click();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'bills-')), 'orders.xlsx');
    await (await download).saveAs(file);
    const exported = new ExcelJS.Workbook();
    await exported.xlsx.readFile(file);
    const titles = (exported.worksheets[0].getRow(1).values as unknown[]).slice(1);
    expect(titles[0]).toBe(lang === 'zh' ? '单据编号' : 'Bill code');
    expect(exported.worksheets[0].rowCount).toBeGreaterThan(1);

    const supplier = await call<{ code: string }>('GET', `/admin/basic/supplier/${ids.supplier}`);
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Sheet1');
    sheet.addRow(lang === 'zh' ? ['分组', '单据日期', '供应商', '物料', '数量', '单价', '明细备注'] : ['Group', 'Bill date', 'Supplier', 'Material', 'Quantity', 'Unit price', 'Line remark']);
    const remark = `E2E import ${lang} ${Date.now() % 100000}`;
    sheet.addRow(['a', '2026-11-20', supplier.code, code, 2, 10, remark]);
    sheet.addRow(['a', '2026-11-20', supplier.code, code, 3, 10, remark]);
    sheet.addRow(['b', '2026-11-21', supplier.code, code, 1, 10, remark]);
    const upload = path.join(path.dirname(file), 'new-orders.xlsx');
    await book.xlsx.writeFile(upload);

    await page.getByTestId('bill-import').click();
    const dialog = page.getByTestId('import-excel');
    await dialog.getByTestId('import-excel-template').waitFor();
    await screenshot(page, `bills-${lang}-import-dialog`);
    await dialog.locator('input[type=file]').setInputFiles(upload);
    await dialog.getByTestId('import-excel-submit').click();
    const notice = page.getByTestId('import-result');
    await notice.waitFor();
    expect((await notice.textContent()) ?? '').toMatch(/3[^\d]+3[^\d]+0/); // 3 rows, 3 in, 0 errors
    const orders = await call<Array<{ billDate: string; number: number }>>('GET', `/admin/purchase/order?current=1&pageSize=50&start=2026-11-20&end=2026-11-21`);
    expect(orders.length).toBeGreaterThanOrEqual(2);
    await screenshot(page, `bills-${lang}-import-result`);
  }, 180_000);

  it('counts the status tabs under the list search', async () => {
    const order = await auditedOrder('/admin/purchase/order', { supplierId: ids.supplier }, 1, 1);
    const { billCode } = await call<{ billCode: string }>('GET', `/admin/purchase/order/${order.id}`);
    await openScreen('/purchase/order');
    const allCount = page.getByTestId('bill-status-tabs').locator('.bill-tab-count').first();
    await waitUntil(async () => Number(await allCount.textContent()), (n) => n > 1, 'the unfiltered count');
    await page.locator('[id$="_billCode"]').first().fill(billCode);
    await page.getByTestId('pro-table-search-submit').first().click();
    // One bill matches: the "all" tab and its status's tab say 1, the list shows it alone.
    await waitUntil(async () => Number(await allCount.textContent()), (n) => n === 1, 'the searched count');
    await expect.poll(() => page.locator('.ant-table-tbody tr[data-row-key]').count()).toBe(1);
    await screenshot(page, `bills-${lang}-tabs-searched`);
  }, 120_000);

  it('lets every list column be reached at 1440 px, the progress column included', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openScreen('/purchase/order');
    const table = page.locator('.ant-table-content, .ant-table-body').first();
    const progress = page.locator('thead th').filter({ hasText: lang === 'zh' ? '入库状态' : 'Stock-in' }).first();
    await progress.scrollIntoViewIfNeeded();
    const box = await progress.boundingBox();
    const view = await table.boundingBox();
    expect(box && view && box.x + box.width <= view.x + view.width + 1).toBe(true);
    await screenshot(page, `bills-${lang}-order-list-scrolled`);
  }, 120_000);
});
