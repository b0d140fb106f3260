import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, DEMO, flatten, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';

/**
 * Issue 3 evidence for the list kit (ProTable) on a real list, the staff screen: the pager's total, page
 * sizes and pages, a server-side sort, a search, and column settings — saved for the whole tenant by who
 * may change the tenant config, and not offered to anyone else.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('list-kit');
});
afterAll(async () => {
  await suite?.close();
});

interface Staff {
  id: number;
  name: string;
  realName: string;
}
interface MenuRow {
  id: number;
  name: string;
  children?: MenuRow[];
}

const TABLE = '[data-testid="staff-table"]';
const rowCount = (page: Page) => page.locator(`${TABLE} tbody tr[data-row-key]`).count();
const rowKeys = (page: Page) => page.locator(`${TABLE} tbody tr[data-row-key]`).evaluateAll((els) => els.map((el) => el.getAttribute('data-row-key')).join(','));
const totalText = (page: Page) => page.locator(`${TABLE} [data-testid="pro-table-total"]`).innerText();
const headers = (page: Page) => page.locator(`${TABLE} thead th`).evaluateAll((els) => els.map((el) => (el.textContent ?? '').trim()).filter(Boolean));

describe('the list kit on the staff screen', () => {
  it('pages, sorts, searches and keeps tenant-wide column settings for who may set them', async () => {
    const page = await suite.signedInPage(DEMO, { locale: 'en-US' });
    const token = await storedToken(page);
    const call = async <T,>(method: string, url: string, body?: unknown) => {
      const res = await api<T>(suite.server, method, url, body, token);
      if (res.status !== 0) throw new Error(`${method} ${url}: ${res.message} ${JSON.stringify(res.additional ?? '')}`);
      return res.data;
    };

    // 23 staff named so that name order is not creation order, and a role that may only see the screen.
    const stamp = Date.now().toString(36).slice(-5);
    const role = await call<{ id: number }>('POST', '/admin/security/role', { roleKey: `kit_${stamp}`, roleName: `Kit viewer ${stamp}` });
    const menus = flatten(await call<MenuRow[]>('GET', '/admin/security/menu/tree'));
    const screen = menus.find((m) => m.name === 'system_staff')!;
    const [dept] = await call<Array<{ id: number }>>('GET', '/admin/security/dept/tree');
    const home = menus.find((m) => m.name === 'home')!;
    await call('PUT', '/admin/security/role/permission', { id: role.id, menuIds: [home.id, screen.id] });
    for (let i = 0; i < 23; i++) {
      const n = String((i * 7) % 23).padStart(2, '0');
      await call('POST', '/admin/security/admin', { name: `kit${stamp}${i}`, password: 'Kit2024pass', realName: `Kit ${stamp} ${n}`, deptId: dept.id, roleIds: [role.id] });
    }
    const all = await call<Staff[]>('GET', '/admin/security/admin?current=1&pageSize=200');
    const total = all.length;

    await page.goto('/system/staff');
    await page.locator(`${TABLE} tbody tr[data-row-key]`).first().waitFor();
    expect(await totalText(page)).toBe(`${total} in total`);

    // Page size 10, then page 2: ten other rows, same total.
    await page.locator(`${TABLE} [data-testid="pro-table-page-size"]`).click();
    await page.locator('.ant-select-dropdown .ant-select-item-option').filter({ hasText: '10 / page', visible: true }).click();
    await waitUntil(() => rowCount(page), (n) => n === 10, 'ten rows a page');
    const first = await rowKeys(page);
    await page.locator(`${TABLE} .ant-pagination-item-2`).click();
    const second = await waitUntil(() => rowKeys(page), (keys) => keys !== first && keys.split(',').length === 10, 'page two');
    expect(second.split(',').some((id) => first.split(',').includes(id))).toBe(false);
    expect(await totalText(page)).toBe(`${total} in total`);

    // Server-side sort by real name (ascending on the first click): page one holds the smallest names.
    await page.locator(`${TABLE} thead th`).filter({ hasText: 'Real name' }).click();
    const byName = [...all].sort((a, b) => (a.realName < b.realName ? -1 : a.realName > b.realName ? 1 : a.id - b.id));
    const wanted = byName.slice(0, 10).map((s) => s.id).join(',');
    await waitUntil(() => rowKeys(page), (keys) => keys === wanted, 'the ten first staff by real name');

    // Search: a part of the real name, through the search form.
    // In English the search / reset / expand buttons take two cells beside the department tree: the
    // name is the second field, shown once the form is expanded.
    if (!(await page.locator('#search_system_staff_realName').isVisible())) await page.locator(`${TABLE} [data-testid="pro-table-search-toggle"]`).click();
    await page.locator('#search_system_staff_realName').fill(`${stamp} 0`);
    await page.locator(`${TABLE} [data-testid="pro-table-search-submit"]`).click();
    await waitUntil(() => totalText(page), (text) => text === '10 in total', 'the ten names with "0"');
    await screenshot(page, 'list-kit-search');
    await page.locator(`${TABLE} [data-testid="pro-table-search-reset"]`).click();
    await waitUntil(() => totalText(page), (text) => text === `${total} in total`, 'the whole list again');

    // Column settings: hide the phone column for the tenant; it stays hidden after a reload.
    expect(await headers(page)).toContain('Mobile');
    await page.locator(`${TABLE} [data-testid="pro-table-settings"]`).click();
    const drawer = page.getByTestId('pro-table-column-settings');
    await drawer.locator('li[data-prop="phone"] .ant-checkbox-input').click();
    await screenshot(page, 'list-kit-column-settings');
    await drawer.getByTestId('pro-table-column-settings-save').click();
    await waitUntil(() => headers(page), (list) => !list.includes('Mobile'), 'the phone column hidden');
    await page.reload();
    await page.locator(`${TABLE} tbody tr[data-row-key]`).first().waitFor();
    await waitUntil(() => headers(page), (list) => list.includes('Real name') && !list.includes('Mobile'), 'still hidden after a reload');

    // A staff member who may see the list but not change the tenant config: the tenant's columns, no settings button.
    const viewer = await suite.signedInPage({ name: `kit${stamp}0`, password: 'Kit2024pass' }, { locale: 'en-US' });
    await viewer.goto('/system/staff');
    await viewer.locator(`${TABLE} tbody tr[data-row-key]`).first().waitFor();
    expect(await headers(viewer)).not.toContain('Mobile');
    expect(await viewer.locator(`${TABLE} [data-testid="pro-table-settings"]`).count()).toBe(0);
    await screenshot(viewer, 'list-kit-viewer');
  }, 120_000);
});
