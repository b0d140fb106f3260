import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, screenshot, startSuite, waitUntil, type Suite } from '../harness.ts';
import { demoPage, pageCaller, searchPushDown, type Lang } from '../bill-steps.ts';

/**
 * Production in Chromium, in zh and en: a production order saved with its product only shows the materials
 * it took from the product's BOM; the pick screen's push down offers that order's materials and not its
 * product; the pick is audited on its form, a step of the order is reported on the report screen, and the
 * order list shows its materials all picked. A step reported with rework on the shop floor's tablet screen and
 * seen on the order. The demo's costed month, and a machine's maintenance generated from its plan and audited.
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
interface OrderLine {
  id: number;
  role: string;
  materialId: number;
  number: number;
  processId?: number;
}

describe('production (browser)', () => {
  it.each<[Lang, string, string]>([
    ['zh', 'zh-CN', '全部领料'],
    ['en', 'en-US', 'All picked'],
  ])('explodes an order from its BOM, picks its materials and shows them picked (%s)', async (lang, locale, allPicked) => {
    const page = await demoPage(suite, lang, locale);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const call = await pageCaller(suite, page);
    const board = (await call<Named[]>('GET', '/admin/basic/material?current=1&pageSize=200')).find((m) => m.name === '控制板组件')!.id;
    const raw = (await call<Named[]>('GET', '/admin/basic/stock?current=1&pageSize=50')).find((w) => w.name === '原料仓')!.id;
    const shelf = (await call<Named[]>('GET', `/admin/basic/location/picker?current=1&pageSize=50&warehouseId=${raw}`)).find((l) => l.name.startsWith('A-02'))!.id;

    // An order for 5 boards with the product only: the server takes the materials from the board's BOM.
    const today = new Date().toISOString().slice(0, 10);
    const order = await call<{ id: number; billCode: string }>('POST', '/admin/production/order', { billDate: today, remark: `E2E ${lang}`, lines: [{ role: 'Product', materialId: board, number: 5 }] });
    for (const step of ['submit', 'audit']) await call('POST', `/admin/production/order/${step}`, { id: order.id });
    const lines = (await call<{ lines: OrderLine[] }>('GET', `/admin/production/order/${order.id}`)).lines;
    const product = lines.find((l) => l.role === 'Product')!;
    const materials = lines.filter((l) => l.role === 'Material');
    expect(materials.map((l) => l.number)).toEqual([5, 5, 120, 20]);

    // The order on its screen: the product and the four materials, each with its role.
    await page.goto('/production/order');
    await page.getByTestId(`bill-open-${order.id}`).click();
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-line-4-number').waitFor();
    await screenshot(page, `production-${lang}-order`);
    await form.getByTestId('bill-close').click();

    // The pick screen's push down: this order's materials are offered, its product is not.
    await page.goto('/production/pick');
    await page.getByTestId('bill-add').click();
    await page.getByTestId('bill-pushdown').click();
    const dialog = page.getByTestId('bill-pushdown-dialog');
    await searchPushDown(dialog, order.billCode);
    for (const line of materials) await dialog.locator(`tr[data-row-key="${line.id}"]`).waitFor();
    expect(await dialog.locator(`tr[data-row-key="${product.id}"]`).count()).toBe(0);
    await screenshot(page, `production-${lang}-pick-pushdown`);
    for (const line of materials) await dialog.locator(`tr[data-row-key="${line.id}"] .ant-checkbox-input`).click();
    await dialog.getByTestId('bill-pushdown-next').click();
    await dialog.getByTestId(`bill-pushdown-number-${materials[0].id}`).waitFor();
    const answer = page.waitForResponse((r) => r.url().includes('/pushDown') && r.request().method() === 'POST');
    await dialog.getByTestId('bill-pushdown-ok').click();
    const pick = ((await (await answer).json()) as { data: { id: number } }).data.id;
    await page.getByTestId('bill-status').waitFor();
    await page.getByTestId('bill-close').click();

    // Where the materials lie (the pickers are covered elsewhere), then submitted and audited on its form.
    const draft = await call<{ billDate: string; lines: Array<Record<string, unknown>> }>('GET', `/admin/production/pick/${pick}`);
    await call('PUT', '/admin/production/pick', {
      id: pick,
      billDate: draft.billDate,
      warehouseId: raw,
      lines: draft.lines.map((l) => ({ materialId: l.materialId, unitId: l.unitId, number: l.number, sourceLineId: l.sourceLineId, warehouseId: raw, locationId: shelf })),
    });
    await page.getByTestId('pro-table-refresh').first().click();
    await page.getByTestId(`bill-open-${pick}`).click();
    await page.getByTestId('bill-op-submit').click();
    await page.getByTestId('bill-op-audit').click();
    await page.getByTestId('bill-op-abandonAudit').waitFor();
    await screenshot(page, `production-${lang}-pick-audited`);
    await page.getByTestId('bill-close').click();

    // The first step of the order reported on the report screen: the good pieces earn the step's piece rate.
    const steps = lines.filter((l) => l.role === 'Process');
    await page.goto('/production/report');
    await page.getByTestId('bill-add').click();
    await page.getByTestId('bill-pushdown').click();
    const reportDialog = page.getByTestId('bill-pushdown-dialog');
    await searchPushDown(reportDialog, order.billCode);
    await reportDialog.locator(`tr[data-row-key="${steps[0].id}"] .ant-checkbox-input`).click();
    expect(await reportDialog.locator(`tr[data-row-key="${materials[0].id}"]`).count()).toBe(0);
    await reportDialog.getByTestId('bill-pushdown-next').click();
    await reportDialog.getByTestId(`bill-pushdown-number-${steps[0].id}`).waitFor();
    await reportDialog.getByTestId('bill-pushdown-ok').click();
    const reportForm = page.getByTestId('bill-form');
    await reportForm.getByTestId('bill-status').waitFor();
    // The step's process by its name (not its id while the names load).
    await waitUntil(() => reportForm.getByTestId('bill-line-0-processId').textContent(), (text) => !!text && !text.includes('#'), 'the process named');
    await screenshot(page, `production-${lang}-report`);
    await reportForm.getByTestId('bill-op-submit').click();
    await reportForm.getByTestId('bill-op-audit').click();
    await reportForm.getByTestId('bill-op-abandonAudit').waitFor();
    await reportForm.getByTestId('bill-close').click();

    // The order list shows its materials all picked.
    await page.goto('/production/order');
    const row = page.locator('tr', { hasText: order.billCode });
    await waitUntil(() => row.textContent(), (text) => !!text?.includes(allPicked), 'the order picked');
    await screenshot(page, `production-${lang}-orders`);
    expect(pageErrors).toEqual([]);
  });

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

  it.each<[Lang, string, string]>([
    ['zh', 'zh-CN', '已核算'],
    ['en', 'en-US', 'Calculated'],
  ])('shows the costed month of the demo and runs it again to the same figures (%s)', async (lang, locale, calculated) => {
    const page = await demoPage(suite, lang, locale);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const call = await pageCaller(suite, page);
    // The demo costed the month before last (db/seed/demo-bills.ts): its trial batch of boards.
    const [costed] = await call<Array<{ period: string; status: string }>>('GET', '/admin/production/cost');
    expect(costed.status).toBe('Calculated');
    const before = await call<{ orders: Array<{ orderCode: string; finished: string; unitCost: string }> }>('GET', `/admin/production/cost/${costed.period}`);
    expect(before.orders.length).toBeGreaterThan(0);
    await page.goto('/production/cost');
    await waitUntil(() => page.getByTestId('cost-status').textContent(), (text) => text === calculated, 'the costed period');
    const row = page.getByTestId('cost-orders').locator('tr', { hasText: before.orders[0].orderCode });
    await waitUntil(() => row.textContent(), (text) => !!text?.includes(Number(before.orders[0].unitCost).toFixed(4)), 'the unit cost of the order');
    await screenshot(page, `production-${lang}-cost`);
    // Run again: the job's progress, then the same figures.
    await page.getByTestId('cost-run').click();
    await waitUntil(async () => (await call<Array<{ kind: string; status: string }>>('GET', '/admin/system/jobs?current=1&pageSize=5')).find((j) => j.kind === 'productionCostRun')?.status, (s) => s === 'succeeded', 'the cost run job', 30_000);
    const after = await call<{ orders: Array<{ finished: string }> }>('GET', `/admin/production/cost/${costed.period}`);
    expect(after.orders.map((o) => o.finished)).toEqual(before.orders.map((o) => o.finished));
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
});
