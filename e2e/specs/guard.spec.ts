import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue } from '@p8/contract/errors';
import { api, DEMO, login, pathOf, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('guard');
});
afterAll(async () => {
  await suite?.close();
});

describe('route guard (SPEC §2)', () => {
  it('sends an unknown path to /404 when signed in', async () => {
    const page = await suite.page();
    await login(page, DEMO.name, DEMO.password);
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
    const page = await suite.page();
    await login(page, DEMO.name, DEMO.password);
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
    const page = await suite.page();
    await login(page, DEMO.name, DEMO.password);
    const token = await storedToken(page);
    const logout = await api(suite.server, 'POST', '/auth/logout', undefined, token);
    expect(logout.status).toBe(0);

    await page.reload();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await storedToken(page)).toBe('');
  });
});
