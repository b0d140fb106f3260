import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, seedTenant, startTestApp, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  ctx.app.get('/api/base/test/boom', { config: { auth: false } }, async () => {
    throw new Error('secret internals at /srv/app.ts:42');
  });
});
afterAll(() => ctx.close());

describe('the response envelope', () => {
  it('answers an unknown route with a 404 envelope', async () => {
    const res = await call(ctx.app, 'GET', '/api/no/such/route');
    expect(res.httpStatus).toBe(404);
    expect(res.body).toMatchObject({ status: 404, message: 'NotFound', data: null });
  });

  it('turns a schema violation into 40001 naming the field', async () => {
    const res = await call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: 'someone' } });
    expect(res.httpStatus).toBe(400);
    expect(res.body).toMatchObject({ status: 40001, message: 'BadRequest', additional: 'password' });
  });

  it('uses the catalogue key a schema names, with the field', async () => {
    const res = await call(ctx.app, 'POST', '/api/auth/admin/phone', { body: { phone: '12', code: '123456' } });
    expect(res.body).toMatchObject({ status: 40001, message: 'PhoneFormatError', additional: 'phone' });
  });

  it('rejects malformed JSON with 40001', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/admin/name', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 40001 });
  });

  it('answers an unexpected error with 500, the request id and no stack trace', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/base/test/boom' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toMatchObject({ status: 500, message: 'ServerError', data: null });
    expect(body.additional).toBe(res.headers['x-request-id']);
    expect(res.body).not.toContain('secret internals');
    expect(res.body).not.toContain('.ts:');
  });

  it('requires a token on signed-in routes (40100, HTTP 401)', async () => {
    const res = await call(ctx.app, 'GET', '/api/admin/current/detail');
    expect(res.httpStatus).toBe(401);
    expect(res.body).toMatchObject({ status: 40100, message: 'Unauthorized' });
    const bad = await call(ctx.app, 'GET', '/api/admin/current/detail', { token: 'not-a-token' });
    expect(bad.body.status).toBe(40100);
  });

  it('wraps every success in the envelope', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    const res = await call(ctx.app, 'GET', '/api/admin/current/detail', { token });
    expect(res.body).toMatchObject({ status: 0, message: 'Success', data: { name: t.name } });
  });

  it('serves the OpenAPI 3.1 document generated from the schemas', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/admin/name', '/api/admin/current/role', '/api/base/tenant/register']));
    expect(doc.paths['/api/auth/admin/name'].post.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['name', 'password']));
  });
});
