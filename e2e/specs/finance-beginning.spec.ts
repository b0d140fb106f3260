import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BEGINNING_TYPE_LABELS } from '@p8/contract/finance';
import { PROGRESS_STATE_LABELS } from '@p8/contract/bills/status';
import { api, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';
import { demoPage, receive, submitAuditAndClose, type Lang } from '../bill-steps.ts';

/**
 * Opening balances on the bill kit, in zh and en at 1440 px: a new opening balance shows only the partner
 * field of its type (customer for a receivable, supplier for a payable), is saved, submitted and audited on
 * the screen; an opening receipt pushed down from it on the receipt screen takes half, and the opening
 * balance's list shows it partly settled.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('finance-beginning');
});
afterAll(async () => {
  await suite?.close();
});

async function chooseType(page: Page, form: ReturnType<Page['getByTestId']>, type: keyof typeof BEGINNING_TYPE_LABELS, lang: Lang) {
  await form.getByTestId('bill-field-beginningType').click();
  await page.locator('.ant-select-dropdown .ant-select-item-option').filter({ visible: true, hasText: BEGINNING_TYPE_LABELS[type][lang] }).first().click();
}

describe('opening balances (browser)', () => {
  it.each<[Lang, string]>([
    ['zh', 'zh-CN'],
    ['en', 'en-US'],
  ])('an opening receivable entered on the kit, then received in part by an opening receipt (%s)', async (lang, locale) => {
    const page = await demoPage(suite, lang, locale);
    const token = await storedToken(page);
    const stamp = `${lang}${Date.now().toString(36)}`;
    const customer = await api<{ id: number }>(suite.server, 'POST', '/admin/basic/customer', { code: `QC${stamp}`, name: `E2E期初客户${stamp}` }, token);
    expect(customer.status, customer.message).toBe(0);

    await page.goto('/finance/beginning');
    await page.getByTestId('bill-status-tabs').waitFor();
    await page.getByTestId('bill-add').click();
    const form = page.getByTestId('bill-form');
    // The partner field follows the type: a supplier for a payable, a customer for a receivable.
    await chooseType(page, form, 'Payable', lang);
    await form.getByTestId('bill-field-supplierId').waitFor();
    expect(await form.getByTestId('bill-field-customerId').count()).toBe(0);
    await chooseType(page, form, 'Receivable', lang);
    await form.getByTestId('bill-field-customerId').waitFor();
    expect(await form.getByTestId('bill-field-supplierId').count()).toBe(0);
    await form.getByTestId('bill-field-customerId').click();
    const picker = page.getByTestId('customer-picker');
    await picker.getByTestId('customer-picker-search').fill(stamp);
    await picker.getByTestId(`customer-picker-row-${customer.data.id}`).click();
    await picker.getByTestId('customer-picker-ok').click();
    await picker.waitFor({ state: 'hidden' });
    await form.getByTestId('bill-field-openingAmount').fill('800');
    await waitUntil(() => form.getByTestId('bill-total-amount').textContent(), (text) => !!text?.includes('800'), 'the total');
    await screenshot(page, `finance-beginning-form-${lang}`);
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/finance/beginning')), form.getByTestId('bill-save').click()]);
    await submitAuditAndClose(form);
    const [opening] = (await api<Array<{ id: number; billCode: string; billStatus: string }>>(suite.server, 'GET', `/admin/finance/beginning?current=1&pageSize=5&customerId=${customer.data.id}`, undefined, token)).data;
    expect(opening.billStatus).toBe('Audit');

    // An opening receipt pushed down from it on the receipt screen, for half of it.
    await receive(page, opening.billCode, '400', lang === 'zh' ? '期初余额单' : 'Opening balance');

    await page.goto('/finance/beginning');
    const row = page.locator('tr', { hasText: opening.billCode });
    await row.waitFor();
    await waitUntil(async () => (await row.innerText()).replace(/\s+/g, ' '), (text) => text.includes(PROGRESS_STATE_LABELS.PartialSettlement[lang]), 'partly settled in the list');
    expect(await row.innerText()).toContain(BEGINNING_TYPE_LABELS.Receivable[lang]);
    await screenshot(page, `finance-beginning-list-${lang}`);
    expect((await api<unknown[]>(suite.server, 'POST', '/admin/finance/verify', undefined, token)).data).toEqual([]);
  }, 240_000);
});
