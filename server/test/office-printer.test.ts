import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PrinterRow } from '@p8/contract/office';
import { auditLog, printer } from '../src/db/schema/index.ts';
import { BizError } from '../src/core/errors.ts';
import { unconfiguredProvider } from '../src/core/printer-providers.ts';
import { call, login, seedStaff, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { grant } from './office-fixtures.ts';

const BASE = '/api/admin/system/printer';

let ctx: TestContext;
let a: TestTenant;
let tokenA: string;
let tokenB: string;
let plainToken: string;

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'PrnA');
  const b = await seedTenant(ctx.database, 'PrnB');
  tokenA = await login(ctx.app, a.name, a.password);
  tokenB = await login(ctx.app, b.name, b.password);
  const staff = await seedStaff(ctx.database, a);
  plainToken = await login(ctx.app, staff.name, staff.password);
});
afterAll(() => ctx.close());
afterEach(() => ctx.app.printerProviders.register(unconfiguredProvider('feie')));

let serial = 0;
const newPrinter = (overrides: Record<string, unknown> = {}) => ({
  name: `Front desk ${++serial}`,
  provider: 'feie',
  sn: `SN${Date.now()}${serial}`,
  printerKey: 'k3y-SECRET-9f2a',
  copies: 1,
  ...overrides,
});
const create = async (body = newPrinter()) => {
  const res = await call<PrinterRow>(ctx.app, 'POST', BASE, { token: tokenA, body });
  if (res.body.status !== 0) throw new Error(JSON.stringify(res.body));
  return res.body.data;
};
const stored = async (id: number) => {
  const [row] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(printer).where(and(eq(printer.tenantId, a.tenantId), eq(printer.id, id))));
  return row;
};

describe(`printers (${TEST_DB})`, () => {
  it('adds a printer and never sends its key back whole', async () => {
    const body = newPrinter();
    const created = await create(body);
    expect(created).toMatchObject({ name: body.name, provider: 'feie', sn: body.sn, copies: 1, enabled: true });
    expect(created.printerKey).toBe(`k3${'*'.repeat(11)}2a`);
    expect((await stored(created.id)).printerKey).toBe('k3y-SECRET-9f2a');
    const list = await call<PrinterRow[]>(ctx.app, 'GET', `${BASE}?sn=${body.sn}`, { token: tokenA });
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain('SECRET');
    const one = await call<PrinterRow>(ctx.app, 'GET', `${BASE}/${created.id}`, { token: tokenA });
    expect(JSON.stringify(one.body)).not.toContain('SECRET');
    const [entry] = await ctx.database.withTenant(a.tenantId, (tx) =>
      tx.select().from(auditLog).where(and(eq(auditLog.entity, 'printer'), eq(auditLog.entityId, String(created.id)))),
    );
    expect(entry).toMatchObject({ action: 'create', adminId: a.adminId });
    expect(JSON.stringify(entry.detail)).not.toContain('SECRET');
  });

  it('refuses a serial number already registered with the same provider', async () => {
    const first = await create();
    const again = await call(ctx.app, 'POST', BASE, { token: tokenA, body: newPrinter({ sn: first.sn }) });
    expect(again.body).toMatchObject({ status: 40001, message: 'PrinterSnRepeat', additional: first.sn });
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: newPrinter({ sn: first.sn, provider: 'yilianyun' }) })).body.status).toBe(0);
    const other = await create();
    const clash = await call(ctx.app, 'PUT', BASE, { token: tokenA, body: { ...newPrinter({ sn: first.sn }), id: other.id } });
    expect(clash.body.message).toBe('PrinterSnRepeat');
  });

  it('validates the form: name, serial number, key, provider, copies', async () => {
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: newPrinter({ name: '' }) })).body.message).toBe('PleaseInputName');
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: newPrinter({ sn: ' ' }) })).body.message).toBe('PleaseInputPrinterSn');
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: newPrinter({ printerKey: '' }) })).body.message).toBe('PleaseInputPrinterKey');
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: newPrinter({ provider: 'acme' }) })).body).toMatchObject({ status: 40001, additional: 'provider' });
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: newPrinter({ copies: 0 }) })).body).toMatchObject({ status: 40001, additional: 'copies' });
  });

  it('keeps the stored key when an update sends none, replaces it when one is sent', async () => {
    const created = await create();
    const { printerKey: _masked, createdAt: _c, updatedAt: _u, ...rest } = created;
    const renamed = await call<PrinterRow>(ctx.app, 'PUT', BASE, { token: tokenA, body: { ...rest, name: 'Kitchen', remark: 'by the oven' } });
    expect(renamed.body.data).toMatchObject({ name: 'Kitchen', remark: 'by the oven' });
    expect((await stored(created.id)).printerKey).toBe('k3y-SECRET-9f2a');
    await call(ctx.app, 'PUT', BASE, { token: tokenA, body: { ...rest, name: 'Kitchen', printerKey: 'NEWKEY-123456' } });
    expect((await stored(created.id)).printerKey).toBe('NEWKEY-123456');
  });

  it('enables, disables and deletes', async () => {
    const p = await create();
    expect((await call(ctx.app, 'PUT', `${BASE}/enable`, { token: tokenA, body: { ids: [p.id], enabled: false } })).body.status).toBe(0);
    expect((await stored(p.id)).enabled).toBe(false);
    expect((await call<PrinterRow[]>(ctx.app, 'GET', `${BASE}?enabled=false&sn=${p.sn}`, { token: tokenA })).body.data).toHaveLength(1);
    expect((await call(ctx.app, 'DELETE', BASE, { token: tokenA, body: { ids: [p.id, 99999999] } })).body).toMatchObject({ message: 'PrinterNotExist', additional: '99999999' });
    expect(await stored(p.id)).toBeTruthy();
    expect((await call(ctx.app, 'DELETE', BASE, { token: tokenA, body: { ids: [p.id] } })).body.status).toBe(0);
    expect(await stored(p.id)).toBeUndefined();
  });

  it('answers a test print without provider credentials with a catalogued error, never a success', async () => {
    const p = await create();
    const res = await call(ctx.app, 'POST', `${BASE}/test`, { token: tokenA, body: { id: p.id } });
    expect(res.httpStatus).toBe(400);
    expect(res.body).toMatchObject({ status: 40001, message: 'PrinterProviderNotConfigured', additional: 'feie' });
  });

  it("surfaces a provider's answers as catalogued messages", async () => {
    const p = await create();
    const printed: string[] = [];
    ctx.app.printerProviders.register({ ...unconfiguredProvider('feie'), testPrint: async () => { throw new BizError('PrinterOffline'); } });
    expect((await call(ctx.app, 'POST', `${BASE}/test`, { token: tokenA, body: { id: p.id } })).body.message).toBe('PrinterOffline');
    ctx.app.printerProviders.register({ ...unconfiguredProvider('feie'), testPrint: async () => { throw new Error('socket hang up'); } });
    expect((await call(ctx.app, 'POST', `${BASE}/test`, { token: tokenA, body: { id: p.id } })).body).toMatchObject({ message: 'PrinterApiError', additional: 'feie' });
    ctx.app.printerProviders.register({ ...unconfiguredProvider('feie'), testPrint: async (target) => { printed.push(`${target.sn}:${target.printerKey}`); } });
    expect((await call(ctx.app, 'POST', `${BASE}/test`, { token: tokenA, body: { id: p.id } })).body.status).toBe(0);
    expect(printed).toEqual([`${p.sn}:k3y-SECRET-9f2a`]);
  });

  it('needs the button code of each write (40300, nothing changed)', async () => {
    const p = await create();
    const { printerKey: _k, createdAt: _c, updatedAt: _u, ...rest } = p;
    const attempts: Array<[string, string, unknown, string]> = [
      ['POST', BASE, newPrinter(), 'system_printer_add'],
      ['PUT', BASE, { ...rest, name: 'hijacked' }, 'system_printer_update'],
      ['DELETE', BASE, { ids: [p.id] }, 'system_printer_delete'],
      ['PUT', `${BASE}/enable`, { ids: [p.id], enabled: false }, 'system_printer_enable'],
      ['POST', `${BASE}/test`, { id: p.id }, 'system_printer_add|system_printer_update'],
    ];
    const before = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(printer));
    for (const [method, url, body, code] of attempts) {
      const res = await call(ctx.app, method as 'POST', url, { token: plainToken, body });
      expect(res.httpStatus, `${method} ${url}`).toBe(403);
      expect(res.body, `${method} ${url}`).toMatchObject({ status: 40300, additional: code });
    }
    expect(await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(printer))).toEqual(before);
  });

  it('lets staff with the codes do exactly those writes', async () => {
    const staff = await seedStaff(ctx.database, a);
    await grant(ctx, a, staff.roleId, ['system_printer_add']);
    const token = await login(ctx.app, staff.name, staff.password);
    const created = await call<PrinterRow>(ctx.app, 'POST', BASE, { token, body: newPrinter() });
    expect(created.body.status).toBe(0);
    expect((await call(ctx.app, 'DELETE', BASE, { token, body: { ids: [created.body.data.id] } })).body.status).toBe(40300);
  });

  it("keeps tenant A's printers from tenant B, by list and by id", async () => {
    const p = await create(newPrinter({ name: 'A-only printer' }));
    expect((await call(ctx.app, 'GET', `${BASE}/${p.id}`, { token: tokenB })).body).toMatchObject({ status: 40001, message: 'PrinterNotExist' });
    expect(JSON.stringify((await call(ctx.app, 'GET', BASE, { token: tokenB })).body)).not.toContain('A-only printer');
    const { printerKey: _k, createdAt: _c, updatedAt: _u, ...rest } = p;
    expect((await call(ctx.app, 'PUT', BASE, { token: tokenB, body: { ...rest, name: 'B was here' } })).body.message).toBe('PrinterNotExist');
    expect((await call(ctx.app, 'PUT', `${BASE}/enable`, { token: tokenB, body: { ids: [p.id], enabled: false } })).body.message).toBe('PrinterNotExist');
    expect((await call(ctx.app, 'POST', `${BASE}/test`, { token: tokenB, body: { id: p.id } })).body.message).toBe('PrinterNotExist');
    expect((await call(ctx.app, 'DELETE', BASE, { token: tokenB, body: { ids: [p.id] } })).body.message).toBe('PrinterNotExist');
    expect(await stored(p.id)).toMatchObject({ name: 'A-only printer', enabled: true });
  });
});
