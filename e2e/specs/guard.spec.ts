import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue } from '@p8/contract/errors';
import { api, DEMO, flatten, pathOf, screenshot, startSuite, storedToken, uniqueName, waitUntil, type Suite } from '../harness.ts';

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('guard');
});
afterAll(async () => {
  await suite?.close();
});

describe('route guard', () => {
  it('sends an unknown path to /404 when signed in', async () => {
    const page = await suite.signedInPage(DEMO);
    await page.goto('/no/such/page');
    await page.waitForURL((url) => url.pathname === '/404');
    await screenshot(page, 'guard-404');
  });

  it('sends a signed-out visitor to login, keeps the wanted page as redirect and goes there after login', async () => {
    const page = await suite.page();
    await page.goto('/person/userInfo');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/person/userInfo');
    await page.getByTestId('login-name').fill(DEMO.name);
    await page.getByTestId('login-password').fill(DEMO.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/person/userInfo');
    await page.getByTestId('tab-/person/userInfo').waitFor();
  });

  it('turns /login away while signed in: back to the page the user came from, or home', async () => {
    const page = await suite.signedInPage(DEMO);
    await page.getByTestId('home-page').waitFor();

    // A fresh load of /login has no previous page: home.
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/home/index');

    // Navigating to /login from inside the app: back where the user was.
    await page.goto('/person/userInfo');
    await page.getByTestId('tab-/person/userInfo').waitFor();
    await page.evaluate(() => {
      window.history.pushState({}, '', '/login');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await waitUntil(() => pathOf(page), (path) => path === '/person/userInfo', 'the guard to send /login back');
    expect(await storedToken(page)).not.toBe('');
  });

  it('warns about an account without menus, clears the token and returns to login', async () => {
    const page = await suite.page();
    // No API can take every menu away from a tenant's initial administrator yet: the response is replaced.
    await page.route('**/api/admin/current/role', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ status: 0, message: 'Success', data: { menuList: [], buttons: [] } }) }),
    );
    await page.goto('/login');
    await page.getByTestId('login-name').fill(DEMO.name);
    await page.getByTestId('login-password').fill(DEMO.password);
    await page.getByTestId('login-submit').click();

    const notice = page.locator('.ant-notification-notice').filter({ hasText: '无权访问' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(errorCatalogue.NoMenuPermission.zh);
    await screenshot(page, 'guard-no-menu-warning');
    expect(await storedToken(page)).toBe('');
    expect(pathOf(page)).toBe('/login');
    // The warning lasts 3 seconds.
    await notice.waitFor({ state: 'detached', timeout: 8_000 });
    expect(pathOf(page)).toBe('/login');
  });

  it('signs out and goes to login when the server says the session is over (40100)', async () => {
    const page = await suite.signedInPage(DEMO);
    const token = await storedToken(page);
    const logout = await api(suite.server, 'POST', '/auth/logout', undefined, token);
    expect(logout.status).toBe(0);

    await page.reload();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await storedToken(page)).toBe('');
  });

  it('hides what a user may not open, shows a known screen they may not open as 403 inside the shell, and the settings form clean', async () => {
    // A staff member whose role has home and the system settings screen only (not the personal-data screen).
    const page = await suite.signedInPage(DEMO);
    const admin = await storedToken(page);
    const call = async <T,>(method: string, url: string, body?: unknown) => {
      const res = await api<T>(suite.server, method, url, body, admin);
      if (res.status !== 0) throw new Error(`${method} ${url}: ${res.message}`);
      return res.data;
    };
    const name = uniqueName('lim');
    const role = await call<{ id: number }>('POST', '/admin/security/role', { roleKey: name, roleName: `Limited ${name}` });
    const menus = flatten(await call<Array<{ id: number; name: string; children?: never[] }>>('GET', '/admin/security/menu/tree'));
    const ids = ['home', 'system_setting', 'system_setting_update'].map((n) => menus.find((m) => m.name === n)!.id);
    await call('PUT', '/admin/security/role/permission', { id: role.id, menuIds: ids });
    const [dept] = await call<Array<{ id: number }>>('GET', '/admin/security/dept/tree');
    await call('POST', '/admin/security/admin', { name, password: 'Lim2024pass', realName: '受限员工', deptId: dept.id, roleIds: [role.id] });

    const limited = await suite.signedInPage({ name, password: 'Lim2024pass' });
    await limited.getByTestId('home-shortcut-password').waitFor();
    expect(await limited.getByTestId('home-shortcut-person').count()).toBe(0);
    expect(await limited.getByTestId('home-profile').count()).toBe(0);

    // A screen of the product the user may not open: 403 inside the shell, the address kept.
    await limited.goto('/system/role');
    await limited.getByTestId('error-403').waitFor();
    expect(pathOf(limited)).toBe('/system/role');
    expect(await limited.getByTestId('layout-main').locator('[data-testid="error-403"]').count()).toBe(1);
    await screenshot(limited, 'guard-403-in-shell-zh');
    await limited.goto('/person/userInfo');
    await limited.getByTestId('layout-main').locator('[data-testid="error-403"]').waitFor();
    // A path that is no screen at all is still not found.
    await limited.goto('/system/no-such-screen');
    await limited.waitForURL((url) => url.pathname === '/404');

    // The settings screen opens clean: nothing unsaved until a field changes, clean again after discarding.
    await limited.goto('/system/setting');
    await limited.getByTestId('setting-page').waitFor();
    const unsaved = limited.getByTestId('setting-footer').locator('.ant-tag');
    expect(await unsaved.count()).toBe(0);
    expect(await limited.getByTestId('setting-save').isDisabled()).toBe(true);
    await limited.getByTestId('setting-smsSignature').fill('演示签名');
    await unsaved.waitFor();
    await limited.getByTestId('setting-reset').click();
    await unsaved.waitFor({ state: 'detached' });
    await limited.reload();
    await limited.getByTestId('setting-page').waitFor();
    expect(await unsaved.count()).toBe(0);

    // In English too.
    const en = await suite.signedInPage({ name, password: 'Lim2024pass' }, { locale: 'en-US' });
    await en.goto('/system/menu');
    await en.getByTestId('layout-main').locator('[data-testid="error-403"]').waitFor();
    await screenshot(en, 'guard-403-in-shell-en');
  }, 180_000);
});
