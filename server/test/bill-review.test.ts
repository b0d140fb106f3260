import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillAuditAnswer, BillTransitionView, StockDifference } from '@p8/contract/bills/api';
import { billType } from '@p8/contract/bills/catalogue';
import { billApiPath, billButtonCode, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { VerifyRuleRow } from '@p8/contract/office';
import { buildApp } from '../src/app.ts';
import { call, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, setTenantConfig, staffCaller, type Caller } from './basic-fixtures.ts';
import { allowDirectBills, billPayload, createOtherBillRecords, type BillRecords } from './bill-fixtures.ts';

/*
 * Joint review through the API, on PGlite and PostgreSQL (TEST_DB=postgres), over a few declared types (an
 * order, a stock in-stock, a stock out-stock): with the tenant's joint review on and a rule on the
 * joint-review screen, submit leads to the rule's reviewers — AnyVerify, AllVerify, in order, one refusal
 * refusing — and every step is on the bill's timeline. Without a rule, or with joint review off, the plain
 * audit by button code. And the abandon-audit blockers, which belong to one app.
 */

const TYPES = ['PurchaseOrder', 'OtherInstock', 'SaleOutstock'];
const RULES = '/api/admin/system/verify';

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let records: BillRecords;
/** Three staff members who hold the audit button codes of every type under test. */
let reviewers: Array<Caller & { roleId: number }>;

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Review');
  api = await adminCaller(ctx, t);
  await allowDirectBills(api);
  const piece = await api.create('unit', { name: 'pc' });
  const material = await api.create('material', { code: 'R1', name: 'Valve', units: [{ unitId: piece, isMain: true }] });
  const warehouse = await api.create('stock', { code: 'RW1', name: 'Main' });
  records = {
    supplier: await api.create('supplier', { code: 'RS1', name: 'Supplier' }),
    customer: await api.create('customer', { code: 'RC1', name: 'Customer' }),
    warehouse,
    otherWarehouse: await api.create('stock', { code: 'RW2', name: 'Second' }),
    material,
    product: material,
    component: material,
    ...(await createOtherBillRecords(api)),
  };
  // Stock for the out-stocks, before any rule.
  const opening = await saved(billType('OtherInstock')!, { lines: [{ materialId: material, number: 500, unitPrice: 3 }] });
  await ok(api.post(`${path('OtherInstock')}/submit`, { id: opening }));
  await ok(api.post(`${path('OtherInstock')}/audit`, { id: opening }));
  const codes = TYPES.map((type) => billButtonCode(billType(type)!, 'audit'));
  reviewers = [await staffCaller(ctx, t, codes), await staffCaller(ctx, t, codes), await staffCaller(ctx, t, codes)];
  await setTenantConfig(ctx, t.tenantId, { openVerify: true });
});
afterAll(() => ctx.close());

const path = (type: string) => billApiPath(billType(type)!);

async function ok<T>(promise: Promise<{ body: { status: number; message: string; data: T } }>): Promise<T> {
  const res = await promise;
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body.data;
}

async function refused(promise: Promise<{ body: { status: number; message: string } }>, key: string, status = 40001) {
  const res = await promise;
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status, message: key });
}

async function saved(decl: BillTypeDecl, overrides: Record<string, unknown> = {}): Promise<number> {
  return (await ok(api.post<{ id: number }>(billApiPath(decl), billPayload(decl, records, overrides)))).id;
}

/** A new bill of `decl`, submitted by its creator (the tenant admin). */
async function submitted(decl: BillTypeDecl): Promise<number> {
  const id = await saved(decl);
  await ok(api.post(`${billApiPath(decl)}/submit`, { id }));
  return id;
}

/** The joint-review rule of `decl`'s type, added or replaced. */
async function setRule(decl: BillTypeDecl, rule: { auditType: 'AnyVerify' | 'AllVerify'; sequential: boolean; reviewers: Caller[]; enabled?: boolean }) {
  const existing = (await ok(api.get<VerifyRuleRow[]>(`${RULES}?billType=${decl.type}`))).find((r) => r.billType === decl.type);
  const body = { billType: decl.type, auditType: rule.auditType, sequential: rule.sequential, enabled: rule.enabled ?? true, reviewerIds: rule.reviewers.map((r) => r.adminId) };
  await ok(existing ? api.put(RULES, { id: existing.id, ...body }) : api.post(RULES, body));
}

const audit = (who: Caller, decl: BillTypeDecl, id: number) => who.post<BillAuditAnswer>(`${billApiPath(decl)}/audit`, { id });
const statusOf = async (decl: BillTypeDecl, id: number) => (await ok(api.get<{ billStatus: string }>(`${billApiPath(decl)}/${id}`))).billStatus;
const timeline = (decl: BillTypeDecl, id: number) => ok(api.get<BillTransitionView[]>(`${billApiPath(decl)}/${id}/timeline`));
const steps = async (decl: BillTypeDecl, id: number) => (await timeline(decl, id)).filter((s) => s.operation === 'audit' || s.operation === 'refuse' || s.operation === 'submit').map((s) => [s.operation, s.toStatus, s.accountId, s.reason]);

async function verifyEmpty() {
  expect(await ok(api.post<StockDifference[]>('/api/admin/stock/verify'))).toEqual([]);
}

describe.each(TYPES.map((type) => [type, billType(type)!] as const))(`joint review of %s (${TEST_DB})`, (_type, decl) => {
  it('AllVerify: the first approval leaves the bill waiting for the others, the last one audits it', async () => {
    const [r1, r2] = reviewers;
    await setRule(decl, { auditType: 'AllVerify', sequential: false, reviewers: [r1, r2] });
    const id = await submitted(decl);
    // The tenant admin holds every button code but is no reviewer.
    await refused(audit(api, decl, id), 'NoVerifyPermission', 40300);
    const first = await ok(audit(r2, decl, id));
    expect(first).toEqual({ billStatus: 'UnAudit', message: 'WaitOthersVerify', waitingFor: [expect.stringMatching(/^Staff /)] });
    expect(await statusOf(decl, id)).toBe('UnAudit');
    expect((await ok(api.get<Record<string, number>>(`${billApiPath(decl)}/tabs`))).UnAudit).toBe(1);
    await refused(audit(r2, decl, id), 'AlreadyVerified');
    await refused(r2.post(`${billApiPath(decl)}/refuse`, { id, reason: 'Changed my mind' }), 'AlreadyVerified');
    expect(await ok(audit(r1, decl, id))).toEqual({ billStatus: 'Audit', waitingFor: [] });
    await refused(audit(r1, decl, id), 'CurrentStatusBillProhibitAudit');
    expect(await steps(decl, id)).toEqual([
      ['submit', 'Submitted', api.adminId, ''],
      ['audit', 'UnAudit', r2.adminId, ''],
      ['audit', 'Audit', r1.adminId, ''],
    ]);
    await verifyEmpty();
  });

  it('sequential: only the next reviewer acts; one refusal refuses with its reason; a new submit starts a new round', async () => {
    const [r1, r2, r3] = reviewers;
    await setRule(decl, { auditType: 'AllVerify', sequential: true, reviewers: [r3, r1] });
    const id = await submitted(decl);
    await refused(audit(r1, decl, id), 'WaitPreviousVerify');
    await refused(audit(r2, decl, id), 'NoVerifyPermission', 40300);
    expect((await ok(audit(r3, decl, id))).billStatus).toBe('UnAudit');
    await ok(r1.post(`${billApiPath(decl)}/refuse`, { id, reason: 'Price too high' }));
    expect(await statusOf(decl, id)).toBe('Refuse');
    await ok(api.post(`${billApiPath(decl)}/submit`, { id }));
    // The approval of the refused round no longer counts: r3 again first.
    await refused(audit(r1, decl, id), 'WaitPreviousVerify');
    expect((await ok(audit(r3, decl, id))).billStatus).toBe('UnAudit');
    expect((await ok(audit(r1, decl, id))).billStatus).toBe('Audit');
    expect(await steps(decl, id)).toEqual([
      ['submit', 'Submitted', api.adminId, ''],
      ['audit', 'UnAudit', r3.adminId, ''],
      ['refuse', 'Refuse', r1.adminId, 'Price too high'],
      ['submit', 'Submitted', api.adminId, ''],
      ['audit', 'UnAudit', r3.adminId, ''],
      ['audit', 'Audit', r1.adminId, ''],
    ]);
    await verifyEmpty();
  });

  it('AnyVerify: the first approval audits', async () => {
    const [r1, r2] = reviewers;
    await setRule(decl, { auditType: 'AnyVerify', sequential: false, reviewers: [r1, r2] });
    const id = await submitted(decl);
    expect(await ok(audit(r2, decl, id))).toEqual({ billStatus: 'Audit', waitingFor: [] });
    await verifyEmpty();
  });

  it('without an enabled rule, or with joint review off, audits by button code as before', async () => {
    const [r1] = reviewers;
    await setRule(decl, { auditType: 'AllVerify', sequential: true, reviewers: [r1], enabled: false });
    expect((await ok(audit(api, decl, await submitted(decl)))).billStatus).toBe('Audit');
    await setRule(decl, { auditType: 'AllVerify', sequential: true, reviewers: [r1] });
    await setTenantConfig(ctx, t.tenantId, { openVerify: false });
    try {
      expect((await ok(audit(api, decl, await submitted(decl)))).billStatus).toBe('Audit');
    } finally {
      await setTenantConfig(ctx, t.tenantId, { openVerify: true });
    }
    // A reviewer still needs the type's audit button code.
    const clerk = await staffCaller(ctx, t, []);
    await setRule(decl, { auditType: 'AnyVerify', sequential: false, reviewers: [clerk] });
    expect((await audit(clerk, decl, await submitted(decl))).body.status).toBe(40300);
    await verifyEmpty();
  });
});

describe('joint review under concurrency', () => {
  it('three reviewers approving one AllVerify bill at once: exactly one approval audits it, the stock posts once', async () => {
    const decl = billType('OtherInstock')!;
    await setRule(decl, { auditType: 'AllVerify', sequential: false, reviewers });
    const id = await submitted(decl);
    const answers = await Promise.all(reviewers.map((r) => ok(audit(r, decl, id))));
    expect(answers.map((a) => a.billStatus).sort()).toEqual(['Audit', 'UnAudit', 'UnAudit']);
    expect((await steps(decl, id)).map((s) => s[1])).toEqual(['Submitted', 'UnAudit', 'UnAudit', 'Audit']);
    await verifyEmpty();
  });
});

describe('abandon-audit blockers', () => {
  it('refuse withdrawing an audit in the app that registered them, and only there', async () => {
    const decl = billType('PurchaseOrder')!;
    await setRule(decl, { auditType: 'AnyVerify', sequential: false, reviewers: [api], enabled: false });
    const id = await submitted(decl);
    await ok(audit(api, decl, id));
    ctx.app.abandonAuditBlockers.register('test payments', async (_tx, tenantId, billId) => (tenantId === t.tenantId && billId === id ? 'ExistChildrenBillProhibitAbandonAudit' : undefined));
    const other = await buildApp({ config: ctx.config, database: ctx.database, logger: false });
    try {
      expect(other.abandonAuditBlockers).not.toBe(ctx.app.abandonAuditBlockers);
      await refused(api.post(`${billApiPath(decl)}/abandonAudit`, { id }), 'ExistChildrenBillProhibitAbandonAudit');
      expect((await call(other, 'POST', `${billApiPath(decl)}/abandonAudit`, { token: api.token, body: { id } })).body).toMatchObject({ status: 0 });
    } finally {
      ctx.app.abandonAuditBlockers.register('test payments', async () => undefined);
      await other.close();
    }
  });
});
