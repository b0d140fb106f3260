import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { errorCatalogue } from '@p8/contract/errors';
import { api, pathOf, registerTenant, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('account');
});
afterAll(async () => {
  await suite?.close();
});

async function userMenu(page: Page, item: 'menu-change-password' | 'menu-logout' | 'menu-personal') {
  await page.getByTestId('header-user').click();
  await page.getByTestId(item).click();
}

async function logout(page: Page) {
  await userMenu(page, 'menu-logout');
  await page.getByTestId('logout-confirm').click();
  await page.waitForURL((url) => url.pathname === '/login');
}

describe('logout', () => {
  it('ends the session on the server and here, and goes to login', async () => {
    const account = await registerTenant(suite.server, 'logout');
    const page = await suite.signedInPage(account);
    const token = await storedToken(page);
    expect((await api(suite.server, 'GET', '/admin/current/detail', undefined, token)).status).toBe(0);

    await logout(page);
    expect(await storedToken(page)).toBe('');
    const after = await api(suite.server, 'GET', '/admin/current/detail', undefined, token);
    expect(after.status).toBe(40100);

    // The shell is closed to the signed-out browser.
    await page.goto('/home/index');
    await page.waitForURL((url) => url.pathname === '/login');
  });
});

describe('change password', () => {
  it('refuses a wrong old password, then changes it; only the new password signs in afterwards', async () => {
    const account = await registerTenant(suite.server, 'chpw');
    const newPassword = 'N3wPassw0rd';
    const page = await suite.signedInPage(account);

    await userMenu(page, 'menu-change-password');
    // The test id sits on the modal's zero-size root: wait for its content.
    const dialog = page.locator('[data-testid="dialog-password"] .ant-modal');
    await dialog.waitFor();
    await page.getByTestId('password-old').fill('NotMine123');
    await page.getByTestId('password-new').fill(newPassword);
    await page.getByTestId('password-confirm').fill(newPassword);
    await page.getByTestId('password-submit').click();
    await page.locator('.ant-message-notice').filter({ hasText: errorCatalogue.OldPasswordError.zh }).waitFor();

    // The two new passwords must match.
    await page.getByTestId('password-old').fill(account.password);
    await page.getByTestId('password-confirm').fill(`${newPassword}x`);
    await page.getByTestId('password-submit').click();
    await page.locator('.ant-form-item-explain-error').filter({ hasText: '两次' }).waitFor();
    await screenshot(page, 'change-password-dialog');

    await page.getByTestId('password-confirm').fill(newPassword);
    await page.getByTestId('password-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    // This session stays signed in.
    expect((await api(suite.server, 'GET', '/admin/current/detail', undefined, await storedToken(page))).status).toBe(0);

    await logout(page);
    await page.getByTestId('login-name').fill(account.name);
    await page.getByTestId('login-password').fill(account.password);
    await page.getByTestId('login-submit').click();
    await waitUntil(() => page.getByTestId('login-error').textContent(), (text) => text === errorCatalogue.PasswordError.zh, 'the old password refused');

    await page.getByTestId('login-password').fill(newPassword);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/home/index');
    expect(pathOf(page)).toBe('/home/index');
  });
});

describe('personal data', () => {
  it('saves the nickname, which the header then shows', async () => {
    const account = await registerTenant(suite.server, 'person');
    const page = await suite.signedInPage(account);
    await page.goto('/person/userInfo');
    const nickName = page.getByTestId('person-nickName');
    await nickName.waitFor();
    await nickName.fill('小测');
    await page.getByTestId('person-save').click();
    await waitUntil(() => page.getByTestId('header-user').textContent(), (text) => !!text?.includes('小测'), 'the new nickname in the header');
    const detail = await api<{ nickName: string }>(suite.server, 'GET', '/admin/current/detail', undefined, await storedToken(page));
    expect(detail.data.nickName).toBe('小测');
  });
});

describe('home common menus', () => {
  it('adds a screen to the common menus, keeps it, opens it from home and removes it again', async () => {
    const account = await registerTenant(suite.server, 'common');
    const page = await suite.signedInPage(account);
    const token = await storedToken(page);
    type Menu = { id: number; path: string; children?: Menu[] };
    const role = await api<{ menuList: Menu[] }>(suite.server, 'GET', '/admin/current/role', undefined, token);
    const flat = (items: Menu[]): Menu[] => items.flatMap((m) => [m, ...flat(m.children ?? [])]);
    const userInfo = flat(role.data.menuList).find((m) => m.path === '/person/userInfo');
    expect(userInfo).toBeDefined();
    const tile = page.getByTestId(`home-common-item-${userInfo!.id}`);

    await page.getByTestId('home-common-edit').click();
    await page.getByTestId('home-common-add').click();
    const option = page.locator('.ant-tree-treenode').filter({ has: page.getByTestId(`home-common-option-${userInfo!.id}`) });
    await option.locator('.ant-tree-checkbox').click();
    await page.getByTestId('home-common-picker-ok').click();
    await tile.waitFor();
    await page.getByTestId('home-common-save').click();
    await page.getByTestId('home-common-edit').waitFor();
    await screenshot(page, 'home-common-menus');

    // Saved on the server: still there after a reload.
    await page.reload();
    await tile.waitFor();
    const detail = await api<{ commonMenus: number[] }>(suite.server, 'GET', '/admin/current/detail', undefined, token);
    expect(detail.data.commonMenus).toEqual([userInfo!.id]);

    await tile.click();
    await page.waitForURL((url) => url.pathname === '/person/userInfo');

    await page.goto('/home/index');
    await page.getByTestId('home-common-edit').click();
    await page.getByTestId(`home-common-remove-${userInfo!.id}`).click();
    await page.getByTestId('home-common-save').click();
    await tile.waitFor({ state: 'detached' });
    await waitUntil(
      async () => (await api<{ commonMenus: number[] }>(suite.server, 'GET', '/admin/current/detail', undefined, token)).data.commonMenus,
      (ids) => ids.length === 0,
      'the common menus emptied on the server',
    );
  });
});
