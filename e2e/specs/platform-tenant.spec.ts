import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { errorCatalogue } from '@p8/contract/errors';
import type { PlatformTenant } from '@p8/contract/platform';
import { api, registerTenant, screenshot, signedInState, startSuite, storedToken, waitUntil, type Account, type Suite } from '../harness.ts';
import { demoPage, type Lang } from '../bill-steps.ts';

/**
 * The platform administrator's tenant screen (the demo administrator: a super administrator of the
 * platform tenant) in zh and en, each run on a tenant of its own registered for it: the list shows the
 * tenant; its mall module gets a last day in the past through the modules dialog's date picker, and the
 * tenant's signed-in user loses the mall menus; disabling the tenant on the screen throws that user out on
 * its next request (TenantIsDisabled, in the user's language) and refuses its sign-in; enabling it again
 * lets it sign in.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('platform-tenant');
});
afterAll(async () => {
  await suite?.close();
});

const TEXT = {
  zh: { expired: '已过期', disabled: '已禁用', enabled: '已启用', saved: '的模块已保存' },
  en: { expired: 'expired', disabled: 'disabled; its users were signed out', enabled: 'enabled', saved: 'saved' },
} as const;

/** A day relative to today, as the date picker writes it. */
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The tenant's user, signed in, its shell in `lang` (English through the header's switch). */
async function tenantUserPage(account: Account, lang: Lang, locale: string): Promise<Page> {
  // Signed in through the API as suite.signedInPage does, with more time for the first shell of a new tenant.
  const page = await suite.page({ locale, viewport: { width: 1440, height: 900 }, storageState: await signedInState(suite.server, account.name, account.password) });
  await page.goto('/');
  try {
    await page.getByTestId('tabs-bar').waitFor({ timeout: 60_000 });
  } catch (error) {
    await screenshot(page, `platform-tenant-user-shell-${lang}-failed`);
    throw error;
  }
  if (lang === 'en') {
    await page.getByTestId('header-lang').click();
    await page.getByTestId('lang-en').click();
    await waitUntil(() => page.getByTestId('menu-item-/home/index').textContent(), (text) => text === 'Home', 'the English menu');
  }
  return page;
}

const menuNames = async (token: string) => {
  const res = await api<{ menuList: Array<{ name: string; children?: unknown[] }> }>(suite.server, 'GET', '/admin/current/role', undefined, token);
  const names: string[] = [];
  const walk = (items: Array<{ name: string; children?: unknown[] }>) => items.forEach((m) => (names.push(m.name), walk((m.children ?? []) as typeof items)));
  if (res.status === 0) walk(res.data.menuList);
  return names;
};

/** The input of an antd date picker found by its test id (the id sits on the input or on its wrapper). */
async function pickerInput(picker: Locator): Promise<Locator> {
  return (await picker.evaluate((el) => el.tagName)) === 'INPUT' ? picker : picker.locator('input');
}

describe('the platform tenant screen (browser)', () => {
  it.each<[Lang, string]>([
    ['zh', 'zh-CN'],
    ['en', 'en-US'],
  ])('lists a tenant, expires its mall module, disables and enables it; its user loses the menus and is thrown out (%s)', async (lang, locale) => {
    // A tenant of this run's own: the other language's run never sees its dialog or its dates.
    const account = await registerTenant(suite.server, `pt${lang}`);
    const user = await tenantUserPage(account, lang, locale);
    const userToken = await storedToken(user);
    expect(await menuNames(userToken)).toContain('mall');
    await user.getByTestId('menu-item-/mall').waitFor();

    const admin = await demoPage(suite, lang, locale);
    const adminToken = await storedToken(admin);
    const found = await api<PlatformTenant[]>(suite.server, 'GET', `/admin/platform/tenant?name=${encodeURIComponent(account.tenantName)}`, undefined, adminToken);
    expect(found.status, JSON.stringify(found)).toBe(0);
    const tenant = found.data.find((t) => t.name === account.tenantName)!;
    expect(tenant).toMatchObject({ enabled: true, isPlatform: false, admin: { name: account.name } });

    await admin.goto('/base/tenant');
    const table = admin.getByTestId('tenant-table');
    // Searched by its name: the list holds every tenant of the installation (the other run's too).
    const search = table.getByTestId('pro-table-search');
    try {
      await search.locator('input').first().fill(account.tenantName);
    } catch (error) {
      await screenshot(admin, `platform-tenant-admin-${lang}-failed`);
      throw error;
    }
    await search.getByTestId('pro-table-search-submit').click();
    const row = table.locator('tr.ant-table-row', { hasText: account.tenantName });
    await row.waitFor({ timeout: 60_000 });
    await screenshot(admin, `platform-tenant-list-${lang}`);

    // The mall module's last day: yesterday, typed into the dialog's date picker.
    await row.getByTestId(`tenant-modules-${tenant.id}`).click();
    const dialog = admin.getByTestId('tenant-modules-edit');
    await dialog.waitFor();
    await dialog.getByTestId('module-mall').check();
    const input = await pickerInput(dialog.getByTestId('module-mall-expires'));
    expect(await input.inputValue()).toBe('');
    await input.click();
    await input.fill(day(-1));
    await input.press('Enter');
    await waitUntil(() => input.inputValue(), (value) => value === day(-1), 'the picked day');
    await screenshot(admin, `platform-tenant-modules-${lang}`);
    await admin.getByTestId('tenant-modules-save').click();
    await admin.locator('.ant-message').getByText(TEXT[lang].saved).first().waitFor();
    await row.getByTestId(`tenant-${tenant.id}-module-mall`).filter({ hasText: TEXT[lang].expired }).waitFor();
    const stored = (await api<PlatformTenant[]>(suite.server, 'GET', `/admin/platform/tenant?name=${encodeURIComponent(account.tenantName)}`, undefined, adminToken)).data[0];
    expect(stored.modules).toEqual([{ type: 'mall', needCheck: false, expiresAt: day(-1), isExpired: true }]);

    // The tenant's user: the mall menus are gone on the next load, the rest stays.
    await user.reload();
    await user.getByTestId('menu-item-/home/index').waitFor();
    expect(await user.getByTestId('menu-item-/mall').count()).toBe(0);
    const left = await menuNames(userToken);
    expect(left.filter((n) => n === 'mall' || n.startsWith('mall_'))).toEqual([]);
    expect(left).toContain('purchase');
    await screenshot(user, `platform-tenant-user-without-mall-${lang}`);

    // Disabled on the screen: the user's next request throws it out to the login page with the reason.
    await row.getByTestId(`tenant-enable-${tenant.id}`).click();
    await admin.locator('.ant-message').getByText(TEXT[lang].disabled).first().waitFor();
    expect((await api(suite.server, 'GET', '/admin/current/detail', undefined, userToken)).message).toBe('TenantIsDisabled');
    await user.reload();
    await user.waitForURL((url) => url.pathname === '/login');
    await user.locator('.ant-message').getByText(errorCatalogue.TenantIsDisabled[lang]).waitFor();
    expect(await storedToken(user)).toBe('');
    await user.getByTestId('login-submit').waitFor();
    await screenshot(user, `platform-tenant-user-thrown-out-${lang}`);
    expect((await api(suite.server, 'POST', '/auth/admin/name', { name: account.name, password: account.password })).message).toBe('TenantIsDisabled');

    // Enabled again: its users sign in again.
    await row.getByTestId(`tenant-enable-${tenant.id}`).click();
    await admin.locator('.ant-message').getByText(TEXT[lang].enabled).first().waitFor();
    expect((await api(suite.server, 'POST', '/auth/admin/name', { name: account.name, password: account.password })).status).toBe(0);
  }, 240_000);
});
