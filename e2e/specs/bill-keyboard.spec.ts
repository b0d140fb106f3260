import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';
import { demoPage } from '../bill-steps.ts';

/**
 * The bill form without the mouse, and forms that ask before throwing typed work away, in Chinese and in
 * English: a purchase order's lines entered with the keyboard only (a material's code typed and Enter,
 * Enter / Tab from cell to cell, a new line past the last cell, Ctrl+S to save); Esc and Close on a bill
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

/** Presses `key` until the focus is in `cell` (at most `limit` times); fails if it never gets there. */
async function pressUntilIn(page: Page, key: string, cell: Locator, limit = 20) {
  for (let i = 0; i < limit; i++) {
    if ((await cell.count()) && (await focusedIn(cell))) return;
    await page.keyboard.press(key);
    await page.waitForTimeout(60);
  }
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

  async function newOrder() {
    await page.goto('/purchase/order');
    await page.getByTestId('bill-add').click();
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-lines').waitFor();
    return form;
  }

  it('enters a purchase order with the keyboard: a typed code and Enter take the material, Enter and Tab go on, a new line past the last cell, Ctrl+S saves', async () => {
    page = await demoPage(suite, lang, locale);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    token = await storedToken(page);
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
