import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { api, DEMO, storedToken, waitUntil, type Suite } from './harness.ts';

/*
 * Steps on the bill kit's screens that several specs take the same way: the demo administrator's shell in a
 * language, a saved bill submitted and audited on its form, a receipt pushed down on the receipt screen.
 */

export type Lang = 'zh' | 'en';

/** The demo administrator's shell at 1440 px (or the viewport given: a tablet's), in the language asked (English through the header's switch). */
export async function demoPage(suite: Suite, lang: Lang, locale: string, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const page = await suite.signedInPage(DEMO, { locale, viewport });
  if (lang === 'en') {
    await page.getByTestId('header-lang').click();
    await page.getByTestId('lang-en').click();
    await waitUntil(() => page.getByTestId('menu-item-/home/index').textContent(), (text) => text === 'Home', 'the English menu');
  }
  return page;
}

/** The API as `page`'s signed-in user: `call(method, url, body)` answers the data of a successful envelope (else fails the test). */
export async function pageCaller(suite: Suite, page: Page) {
  const token = await storedToken(page);
  return async <T,>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await api<T>(suite.server, method, url, body, token);
    expect(res.status, `${method} ${url}: ${res.message}`).toBe(0);
    return res.data;
  };
}

/** The push-down dialog searched for one bill's code (other bills' open lines fill its first page). */
export async function searchPushDown(dialog: Locator, billCode: string) {
  await dialog.locator('input:not([type=radio])').first().fill(billCode);
  await dialog.getByTestId('pro-table-search-submit').click();
  await dialog.locator('tbody tr', { hasText: billCode }).first().waitFor();
}

/** Submits and audits the saved bill open in `form` (each button gone once done), then closes the form. */
export async function submitAuditAndClose(form: Locator) {
  for (const step of ['submit', 'audit']) {
    await form.getByTestId(`bill-op-${step}`).click();
    await form.getByTestId(`bill-op-${step}`).waitFor({ state: 'detached' });
  }
  await form.getByTestId('bill-close').click();
}

/**
 * The receipt screen's push down from the bill `billCode` (of the source type labelled `sourceType` in the
 * dialog's switch, when not the first; `inspect` reads its row of the dialog first): the new draft opens in the form.
 */
export async function pushedDownReceipt(page: Page, billCode: string, sourceType?: string, inspect?: (row: Locator) => Promise<void>) {
  await page.goto('/finance/receipt');
  await page.getByTestId('bill-add').click();
  const form = page.getByTestId('bill-form');
  await form.getByTestId('bill-pushdown').click();
  const dialog = page.getByTestId('bill-pushdown-dialog');
  if (sourceType) await dialog.locator('.ant-segmented-item').filter({ hasText: sourceType }).click();
  const row = dialog.locator('tr', { hasText: billCode });
  await inspect?.(row);
  await row.locator('input[type="checkbox"]').check();
  await dialog.getByTestId('bill-pushdown-ok').click();
  await form.getByTestId('bill-line-0-amount').waitFor();
  return form;
}

/**
 * One receipt on the kit's receipt screen: a new receipt pushed down from `billCode` (the draft settles all
 * that is open), its amount set (`all` keeps it), the first fund account, saved, submitted, audited.
 */
export async function receive(page: Page, billCode: string, amount: string | 'all', sourceType?: string) {
  const form = await pushedDownReceipt(page, billCode, sourceType);
  if (amount !== 'all') await form.getByTestId('bill-line-0-amount').fill(amount);
  await form.getByTestId('bill-field-fundAccountId').click();
  await page.locator('.ant-select-dropdown .ant-select-item-option').filter({ visible: true }).first().click();
  // Submit reads the saved bill: wait for the save (the fund account) to be answered first.
  await Promise.all([page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/finance/receipt')), form.getByTestId('bill-save').click()]);
  await submitAuditAndClose(form);
}
