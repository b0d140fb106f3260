import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadResult } from '@p8/contract/upload';
import { uploadFile } from '../src/db/schema/index.ts';
import { sweepOrphanUploads } from '../src/core/upload-sweep.ts';
import { call, login, seedStaff, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { postForm, tinyPng } from './office-fixtures.ts';

/*
 * Uploads no saved record names (core/upload-sweep.ts): a form closed without saving discards its own
 * uploads at once; the sweep removes the others once they are old, in every tenant, and keeps any file a
 * record names — whatever table or column names it.
 */
let ctx: TestContext;
let dataDir: string;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'p8-orphans-'));
  ctx = await startTestApp({ dataDir, upload: { type: 'location', domain: '', imageMaxMb: 1, fileMaxMb: 3, excelMaxMb: 2, orphanHours: 24 } });
  a = await seedTenant(ctx.database, 'OrphA');
  b = await seedTenant(ctx.database, 'OrphB');
  tokenA = await login(ctx.app, a.name, a.password);
  tokenB = await login(ctx.app, b.name, b.password);
});
afterAll(async () => {
  await ctx.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function upload(token: string): Promise<string> {
  const res = await postForm<UploadResult>(ctx.app, '/api/admin/upload/img', token, [{ name: 'file', filename: 'photo.png', content: tinyPng(2, 2), type: 'image/png' }]);
  expect(res.body.status).toBe(0);
  return res.body.data.url;
}
const diskPath = (url: string) => path.join(dataDir, 'uploads', ...url.replace('/api/base/file/', '').split('/'));
const stored = async (url: string) => {
  const name = url.split('/').pop()!;
  const [row] = await ctx.database.withSystem((tx) => tx.select({ id: uploadFile.id }).from(uploadFile).where(eq(uploadFile.storedName, name)));
  return !!row && existsSync(diskPath(url));
};
const gone = async (url: string) => {
  const name = url.split('/').pop()!;
  const [row] = await ctx.database.withSystem((tx) => tx.select({ id: uploadFile.id }).from(uploadFile).where(eq(uploadFile.storedName, name)));
  return !row && !existsSync(diskPath(url)) && (await ctx.app.inject({ method: 'GET', url })).statusCode === 404;
};
/** Makes uploads look `hours` old. */
const age = (urls: string[], hours: number) =>
  ctx.database.withSystem((tx) => tx.execute(sql`update upload_file set created_at = now() - make_interval(hours => ${hours}) where stored_name in (${sql.join(urls.map((u) => sql`${u.split('/').pop()!}`), sql`, `)})`));
/** A record naming a file: a brand whose remark holds its url (any text column of any table counts). */
const brandNaming = (token: string, url: string) => call(ctx.app, 'POST', '/api/admin/basic/brand', { token, body: { name: `brand-${url.slice(-12)}`, remark: `logo ${url}` } });

describe(`uploads no record names (${TEST_DB})`, () => {
  it('a form closed without saving discards its own uploads; a file a record names, another account’s and another tenant’s stay', async () => {
    const [thrown, kept, namedByBrand] = [await upload(tokenA), await upload(tokenA), await upload(tokenA)];
    expect((await brandNaming(tokenA, namedByBrand)).body.status).toBe(0);
    const staff = await seedStaff(ctx.database, a);
    const othersToken = await login(ctx.app, staff.name, staff.password);
    const colleagues = await upload(othersToken);
    const otherTenants = await upload(tokenB);

    const res = await call<{ removed: number }>(ctx.app, 'POST', '/api/admin/upload/discard', { token: tokenA, body: { urls: [thrown, namedByBrand, colleagues, otherTenants, '/api/base/file/1/2026-01/../../etc', ''] } });
    expect(res.body).toMatchObject({ status: 0, data: { removed: 1 } });
    expect(await gone(thrown)).toBe(true);
    for (const url of [kept, namedByBrand, colleagues, otherTenants]) expect(await stored(url), url).toBe(true);
    // Too many at once is refused by the schema, not half done.
    expect((await call(ctx.app, 'POST', '/api/admin/upload/discard', { token: tokenA, body: { urls: Array.from({ length: 51 }, () => kept) } })).body.status).toBe(40001);
  });

  it('the sweep removes old uploads nothing names, in every tenant, in batches, and keeps the named and the recent ones', async () => {
    const oldA = [await upload(tokenA), await upload(tokenA), await upload(tokenA)];
    const oldB = await upload(tokenB);
    const namedA = await upload(tokenA);
    const namedInB = await upload(tokenA); // tenant A's file, named by a record of tenant B: still kept
    const recent = await upload(tokenA);
    expect((await brandNaming(tokenA, namedA)).body.status).toBe(0);
    expect((await brandNaming(tokenB, namedInB)).body.status).toBe(0);
    await age([...oldA, oldB, namedA, namedInB], 25);

    const removed = await sweepOrphanUploads(ctx.database, ctx.config, { olderThanHours: 24, batch: 2 });
    expect(removed).toBeGreaterThanOrEqual(4);
    for (const url of [...oldA, oldB]) expect(await gone(url), url).toBe(true);
    for (const url of [namedA, namedInB, recent]) expect(await stored(url), url).toBe(true);
    // Nothing left to do: a second sweep removes nothing of these.
    await sweepOrphanUploads(ctx.database, ctx.config, { olderThanHours: 24 });
    for (const url of [namedA, namedInB, recent]) expect(await stored(url), url).toBe(true);
  });
});
