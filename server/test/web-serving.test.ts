import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'p8-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>P8</title><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'version.json'), '{"buildId":"b1"}');
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
