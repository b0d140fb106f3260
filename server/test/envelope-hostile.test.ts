import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, seedTenant, startTestApp, type TestContext } from './harness.ts';

/*
 * Hostile input gets a catalogued envelope, never a 500 or Fastify's own answer (issue 8 §4). The
 * generic walk over every operation is fuzz-openapi.test.ts; these are the named cases, some of them over
 * a real socket, where Node's HTTP parser and connection handling play their part.
 */

let ctx: TestContext;
let token: string;
let port: number;
beforeAll(async () => {
  ctx = await startTestApp();
  const t = await seedTenant(ctx.database);
  token = await login(ctx.app, t.name, t.password);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(() => ctx.close());

/** A raw request over the socket; resolves with the status and the body, rejects on a reset connection. */
function raw(options: { method: string; path: string; headers?: Record<string, string | number>; body?: Buffer | string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: options.method, path: options.path, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (typeof options.body !== 'object') return req.end(options.body);
    // A big body goes out the way a real client sends it: a chunk at a time, while the answer may
    // already be on its way back.
    const body = options.body;
    void (async () => {
      for (let at = 0; at < body.length && !req.destroyed; at += 256 * 1024) {
        if (!req.write(body.subarray(at, at + 256 * 1024))) await new Promise((r) => req.once('drain', r));
        await new Promise((r) => setTimeout(r, 5));
      }
      req.end();
    })();
  });
}

const auth = () => ({ authorization: `Bearer ${token}` });

describe('text and dates PostgreSQL cannot store', () => {
  it('refuses a NUL in a list query with TextNotStorable naming the parameter', async () => {
    const res = await call(ctx.app, 'GET', '/api/admin/office/message?title=%00', { token });
    expect(res.httpStatus).toBe(400);
    expect(res.body).toMatchObject({ status: 40001, message: 'TextNotStorable', additional: 'title' });
  });

  it('refuses a lone surrogate in a body field and writes nothing', async () => {
    const payload = '{"name":"Box \\ud800","sort":1}';
    const res = await ctx.app.inject({ method: 'POST', url: '/api/admin/basic/unit', headers: { ...auth(), 'content-type': 'application/json' }, payload });
    expect(res.json()).toMatchObject({ status: 40001, message: 'TextNotStorable', additional: 'name' });
    const list = await call<unknown[]>(ctx.app, 'GET', '/api/admin/basic/unit?name=Box', { token });
    expect(list.body.data).toEqual([]);
  });

  it('keeps a proper surrogate pair (an emoji) as text', async () => {
    const res = await call(ctx.app, 'POST', '/api/admin/basic/unit', { token, body: { name: 'Box 📦' } });
    expect(res.body.status).toBe(0);
  });

  it('refuses dates outside 1900–9999 on list routes with DateOutOfRange', async () => {
    for (const start of ['+275760-09-13T00:00:00Z', '0001-01-01', '10000-01-01', '1899-12-31', 'not-a-date']) {
      const res = await call(ctx.app, 'GET', `/api/admin/security/audit?start=${encodeURIComponent(start)}`, { token });
      expect(res.body, start).toMatchObject({ status: 40001, message: 'DateOutOfRange', additional: 'start' });
    }
    const ok = await call(ctx.app, 'GET', '/api/admin/security/audit?start=2026-01-01&end=2026-01-31%2023:59:59', { token });
    expect(ok.body.status).toBe(0);
  });
});

describe("Fastify's and Node's own refusals", () => {
  it('answers malformed and empty JSON with MalformedJson', async () => {
    for (const payload of ['{"name":', '']) {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/admin/basic/unit', headers: { ...auth(), 'content-type': 'application/json' }, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 40001, message: 'MalformedJson' });
    }
  });

  it('answers an unsupported content type with 415 UnsupportedContentType', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/admin/basic/unit', headers: { ...auth(), 'content-type': 'text/xml' }, payload: '<a/>' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ status: 40001, message: 'UnsupportedContentType' });
  });

  it('answers an over-long path parameter with 414 RequestUrlTooLong', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/admin/basic/unit/${'9'.repeat(5000)}`, headers: auth() });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toMatchObject({ status: 40001, message: 'RequestUrlTooLong' });
  });

  it('answers an unknown method on a known path with the NotFound envelope', async () => {
    const res = await ctx.app.inject({ method: 'PATCH', url: '/api/admin/basic/unit', headers: auth() });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 404, message: 'NotFound' });
  });

  it('serves a 16 KB query string like any other', async () => {
    const res = await raw({ method: 'GET', path: `/api/admin/basic/unit?name=${'x'.repeat(16 * 1024)}`, headers: auth() });
    // The route saw it and answered the (empty) page, not the parser's refusal.
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ status: 0, data: [] });
  });

  it('answers headers beyond the limit with a 431 envelope', async () => {
    const res = await raw({ method: 'GET', path: `/api/admin/basic/unit?name=${'x'.repeat(80 * 1024)}`, headers: auth() });
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toMatchObject({ status: 40001, message: 'RequestHeadersTooLarge', data: null });
  });

  it('answers an 11 MB JSON body with a 413 envelope instead of resetting the connection', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024) }));
    const res = await raw({ method: 'POST', path: '/api/admin/basic/unit', headers: { ...auth(), 'content-type': 'application/json', 'content-length': body.length }, body });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ status: 40001, message: 'RequestBodyTooLarge' });
  });
});

describe('broken multipart on upload and import routes', () => {
  const routes = ['/api/admin/upload/file', '/api/admin/upload/img', '/api/admin/basic/unit/import'];
  const part = (boundary: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\nPK\u0003\u0004`;

  it.each(routes)('%s: multipart without a boundary is MultipartMalformed', async (url) => {
    const res = await ctx.app.inject({ method: 'POST', url, headers: { ...auth(), 'content-type': 'multipart/form-data' }, payload: part('x') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 40001, message: 'MultipartMalformed' });
  });

  it.each(routes)('%s: a truncated multipart body is MultipartMalformed', async (url) => {
    const res = await ctx.app.inject({ method: 'POST', url, headers: { ...auth(), 'content-type': 'multipart/form-data; boundary=zzz' }, payload: part('zzz') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 40001, message: 'MultipartMalformed' });
  });
});
