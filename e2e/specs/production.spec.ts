import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, screenshot, startSuite, waitUntil, type Suite } from '../harness.ts';
import { demoPage, pageCaller, searchPushDown, submitAuditAndClose, type Lang } from '../bill-steps.ts';

/**
 * Production in Chromium, in zh and en: the whole chain in one test — a sale order for controllers planned on
 * the MRP screen (the controllers, their works and boards to make, what to buy), run again as a background job,
 * its board suggestion pushed down into a production order on the order screen (materials from the board's BOM),
 * picked and reported (through the API: set-up), completed on the completion screen, the month costed on the
 * cost screen, and the boards' unit cost from that run on the current-stock screen. A step reported with rework
 * on the shop floor's tablet screen and seen on the order. A machine's maintenance generated from its plan and
 * audited; a bill's attachment thrown away. The low-level code on the material list, the BOM list and a BOM's
 * structure, its header on one line in either language.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('production');
});
afterAll(() => suite?.close());

interface Named {
  id: number;
  name: string;
}

/** On how many lines a table's column header shows `text` (the lines of its text node). */
async function headerLines(table: Locator, text: string): Promise<number> {
  return table
    .getByRole('columnheader', { name: text })
    .first()
    .evaluate((th, wanted) => {
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.includes(wanted)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
      }
      return 0;
    }, text);
}
interface OrderLine {
  id: number;
  role: string;
  materialId: number;
  number: number;
  processId?: number;
  teamId?: number | null;
  unitPrice?: number;
  productId?: number | null;
}
interface PlanLine {
  id: number;
  mrpRole: string;
  materialId: number;
  number: number;
  pegging?: string;
}

describe('production (browser)', () => {
  it("reports a step with rework on the shop floor's tablet screen (zh landscape, en portrait) and shows it on the order", async () => {
    const zh = await demoPage(suite, 'zh', 'zh-CN', { width: 1024, height: 768 });
    const pageErrors: string[] = [];
    zh.on('pageerror', (error) => pageErrors.push(error.message));
    const call = await pageCaller(suite, zh);
    const board = (await call<Named[]>('GET', '/admin/basic/material?current=1&pageSize=200')).find((m) => m.name === '控制板组件')!.id;
    const today = new Date().toISOString().slice(0, 10);
    const order = await call<{ id: number; billCode: string }>('POST', '/admin/production/order', { billDate: today, remark: 'E2E tablet', lines: [{ role: 'Product', materialId: board, number: 4 }] });
    for (const step of ['submit', 'audit']) await call('POST', `/admin/production/order/${step}`, { id: order.id });
    const stepAt = (await call<{ lines: OrderLine[] }>('GET', `/admin/production/order/${order.id}`)).lines.findIndex((l) => l.role === 'Process');
    // The steps of the order: the demo administrator holds the report screen, so "all open steps" (nothing is dispatched to them).
    const find = async (page: typeof zh, all: string) => {
      await page.goto('/production/quickReport');
      await page.getByTestId('quick-report-scope').getByText(all).click();
      const search = page.getByTestId('quick-report-search');
      const input = (await search.evaluate((el) => el.tagName)) === 'INPUT' ? search : search.locator('input');
      await input.fill(order.billCode);
      await input.press('Enter');
      const card = page.getByTestId(`quick-report-step-${order.billCode}-1`);
      await card.waitFor();
      return card;
    };
    const card = await find(zh, '全部工序');
    await screenshot(zh, 'production-zh-quick-report');
    await card.click();
    const panel = zh.getByTestId('quick-report-panel');
    await panel.getByTestId('quick-report-good').locator('input').fill('3');
    await panel.getByTestId('quick-report-rework').locator('input').fill('1');
    await panel.getByTestId('quick-report-hours').locator('input').fill('1.5');
    await screenshot(zh, 'production-zh-quick-report-panel');
    await panel.getByTestId('quick-report-submit').click();
    await panel.getByTestId('quick-report-done').waitFor();
    await screenshot(zh, 'production-zh-quick-report-done');
    // Reported and audited: the order's step shows its 3 good and 1 back for rework.
    await zh.goto('/production/order');
    await zh.getByTestId(`bill-open-${order.id}`).click();
    const form = zh.getByTestId('bill-form');
    await waitUntil(() => form.getByTestId(`bill-line-${stepAt}-reportedRework`).textContent(), (text) => Number(text) === 1, 'the rework on the step');
    expect(Number(await form.getByTestId(`bill-line-${stepAt}-reportedGood`).textContent())).toBe(3);
    await form.getByTestId(`bill-line-${stepAt}-reportedRework`).scrollIntoViewIfNeeded();
    await screenshot(zh, 'production-zh-quick-report-order');

    // English, a tablet upright: the step's card shows the rework waiting at it.
    const en = await demoPage(suite, 'en', 'en-US', { width: 768, height: 1024 });
    en.on('pageerror', (error) => pageErrors.push(error.message));
    const enCard = await find(en, 'All open steps');
    await waitUntil(() => enCard.textContent(), (text) => !!text?.includes('Rework'), 'the step card in English');
    await screenshot(en, 'production-en-quick-report');
    await enCard.click();
    await en.getByTestId('quick-report-panel').getByTestId('quick-report-good').waitFor();
    await screenshot(en, 'production-en-quick-report-panel');
    expect(pageErrors).toEqual([]);
  });

  it.each<[Lang, string, RegExp]>([
    ['zh', 'zh-CN', /已生成 [1-9]\d* 张保养单/],
    ['en', 'en-US', /Maintenance orders generated: [1-9]\d*/],
  ])('generates the due maintenance of a machine from its plan and audits it on its form (%s)', async (lang, locale, generated) => {
    const page = await demoPage(suite, lang, locale);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const call = await pageCaller(suite, page);
    // A machine maintained every day is due tomorrow: the list's "generate from plans" makes its work order.
    const machine = await call<{ id: number }>('POST', '/admin/basic/equipment', { code: `E2E-${lang}`, name: `E2E machine ${lang}`, status: 'running', maintenanceDays: 1 });
    await page.goto('/production/maintenance');
    await page.getByTestId('bill-command-generate').click();
    await page.getByText(generated).waitFor();
    const [order] = (await call<Array<{ id: number; equipmentId: number; billStatus: string }>>('GET', '/admin/production/maintenance?current=1&pageSize=50')).filter((b) => b.equipmentId === machine.id);
    expect(order.billStatus).toBe('Saved');
    const warned = await call<{ bills: Array<{ kind: string; billId: number }> }>('GET', '/admin/stock/warning');
    expect(warned.bills.filter((b) => b.kind === 'maintenance').map((b) => b.billId)).toContain(order.id);
    await page.getByTestId('pro-table-refresh').first().click();
    await page.getByTestId(`bill-open-${order.id}`).click();
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-status').waitFor();
    await screenshot(page, `production-${lang}-maintenance`);
    await form.getByTestId('bill-op-submit').click();
    await form.getByTestId('bill-op-audit').click();
    await form.getByTestId('bill-op-abandonAudit').waitFor();
    // Done: off the early warning.
    const after = await call<{ bills: Array<{ kind: string; billId: number }> }>('GET', '/admin/stock/warning');
    expect(after.bills.filter((b) => b.kind === 'maintenance').map((b) => b.billId)).not.toContain(order.id);
    expect(pageErrors).toEqual([]);
  });

  it.each<[Lang, string, string]>([
    ['zh', 'zh-CN', '低位码'],
    ['en', 'en-US', 'Low-level code'],
  ])("shows each material's low-level code on the material and BOM lists and in a BOM's structure, its header on one line (%s)", async (lang, locale, header) => {
    const page = await demoPage(suite, lang, locale);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const call = await pageCaller(suite, page);
    const boms = await call<Array<{ id: number; materialName: string; lowLevelCode: number }>>('GET', '/admin/basic/bom?current=1&pageSize=50');
    const bomOf = (name: string) => boms.find((b) => b.materialName === name)!;
    // The controller is made of its core, the core of the control board, the board of the MCU (levels 0 to 3).
    expect(['步进电机控制器', '控制器机芯', '控制板组件'].map((name) => bomOf(name).lowLevelCode)).toEqual([0, 1, 2]);
    await page.goto('/basic/material');
    const materials = page.getByTestId('material-table');
    await materials.getByRole('columnheader', { name: header }).waitFor();
    await materials.locator('tbody tr.ant-table-row').first().waitFor();
    expect(await headerLines(materials, header), `${header} on one line (material list)`).toBe(1);
    await screenshot(page, `production-${lang}-material-list`);
    await page.goto('/basic/bom');
    const table = page.getByTestId('bom-table');
    await table.getByRole('columnheader', { name: header }).waitFor();
    await table.getByTestId(`row-tree-${bomOf('步进电机控制器').id}`).waitFor();
    expect(await headerLines(table, header), `${header} on one line (BOM list)`).toBe(1);
    await screenshot(page, `production-${lang}-bom-list`);
    await table.getByTestId(`row-tree-${bomOf('步进电机控制器').id}`).click();
    const tree = page.getByTestId('bom-tree-table');
    await tree.getByRole('columnheader', { name: header }).waitFor();
    await tree.getByText('单片机', { exact: true }).waitFor();
    const drawer = page.locator('.ant-drawer-content-wrapper').filter({ visible: true });
    await waitUntil(async () => (await drawer.boundingBox())?.x ?? 9999, (x) => x <= 1440 - 900, 'the drawer to slide in');
    expect(await headerLines(tree, header), `${header} on one line (BOM structure)`).toBe(1);
    await screenshot(page, `production-${lang}-bom-structure`);
    expect(pageErrors).toEqual([]);
  });

  it('throws away the attachment of a bill closed unsaved (the file answers 404 afterwards)', async () => {
    const page = await demoPage(suite, 'zh', 'zh-CN');
    await page.goto('/production/order');
    await page.getByTestId('bill-add').click();
    const form = page.getByTestId('bill-form');
    const uploaded = page.waitForResponse((r) => r.url().includes('/upload') && r.request().method() === 'POST' && !r.url().endsWith('/discard'));
    await form.locator('input[type=file]').setInputFiles({ name: 'e2e.png', mimeType: 'image/png', buffer: readFileSync(path.join(ROOT, 'docs/screenshots/home.png')) });
    const file = ((await (await uploaded).json()) as { data: { url: string } }).data.url;
    const served = () => fetch(new URL(file, suite.server.baseURL)).then((r) => r.status);
    expect(await served()).toBe(200);
    const discarded = page.waitForResponse((r) => r.url().endsWith('/api/admin/upload/discard'));
    await form.getByTestId('bill-close').click();
    await page.getByTestId('discard-ok').click();
    await form.waitFor({ state: 'detached' });
    expect(await (await discarded).json()).toMatchObject({ status: 0, data: { removed: 1 } });
    expect(await served()).toBe(404);
  });
  // Last: the month it costs stays calculated, and a calculated month takes no more production bills.
  it.each<[Lang, string, string, string]>([
    ['zh', 'zh-CN', 'MRP计划', '已核算'],
    ['en', 'en-US', 'MRP plan', 'Calculated'],
  ])('plans a sale order, makes the boards it needs and costs them to the current-stock screen (%s)', async (lang, locale, planLabel, calculated) => {
    const page = await demoPage(suite, lang, locale);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const call = await pageCaller(suite, page);
    const materials = await call<Named[]>('GET', '/admin/basic/material?current=1&pageSize=200');
    const named = (name: string) => materials.find((m) => m.name === name)!.id;
    const [controller, works, board] = [named('步进电机控制器'), named('控制器机芯'), named('控制板组件')];
    const stores = await call<Named[]>('GET', '/admin/basic/stock?current=1&pageSize=50');
    const raw = stores.find((w) => w.name === '原料仓')!.id;
    const shelf = (await call<Named[]>('GET', `/admin/basic/location/picker?current=1&pageSize=50&warehouseId=${raw}`)).find((l) => l.name.startsWith('A-02'))!.id;
    // Each language's boards go into a store that holds no other boards (a store's boards share one moving
    // average): the unit cost there is the cost run's.
    const store = stores.find((w) => w.name === (lang === 'zh' ? '成品仓' : '原料仓'))!.id;
    const place = (await call<Named[]>('GET', `/admin/basic/location/picker?current=1&pageSize=50&warehouseId=${store}`)).find((l) => l.name.startsWith(lang === 'zh' ? 'C-01' : 'A-02'))!.id;

    // Set-up: the month is run after last month (the demo costed the month before last), so last month is run
    // first; the other language's run of this month is cancelled, so that this one's bills may be audited into it.
    const month = new Date().toISOString().slice(0, 7);
    const [year, m] = month.split('-').map(Number);
    const lastMonth = new Date(Date.UTC(year, m - 2, 1)).toISOString().slice(0, 7);
    const periods = await call<Array<{ period: string; status: string }>>('GET', '/admin/production/cost');
    const status = (period: string) => periods.find((p) => p.period === period)?.status;
    if (status(lastMonth) !== 'Calculated') {
      const job = await call<{ id: number }>('POST', '/admin/production/cost/run', { period: lastMonth, basis: 'hours' });
      await waitUntil(async () => (await call<{ status: string }>('GET', `/admin/system/jobs/${job.id}`)).status, (s) => s === 'succeeded', 'last month costed', 30_000);
    }
    if (status(month) === 'Calculated') await call('POST', '/admin/production/cost/cancel', { period: month });
    const customer = (await call<Named[]>('GET', '/admin/basic/customer?current=1&pageSize=50'))[0].id;
    const today = new Date().toISOString().slice(0, 10);
    const sale = await call<{ id: number; billCode: string }>('POST', '/admin/sale/order', { billDate: today, customerId: customer, remark: `E2E ${lang}`, lines: [{ materialId: controller, number: 500, unitPrice: 680 }] });
    for (const step of ['submit', 'audit']) await call('POST', `/admin/sale/order/${step}`, { id: sale.id });

    // The plan screen: a new plan pushed down from the sale order runs MRP as it is made.
    await page.goto('/production/mrp');
    await page.getByTestId('bill-add').click();
    await page.getByTestId('bill-pushdown').click();
    const dialog = page.getByTestId('bill-pushdown-dialog');
    await searchPushDown(dialog, sale.billCode);
    await dialog.locator('tbody tr', { hasText: sale.billCode }).first().locator('.ant-checkbox-input').click();
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
    const { lines, billCode: planCode } = await call<{ lines: PlanLine[]; billCode: string }>('GET', `/admin/production/mrp/${plan}`);
    const same = (l: PlanLine) => [l.mrpRole, l.materialId, l.number, l.pegging];
    expect(lines.map(same)).toEqual(before.map(same));
    expect(lines.find((l) => l.mrpRole !== 'Demand')!.id).not.toBe(before.find((l) => l.mrpRole !== 'Demand')!.id);
    // Every level of the controller's BOM to make (the open orders cover part of the 500), and materials to buy.
    expect(lines[0]).toMatchObject({ mrpRole: 'Demand', materialId: controller, number: 500 });
    const made = (material: number) => lines.find((l) => l.mrpRole === 'Produce' && l.materialId === material)!;
    expect(made(controller).number).toBeLessThan(500);
    expect(made(works).number).toBeGreaterThan(0);
    const boards = made(board);
    expect(boards.number).toBeGreaterThan(0);
    expect(lines.some((l) => l.mrpRole === 'Purchase')).toBe(true);
    await form.getByTestId('bill-line-1-number').waitFor();
    await screenshot(page, `production-${lang}-mrp-plan`);
    await submitAuditAndClose(form);

    // The order screen: 5 of the plan's boards pushed down into a production order; its purchases are not offered.
    await page.goto('/production/order');
    await page.getByTestId('bill-add').click();
    await page.getByTestId('bill-pushdown').click();
    const orderDialog = page.getByTestId('bill-pushdown-dialog');
    await orderDialog.locator('.ant-segmented-item', { hasText: planLabel }).click();
    await searchPushDown(orderDialog, planCode);
    for (const line of lines.filter((l) => l.mrpRole === 'Purchase')) expect(await orderDialog.locator(`tr[data-row-key="${line.id}"]`).count()).toBe(0);
    await orderDialog.locator(`tr[data-row-key="${boards.id}"] .ant-checkbox-input`).click();
    await orderDialog.getByTestId('bill-pushdown-next').click();
    await orderDialog.getByTestId(`bill-pushdown-number-${boards.id}`).fill('5');
    const pushed = page.waitForResponse((r) => r.url().includes('/pushDown') && r.request().method() === 'POST');
    await orderDialog.getByTestId('bill-pushdown-ok').click();
    const order = ((await (await pushed).json()) as { data: { id: number } }).data.id;
    const orderForm = page.getByTestId('bill-form');
    await orderForm.getByTestId('bill-line-4-number').waitFor();
    await screenshot(page, `production-${lang}-order`);
    const { lines: orderLines, billCode: orderCode } = await call<{ lines: OrderLine[]; billCode: string }>('GET', `/admin/production/order/${order}`);
    const product = orderLines.find((l) => l.role === 'Product')!;
    expect(product).toMatchObject({ materialId: board, number: 5 });
    // The board's BOM for 5: a chip, a regulator, 24 resistors and 4 capacitors each.
    expect(orderLines.filter((l) => l.role === 'Material').map((l) => l.number)).toEqual([5, 5, 120, 20]);
    // Each material line is for the board (所属产品 / For product: what the month's cost run charges it to).
    expect(orderLines.filter((l) => l.role === 'Material').map((l) => l.productId)).toEqual([board, board, board, board]);
    const forProduct = orderForm.getByTestId(`bill-line-${orderLines.findIndex((l) => l.role === 'Material')}-productId`);
    await forProduct.scrollIntoViewIfNeeded();
    await waitUntil(() => forProduct.textContent(), (text) => !!text?.includes('控制板组件'), 'the material line names its product');
    await submitAuditAndClose(orderForm);

    // Set-up through the API: every material picked from the raw store's shelf, every step reported.
    const posted = async (route: string, body: Record<string, unknown>) => {
      const { id } = await call<{ id: number }>('POST', `/admin/production/${route}`, { billDate: today, ...body });
      for (const step of ['submit', 'audit']) await call('POST', `/admin/production/${route}/${step}`, { id });
    };
    await posted('pick', { warehouseId: raw, lines: orderLines.filter((l) => l.role === 'Material').map((l) => ({ materialId: l.materialId, number: l.number, sourceLineId: l.id, warehouseId: raw, locationId: shelf })) });
    await posted('report', {
      lines: orderLines.filter((l) => l.role === 'Process').map((l) => ({ materialId: l.materialId, number: 5, processId: l.processId, teamId: l.teamId, unitPrice: l.unitPrice, hours: 2, sourceLineId: l.id })),
    });

    // The completion screen: the order's product pushed down (its materials are not offered), put on the store's
    // shelf, audited on its form.
    await page.goto('/production/instock');
    await page.getByTestId('bill-add').click();
    await page.getByTestId('bill-pushdown').click();
    const inDialog = page.getByTestId('bill-pushdown-dialog');
    await searchPushDown(inDialog, orderCode);
    expect(await inDialog.locator(`tr[data-row-key="${orderLines.find((l) => l.role === 'Material')!.id}"]`).count()).toBe(0);
    await inDialog.locator(`tr[data-row-key="${product.id}"] .ant-checkbox-input`).click();
    await inDialog.getByTestId('bill-pushdown-next').click();
    await inDialog.getByTestId(`bill-pushdown-number-${product.id}`).waitFor();
    const completed = page.waitForResponse((r) => r.url().includes('/pushDown') && r.request().method() === 'POST');
    await inDialog.getByTestId('bill-pushdown-ok').click();
    const instock = ((await (await completed).json()) as { data: { id: number } }).data.id;
    await page.getByTestId('bill-form').getByTestId('bill-status').waitFor();
    await page.getByTestId('bill-form').getByTestId('bill-close').click();
    // Where the boards go (the pickers are covered elsewhere).
    const draft = await call<{ billDate: string; lines: Array<Record<string, unknown>> }>('GET', `/admin/production/instock/${instock}`);
    await call('PUT', '/admin/production/instock', {
      id: instock,
      billDate: draft.billDate,
      warehouseId: store,
      lines: draft.lines.map((l) => ({ materialId: l.materialId, unitId: l.unitId, number: l.number, sourceLineId: l.sourceLineId, warehouseId: store, locationId: place })),
    });
    await page.getByTestId('pro-table-refresh').first().click();
    await page.getByTestId(`bill-open-${instock}`).click();
    const inForm = page.getByTestId('bill-form');
    for (const step of ['submit', 'audit']) {
      await inForm.getByTestId(`bill-op-${step}`).click();
      await inForm.getByTestId(`bill-op-${step}`).waitFor({ state: 'detached' });
    }
    await screenshot(page, `production-${lang}-completion`);
    await inForm.getByTestId('bill-close').click();

    // The cost screen: this month picked and run (a background job); the order's unit cost in its row.
    await page.goto('/production/cost');
    await waitUntil(() => page.getByTestId('cost-orders').textContent(), (text) => !!text?.includes(lastMonth), 'the latest costed month');
    await page.getByTestId('cost-period').click();
    await page.locator(`.ant-picker-dropdown td[title="${month}"]`).click();
    await waitUntil(() => page.getByTestId('cost-orders').textContent(), (text) => !!text?.includes(month), 'this month on the screen');
    await page.getByTestId('cost-run').click();
    await waitUntil(() => page.getByTestId('cost-status').textContent(), (text) => text === calculated, 'this month costed');
    const costed = (await call<{ orders: Array<{ orderCode: string; completed: string; unitCost: string }> }>('GET', `/admin/production/cost/${month}`)).orders.find((o) => o.orderCode === orderCode)!;
    expect(costed.completed).toBe('5.000000');
    const row = page.getByTestId('cost-orders').locator('tr', { hasText: orderCode });
    await waitUntil(() => row.textContent(), (text) => !!text?.includes(Number(costed.unitCost).toFixed(4)), 'the unit cost of the order');
    await screenshot(page, `production-${lang}-cost`);

    // The current-stock screen: the 5 boards at the unit cost the run gave them.
    await page.goto('/stock/current');
    await page.locator('#search_stock_current_keyword').fill('控制板组件');
    await page.locator('[data-testid="stock-current"] [data-testid="pro-table-search-submit"]').click();
    const stockRow = page.locator(`[data-testid="stock-current"] tbody tr[data-row-key="${board}:${store}:${place}::"]`);
    const headers = await page.locator('[data-testid="stock-current"] thead th').allTextContents();
    const unitCostColumn = headers.findIndex((h) => h.trim() === (lang === 'zh' ? '单位成本' : 'Unit cost'));
    expect(unitCostColumn).toBeGreaterThan(0);
    const shown = await waitUntil(() => stockRow.locator('td').nth(unitCostColumn).textContent(), (text) => !!text?.trim(), 'the boards on the current-stock screen');
    const digits = shown!.trim().split('.')[1]?.length ?? 0;
    expect(shown!.trim()).toBe(Number(costed.unitCost).toFixed(digits));
    await screenshot(page, `production-${lang}-current-stock`);
    expect(pageErrors).toEqual([]);
  });
});
