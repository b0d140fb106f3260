import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page, Route } from 'playwright-core';
import { api, screenshot, startSuite, storedToken, TIME_SCALE, waitUntil, type Suite } from '../harness.ts';
import { demoPage } from '../bill-steps.ts';

/**
 * The bill form without the mouse, and forms that ask before throwing typed work away, in Chinese and in
 * English: a purchase order's lines entered with the keyboard only (a material's code typed and Enter,
 * Enter / Tab from cell to cell, a new line past the last cell, Ctrl+S to save); a line's code typed on after
 * its first letters' matches showed and Enter before the search answers takes that code's material, not the
 * row the earlier list highlighted; the header's supplier
 * picked with the keyboard (Enter opens the picker, arrows and Enter choose, Esc closes, a typed code takes
 * its supplier); Esc and Close on a bill
 * with unsaved changes ask first (keep editing keeps it, discard closes), an untouched bill closes at once;
 * the same for a record's form dialog (a brand).
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('bill-keyboard');
});
afterAll(() => suite?.close());

const LANGUAGES = [
  { lang: 'zh', locale: 'zh-CN', discard: '放弃未保存的修改？' },
  { lang: 'en', locale: 'en-US', discard: 'Discard unsaved changes?' },
] as const;

interface PickerMaterial {
  id: number;
  code: string;
}

/** Whether the focus is inside `cell`. */
const focusedIn = (cell: Locator) => cell.evaluate((element) => element.contains(document.activeElement));

/**
 * Presses `key` until the focus is in `cell` (at most `limit` times); fails if it never gets there. After each
 * press it waits for the focus to leave the element it was on: the grid moves the focus on a later animation
 * frame (after a search has answered, when one runs): a second press sent after a fixed pause, before that move,
 * could land in the cell the first one was moving to and go one cell too far on a busy machine.
 */
async function pressUntilIn(page: Page, key: string, cell: Locator, limit = 20) {
  for (let i = 0; i < limit; i++) {
    if ((await cell.count()) && (await focusedIn(cell))) return;
    await page.evaluate(() => ((window as { e2eFocusBefore?: Element | null }).e2eFocusBefore = document.activeElement));
    await page.keyboard.press(key);
    await page
      .waitForFunction(() => document.activeElement !== (window as { e2eFocusBefore?: Element | null }).e2eFocusBefore, undefined, { timeout: 5_000 * TIME_SCALE })
      .catch(() => undefined); // the key moved nothing (the focus stays): pressed again below
  }
  if ((await cell.count()) && (await focusedIn(cell))) return;
  throw new Error(`the focus never reached ${String(cell)}`);
}

describe.each(LANGUAGES)('keyboard and unsaved changes in $lang', ({ lang, locale, discard }) => {
  let page: Page;
  let token = '';
  const pageErrors: string[] = [];
  afterEach(() => expect(pageErrors).toEqual([]));

  async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await api<T>(suite.server, method, url, body, token);
    expect(res.status, `${method} ${url}: ${res.message}`).toBe(0);
    return res.data;
  }

  /** The demo admin's page in this language (once per language: each test may run alone). */
  async function signIn() {
    if (token) return;
    page = await demoPage(suite, lang, locale);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    token = await storedToken(page);
  }

  async function newOrder() {
    await page.goto('/purchase/order');
    await page.getByTestId('bill-add').click();
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-lines').waitFor();
    return form;
  }

  it('enters a purchase order with the keyboard: a typed code and Enter take the material, Enter and Tab go on, a new line past the last cell, Ctrl+S saves', async () => {
    await signIn();
    const materials = await call<PickerMaterial[]>('GET', '/admin/basic/material/picker?current=1&pageSize=50');
    // Two materials whose code is no other's prefix, so that each typed code matches it exactly.
    const [first, second] = materials.filter((m) => !materials.some((o) => o !== m && o.code.startsWith(m.code)));
    const supplier = (await call<Array<{ id: number; name: string }>>('GET', '/admin/basic/supplier?current=1&pageSize=5'))[0]!;

    const form = await newOrder();
    // The header's supplier through its picker (the header is not what this is about).
    await form.getByTestId('bill-field-supplierId').click();
    const picker = page.getByTestId('supplier-picker');
    await picker.getByTestId('supplier-picker-search').fill(supplier.name);
    await picker.getByTestId(`supplier-picker-row-${supplier.id}`).click();
    await picker.getByTestId('supplier-picker-ok').click();
    await picker.waitFor({ state: 'hidden' });

    // From here on, the keyboard only. "Add a line" takes the focus into the new line's material.
    await form.getByTestId('bill-line-add').focus();
    await page.keyboard.press('Enter');
    const material0 = form.getByTestId('bill-line-0-materialId');
    await waitUntil(() => focusedIn(material0), Boolean, 'the focus in the new line');
    // The code typed and Enter at once (before the search answers): the exact match is taken, the focus moves on.
    await page.keyboard.type(first.code);
    await page.keyboard.press('Enter');
    await waitUntil(() => material0.locator('input').inputValue(), (text) => text.startsWith(first.code), 'the first material chosen');
    await pressUntilIn(page, 'Enter', form.getByTestId('bill-line-0-number'));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await pressUntilIn(page, 'Tab', form.getByTestId('bill-line-0-unitPrice'));
    await page.keyboard.type('2.5');
    // Enter past the last cell adds a line and goes to its material.
    const material1 = form.getByTestId('bill-line-1-materialId');
    await pressUntilIn(page, 'Enter', material1);
    // This time the list is waited for: it shows the match highlighted, and Enter takes it.
    await page.keyboard.type(second.code);
    await page.getByTestId(`bill-line-1-materialId-option-${second.id}`).waitFor();
    await screenshot(page, `bill-keyboard-${lang}-matches`);
    await page.keyboard.press('Enter');
    await waitUntil(() => material1.locator('input').inputValue(), (text) => text.startsWith(second.code), 'the second material chosen');
    await pressUntilIn(page, 'Tab', form.getByTestId('bill-line-1-number'));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('4');
    await pressUntilIn(page, 'Enter', form.getByTestId('bill-line-1-unitPrice'));
    await page.keyboard.type('1');
    await waitUntil(() => form.getByTestId('bill-total-amount').textContent(), (text) => !!text?.replace(/,/g, '').includes('11.5'), 'the total 3 × 2.5 + 4 × 1');
    await screenshot(page, `bill-keyboard-${lang}-lines`);
    const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/admin/purchase/order'));
    await page.keyboard.press('Control+S');
    const { data } = (await (await saved).json()) as { data: { id: number } };
    const bill = await call<{ lines: Array<{ materialId: number; number: string | number; unitPrice: string | number }> }>('GET', `/admin/purchase/order/${data.id}`);
    expect(bill.lines.map((l) => [l.materialId, Number(l.number), Number(l.unitPrice)])).toEqual([
      [first.id, 3, 2.5],
      [second.id, 4, 1],
    ]);
    // Saved: closing asks nothing.
    await form.getByTestId('bill-status').waitFor();
    await form.getByTestId('bill-close').click();
    await form.waitFor({ state: 'detached' });
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
  }, 120_000);

  it("takes a line's material by the code typed, not the row highlighted in the list its first letters left open, when Enter comes before the search answers", async () => {
    interface Coded { id: number; code: string; name: string }
    await signIn();
    const picker = (keyword: string) => call<Coded[]>('GET', `/admin/basic/material/picker?current=1&pageSize=10&keyword=${encodeURIComponent(keyword)}`);
    const materials = await call<Coded[]>('GET', '/admin/basic/material/picker?current=1&pageSize=50');
    // A material whose code is no other's, and the first letters of it whose matches list another material first:
    // the row the open list highlights while the rest of the code is still being searched.
    let target: Coded | undefined;
    let prefix = '';
    let stale: Coded | undefined;
    for (const m of materials.filter((m) => !materials.some((o) => o !== m && o.code.toLowerCase().includes(m.code.toLowerCase())))) {
      for (let k = 1; k < m.code.length && !target; k++) {
        const [first] = await picker(m.code.slice(0, k));
        if (first && first.id !== m.id && first.code.toLowerCase() !== m.code.slice(0, k).toLowerCase()) [target, prefix, stale] = [m, m.code.slice(0, k), first];
      }
      if (target) break;
    }
    expect(target, 'a material whose first letters list another one first').toBeTruthy();

    const form = await newOrder();
    await form.getByTestId('bill-line-add').focus();
    await page.keyboard.press('Enter');
    const material0 = form.getByTestId('bill-line-0-materialId');
    await waitUntil(() => focusedIn(material0), Boolean, 'the focus in the new line');
    await page.keyboard.type(prefix);
    await page.getByTestId(`bill-line-0-materialId-option-${stale!.id}`).waitFor();
    // The searches for the longer text answer late (a slow network): Enter comes while that list is still open.
    const slow = async (route: Route) => {
      const keyword = new URL(route.request().url()).searchParams.get('keyword') ?? '';
      if (keyword.length > prefix.length) await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue().catch(() => undefined);
    };
    await page.route('**/api/admin/basic/material/picker?*', slow);
    try {
      await page.keyboard.type(target!.code.slice(prefix.length));
      await page.keyboard.press('Enter');
      await waitUntil(() => material0.locator('input').inputValue(), (text) => text.startsWith(target!.code), `the typed code's material (${target!.code}), not ${stale!.code}`);
    } finally {
      await page.unroute('**/api/admin/basic/material/picker?*', slow);
    }
    // Taken, Enter moved on to the next cell as usual.
    await waitUntil(() => focusedIn(material0), (inside) => !inside, 'the focus past the material');
    await screenshot(page, `bill-keyboard-${lang}-typed-fast`);
    await form.getByTestId('bill-close').click();
    const question = page.locator('.ant-modal-confirm').filter({ hasText: discard });
    await question.waitFor();
    await question.getByTestId('discard-ok').click();
    await form.waitFor({ state: 'detached' });
  }, 120_000);

  it("fills a bill's header with the keyboard: Enter opens the picker, arrows and Enter choose, Esc closes, a typed code takes its record", async () => {
    interface Coded { id: number; code: string; name: string }
    await signIn();
    const suppliers = await call<Coded[]>('GET', '/admin/basic/supplier/picker?current=1&pageSize=50');
    // A supplier whose code is in no other supplier's code or name: typed, it is the exact match among the first few.
    const unique = (rows: Coded[]) => rows.find((r) => !rows.some((o) => o !== r && (o.code.toLowerCase().includes(r.code.toLowerCase()) || o.name.toLowerCase().includes(r.code.toLowerCase()))))!;
    const byCode = unique(suppliers);
    expect(byCode, 'a supplier with a distinctive code').toBeTruthy();

    const form = await newOrder();
    const field = form.getByTestId('bill-field-supplierId');
    const shown = () => field.locator('input').inputValue();
    // From the first header field, Tab to the supplier: nothing typed, Enter opens the picker.
    await form.getByTestId('bill-field-billCode').focus();
    await pressUntilIn(page, 'Tab', field);
    await page.keyboard.press('Enter');
    const picker = page.getByTestId('supplier-picker');
    await picker.getByTestId('supplier-picker-search').waitFor();
    // The picker's search takes the focus as it opens.
    await waitUntil(() => picker.getByTestId('supplier-picker-search').evaluate((input) => input === document.activeElement), Boolean, 'the focus in the picker search');
    // ↓ ↓ makes the second row current (and selected); Enter chooses it and closes the picker.
    const rows = picker.locator('[data-testid^="supplier-picker-row-"]');
    await rows.nth(1).waitFor();
    const secondId = Number((await rows.nth(1).getAttribute('data-testid'))!.replace('supplier-picker-row-', ''));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await waitUntil(() => rows.nth(1).getAttribute('class'), (c) => !!c?.includes('p8-picker-row-current'), 'the second row current');
    await screenshot(page, `bill-header-keyboard-${lang}-picker`);
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'hidden' });
    const second = suppliers.find((s) => s.id === secondId)!;
    await waitUntil(shown, (text) => text === second.name, 'the second supplier chosen');
    // The focus is back in the field: Esc in a reopened picker closes the picker only, the bill stays.
    await waitUntil(() => focusedIn(field), Boolean, 'the focus back in the supplier');
    await page.keyboard.press('ArrowDown');
    await picker.getByTestId('supplier-picker-search').waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'hidden' });
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
    expect(await form.isVisible()).toBe(true);
    expect(await shown()).toBe(second.name);
    // A code typed and Enter takes the supplier holding it.
    await waitUntil(() => focusedIn(field), Boolean, 'the focus back in the supplier');
    await page.keyboard.type(byCode.code);
    await page.keyboard.press('Enter');
    await waitUntil(shown, (text) => text === byCode.name, 'the supplier of the typed code');
    // Text that is no code: Enter opens the picker searching it (typed once the field has the focus again: on a busy
    // machine the keys went elsewhere while the typed code was being taken).
    await waitUntil(() => focusedIn(field), Boolean, 'the focus in the supplier after the typed code');
    const fragment = byCode.name.slice(0, Math.max(1, Math.min(2, byCode.name.length)));
    await page.keyboard.type(`${fragment}zz-none`);
    await page.keyboard.press('Enter');
    await waitUntil(() => picker.getByTestId('supplier-picker-search').inputValue(), (text) => text === `${fragment}zz-none`, 'the picker searching the typed text');
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'hidden' });
    expect(await shown()).toBe(byCode.name);
    await screenshot(page, `bill-header-keyboard-${lang}`);

    // Saved with Ctrl+S after one line: the bill names the supplier the keyboard chose.
    const material = unique(await call<Coded[]>('GET', '/admin/basic/material/picker?current=1&pageSize=50'));
    await form.getByTestId('bill-line-add').focus();
    await page.keyboard.press('Enter');
    const material0 = form.getByTestId('bill-line-0-materialId');
    await waitUntil(() => focusedIn(material0), Boolean, 'the focus in the new line');
    await page.keyboard.type(material.code);
    await page.keyboard.press('Enter');
    await waitUntil(() => material0.locator('input').inputValue(), (text) => text.startsWith(material.code), 'the material chosen');
    await pressUntilIn(page, 'Enter', form.getByTestId('bill-line-0-number'));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await pressUntilIn(page, 'Tab', form.getByTestId('bill-line-0-unitPrice'));
    await page.keyboard.type('1.5');
    await screenshot(page, `bill-header-keyboard-${lang}-saving`);
    const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/admin/purchase/order'));
    await page.keyboard.press('Control+S');
    const { data } = (await (await saved).json()) as { data: { id: number } };
    expect((await call<{ supplierId: number }>('GET', `/admin/purchase/order/${data.id}`)).supplierId).toBe(byCode.id);
    await form.getByTestId('bill-status').waitFor();
    await form.getByTestId('bill-close').click();
    await form.waitFor({ state: 'detached' });
  }, 120_000);

  it("takes a purchase in-stock's warehouse by its typed code, the field entered by Tab", async () => {
    interface Coded { id: number; code: string; name: string }
    await signIn();
    const warehouses = await call<Coded[]>('GET', '/admin/basic/stock/picker?current=1&pageSize=50');
    const warehouse = warehouses.find((w) => !warehouses.some((o) => o !== w && (o.code.toLowerCase().includes(w.code.toLowerCase()) || o.name.toLowerCase().includes(w.code.toLowerCase()))))!;
    expect(warehouse, 'a warehouse with a distinctive code').toBeTruthy();
    await page.goto('/purchase/instock');
    await page.getByTestId('bill-add').click();
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-lines').waitFor();
    const field = form.getByTestId('bill-field-warehouseId');
    await form.getByTestId('bill-field-billCode').focus();
    await pressUntilIn(page, 'Tab', field);
    await page.keyboard.type(warehouse.code);
    await page.keyboard.press('Enter');
    await waitUntil(() => field.locator('input').inputValue(), (text) => text === warehouse.name, 'the warehouse of the typed code');
    await screenshot(page, `bill-header-warehouse-${lang}`);
    await page.keyboard.press('Escape');
    const question = page.locator('.ant-modal-confirm').filter({ hasText: discard });
    await question.waitFor();
    await question.getByTestId('discard-ok').click();
    await form.waitFor({ state: 'detached' });
  }, 120_000);

  it('asks before Esc or Close throws away a bill with unsaved changes, and closes an untouched one at once', async () => {
    let form = await newOrder();
    await form.getByTestId('bill-field-remark').fill('half-typed');
    await page.keyboard.press('Escape');
    const question = page.locator('.ant-modal-confirm').filter({ hasText: discard });
    await question.waitFor();
    await screenshot(page, `bill-unsaved-${lang}`);
    await question.getByTestId('discard-cancel').click();
    await question.waitFor({ state: 'detached' });
    expect(await form.getByTestId('bill-field-remark').inputValue()).toBe('half-typed');
    await form.getByTestId('bill-close').click();
    await question.waitFor();
    await question.getByTestId('discard-ok').click();
    await form.waitFor({ state: 'detached' });

    form = await newOrder();
    await form.getByTestId('bill-close').click();
    await form.waitFor({ state: 'detached' });
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
  }, 120_000);

  it('asks before a form dialog throws away what was typed (a brand)', async () => {
    await page.goto('/basic/brand');
    await page.getByTestId('brand-add').click();
    const dialog = page.getByTestId('brand-dialog');
    await dialog.getByTestId('brand-name').fill('unsaved brand');
    await page.keyboard.press('Escape');
    const question = page.locator('.ant-modal-confirm').filter({ hasText: discard });
    await question.waitFor();
    await question.getByTestId('discard-cancel').click();
    await question.waitFor({ state: 'detached' });
    expect(await dialog.getByTestId('brand-name').inputValue()).toBe('unsaved brand');
    await dialog.getByTestId('brand-dialog-cancel').click();
    await question.getByTestId('discard-ok').click();
    await dialog.waitFor({ state: 'detached' });
    // Untouched, it closes without a question.
    await page.getByTestId('brand-add').click();
    await dialog.getByTestId('brand-name').waitFor();
    await dialog.getByTestId('brand-dialog-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
  }, 60_000);
});
