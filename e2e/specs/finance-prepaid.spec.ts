import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { BEGINNING_TYPE_LABELS, type PrepaidBalanceRow } from '@p8/contract/finance';
import { api, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';
import { demoPage, type Lang } from '../bill-steps.ts';

/**
 * Prepaid and advance balances in zh and en at 1440 px: the screen lists the demo company's balances as
 * the API (and verify) have them, with their totals; filtered to customers, a customer's row opens its
 * advance ledger, whose last balance is the row's, and a line opens its bill on the bill's screen. The
 * opening balances' list filters by its type.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('finance-prepaid');
});
afterAll(async () => {
  await suite?.close();
});

/** Decimal text as the list kit shows an amount (the demo's two decimals), and as the ledger does (thousands grouped). */
/** An amount as every list shows it: two decimals, thousands grouped. */
const money = (text: string) => Number(text).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const TYPE = { zh: '类型', en: 'Type' } as const;
const CUSTOMER = { zh: '客户', en: 'Customer' } as const;
const OPENING_TYPE = { zh: '期初类型', en: 'Opening type' } as const;

/** Chooses `option` in the search form's select labelled `label`, and searches. */
async function searchBy(page: Page, table: Locator, label: string, option: string) {
  const form = table.getByTestId('pro-table-search');
  const field = form.locator('.ant-form-item').filter({ hasText: label }).first();
  // A field beyond the form's first row shows once the form is expanded.
  if (!(await field.isVisible())) await form.getByTestId('pro-table-search-toggle').click();
  await form.locator('.ant-form-item').filter({ hasText: label }).first().locator('.ant-select').click();
  await page.locator('.ant-select-dropdown .ant-select-item-option').filter({ visible: true, hasText: option }).first().click();
  await form.getByTestId('pro-table-search-submit').click();
}

const rowTexts = (table: Locator) => table.locator('.ant-table-tbody tr.ant-table-row').allInnerTexts();

describe('prepaid and advance balances (browser)', () => {
  it.each<[Lang, string]>([
    ['zh', 'zh-CN'],
    ['en', 'en-US'],
  ])('lists the demo balances with totals, filters, drills down to a ledger and its bill (%s)', async (lang, locale) => {
    const page = await demoPage(suite, lang, locale);
    const token = await storedToken(page);
    const listed = (await api<PrepaidBalanceRow[]>(suite.server, 'GET', '/admin/finance/prepaid?current=1&pageSize=200', undefined, token)).data;
    const totals = (await api<{ prepaid: string; advance: string }>(suite.server, 'GET', '/admin/finance/prepaid/statistics', undefined, token)).data;
    // The demo seeds an opening prepayment and advances received: both show.
    const supplier = listed.find((r) => r.kind === 'supplier' && Number(r.prepaid) > 0)!;
    const customer = listed.find((r) => r.kind === 'customer' && Number(r.advance) > 0)!;
    expect(supplier, JSON.stringify(listed)).toBeDefined();
    expect(customer, JSON.stringify(listed)).toBeDefined();

    await page.goto('/finance/prepaid');
    const table = page.getByTestId('finance-prepaid');
    const supplierRow = table.locator('tr.ant-table-row', { hasText: supplier.partnerName });
    await supplierRow.waitFor();
    expect(await supplierRow.innerText()).toContain(money(supplier.prepaid));
    expect(await table.getByTestId('pro-table-sum-prepaid').innerText()).toBe(money(totals.prepaid));
    expect(await table.getByTestId('pro-table-sum-advance').innerText()).toBe(money(totals.advance));
    await screenshot(page, `finance-prepaid-list-${lang}`);

    // Customers only: every row a customer, the customer with an advance among them.
    await searchBy(page, table, TYPE[lang], CUSTOMER[lang]);
    const customers = listed.filter((r) => r.kind === 'customer');
    await waitUntil(() => rowTexts(table), (rows) => rows.length === customers.length && rows.every((r) => r.includes(CUSTOMER[lang])), 'the customers only');

    // The customer's advance ledger: its last balance is the row's.
    await table.getByTestId(`prepaid-open-${customer.partnerCode}`).click();
    const drawer = page.getByTestId('finance-ledger');
    const lines = drawer.locator('.ant-table-tbody tr.ant-table-row');
    await lines.first().waitFor();
    const last = (await lines.last().locator('td').last().innerText()).trim();
    expect(last).toBe(money(customer.advance));
    await screenshot(page, `finance-prepaid-ledger-${lang}`);

    // A line opens its bill: the bill's screen with its form.
    const link = drawer.locator('[data-testid^="finance-ledger-link-"]').first();
    const code = (await link.innerText()).trim();
    await link.click();
    const form = page.getByTestId('bill-form');
    await form.waitFor();
    await waitUntil(() => form.innerText(), (text) => text.includes(code), `the form of ${code}`);
    expect(new URL(page.url()).pathname).toMatch(/^\/finance\/(beginning|receipt)$/);
    expect(new URL(page.url()).search).toBe('');
    await screenshot(page, `finance-prepaid-bill-${lang}`);
    await form.getByTestId('bill-close').click();
    await form.waitFor({ state: 'detached' });
    // The link opened the screen's own tab, not a second one; closed, the form stays closed.
    const screenPath = new URL(page.url()).pathname;
    expect(await page.locator(`[data-testid^="tab-${screenPath}"]`).count()).toBe(1);

    // The opening balances' list by type: the advances received only.
    await page.goto('/finance/beginning');
    const bills = page.getByTestId('bill-screen-Beginning');
    await bills.getByTestId('bill-status-tabs').waitFor();
    await searchBy(page, bills, OPENING_TYPE[lang], BEGINNING_TYPE_LABELS.Advance[lang]);
    await waitUntil(() => rowTexts(bills), (rows) => rows.length > 0 && rows.every((r) => r.includes(BEGINNING_TYPE_LABELS.Advance[lang])), 'the opening advances only');
    await screenshot(page, `finance-beginning-by-type-${lang}`);
  }, 240_000);
});
