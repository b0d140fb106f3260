import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyRuleRow } from '@p8/contract/office';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import { verifyRule, verifyRuleReviewer } from '../src/db/schema/index.ts';
import { call, login, seedStaff, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';

const BASE = '/api/admin/system/verify';

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let tokenB: string;
let plainToken: string;
let reviewer1: number;
let reviewer2: number;

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'VerA');
  b = await seedTenant(ctx.database, 'VerB');
  tokenA = await login(ctx.app, a.name, a.password);
  tokenB = await login(ctx.app, b.name, b.password);
  const s1 = await seedStaff(ctx.database, a);
  const s2 = await seedStaff(ctx.database, a);
  reviewer1 = s1.adminId;
  reviewer2 = s2.adminId;
  plainToken = await login(ctx.app, s1.name, s1.password);
});
afterAll(() => ctx.close());

const openVerifyBill = async (token = tokenA) => (await call<TenantConfigView>(ctx.app, 'GET', '/api/admin/admin/tenant', { token })).body.data.openVerifyBillList;
const rule = (overrides: Record<string, unknown> = {}) => ({ billType: 'PurchaseOrder', auditType: 'AllVerify', sequential: true, reviewerIds: [reviewer2, reviewer1], ...overrides });
const create = async (body: Record<string, unknown>) => {
  const res = await call<VerifyRuleRow>(ctx.app, 'POST', BASE, { token: tokenA, body });
  if (res.body.status !== 0) throw new Error(JSON.stringify(res.body));
  return res.body.data;
};
const editable = (r: VerifyRuleRow) => ({ id: r.id, billType: r.billType, auditType: r.auditType, sequential: r.sequential, enabled: r.enabled, reviewerIds: r.reviewers.map((x) => x.adminId) });

describe(`joint review rules (${TEST_DB})`, () => {
  it('adds a rule with ordered reviewers and lists the bill type in the tenant config', async () => {
    const created = await create(rule());
    expect(created).toMatchObject({ billType: 'PurchaseOrder', auditType: 'AllVerify', sequential: true, enabled: true });
    expect(created.reviewers.map((r) => [r.adminId, r.sort])).toEqual([
      [reviewer2, 1],
      [reviewer1, 2],
    ]);
    expect(await openVerifyBill()).toEqual(['PurchaseOrder']);
    const view = (await call<TenantConfigView>(ctx.app, 'GET', '/api/admin/admin/tenant', { token: tokenA })).body.data;
    expect(view.openVerifyBill).toBe('PurchaseOrder');
    const list = await call<VerifyRuleRow[]>(ctx.app, 'GET', BASE, { token: tokenA });
    expect(list.body.data.map((r) => r.billType)).toEqual(['PurchaseOrder']);
    expect(list.body.pagination).toMatchObject({ total: 1 });
  });

  it('allows one rule per bill type (BillVerifyRuleRepeat), on add and on update', async () => {
    const again = await call(ctx.app, 'POST', BASE, { token: tokenA, body: rule({ auditType: 'AnyVerify' }) });
    expect(again.body).toMatchObject({ status: 40001, message: 'BillVerifyRuleRepeat', additional: 'PurchaseOrder' });
    const sale = await create(rule({ billType: 'SaleOrder', auditType: 'AnyVerify', sequential: false, reviewerIds: [reviewer1] }));
    const clash = await call(ctx.app, 'PUT', BASE, { token: tokenA, body: { ...editable(sale), billType: 'PurchaseOrder' } });
    expect(clash.body.message).toBe('BillVerifyRuleRepeat');
    expect(await openVerifyBill()).toEqual(['PurchaseOrder', 'SaleOrder']);
  });

  it('needs at least one reviewer, each a staff member of the tenant, none twice, and a known audit type', async () => {
    const count = async () => (await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(verifyRule))).length;
    const before = await count();
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: rule({ billType: 'SaleOutstock', reviewerIds: [] }) })).body).toMatchObject({ message: 'PleaseSelectReviewer', additional: 'reviewerIds' });
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: rule({ billType: 'SaleOutstock', reviewerIds: [reviewer1, b.adminId] }) })).body).toMatchObject({ message: 'AdminNotExist', additional: String(b.adminId) });
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: rule({ billType: 'SaleOutstock', reviewerIds: [reviewer1, reviewer1] }) })).body.status).toBe(40001);
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: rule({ billType: 'SaleOutstock', auditType: 'MostVerify' }) })).body).toMatchObject({ status: 40001, additional: 'auditType' });
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: rule({ billType: '' }) })).body.message).toBe('PleaseSelectBillType');
    // Only the bill types of the registry: a name no declaration has is no bill type.
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: rule({ billType: 'NoSuchBill' }) })).body).toMatchObject({ status: 40001, message: 'PleaseSelectBillType' });
    expect(await count()).toBe(before);
  });

  it('updates the mode and reorders the reviewers', async () => {
    const created = await create(rule({ billType: 'PurchaseInstock' }));
    const res = await call<VerifyRuleRow>(ctx.app, 'PUT', BASE, { token: tokenA, body: { ...editable(created), auditType: 'AnyVerify', sequential: false, reviewerIds: [reviewer1] } });
    expect(res.body.data).toMatchObject({ auditType: 'AnyVerify', sequential: false });
    expect(res.body.data.reviewers.map((r) => r.adminId)).toEqual([reviewer1]);
    const stored = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(verifyRuleReviewer).where(eq(verifyRuleReviewer.ruleId, created.id)));
    expect(stored.map((r) => r.adminId)).toEqual([reviewer1]);
  });

  it('keeps openVerifyBill in step with enabling, disabling and deleting rules', async () => {
    const created = await create(rule({ billType: 'StockTransfer' }));
    expect(await openVerifyBill()).toContain('StockTransfer');
    await call(ctx.app, 'PUT', `${BASE}/enable`, { token: tokenA, body: { ids: [created.id], enabled: false } });
    expect(await openVerifyBill()).not.toContain('StockTransfer');
    await call(ctx.app, 'PUT', `${BASE}/enable`, { token: tokenA, body: { ids: [created.id], enabled: true } });
    expect(await openVerifyBill()).toContain('StockTransfer');
    await call(ctx.app, 'PUT', BASE, { token: tokenA, body: { ...editable(created), enabled: false } });
    expect(await openVerifyBill()).not.toContain('StockTransfer');
    expect((await call(ctx.app, 'DELETE', BASE, { token: tokenA, body: { ids: [created.id] } })).body.status).toBe(0);
    expect((await call(ctx.app, 'GET', `${BASE}/${created.id}`, { token: tokenA })).body.message).toBe('VerifyRuleNotExist');
    const reviewers = await ctx.database.withTenant(a.tenantId, (tx) =>
      tx.select().from(verifyRuleReviewer).where(and(eq(verifyRuleReviewer.tenantId, a.tenantId), eq(verifyRuleReviewer.ruleId, created.id))),
    );
    expect(reviewers).toEqual([]);
    // A tenant config form that sends openVerifyBill cannot change it: it follows the rules.
    const before = await openVerifyBill();
    await call(ctx.app, 'PUT', '/api/admin/admin/tenant', { token: tokenA, body: { openVerifyBill: 'Anything', title: 'renamed' } });
    expect(await openVerifyBill()).toEqual(before);
  });

  it('needs the button code of each write (40300, nothing changed)', async () => {
    const created = await create(rule({ billType: 'SaleRefund' }));
    const attempts: Array<[string, string, unknown, string]> = [
      ['POST', BASE, rule({ billType: 'OtherOutstock' }), 'system_verify_add'],
      ['PUT', BASE, { ...editable(created), auditType: 'AnyVerify' }, 'system_verify_update'],
      ['DELETE', BASE, { ids: [created.id] }, 'system_verify_delete'],
      ['PUT', `${BASE}/enable`, { ids: [created.id], enabled: false }, 'system_verify_enable'],
    ];
    const snapshot = async () => ({
      rules: await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(verifyRule)),
      reviewers: await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(verifyRuleReviewer)),
      openVerifyBill: await openVerifyBill(),
    });
    const before = await snapshot();
    for (const [method, url, body, code] of attempts) {
      const res = await call(ctx.app, method as 'POST', url, { token: plainToken, body });
      expect(res.httpStatus, `${method} ${url}`).toBe(403);
      expect(res.body, `${method} ${url}`).toMatchObject({ status: 40300, additional: code });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("keeps tenant A's rules from tenant B, by list and by id", async () => {
    const created = await create(rule({ billType: 'StockCheck' }));
    expect((await call(ctx.app, 'GET', `${BASE}/${created.id}`, { token: tokenB })).body).toMatchObject({ status: 40001, message: 'VerifyRuleNotExist' });
    expect(JSON.stringify((await call(ctx.app, 'GET', BASE, { token: tokenB })).body)).not.toContain('StockCheck');
    expect((await call(ctx.app, 'PUT', BASE, { token: tokenB, body: { ...editable(created), reviewerIds: [b.adminId] } })).body.message).toBe('VerifyRuleNotExist');
    expect((await call(ctx.app, 'PUT', `${BASE}/enable`, { token: tokenB, body: { ids: [created.id], enabled: false } })).body.message).toBe('VerifyRuleNotExist');
    expect((await call(ctx.app, 'DELETE', BASE, { token: tokenB, body: { ids: [created.id] } })).body.message).toBe('VerifyRuleNotExist');
    // B may use the same bill type for its own rule: uniqueness is per tenant.
    expect((await call(ctx.app, 'POST', BASE, { token: tokenB, body: rule({ billType: 'StockCheck', reviewerIds: [b.adminId] }) })).body.status).toBe(0);
    expect(await openVerifyBill(tokenB)).toEqual(['StockCheck']);
    expect((await call<VerifyRuleRow>(ctx.app, 'GET', `${BASE}/${created.id}`, { token: tokenA })).body.data.enabled).toBe(true);
  });
});
