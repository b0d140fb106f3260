import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UploadResult } from '@p8/contract/upload';
import { login, seedTenant, startTestApp, TEST_DB, type TestContext } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { billPath, ok } from './bill-fixtures.ts';
import { postForm, tinyPng } from './office-fixtures.ts';

/*
 * Answers a handler sends itself (an .xlsx export, a stored image) are sent once: the declared route must
 * not send its envelope after them. Fastify says so with a "Reply was already sent" warning in the log,
 * which this test reads from the app's own logger.
 */

let ctx: TestContext;
let dataDir: string;
let api: Caller;
let token: string;
const logged: Array<{ level: number; msg?: string; err?: { message?: string } }> = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'p8-reply-'));
  const stream = { write: (line: string) => void logged.push(JSON.parse(line)) };
  ctx = await startTestApp({ dataDir, upload: { type: 'location', domain: '', imageMaxMb: 1, fileMaxMb: 3, excelMaxMb: 2, orphanHours: 24 } }, { logger: { level: 'warn', stream } });
  const t = await seedTenant(ctx.database, 'ReplyOnce');
  api = await adminCaller(ctx, t);
  token = await login(ctx.app, t.name, t.password);
});
afterAll(async () => {
  await ctx.close();
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(() => void (logged.length = 0));

/** What the app warned of, as text (a warning's message or its error's). */
const warnings = () => logged.filter((l) => l.level >= 40).map((l) => `${l.msg ?? ''} ${l.err?.message ?? ''}`);

describe(`answers sent by their handler (${TEST_DB})`, () => {
  it('sends a bill export once', async () => {
    const piece = await api.create('unit', { name: 'pc' });
    const materialId = await api.create('material', { code: 'R1', name: 'Part', units: [{ unitId: piece, isMain: true }] });
    await ok(api.post(billPath('PurchaseRequisition'), { billDate: '2026-11-24', lines: [{ materialId, number: 2 }] }));
    const res = await ctx.app.inject({ method: 'POST', url: `${billPath('PurchaseRequisition')}/export?lang=en`, headers: { authorization: `Bearer ${token}` }, payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(warnings()).toEqual([]);
  });

  it('serves a stored image once', async () => {
    const png = tinyPng(2, 2);
    const uploaded = await postForm<UploadResult>(ctx.app, '/api/admin/upload/img', token, [{ name: 'file', filename: 'demo.png', content: png, type: 'image/png' }]);
    expect(uploaded.body.status).toBe(0);
    const served = await ctx.app.inject({ method: 'GET', url: uploaded.body.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png)).toBe(true);
    // A byte range too (video seeking), and a file that is not there (the handler's own 404).
    const range = await ctx.app.inject({ method: 'GET', url: uploaded.body.data.url, headers: { range: 'bytes=0-7' } });
    expect(range.statusCode).toBe(206);
    const missing = await ctx.app.inject({ method: 'GET', url: uploaded.body.data.url.replace(/[0-9a-f]{8}-/, '00000000-') });
    expect(missing.statusCode).toBe(404);
    expect(warnings()).toEqual([]);
  });
});
