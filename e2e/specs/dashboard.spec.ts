import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, DEMO2, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';

/**
 * Issue 11 evidence: a proxy order placed for a customer and moved to completed is counted on the home
 * dashboard — in today's number statistics and in the chart's point for today.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('dashboard');
});
afterAll(async () => {
  await suite?.close();
});

const todayOrders = async (page: Page) => Number((await page.getByTestId('home-section-mall').getByTestId('home-figure-value-todayOrders').innerText()).replace(/[^\d]/g, ''));

describe('home dashboard (browser)', () => {
  it('counts a proxy order moved to completed in the statistics and the chart', async () => {
    // The second demo tenant: the first one's demo orders are written in the background after the start,
    // and one placed today while this test counts would be counted too.
    const page = await suite.signedInPage(DEMO2, { locale: 'en-US', viewport: { width: 1440, height: 1400 } });
    const token = await storedToken(page);
    await page.getByTestId('home-section-mall').waitFor();
    const before = await todayOrders(page);

    const stamp = Date.now().toString(36);
    const customer = await api<{ id: number }>(suite.server, 'POST', '/admin/basic/customer', { name: `E2E看板${stamp}`, phone: '13700000001' }, token);
    const category = await api<{ id: number }>(suite.server, 'POST', '/admin/mall/category', { name: `E2E看板${stamp}` }, token);
    const product = await api<{ skus: Array<{ id: number }> }>(
      suite.server,
      'POST',
      '/admin/mall/product',
      { categoryId: category.data.id, name: `E2E看板商品${stamp}`, images: ['/api/base/file/1/202611/a.png'], skus: [{ specValues: [], price: 99, stock: 10 }], onShelf: true },
      token,
    );
    expect(product.status, JSON.stringify(product)).toBe(0);
    const sku = { skuId: product.data.skus[0].id };
    const order = await api<{ id: number; payAmount: number }>(suite.server, 'POST', '/admin/mall/proxyOrder', { customerId: customer.data.id, consignee: '张三', phone: '13700000001', address: '上海市浦东新区世纪大道1号', items: [{ skuId: sku.skuId, quantity: 1 }] }, token);
    expect(order.status).toBe(0);
    for (const [step, body] of [
      ['pay', { id: order.data.id, payType: 'wechat' }],
      ['ship', { id: order.data.id, logisticsCompany: '顺丰速运', logisticsNo: `SF${stamp}` }],
      ['complete', { id: order.data.id }],
    ] as const) {
      expect((await api(suite.server, 'PUT', `/admin/mall/order/${step}`, body, token)).status, step).toBe(0);
    }

    await page.reload();
    await page.getByTestId('home-section-mall').waitFor();
    expect(await todayOrders(page)).toBe(before + 1);

    // The chart over today only: its one point is today's, shown in the tooltip.
    await page.getByTestId('home-chart-range').first().click();
    await page.locator('.ant-picker-presets li').filter({ hasText: 'Today' }).click();
    const chart = page.getByTestId('home-chart-mall');
    await chart.locator('canvas').waitFor();
    // ECharts draws the legend on the canvas; the tooltip is the chart's only HTML holding the series' names.
    const tooltip = chart.locator('div', { hasText: 'Orders placed' });
    await waitUntil(
      async () => {
        const box = (await chart.boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        return (await tooltip.last().innerText().catch(() => '')).replace(/\s+/g, ' ');
      },
      (text) => new RegExp(`Orders placed ${before + 1}\\b`).test(text),
      `the chart's tooltip to show ${before + 1} orders placed today`,
      20_000,
    );
    await screenshot(page, 'dashboard-after-order');
  }, 300_000);

  it('loads the chart code only when a chart scrolls into view', async () => {
    // At 1440 × 900 the charts sit below the figures: the shell and the home screen come without ECharts.
    const page = await suite.signedInPage(DEMO2, { locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const chartCode: string[] = [];
    page.on('request', (request) => /\/assets\/(echarts|Chart)-/.test(request.url()) && chartCode.push(request.url()));
    await page.reload();
    const chart = page.getByTestId('home-chart-mall');
    await chart.waitFor();
    await page.waitForLoadState('networkidle');
    expect(await chart.getAttribute('data-pending')).not.toBeNull();
    expect(chartCode).toEqual([]);

    await chart.scrollIntoViewIfNeeded();
    await page.getByTestId('home-chart-mall').locator('canvas').waitFor({ timeout: 60_000 });
    expect(chartCode.length).toBeGreaterThan(0);
  }, 180_000);
});
