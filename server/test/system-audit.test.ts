import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '@p8/contract/system';
import { writeAudit } from '../src/core/audit.ts';
import { call, login, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { auditEntries, staffWith } from './system-fixtures.ts';

let ctx: TestContext;
let a: TestTenant;
let tokenA: string;
let deptId: number;
beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'A');
  tokenA = await login(ctx.app, a.name, a.password);
  deptId = (await call<{ id: number }>(ctx.app, 'POST', '/api/admin/security/dept', { token: tokenA, body: { parentId: a.deptId, name: 'Audited' } })).body.data.id;
  await call(ctx.app, 'PUT', '/api/admin/security/dept', { token: tokenA, body: { id: deptId, name: 'Audited twice' } });
  await call(ctx.app, 'POST', '/api/admin/security/role', { token: tokenA, body: { roleKey: 'audited', roleName: 'Audited' } });
});
afterAll(() => ctx.close());

const URL = '/api/admin/security/audit';

describe(`audit log viewer (${TEST_DB})`, () => {
  it('lists who changed what and when, newest first, paged', async () => {
    const res = await call<AuditEntry[]>(ctx.app, 'GET', `${URL}?pageSize=2`, { token: tokenA });
    expect(res.body.status).toBe(0);
    expect(res.body.pagination).toEqual({ current: 1, pageSize: 2, total: 3 });
    expect(res.body.data.map((e) => [e.entity, e.action])).toEqual([
      ['role', 'create'],
      ['dept', 'update'],
    ]);
    expect(res.body.data[1]).toMatchObject({ adminId: a.adminId, adminName: a.name, entityId: String(deptId), detail: { name: { from: 'Audited', to: 'Audited twice' } } });
    expect(Date.parse(res.body.data[0].createdAt)).not.toBeNaN();
  });

  it('filters by action, entity, account name and time range', async () => {
    const ids = async (query: string) => (await call<AuditEntry[]>(ctx.app, 'GET', `${URL}?${query}`, { token: tokenA })).body.data.map((e) => `${e.entity}:${e.action}`);
    expect(await ids('entity=dept')).toEqual(['dept:update', 'dept:create']);
    expect(await ids('action=create')).toEqual(['role:create', 'dept:create']);
    expect(await ids(`adminName=${a.name.slice(2, 8)}&entity=role`)).toEqual(['role:create']);
    expect(await ids('adminName=nobody')).toEqual([]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await ids(`start=${tomorrow}`)).toEqual([]);
    expect(await ids(`end=${tomorrow}`)).toHaveLength(3);
    expect((await call(ctx.app, 'GET', `${URL}?start=not-a-date`, { token: tokenA })).body).toMatchObject({ status: 40001, additional: 'start' });
  });

  it('records nothing for a refused change: the entry rolls back with it', async () => {
    const before = (await auditEntries(ctx, a.tenantId)).length;
    const refused = await call(ctx.app, 'DELETE', '/api/admin/security/dept', { token: tokenA, body: { ids: [a.deptId] } });
    expect(refused.body.message).toBe('DefaultDeptProhibitDelete');
    expect((await auditEntries(ctx, a.tenantId)).length).toBe(before);
  });

  it('needs system_audit_view', async () => {
    const without = await staffWith(ctx, a);
    const refused = await call(ctx.app, 'GET', URL, { token: without.token });
    expect(refused.httpStatus).toBe(403);
    expect(refused.body).toMatchObject({ status: 40300, message: 'Forbidden', additional: 'system_audit_view' });
    const viewer = await staffWith(ctx, a, { codes: ['system_audit_view'] });
    const res = await call<AuditEntry[]>(ctx.app, 'GET', URL, { token: viewer.token });
    expect(res.body.status).toBe(0);
    expect(res.body.data.length).toBeGreaterThan(0);
  });

  it('is read-only', async () => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const res = await call(ctx.app, method, URL, { token: tokenA, body: { ids: [1] } });
      expect(res.httpStatus, method).toBe(404);
    }
  });

  it('writes its entry whatever characters the user typed (NUL, lone surrogates become U+FFFD)', async () => {
    await ctx.database.withTenant(a.tenantId, (tx) =>
      writeAudit(tx, { tenantId: a.tenantId, adminId: a.adminId }, '127.0.0.1', [
        { action: 'update', entity: 'unit', entityId: 'x\u0000', detail: { name: 'a\u0000b\ud800', ['k\udfff']: ['\ud83d'], ok: 'Box 📦' } },
      ]),
    );
    const res = await call<AuditEntry[]>(ctx.app, 'GET', `${URL}?entity=unit`, { token: tokenA });
    expect(res.body.data[0]).toMatchObject({ entityId: 'x\ufffd', detail: { name: 'a\ufffdb\ufffd', ['k\ufffd']: ['\ufffd'], ok: 'Box 📦' } });
  });

  it("shows a tenant only its own entries", async () => {
    const b = await seedTenant(ctx.database, 'B');
    const tokenB = await login(ctx.app, b.name, b.password);
    const res = await call<AuditEntry[]>(ctx.app, 'GET', `${URL}?pageSize=200`, { token: tokenB });
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toMatchObject({ total: 0 });
  });
});

describe('security API documentation', () => {
  it('documents every security route in the OpenAPI document, with required fields', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const path of ['dept', 'dept/tree', 'dept/enable', 'menu', 'menu/tree', 'menu/enable', 'role', 'role/copy', 'role/copy/batch', 'role/scope', 'role/permission', 'admin', 'admin/reset', 'admin/lock', 'admin/enable', 'admin/newOrderNotify', 'admin/updateSmsNotify', 'audit']) {
      expect(Object.keys(doc.paths), path).toContain(`/api/admin/security/${path}`);
    }
    const create = doc.paths['/api/admin/security/admin'].post.requestBody.content['application/json'].schema;
    expect(create.required).toEqual(expect.arrayContaining(['name', 'password', 'realName', 'deptId', 'roleIds']));
  });
});
