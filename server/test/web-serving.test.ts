import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { precompressDir } from '../../scripts/precompress.mjs';
import { adminCaller } from './basic-fixtures.ts';
import { login, seedTenant, startTestApp, type TestContext } from './harness.ts';

let ctx: TestContext;
let dist: string;
/** A script big enough to be compressed at build time (scripts/precompress.mjs skips files under 1 KB). */
const BIG_SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: "row ${i}" }`).join(', ')}];\n`;
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'p8-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>P8</title><div id="root"></div><!--${'padding '.repeat(200)}-->`);
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'assets', 'big-def456.js'), BIG_SCRIPT);
  writeFileSync(path.join(dist, 'version.json'), '{"buildId":"b1"}');
  await precompressDir(dist);
  // A file the build step did not compress (written after it): sent as it is, never compressed per request.
  writeFileSync(path.join(dist, 'assets', 'late-ghi789.js'), BIG_SCRIPT);
  ctx = await startTestApp({ webDist: dist });
});
afterAll(() => ctx.close());

describe('serving the built web app (npm start)', () => {
  it('serves index.html at / and for client-side routes, never cached', async () => {
    for (const url of ['/', '/home/index', '/system/role?x=1']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root">');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('serves hashed assets as immutable and version.json as revalidated', async () => {
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const version = await ctx.app.inject({ method: 'GET', url: '/version.json' });
    expect(version.json()).toEqual({ buildId: 'b1' });
    expect(version.headers['cache-control']).toBe('no-cache');
  });

  it('still answers unknown API routes and non-GET requests with the 404 envelope', async () => {
    const api = await ctx.app.inject({ method: 'GET', url: '/api/nothing/here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ status: 404, message: 'NotFound' });
    const post = await ctx.app.inject({ method: 'POST', url: '/somewhere' });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject({ status: 404 });
  });
});

describe('compression (npm start)', () => {
  it('writes brotli and gzip copies of the build at build time, except for files too small to gain', () => {
    const big = path.join(dist, 'assets', 'big-def456.js');
    expect(brotliDecompressSync(readFileSync(`${big}.br`)).toString()).toBe(BIG_SCRIPT);
    expect(gunzipSync(readFileSync(`${big}.gz`)).toString()).toBe(BIG_SCRIPT);
    expect(() => readFileSync(path.join(dist, 'assets', 'app-abc123.js.br'))).toThrow(/ENOENT/);
  });

  it('sends the brotli copy to a browser that accepts it, else gzip, else the plain file, always with Vary', async () => {
    const url = '/assets/big-def456.js';
    const br = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_SCRIPT);

    const gz = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_SCRIPT);

    const plain = await ctx.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(BIG_SCRIPT);
  });

  it('never compresses a static file per request: one without a build-time copy is sent as it is', async () => {
    for (const url of ['/assets/late-ghi789.js', '/assets/app-abc123.js']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBeUndefined();
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/assets/late-ghi789.js', headers: { 'accept-encoding': 'br' } })).body).toBe(BIG_SCRIPT);
  });

  it('sends index.html compressed for client-side routes too, still never cached', async () => {
    for (const url of ['/', '/home/index']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toContain('<div id="root">');
    }
  });

  it('compresses a large JSON answer and leaves the envelope intact; small answers are sent as they are', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, br' };
    const plain = await ctx.app.inject({ method: 'GET', url: '/api/admin/current/role', headers: { authorization: `Bearer ${token}` } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/current/role', headers });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString())).toEqual(plain.json());

    const gz = await ctx.app.inject({ method: 'GET', url: '/api/admin/current/role', headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());

    const small = await ctx.app.inject({ method: 'GET', url: '/api/nothing/here', headers });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ status: 404, message: 'NotFound' });
  });

  it('never compresses a binary export', async () => {
    const t = await seedTenant(ctx.database);
    const api = await adminCaller(ctx, t);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/basic/material/export?lang=en',
      headers: { authorization: `Bearer ${api.token}`, 'accept-encoding': 'gzip, br' },
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
