import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api, DEMO, flatten, login, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';

/**
 * Issue 3 evidence: an administrator builds a department, a role with a custom data scope and a subset
 * of permissions, and a staff member with both, all through the screens; the staff member then sees only
 * the granted menus and buttons and only the staff rows of that department.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('system-admin');
});
afterAll(async () => {
  await suite?.close();
});

interface MenuRow {
  id: number;
  name: string;
  path: string;
  metaTitle: string;
  menuType: string;
  children?: MenuRow[];
}
interface DeptNode {
  id: number;
  name: string;
  children?: DeptNode[];
}
interface Role {
  id: number;
  roleKey: string;
  roleName: string;
  dataScope: string;
  deptIds: number[];
}
interface Staff {
  id: number;
  name: string;
  deptId: number | null;
  roleIds: number[];
}


/** The open form dialog that holds `inner` (several FormDialogs share the kit's test id). */
const dialogWith = (page: Page, inner: string): Locator => page.getByTestId('form-dialog').filter({ has: page.getByTestId(inner) });

async function submitDialog(dialog: Locator) {
  await dialog.getByTestId('form-dialog-submit').click();
  await dialog.waitFor({ state: 'hidden' });
}

/** A tree row (the virtual list keeps a hidden one for measuring). */
const TREE_NODE = '.ant-tree-treenode:not([aria-hidden="true"])';

/** Ticks a node of a CheckTree (role permissions / scope) by the text of its row. */
async function tickTreeNode(tree: Locator, text: string, options: { exclude?: string } = {}) {
  let node = tree.locator(TREE_NODE).filter({ hasText: text });
  if (options.exclude) node = node.filter({ hasNot: tree.page().locator(options.exclude) });
  await node.first().locator('.ant-tree-checkbox').click();
}

/** Visible side-menu entries (every group opened). */
async function sideMenuPaths(page: Page): Promise<string[]> {
  const items = page.locator('.p8-nav-menu [data-testid^="menu-item-"]');
  return items.evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')!.slice('menu-item-'.length)).sort());
}

/** Keys of the rows a ProTable shows. */
const rowKeys = (page: Page, table: string) =>
  page.locator(`[data-testid="${table}"] tbody tr[data-row-key]`).evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-row-key'))).sort((a, b) => a - b));

describe('department, role with custom scope, staff — then what the staff member sees', () => {
  it('limits menus, buttons and the staff list to what the role grants', async () => {
    const started = Date.now();
    const page = await suite.signedInPage(DEMO);
    const adminToken = await storedToken(page);
    const get = async <T,>(url: string) => {
      const res = await api<T>(suite.server, 'GET', url, undefined, adminToken);
      if (res.status !== 0) throw new Error(`GET ${url}: ${res.message}`);
      return res.data;
    };

    const stamp = Date.now().toString(36).slice(-5);
    const deptName = `E2E质检部${stamp}`;
    const roleName = `E2E质检员${stamp}`;
    const roleKey = `e2e_qc_${stamp}`;
    const staffName = `qc${stamp}`;
    const staffPassword = 'Qc2024pass';

    // ---- 1. department (UI)
    await page.goto('/system/department');
    await page.getByTestId('department-add').click();
    const deptDialog = dialogWith(page, 'dept-name');
    await deptDialog.getByTestId('dept-name').fill(deptName);
    await submitDialog(deptDialog);
    await page.locator('[data-testid="department-table"] tbody').getByText(deptName).waitFor();
    const depts = flatten(await get<DeptNode[]>('/admin/security/dept/tree'));
    const dept = depts.find((d) => d.name === deptName)!;
    expect(dept).toBeTruthy();
    const rootDept = depts.find((d) => d.id !== dept.id)!;

    // ---- 2. role (UI): add, then a custom data scope of the new department, then a few permissions
    await page.goto('/system/role');
    await page.getByTestId('role-add').click();
    const roleDialog = dialogWith(page, 'role-name');
    await roleDialog.getByTestId('role-name').fill(roleName);
    await roleDialog.getByTestId('role-key').fill(roleKey);
    await submitDialog(roleDialog);
    const roles = await get<Role[]>(`/admin/security/role?current=1&pageSize=100`);
    const role = roles.find((r) => r.roleKey === roleKey)!;
    expect(role).toBeTruthy();

    await page.getByTestId(`role-scope-${role.id}`).click();
    const scopeDialog = dialogWith(page, 'role-scope-type');
    await scopeDialog.getByTestId('scope-option-Custom').click();
    const scopeTree = scopeDialog.getByTestId('role-scope-depts');
    await tickTreeNode(scopeTree, deptName);
    await submitDialog(scopeDialog);

    // Permissions: home, the staff screen with only its "edit" button (linkage ticks the screen and the
    // system directory above it), and the department screen without any of its buttons.
    const menus = flatten(await get<MenuRow[]>('/admin/security/menu/tree'));
    const byName = (name: string) => menus.find((m) => m.name === name)!;
    await page.getByTestId(`role-permission-${role.id}`).click();
    const permDialog = dialogWith(page, 'role-permission-tree');
    const permTree = permDialog.getByTestId('role-permission-tree');
    await permTree.locator(TREE_NODE).first().waitFor();
    await permDialog.locator('.ant-spin-spinning').waitFor({ state: 'detached' });
    const search = permDialog.getByTestId('check-tree-search');
    await search.fill('system_staff_update');
    await tickTreeNode(permTree, 'system_staff_update');
    await search.fill('home');
    await tickTreeNode(permTree, byName('home').metaTitle);
    // Without linkage, the department screen alone (not its buttons).
    await permDialog.getByTestId('check-tree-linkage').click();
    await search.fill('system_department');
    await tickTreeNode(permTree, byName('system_department').metaTitle, { exclude: '.p8-check-tree-code' });
    await screenshot(page, 'system-admin-role-permissions');
    await submitDialog(permDialog);

    const expectedMenus = ['home', 'system', 'system_staff', 'system_staff_update', 'system_department'].map((n) => byName(n).id).sort((a, b) => a - b);
    const granted = await get<number[]>(`/admin/security/role/${role.id}/permission`);
    expect([...granted].sort((a, b) => a - b)).toEqual(expectedMenus);
    const savedRole = (await get<Role[]>(`/admin/security/role?current=1&pageSize=100`)).find((r) => r.id === role.id)!;
    expect(savedRole.dataScope).toBe('Custom');
    expect(savedRole.deptIds).toEqual([dept.id]);

    // ---- 3. staff member in the department with the role (UI)
    await page.goto('/system/staff');
    await page.getByTestId('staff-add').click();
    const staffDialog = dialogWith(page, 'staff-name');
    await staffDialog.getByTestId('staff-name').fill(staffName);
    await staffDialog.getByTestId('staff-real-name').fill('E2E质检员');
    await staffDialog.getByTestId('staff-password').fill(staffPassword);
    await staffDialog.getByTestId('staff-confirm-password').fill(staffPassword);
    await staffDialog.getByTestId('staff-dept').click();
    await page.locator('.ant-select-dropdown .ant-select-tree-node-content-wrapper').filter({ hasText: deptName, visible: true }).click();
    await staffDialog.getByTestId('staff-roles').click();
    await page.locator('.ant-select-dropdown .ant-select-item-option').filter({ hasText: roleName, visible: true }).click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'system-admin-staff-dialog');
    await submitDialog(staffDialog);

    // Two more accounts through the API: a colleague in the same department and one outside it.
    const post = async (body: object) => {
      const res = await api<Staff>(suite.server, 'POST', '/admin/security/admin', body, adminToken);
      if (res.status !== 0) throw new Error(`add staff: ${res.message} ${JSON.stringify(res.additional ?? '')}`);
      return res.data;
    };
    const peer = await post({ name: `peer${stamp}`, password: 'Peer2024x', realName: '同部门', deptId: dept.id, roleIds: [role.id] });
    const outsider = await post({ name: `out${stamp}`, password: 'Out2024xx', realName: '外部门', deptId: rootDept.id, roleIds: [role.id] });
    const allStaff = await get<Staff[]>('/admin/security/admin?current=1&pageSize=100');
    const staff = allStaff.find((s) => s.name === staffName)!;
    expect(staff.deptId).toBe(dept.id);
    expect(staff.roleIds).toEqual([role.id]);
    const admin = allStaff.find((s) => s.name === DEMO.name)!;

    // The administrator (super role) sees every account — the demo company's workers too — a page at a time.
    const everyone = allStaff.map((s) => s.id).sort((a, b) => a - b);
    expect(everyone).toEqual(expect.arrayContaining([admin.id, staff.id, peer.id, outsider.id]));
    await page.getByTestId('pro-table-refresh').click();
    const adminRows = await waitUntil(() => rowKeys(page, 'staff-table'), (keys) => keys.length === Math.min(10, everyone.length), 'the first page of staff rows for the administrator');
    expect(everyone).toEqual(expect.arrayContaining(adminRows));
    const total = page.locator('[data-testid="staff-table"] [data-testid="pro-table-total"]');
    await waitUntil(() => total.textContent(), (text) => (text ?? '').includes(String(everyone.length)), "the administrator's staff total");

    // A message to the staff member, whose role has no message screen (read through the header's bell below).
    const sent = await api<{ ids: number[] }>(suite.server, 'POST', '/admin/office/message', { receiverIds: [staff.id], title: `E2E通知${stamp}`, content: '<p>请查收</p>' }, adminToken);
    expect(sent.status).toBe(0);

    // ---- 4. sign out, sign in as the staff member
    await page.getByTestId('header-user').click();
    await page.getByTestId('menu-logout').click();
    await page.getByTestId('logout-confirm').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await login(page, staffName, staffPassword);

    // Side menu: home and the system group only; inside it only departments and staff.
    await waitUntil(() => sideMenuPaths(page), (paths) => paths.includes('/system'), 'the system group in the menu');
    expect(await sideMenuPaths(page)).toEqual(['/home/index', '/system']);
    await page.getByTestId('menu-item-/system').click();
    await page.getByTestId('menu-item-/system/staff').waitFor();
    expect(await sideMenuPaths(page)).toEqual(['/home/index', '/system', '/system/department', '/system/staff']);
    expect(await page.locator('[data-testid^="menu-item-/basic"]').count()).toBe(0);

    // Staff screen: no "add" (not granted), "edit" on the rows (granted), no delete / more; only the
    // department's rows (the staff member and the colleague; neither the administrator nor the outsider).
    await page.getByTestId('menu-item-/system/staff').click();
    await page.waitForURL((url) => url.pathname === '/system/staff');
    const scoped = [staff.id, peer.id].sort((a, b) => a - b);
    const firstSeen = await waitUntil(() => rowKeys(page, 'staff-table'), (keys) => keys.length > 0, 'staff rows');
    // Never the previous user's rows, not even for a moment (the client's cache is dropped at sign-out).
    expect(firstSeen).toEqual(scoped);
    await waitUntil(() => rowKeys(page, 'staff-table'), (keys) => keys.join() === scoped.join(), 'only the scoped staff rows');
    expect(await page.getByTestId('staff-add').count()).toBe(0);
    expect(await page.getByTestId('staff-delete-batch').count()).toBe(0);
    await page.getByTestId(`row-edit-${staff.id}`).waitFor();
    expect(await page.getByTestId(`row-edit-${peer.id}`).isVisible()).toBe(true);
    expect(await page.locator('[data-testid^="row-delete-"]').count()).toBe(0);
    expect(await page.locator('[data-testid^="row-more-"]').count()).toBe(0);
    await screenshot(page, 'system-admin-staff-scoped');

    // Department screen: visible, but without any write button.
    await page.getByTestId('menu-item-/system/department').click();
    await page.waitForURL((url) => url.pathname === '/system/department');
    await page.locator('[data-testid="department-table"] tbody').getByText(deptName).waitFor();
    expect(await page.getByTestId('department-add').count()).toBe(0);
    // (Scoped to this screen: the staff screen stays mounted in its kept-alive tab.)
    const deptPage = page.getByTestId('department-page');
    expect(await deptPage.locator('[data-testid^="row-edit-"], [data-testid^="row-add-"], [data-testid^="row-delete-"]').count()).toBe(0);
    await screenshot(page, 'system-admin-department-readonly');

    // Messages reach every colleague: the bell counts the unread one and opens it (which reads it); no way
    // to the message screen the role does not grant.
    const bellCount = page.getByTestId('message-bell-count').locator('.ant-scroll-number');
    await waitUntil(() => bellCount.getAttribute('title'), (title) => title === '1', 'one unread message on the bell');
    await page.getByTestId('message-bell').click();
    await page.getByTestId(`message-bell-item-${sent.data.ids[0]}`).click();
    await page.getByTestId('message-drawer-title').filter({ hasText: `E2E通知${stamp}` }).waitFor();
    await screenshot(page, 'system-admin-message-bell');
    await waitUntil(() => bellCount.count(), (n) => n === 0, 'the message read');
    expect(await page.getByTestId('message-bell-all').count()).toBe(0);
    console.log(`[system-admin] flow took ${Date.now() - started} ms`);
  }, 110_000);
});
