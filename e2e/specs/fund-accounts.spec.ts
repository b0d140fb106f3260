import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue } from '@p8/contract/errors';
import { api, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';
import { demoPage, type Lang } from '../bill-steps.ts';

/**
 * Fund accounts on their screen, in zh and en: an account is edited in its dialog (a blank name is refused
 * before sending; kind and opening balance change while only the opening has posted, then show read-only),
 * an empty account is disabled by its switch after a question and leaves the bills' picker, and the switch
 * of an account with money on it cannot be used (the server refuses it too, with the catalogued message).
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('fund-accounts');
});
afterAll(async () => {
  await suite?.close();
});

interface FundRow {
  id: number;
  name: string;
  kind: string;
  openingBalance: string;
  balance: string;
  enabled: boolean;
  moved: boolean;
}

const TODAY = new Date().toISOString().slice(0, 10);

describe('fund accounts (browser)', () => {
  it.each<[Lang, string]>([
    ['zh', 'zh-CN'],
    ['en', 'en-US'],
  ])('edits an account, disables an empty one and not one with money (%s)', async (lang, locale) => {
    const page = await demoPage(suite, lang, locale);
    const token = await storedToken(page);
    const stamp = `${lang}${Date.now().toString(36)}`;
    const create = async (name: string, openingBalance: number) => {
      const made = await api<{ id: number }>(suite.server, 'POST', '/admin/finance/account', { name, kind: 'bank', openingBalance, openingDate: TODAY }, token);
      expect(made.status, made.message).toBe(0);
      return made.data.id;
    };
    const account = async (id: number) => (await api<FundRow>(suite.server, 'GET', `/admin/finance/account/${id}`, undefined, token)).data;
    const fresh = await create(`E2E-new-${stamp}`, 0);
    const full = await create(`E2E-full-${stamp}`, 100);
    const empty = await create(`E2E-empty-${stamp}`, 0);

    await page.goto('/finance/account');
    const list = page.getByTestId('finance-accounts');
    await list.locator('tr', { hasText: `E2E-new-${stamp}` }).waitFor();

    // Edit: a blank name is stopped in the form; then name, kind and opening balance change.
    await page.getByTestId(`row-edit-${fresh}`).click();
    const dialog = page.getByTestId('fund-account-dialog');
    await dialog.getByTestId('fund-account-name').fill(' ');
    let sent = false;
    const watch = (r: { method(): string; url(): string }) => {
      if (r.method() === 'PUT' && r.url().endsWith('/finance/account')) sent = true;
    };
    page.on('request', watch);
    await dialog.getByTestId('fund-account-dialog-submit').click();
    await dialog.locator('.ant-form-item-explain-error', { hasText: lang === 'zh' ? '请输入账户名称' : 'Please enter the name' }).waitFor();
    expect(sent).toBe(false);
    page.off('request', watch);
    await dialog.getByTestId('fund-account-name').fill(`E2E-petty-${stamp}`);
    await dialog.getByTestId('fund-account-kind').click();
    await page.locator('.ant-select-dropdown .ant-select-item-option').filter({ visible: true, hasText: lang === 'zh' ? '现金' : 'Cash' }).click();
    await dialog.getByTestId('fund-account-opening').fill('50');
    await dialog.getByTestId('fund-account-remark').fill('front desk');
    await screenshot(page, `fund-account-edit-${lang}`);
    await dialog.getByTestId('fund-account-dialog-submit').click();
    await waitUntil(() => account(fresh), (a) => a.name === `E2E-petty-${stamp}` && a.kind === 'cash' && a.balance === '50.000000', 'the edited account');
    await list.locator('tr', { hasText: `E2E-petty-${stamp}` }).waitFor();

    // Once money has moved, the kind and the opening balance show read-only with why.
    expect((await api(suite.server, 'POST', '/admin/finance/transfer', { docDate: TODAY, fromAccountId: full, toAccountId: fresh, amount: '10' }, token)).status).toBe(0);
    await page.reload();
    await page.getByTestId(`row-edit-${fresh}`).click();
    await dialog.getByText(lang === 'zh' ? '该账户已有收付记录，类型和期初余额不能再修改' : 'Money has moved on this account: its type and opening balance can no longer change').waitFor();
    expect(await dialog.getByTestId('fund-account-opening').isDisabled()).toBe(true);
    await screenshot(page, `fund-account-edit-locked-${lang}`);
    await dialog.getByTestId('fund-account-dialog-cancel').click();
    await dialog.waitFor({ state: 'hidden' });

    // An account with money on it: its switch cannot be used, and the server refuses too.
    expect(await page.getByTestId(`row-enable-${full}`).isDisabled()).toBe(true);
    const refused = await api(suite.server, 'PUT', '/admin/finance/account/enable', { ids: [full], enabled: false }, token);
    expect(refused.message).toBe('FundAccountHasBalanceProhibitClose');
    expect(errorCatalogue.FundAccountHasBalanceProhibitClose[lang]).toBeTruthy();

    // An empty one: disabled after the question; still listed, flagged in the bills' picker (which offers only enabled ones).
    await page.getByTestId(`row-enable-${empty}`).click();
    await page.getByTestId('account-disable-confirm').click();
    await waitUntil(() => account(empty), (a) => !a.enabled, 'the disabled account');
    await waitUntil(() => page.getByTestId(`row-enable-${empty}`).getAttribute('aria-checked'), (v) => v === 'false', 'the switch off');
    await screenshot(page, `fund-accounts-${lang}`);
    const picker = (await api<Array<{ id: number; enabled: boolean }>>(suite.server, 'GET', '/admin/finance/account/picker', undefined, token)).data;
    expect(picker.find((a) => a.id === fresh)?.enabled).toBe(true);
    expect(picker.find((a) => a.id === empty)?.enabled).toBe(false);
    expect((await api<unknown[]>(suite.server, 'POST', '/admin/finance/verify', undefined, token)).data).toEqual([]);
  }, 180_000);
});
