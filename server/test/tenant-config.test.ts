import { GENERATED_CODE_RECORD_KINDS } from '@p8/contract/records/catalogue';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import type { ColumnSetting, SystemSettings, TenantConfigView } from '@p8/contract/tenant-config';
import { auditLog, systemSetting, tenant } from '../src/db/schema/index.ts';
import { call, login, seedStaff, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { grant } from './office-fixtures.ts';

let ctx: TestContext;
let a: TestTenant;
let tokenA: string;
let tokenB: string;
let plainToken: string;

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'CfgA');
  const b = await seedTenant(ctx.database, 'CfgB');
  tokenA = await login(ctx.app, a.name, a.password);
  tokenB = await login(ctx.app, b.name, b.password);
  const staff = await seedStaff(ctx.database, a);
  plainToken = await login(ctx.app, staff.name, staff.password);
});
afterAll(() => ctx.close());

const storedConfig = async (tenantId = a.tenantId) => {
  const [row] = await ctx.database.withTenant(tenantId, (tx) => tx.select({ config: tenant.config }).from(tenant).where(eq(tenant.id, tenantId)));
  return row.config as Record<string, unknown>;
};
const update = (body: unknown, token = tokenA) => call<TenantConfigView>(ctx.app, 'PUT', '/api/admin/admin/tenant', { token, body });

describe(`tenant config update (${TEST_DB})`, () => {
  it('updates switches and texts, returns the view and records who changed what', async () => {
    const res = await update({ openNegativeInventory: true, title: 'Acme Works', defaultPageSize: 25, pictureSearchType: 'Similarity', id: 999, moduleList: [] });
    expect(res.body.status).toBe(0);
    expect(res.body.data).toMatchObject({ id: a.tenantId, openNegativeInventory: true, title: 'Acme Works', defaultPageSize: 25, pictureSearchType: 'Similarity', numberRetainsSmallDigit: 3 });
    expect(await storedConfig()).toMatchObject({ openNegativeInventory: true, title: 'Acme Works', defaultPageSize: 25 });
    const entries = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.tenantId, a.tenantId), eq(auditLog.entity, 'tenant-config'))));
    expect(entries.at(-1)).toMatchObject({ action: 'update', adminId: a.adminId, adminName: a.name });
    expect(entries.at(-1)!.detail).toEqual({
      title: { from: a.tenantName, to: 'Acme Works' },
      openNegativeInventory: { from: false, to: true },
      defaultPageSize: { from: 10, to: 25 },
      pictureSearchType: { from: 'NotSelected', to: 'Similarity' },
    });
    // Saving the same form again changes nothing and writes no entry.
    expect((await update({ openNegativeInventory: true, title: 'Acme Works', defaultPageSize: 25 })).body.status).toBe(0);
    const after = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.tenantId, a.tenantId), eq(auditLog.entity, 'tenant-config'))));
    expect(after).toHaveLength(entries.length);
  });

  it('only increases decimal places (DecimalPlacesOnlyIncrease), at most 6 (DecimalPlacesMaxSix)', async () => {
    expect((await update({ numberRetainsSmallDigit: 4, amountRetainsSmallDigit: 3 })).body.data).toMatchObject({ numberRetainsSmallDigit: 4, amountRetainsSmallDigit: 3 });
    const before = await storedConfig();
    const down = await update({ numberRetainsSmallDigit: 3, openDiscount: true });
    expect(down.httpStatus).toBe(400);
    expect(down.body).toMatchObject({ status: 40001, message: 'DecimalPlacesOnlyIncrease', additional: 'numberRetainsSmallDigit' });
    expect((await update({ amountRetainsSmallDigit: 2 })).body).toMatchObject({ message: 'DecimalPlacesOnlyIncrease', additional: 'amountRetainsSmallDigit' });
    expect((await update({ amountRetainsSmallDigit: 7 })).body).toMatchObject({ message: 'DecimalPlacesMaxSix', additional: 'amountRetainsSmallDigit' });
    expect(await storedConfig()).toEqual(before);
    expect((await update({ numberRetainsSmallDigit: 6, amountRetainsSmallDigit: 6 })).body.data).toMatchObject({ numberRetainsSmallDigit: 6, amountRetainsSmallDigit: 6 });
    expect((await update({ numberRetainsSmallDigit: 6 })).body.status).toBe(0);
  });

  it('offers only the page sizes 10, 25, 50, 100, 200 and validates every other field', async () => {
    const before = await storedConfig();
    for (const size of [10, 25, 50, 100, 200]) expect((await update({ defaultPageSize: size })).body.data.defaultPageSize).toBe(size);
    const after = await storedConfig();
    expect((await update({ defaultPageSize: 30 })).body).toMatchObject({ status: 40001, additional: 'defaultPageSize' });
    expect((await update({ pictureSearchType: 'Psychic' })).body).toMatchObject({ status: 40001, additional: 'pictureSearchType' });
    expect((await update({ pictureSearchSimilarity: 1.5 })).body).toMatchObject({ status: 40001, additional: 'pictureSearchSimilarity' });
    expect((await update({ openDiscount: 'yes' })).body).toMatchObject({ status: 40001, additional: 'openDiscount' });
    expect((await update({ title: 'x'.repeat(101) })).body).toMatchObject({ status: 40001, additional: 'title' });
    expect(await storedConfig()).toEqual(after);
    expect(before).toBeTruthy();
  });

  it('needs system_tenant_config_update (40300, nothing changed)', async () => {
    const before = await storedConfig();
    const res = await update({ openDiscount: true, title: 'hijacked' }, plainToken);
    expect(res.httpStatus).toBe(403);
    expect(res.body).toMatchObject({ status: 40300, additional: 'system_tenant_config_update' });
    expect(await storedConfig()).toEqual(before);
  });

  it("changes only the caller's tenant", async () => {
    const bBefore = (await call<TenantConfigView>(ctx.app, 'GET', '/api/admin/admin/tenant', { token: tokenB })).body.data;
    await update({ openTaxRate: true });
    const bAfter = (await call<TenantConfigView>(ctx.app, 'GET', '/api/admin/admin/tenant', { token: tokenB })).body.data;
    expect(bAfter).toEqual(bBefore);
  });
});

describe(`list column settings (${TEST_DB})`, () => {
  const URL = '/api/admin/tenant/table/column/type';
  const columns: ColumnSetting[] = [
    { prop: 'name', isShow: true, priority: 1, disabled: true },
    { prop: 'phone', isShow: false, priority: 2, disabled: false },
  ];

  it('is an empty list until saved, then the saved list, per type', async () => {
    expect((await call<ColumnSetting[]>(ctx.app, 'GET', `${URL}?type=system_staff`, { token: tokenA })).body).toMatchObject({ status: 0, data: [] });
    expect((await call(ctx.app, 'PUT', URL, { token: tokenA, body: { type: 'system_staff', columns } })).body.status).toBe(0);
    expect((await call<ColumnSetting[]>(ctx.app, 'GET', `${URL}?type=system_staff`, { token: tokenA })).body.data).toEqual(columns);
    const reordered = [{ ...columns[1], priority: 0 }, columns[0]];
    await call(ctx.app, 'PUT', URL, { token: tokenA, body: { type: 'system_staff', columns: reordered } });
    expect((await call<ColumnSetting[]>(ctx.app, 'GET', `${URL}?type=system_staff`, { token: tokenA })).body.data).toEqual(reordered);
    expect((await call<ColumnSetting[]>(ctx.app, 'GET', `${URL}?type=purchase_order`, { token: tokenA })).body.data).toEqual([]);
    // Another tenant has its own settings.
    expect((await call<ColumnSetting[]>(ctx.app, 'GET', `${URL}?type=system_staff`, { token: tokenB })).body.data).toEqual([]);
  });

  it('lets anyone signed in read them, but only who may change the tenant config save them (they apply to all)', async () => {
    const staff = await seedStaff(ctx.database, a);
    const token = await login(ctx.app, staff.name, staff.password);
    const body = { type: 'system_dept', columns };
    expect((await call(ctx.app, 'GET', `${URL}?type=system_dept`, { token })).body).toMatchObject({ status: 0, data: [] });
    expect((await call(ctx.app, 'PUT', URL, { token, body })).body.status).toBe(40300);
    expect((await call(ctx.app, 'GET', `${URL}?type=system_dept`, { token: tokenA })).body.data).toEqual([]);
    await grant(ctx, a, staff.roleId, ['system_tenant_config_update']);
    expect((await call(ctx.app, 'PUT', URL, { token, body })).body.status).toBe(0);
    expect((await call(ctx.app, 'GET', `${URL}?type=system_dept`, { token: tokenA })).body.data).toEqual(columns);
  });

  it('refuses a missing or odd type and repeated props', async () => {
    expect((await call(ctx.app, 'GET', URL, { token: tokenA })).body).toMatchObject({ status: 40001, additional: 'type' });
    expect((await call(ctx.app, 'GET', `${URL}?type=${encodeURIComponent("x'; drop")}`, { token: tokenA })).body.status).toBe(40001);
    expect((await call(ctx.app, 'PUT', URL, { token: tokenA, body: { type: 't', columns: [columns[0], columns[0]] } })).body).toMatchObject({ status: 40001, additional: 'columns' });
    expect((await call(ctx.app, 'PUT', URL, { token: tokenA, body: { type: 't', columns: [{ prop: 'x' }] } })).body.status).toBe(40001);
  });
});

describe(`system settings (${TEST_DB})`, () => {
  const URL = '/api/admin/system/setting';

  it('has defaults for every key', async () => {
    const res = await call<SystemSettings>(ctx.app, 'GET', URL, { token: tokenA });
    expect(res.body.data).toEqual({
      // The hand-written records' prefixes, and every declared kind's that takes generated codes.
      codePrefixes: { material: 'WL', supplier: 'GYS', customer: 'KH', warehouse: 'CK', location: 'KW', ...Object.fromEntries(GENERATED_CODE_RECORD_KINDS.map((decl) => [decl.kind, decl.generatedCode.prefix])) },
      // Every declared bill type's own prefix (bill-code-prefixes.test.ts covers changing them).
      billCodePrefixes: Object.fromEntries(BILL_TYPES.map((decl) => [decl.type, decl.codePrefix])),
      orderNotifyPhones: [],
      smsSignature: '',
      watermark: { enabled: false, content: 'account', text: '' },
      printTemplate: { paperSize: 'A4', copies: 1, header: '', footer: '', showPrice: true, showSignature: true },
      uploadExtensions: [],
      unpaidOrderCancelMinutes: 0,
    });
  });

  it('replaces the keys that are sent, keeps the others, and records the change', async () => {
    const first = await call<SystemSettings>(ctx.app, 'PUT', URL, { token: tokenA, body: { orderNotifyPhones: ['13800000011'], smsSignature: '演示制造' } });
    expect(first.body.data).toMatchObject({ orderNotifyPhones: ['13800000011'], smsSignature: '演示制造' });
    const second = await call<SystemSettings>(ctx.app, 'PUT', URL, { token: tokenA, body: { watermark: { enabled: true, content: 'custom', text: 'Internal' } } });
    expect(second.body.data).toMatchObject({ orderNotifyPhones: ['13800000011'], smsSignature: '演示制造', watermark: { enabled: true, content: 'custom', text: 'Internal' } });
    const rows = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(systemSetting).where(eq(systemSetting.tenantId, a.tenantId)));
    expect(rows.map((r) => r.key).sort()).toEqual(['orderNotifyPhones', 'smsSignature', 'watermark']);
    const entries = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.tenantId, a.tenantId), eq(auditLog.entity, 'system-setting'))));
    expect(entries).toHaveLength(2);
    expect(entries[1].detail).toEqual({ 'watermark.enabled': { from: false, to: true }, 'watermark.content': { from: 'account', to: 'custom' }, 'watermark.text': { from: '', to: 'Internal' } });
    expect((await call<SystemSettings>(ctx.app, 'GET', URL, { token: tokenB })).body.data.orderNotifyPhones).toEqual([]);
  });

  it('writes no audit entry for a save that changes nothing, and names only the fields that moved', async () => {
    const settingEntries = () => ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.tenantId, a.tenantId), eq(auditLog.entity, 'system-setting'))));
    const stored = (await call<SystemSettings>(ctx.app, 'GET', URL, { token: tokenA })).body.data;
    const count = (await settingEntries()).length;
    // The screen sends the whole form: unchanged, nothing is written.
    expect((await call<SystemSettings>(ctx.app, 'PUT', URL, { token: tokenA, body: stored })).body).toMatchObject({ status: 0, data: stored });
    expect(await settingEntries()).toHaveLength(count);
    // One field of a nested key changed: the entry names that field only, and only that key is written.
    const res = await call<SystemSettings>(ctx.app, 'PUT', URL, { token: tokenA, body: { ...stored, printTemplate: { ...stored.printTemplate, copies: 3 } } });
    expect(res.body.data.printTemplate.copies).toBe(3);
    const entries = await settingEntries();
    expect(entries).toHaveLength(count + 1);
    expect(entries.at(-1)).toMatchObject({ entityId: 'printTemplate', detail: { 'printTemplate.copies': { from: 1, to: 3 } } });
  });

  it('validates each key and changes nothing on a bad one', async () => {
    const before = (await call<SystemSettings>(ctx.app, 'GET', URL, { token: tokenA })).body.data;
    expect((await call(ctx.app, 'PUT', URL, { token: tokenA, body: { orderNotifyPhones: ['12345'] } })).body).toMatchObject({ status: 40001, message: 'PhoneFormatError' });
    expect((await call(ctx.app, 'PUT', URL, { token: tokenA, body: { printTemplate: { paperSize: 'A0' } } })).body.status).toBe(40001);
    expect((await call(ctx.app, 'PUT', URL, { token: tokenA, body: { smsSignature: 'x'.repeat(21) } })).body.status).toBe(40001);
    expect((await call<SystemSettings>(ctx.app, 'GET', URL, { token: tokenA })).body.data).toEqual(before);
  });

  it('needs system_setting_update (40300, nothing changed), which a role can be granted', async () => {
    const before = (await call<SystemSettings>(ctx.app, 'GET', URL, { token: tokenA })).body.data;
    const res = await call(ctx.app, 'PUT', URL, { token: plainToken, body: { smsSignature: 'Hijack' } });
    expect(res.body).toMatchObject({ status: 40300, additional: 'system_setting_update' });
    expect((await call<SystemSettings>(ctx.app, 'GET', URL, { token: tokenA })).body.data).toEqual(before);

    const staff = await seedStaff(ctx.database, a);
    await grant(ctx, a, staff.roleId, ['system_setting_update']);
    const token = await login(ctx.app, staff.name, staff.password);
    expect((await call(ctx.app, 'PUT', URL, { token, body: { smsSignature: 'Granted' } })).body.status).toBe(0);
  });
});
