import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startSuite, waitUntil, type Suite } from '../harness.ts';
import { demoPage, pageCaller, searchPushDown, type Lang } from '../bill-steps.ts';

/**
 * MRP in Chromium, in zh and en: a sale order for controllers is pushed down into an MRP plan on the plan
 * screen; the plan opens with the suggestions the run made (the controllers to make, the boards under them
 * and what to buy, each with its pegging); run again from its form as a background job, it has the same
 * suggestions on new lines; audited, its board suggestion is pushed down into a production
 * order on the order screen, which takes its materials from the board's BOM, and the plan shows it pushed.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('mrp');
});
afterAll(() => suite?.close());

interface Named {
  id: number;
  name: string;
}
interface PlanLine {
  id: number;
  mrpRole: string;
  materialId: number;
  number: number;
  pegging?: string;
}

describe('MRP (browser)', () => {
  it.each<[Lang, string, string, string]>([
    ['zh', 'zh-CN', 'MRP计划', '部分下推'],
    ['en', 'en-US', 'MRP plan', 'Partly pushed'],
  ])('plans a sale order and pushes a suggestion into a production order (%s)', async (lang, locale, planLabel, partlyPushed) => {
    const page = await demoPage(suite, lang, locale);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const call = await pageCaller(suite, page);
    const materials = await call<Named[]>('GET', '/admin/basic/material?current=1&pageSize=200');
    const controller = materials.find((m) => m.name === '步进电机控制器')!.id;
    const board = materials.find((m) => m.name === '控制板组件')!.id;
    const customer = (await call<Named[]>('GET', '/admin/basic/customer?current=1&pageSize=50'))[0].id;
    const today = new Date().toISOString().slice(0, 10);
    const order = await call<{ id: number; billCode: string }>('POST', '/admin/sale/order', { billDate: today, customerId: customer, remark: `E2E ${lang}`, lines: [{ materialId: controller, number: 500, unitPrice: 680 }] });
    for (const step of ['submit', 'audit']) await call('POST', `/admin/sale/order/${step}`, { id: order.id });

    // The plan screen: a new plan pushed down from the sale order runs MRP as it is made.
    await page.goto('/production/mrp');
    await page.getByTestId('bill-add').click();
    await page.getByTestId('bill-pushdown').click();
    const dialog = page.getByTestId('bill-pushdown-dialog');
    await searchPushDown(dialog, order.billCode);
    await dialog.locator('tbody tr', { hasText: order.billCode }).first().locator('.ant-checkbox-input').click();
    await dialog.getByTestId('bill-pushdown-next').click();
    const answer = page.waitForResponse((r) => r.url().includes('/pushDown') && r.request().method() === 'POST');
    await dialog.getByTestId('bill-pushdown-ok').click();
    const plan = ((await (await answer).json()) as { data: { id: number } }).data.id;
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-status').waitFor();
    // Run MRP again from the form: a background job followed on the button, the plan read again once it has
    // committed — the same suggestions, on new lines.
    const before = (await call<{ lines: PlanLine[] }>('GET', `/admin/production/mrp/${plan}`)).lines;
    await form.getByTestId('mrp-run').click();
    await page.locator('.ant-message', { hasText: lang === 'zh' ? 'MRP运算完成' : 'MRP has run' }).waitFor();
    await form.getByTestId('mrp-run').and(page.locator(':not(.ant-btn-loading)')).waitFor();
    const lines = (await call<{ lines: PlanLine[]; billCode: string }>('GET', `/admin/production/mrp/${plan}`)).lines;
    // The controllers to make for the order, the boards they need, and materials to buy — each pegged.
    expect(lines[0]).toMatchObject({ mrpRole: 'Demand', materialId: controller, number: 500 });
    const same = (l: PlanLine) => [l.mrpRole, l.materialId, l.number, l.pegging];
    expect(lines.map(same)).toEqual(before.map(same));
    expect(lines.find((l) => l.mrpRole !== 'Demand')!.id).not.toBe(before.find((l) => l.mrpRole !== 'Demand')!.id);
    // The demo's open order for 20 controllers covers part of the 500.
    const controllers = lines.find((l) => l.mrpRole === 'Produce' && l.materialId === controller)!;
    expect(controllers.pegging).toBe(`#1×${controllers.number}`);
    expect(controllers.number).toBeLessThan(500);
    const boards = lines.find((l) => l.mrpRole === 'Produce' && l.materialId === board)!;
    expect(boards.number).toBeGreaterThan(0);
    expect(lines.some((l) => l.mrpRole === 'Purchase')).toBe(true);
    await form.getByTestId('bill-line-1-number').waitFor();
    await screenshot(page, `mrp-${lang}-plan`);
    await form.getByTestId('bill-op-submit').click();
    await form.getByTestId('bill-op-audit').click();
    await form.getByTestId('bill-op-abandonAudit').waitFor();
    await form.getByTestId('bill-close').click();

    // The order screen: the plan's board suggestion pushed down into a production order.
    await page.goto('/production/order');
    await page.getByTestId('bill-add').click();
    await page.getByTestId('bill-pushdown').click();
    const orderDialog = page.getByTestId('bill-pushdown-dialog');
    await orderDialog.locator('.ant-segmented-item', { hasText: planLabel }).click();
    const planCode = (await call<{ billCode: string }>('GET', `/admin/production/mrp/${plan}`)).billCode;
    await searchPushDown(orderDialog, planCode);
    // Only what the plan makes is offered: its purchase suggestions are not.
    for (const line of lines.filter((l) => l.mrpRole === 'Purchase')) expect(await orderDialog.locator(`tr[data-row-key="${line.id}"]`).count()).toBe(0);
    await orderDialog.locator(`tr[data-row-key="${boards.id}"] .ant-checkbox-input`).click();
    await screenshot(page, `mrp-${lang}-order-pushdown`);
    await orderDialog.getByTestId('bill-pushdown-next').click();
    await orderDialog.getByTestId(`bill-pushdown-number-${boards.id}`).waitFor();
    const made = page.waitForResponse((r) => r.url().includes('/pushDown') && r.request().method() === 'POST');
    await orderDialog.getByTestId('bill-pushdown-ok').click();
    const production = ((await (await made).json()) as { data: { id: number } }).data.id;
    await page.getByTestId('bill-form').getByTestId('bill-status').waitFor();
    const orderLines = (await call<{ lines: Array<{ role: string; materialId: number; number: number }> }>('GET', `/admin/production/order/${production}`)).lines;
    expect(orderLines[0]).toMatchObject({ role: 'Product', materialId: board, number: boards.number });
    expect(orderLines.filter((l) => l.role === 'Material').length).toBe(4);
    await page.getByTestId('bill-form').getByTestId('bill-op-submit').click();
    await page.getByTestId('bill-form').getByTestId('bill-op-audit').click();
    await page.getByTestId('bill-form').getByTestId('bill-op-abandonAudit').waitFor();
    await page.getByTestId('bill-form').getByTestId('bill-close').click();

    // The plan list shows it partly pushed down.
    await page.goto('/production/mrp');
    const row = page.locator('tr', { hasText: planCode });
    await waitUntil(() => row.textContent(), (text) => !!text?.includes(partlyPushed), 'the plan partly pushed');
    await screenshot(page, `mrp-${lang}-plans`);
    expect(pageErrors).toEqual([]);
  });
});
