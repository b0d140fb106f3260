import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { api, DEMO, ROOT, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';
import { demoPage } from '../bill-steps.ts';

/**
 * Issue 11 evidence: a product with 2 × 3 SKUs made in the product dialog's SKU editor, an order placed
 * for a customer from the proxy-order screen, and that order moved through payment, shipping and receipt
 * in its detail drawer — each step checked through the API.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('mall');
});
afterAll(async () => {
  await suite?.close();
});

interface Product {
  id: number;
  name: string;
  skus: Array<{ id: number; specValues: string[]; price: number; stock: number }>;
}
interface Order {
  id: number;
  orderNo: string;
  status: string;
  items: Array<{ skuId: number; quantity: number }>;
}

async function pickOption(page: Page, text: string, tree = false) {
  const options = page.locator(`.ant-select-dropdown ${tree ? '.ant-select-tree-node-content-wrapper' : '.ant-select-item-option'}`);
  await options.filter({ hasText: text, visible: true }).first().click();
}

/** A number input's own <input>: antd puts the test id on the input itself, other inputs on their wrapper. */
function inputOf(scope: Page | Locator, testId: string): Locator {
  return scope.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
}

async function typeValues(page: Page, testId: string, values: string[]) {
  const input = page.getByTestId(testId).locator('input');
  for (const value of values) {
    await input.fill(value);
    await input.press('Enter');
  }
}

describe('mall (browser)', () => {
  it('creates a product with 2 × 3 SKUs, places a proxy order and moves it to completed', async () => {
    const page = await suite.signedInPage(DEMO, { viewport: { width: 1440, height: 900 } });
    const token = await storedToken(page);
    const stamp = Date.now().toString(36);
    const category = await api<{ id: number }>(suite.server, 'POST', '/admin/mall/category', { name: `E2E分类${stamp}` }, token);
    expect(category.status).toBe(0);
    const customer = await api<{ id: number }>(suite.server, 'POST', '/admin/basic/customer', { name: `E2E顾客${stamp}`, phone: '13700000000' }, token);
    expect(customer.status).toBe(0);

    // The product, with its SKU matrix.
    const name = `E2E商品${stamp}`;
    await page.goto('/mall/product');
    await page.getByTestId('product-add').click();
    const dialog = page.getByTestId('product-dialog');
    await dialog.getByTestId('product-name').fill(name);
    await dialog.getByTestId('product-category').click();
    await pickOption(page, `E2E分类${stamp}`, true);
    await dialog.getByTestId('product-images').locator('input[type=file]').setInputFiles({ name: 'e2e.png', mimeType: 'image/png', buffer: readFileSync(path.join(ROOT, 'docs/screenshots/home.png')) });
    await waitUntil(() => dialog.getByTestId('product-images').locator('img').count(), (n) => n > 0, 'the image to upload');
    await dialog.locator('.ant-tabs-tab').nth(1).click();
    await dialog.getByTestId('spec-add').click();
    await dialog.getByTestId('spec-0-name').fill('颜色');
    await typeValues(page, 'spec-0-values', ['红', '蓝']);
    await dialog.getByTestId('spec-add').click();
    await dialog.getByTestId('spec-1-name').fill('尺码');
    await typeValues(page, 'spec-1-values', ['S', 'M', 'L']);
    await waitUntil(() => dialog.getByTestId('sku-grid').locator('tbody tr.ant-table-row').count(), (n) => n === 6, 'six SKU rows');
    await inputOf(dialog, 'sku-batch-price').fill('99.5');
    await inputOf(dialog, 'sku-batch-stock').fill('10');
    await dialog.getByTestId('sku-batch-apply').click();
    await inputOf(dialog, 'sku-0-price').fill('88');
    await screenshot(page, 'mall-sku-editor');
    await dialog.getByTestId('product-dialog-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    const list = await api<Array<{ id: number; name: string }>>(suite.server, 'GET', `/admin/mall/product?name=${encodeURIComponent(name)}`, undefined, token);
    const product = (await api<Product>(suite.server, 'GET', `/admin/mall/product/${list.data[0].id}`, undefined, token)).data;
    expect(product.skus.map((s) => [s.specValues.join('/'), s.price, s.stock])).toEqual([
      ['红/S', 88, 10], ['红/M', 99.5, 10], ['红/L', 99.5, 10], ['蓝/S', 99.5, 10], ['蓝/M', 99.5, 10], ['蓝/L', 99.5, 10],
    ]);
    await api(suite.server, 'PUT', '/admin/mall/product/shelves', { ids: [product.id], onShelf: true }, token);

    // The order, placed for the customer.
    await page.goto('/mall/proxyOrder');
    await page.getByTestId('proxyOrder-add').click();
    const place = page.getByTestId('proxy-order-dialog');
    await place.getByTestId('proxy-customer').click();
    const picker = page.getByTestId('customer-picker');
    await picker.getByTestId('customer-picker-search').fill(`E2E顾客${stamp}`);
    await picker.getByTestId(`customer-picker-row-${customer.data.id}`).click();
    await picker.getByTestId('customer-picker-ok').click();
    await place.getByTestId('proxy-address').fill('上海市浦东新区世纪大道 100 号');
    await place.getByTestId('proxy-sku').click();
    await place.getByTestId('proxy-sku').locator('input').fill(name);
    await pickOption(page, '蓝 / M');
    // More than the stock (10) is refused with why, not cut to the stock: no order is placed.
    await inputOf(place, 'proxy-line-0-quantity').fill('11');
    await place.getByTestId('proxy-submit').click();
    await page.locator('.ant-message').filter({ hasText: '商品库存不足' }).waitFor();
    expect((await api<Order[]>(suite.server, 'GET', `/admin/mall/proxyOrder?customerId=${customer.data.id}`, undefined, token)).data).toHaveLength(0);
    await inputOf(place, 'proxy-line-0-quantity').fill('2');
    await place.getByTestId('proxy-submit').click();
    const drawer = page.getByTestId('order-detail');
    await drawer.getByTestId('order-timeline').waitFor();
    const orders = await api<Order[]>(suite.server, 'GET', `/admin/mall/proxyOrder?customerId=${customer.data.id}`, undefined, token);
    expect(orders.data).toHaveLength(1);
    const id = orders.data[0].id;
    const blueM = product.skus.find((s) => s.specValues.join('/') === '蓝/M')!;
    expect((await api<Product>(suite.server, 'GET', `/admin/mall/product/${product.id}`, undefined, token)).data.skus.find((s) => s.id === blueM.id)!.stock).toBe(8);

    // Paid, shipped, received — in the drawer.
    const status = async () => (await api<Order>(suite.server, 'GET', `/admin/mall/order/${id}`, undefined, token)).data.status;
    await drawer.getByTestId(`order-pay-${id}`).click();
    await page.getByTestId('order-action-ok').click();
    await waitUntil(status, (s) => s === 'Paid', 'the order to be paid');
    await drawer.getByTestId(`order-ship-${id}`).click();
    await page.getByTestId('order-ship-company').fill('顺丰速运');
    await page.getByTestId('order-ship-no').fill('SF1234567890');
    await page.getByTestId('order-action-ok').click();
    await waitUntil(status, (s) => s === 'Shipped', 'the order to be shipped');
    await drawer.getByTestId(`order-complete-${id}`).click();
    await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    await waitUntil(status, (s) => s === 'Completed', 'the order to be completed');
    await waitUntil(() => drawer.getByTestId('order-timeline').locator('.ant-timeline-item').count(), (n) => n === 4, 'four timeline lines');
    await screenshot(page, 'mall-order-completed');
  });

  it.each([
    { lang: 'zh', locale: 'zh-CN', discard: '放弃未保存的修改？' },
    { lang: 'en', locale: 'en-US', discard: 'Discard unsaved changes?' },
  ] as const)('asks before Esc or Cancel throws away a half-typed new product, and its uploaded image goes with it ($lang)', async ({ lang, locale, discard }) => {
    const page = await demoPage(suite, lang, locale);
    await page.goto('/mall/product');
    await page.getByTestId('product-add').click();
    const dialog = page.getByTestId('product-dialog');
    await dialog.getByTestId('product-name').fill('half-typed product');
    await dialog.getByTestId('product-images').locator('input[type=file]').setInputFiles({ name: 'e2e.png', mimeType: 'image/png', buffer: readFileSync(path.join(ROOT, 'docs/screenshots/home.png')) });
    const image = dialog.getByTestId('product-images').locator('img').first();
    await image.waitFor();
    const src = new URL((await image.getAttribute('src'))!, suite.server.baseURL).pathname;
    expect(src).toMatch(/^\/api\/base\/file\//);
    const served = () => fetch(suite.server.baseURL + src).then((r) => r.status);
    expect(await served()).toBe(200);

    // Esc asks; keep editing keeps what was typed.
    await page.keyboard.press('Escape');
    const question = page.locator('.ant-modal-confirm').filter({ hasText: discard });
    await question.waitFor();
    await screenshot(page, `product-unsaved-${lang}`);
    await question.getByTestId('discard-cancel').click();
    await question.waitFor({ state: 'detached' });
    expect(await dialog.getByTestId('product-name').inputValue()).toBe('half-typed product');
    // Cancel asks again; discarding closes it, and the image it uploaded is removed from the server.
    const discarded = page.waitForResponse((r) => r.url().endsWith('/api/admin/upload/discard'));
    await dialog.getByTestId('product-dialog-cancel').click();
    await question.waitFor();
    await question.getByTestId('discard-ok').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await (await discarded).json()).toMatchObject({ status: 0, data: { removed: 1 } });
    expect(await served()).toBe(404);
  }, 120_000);
});
