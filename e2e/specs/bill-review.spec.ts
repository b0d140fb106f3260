import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, DEMO, flatten, screenshot, startSuite, storedToken, uniqueName, type Suite } from '../harness.ts';

/**
 * Joint review in the browser (issue 10): the demo tenant switches joint review on and gives purchase orders
 * an AllVerify rule with two reviewers. The first reviewer's approval leaves the order in review and says
 * whom it waits for; the second one's audits it. A reviewer's refusal with a reason refuses the next order
 * and shows on its timeline. One reviewer works in English, the other in Chinese.
 */
let suite: Suite;
let adminToken = '';
const reviewers: Array<{ id: number; name: string; password: string; realName: string }> = [];
let supplierId = 0;
let materialId = 0;

beforeAll(async () => {
  suite = await startSuite('bill-review');
  const page = await suite.signedInPage(DEMO);
  adminToken = await storedToken(page);
  await page.context().close();
  const call = async <T,>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await api<T>(suite.server, method, url, body, adminToken);
    if (res.status !== 0) throw new Error(`${method} ${url}: ${res.message} ${JSON.stringify(res.additional ?? '')}`);
    return res.data;
  };
  // Two staff members whose role holds the purchase order's audit button (its screen comes with it).
  const menus = flatten(await call<Array<{ id: number; name: string; children?: never[] }>>('GET', '/admin/security/menu/tree'));
  const auditButton = menus.find((m) => m.name === 'purchase_order_audit')!;
  const dept = (await call<Array<{ id: number }>>('GET', '/admin/security/dept/tree'))[0];
  const roleKey = uniqueName('rv').replace(/[^A-Za-z0-9]/g, '');
  const role = await call<{ id: number }>('POST', '/admin/security/role', { roleKey, roleName: `Reviewers ${roleKey}` });
  await call('PUT', '/admin/security/role/permission', { id: role.id, menuIds: [auditButton.id] });
  for (const realName of ['Reviewer One', '审核人二']) {
    const name = `rv${String(Date.now()).slice(-8)}${reviewers.length}`;
    const password = 'Review2024x';
    const staff = await call<{ id: number }>('POST', '/admin/security/admin', { name, password, realName, deptId: dept.id, roleIds: [role.id] });
    reviewers.push({ id: staff.id, name, password, realName });
  }
  await call('PUT', '/admin/admin/tenant', { openVerify: true });
  const rule = { billType: 'PurchaseOrder', auditType: 'AllVerify', sequential: false, enabled: true, reviewerIds: reviewers.map((r) => r.id) };
  const existing = (await call<Array<{ id: number; billType: string }>>('GET', '/admin/system/verify?current=1&pageSize=100')).find((r) => r.billType === 'PurchaseOrder');
  await call(existing ? 'PUT' : 'POST', '/admin/system/verify', existing ? { id: existing.id, ...rule } : rule);
  supplierId = (await call<Array<{ id: number }>>('GET', '/admin/basic/supplier?current=1&pageSize=1'))[0].id;
  materialId = (await call<Array<{ id: number }>>('GET', '/admin/basic/material?current=1&pageSize=1'))[0].id;
});
afterAll(async () => {
  await suite?.close();
});

/** A purchase order made and submitted by the demo administrator. */
async function submittedOrder(): Promise<{ id: number; billCode: string }> {
  const today = new Date().toISOString().slice(0, 10);
  const created = await api<{ id: number; billCode: string }>(suite.server, 'POST', '/admin/purchase/order', { billDate: today, supplierId, lines: [{ materialId, number: 5, unitPrice: 3 }] }, adminToken);
  if (created.status !== 0) throw new Error(`purchase order: ${created.message}`);
  const submitted = await api(suite.server, 'POST', '/admin/purchase/order/submit', { id: created.data.id }, adminToken);
  if (submitted.status !== 0) throw new Error(`submit: ${submitted.message}`);
  return created.data;
}

/** The reviewer's purchase order screen with the bill `id` open. */
async function openOrder(reviewer: (typeof reviewers)[number], id: number, locale: 'en-US' | 'zh-CN'): Promise<Page> {
  const page = await suite.signedInPage(reviewer, { locale });
  await page.goto('/purchase/order');
  await page.waitForURL((url) => url.pathname === '/purchase/order');
  await page.getByTestId('bill-screen-PurchaseOrder').waitFor();
  await page.getByTestId(`bill-open-${id}`).click({ timeout: 30_000 });
  await page.getByTestId('bill-timeline').waitFor();
  return page;
}

/** Waits for what the screen shows (a refetch under load takes longer than vitest's default second). */
const poll = <T,>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 250 });

const steps = (page: Page, operation: string) => page.getByTestId('bill-timeline').getByTestId(`bill-step-${operation}`);

describe('joint review of a purchase order (AllVerify, two reviewers)', () => {
  it('waits after the first approval, audits after the second', async () => {
    const order = await submittedOrder();
    const [first, second] = reviewers;

    const en = await openOrder(first, order.id, 'en-US');
    await en.getByTestId('bill-op-audit').click();
    await en.locator('.ant-message').getByText(`Approved. Waiting for others to review: ${second.realName}`).waitFor();
    await poll(() => en.getByTestId('bill-status').textContent()).toBe('In review');
    await steps(en, 'audit').first().waitFor();
    await screenshot(en, 'bill-review-waiting-en');
    expect(await steps(en, 'audit').first().textContent()).toContain(first.realName);
    // The same reviewer again: refused as already reviewed.
    await en.getByTestId('bill-op-audit').click();
    await en.locator('.ant-message').getByText('You have already reviewed this bill').waitFor();

    const zh = await openOrder(second, order.id, 'zh-CN');
    await poll(() => zh.getByTestId('bill-status').textContent()).toBe('审核中');
    await zh.getByTestId('bill-op-audit').click();
    await zh.locator('.ant-message').getByText('操作成功').waitFor();
    await poll(() => zh.getByTestId('bill-status').textContent()).toBe('已审核');
    await poll(() => steps(zh, 'audit').count()).toBe(2);
    await poll(() => steps(zh, 'audit').last().textContent()).toContain(second.realName);
    await screenshot(zh, 'bill-review-audited-zh');
  }, 150_000);

  it('refuses with the reviewer\'s reason, shown on the timeline', async () => {
    const order = await submittedOrder();
    const [first, second] = reviewers;
    const zh = await openOrder(second, order.id, 'zh-CN');
    await zh.getByTestId('bill-op-refuse').click();
    await zh.getByTestId('bill-refuse-reason').fill('单价高于合同价');
    await zh.getByTestId('bill-refuse-ok').click();
    await poll(() => zh.getByTestId('bill-status').textContent()).toBe('已驳回');
    await poll(() => steps(zh, 'refuse').textContent()).toContain('单价高于合同价');
    await screenshot(zh, 'bill-review-refused-zh');

    const en = await openOrder(first, order.id, 'en-US');
    await poll(() => steps(en, 'refuse').textContent()).toContain('单价高于合同价');
    await poll(() => en.getByTestId('bill-status').textContent()).toBe('Refused');
    await screenshot(en, 'bill-review-refused-en');
  }, 150_000);
});
