import { createHmac } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudUploadToken, UploadResult } from '@p8/contract/upload';
import { uploadFile } from '../src/db/schema/index.ts';
import { call, login, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { largePng, postForm, tinyPdf, tinyPng, tinyWebp } from './office-fixtures.ts';

let ctx: TestContext;
let dataDir: string;
let a: TestTenant;
let tokenA: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'p8-upload-'));
  ctx = await startTestApp({ dataDir, upload: { type: 'location', domain: '', imageMaxMb: 1, fileMaxMb: 3, excelMaxMb: 2, orphanHours: 24 } });
  a = await seedTenant(ctx.database, 'UpA');
  tokenA = await login(ctx.app, a.name, a.password);
});
afterAll(async () => {
  await ctx.close();
  await rm(dataDir, { recursive: true, force: true });
});

const tmpFiles = async () => (existsSync(path.join(dataDir, 'uploads', '.tmp')) ? readdir(path.join(dataDir, 'uploads', '.tmp')) : []);
const URL_PATTERN = /^\/api\/base\/file\/(\d+)\/(\d{4}-\d{2})\/([0-9a-f-]{36})\.([a-z0-9]+)$/;

describe(`uploads to this server (${TEST_DB})`, () => {
  it('stores a real PNG under the tenant and month, records it and serves it back', async () => {
    const png = tinyPng(2, 2);
    const res = await postForm<UploadResult>(ctx.app, '/api/admin/upload/img', tokenA, [{ name: 'file', filename: 'logo.png', content: png, type: 'image/png' }]);
    expect(res.body).toMatchObject({ status: 0, data: { name: 'logo.png', size: png.length } });
    const match = URL_PATTERN.exec(res.body.data.url)!;
    expect(match).toBeTruthy();
    expect(Number(match[1])).toBe(a.tenantId);
    expect(match[2]).toBe(new Date().toISOString().slice(0, 7));
    expect(existsSync(path.join(dataDir, 'uploads', match[1], match[2], `${match[3]}.png`))).toBe(true);

    const [row] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(uploadFile).where(eq(uploadFile.storedName, `${match[3]}.png`)));
    expect(row).toMatchObject({ kind: 'img', originalName: 'logo.png', mime: 'image/png', size: png.length, createdBy: a.adminId });

    const served = await ctx.app.inject({ method: 'GET', url: res.body.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toMatch(/^inline;/);
    expect(served.rawPayload.equals(png)).toBe(true);
    const range = await ctx.app.inject({ method: 'GET', url: res.body.data.url, headers: { range: 'bytes=0-7' } });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.equals(png.subarray(0, 8))).toBe(true);
  });

  it('refuses a .png that is really a text file, and a PNG named .gif', async () => {
    const fake = await postForm(ctx.app, '/api/admin/upload/img', tokenA, [{ name: 'file', filename: 'photo.png', content: Buffer.from('just some text, not an image'), type: 'image/png' }]);
    expect(fake.httpStatus).toBe(400);
    expect(fake.body).toMatchObject({ status: 40001, message: 'UploadTypeNotAllowed', additional: 'png,jpg,jpeg,gif,apng,bmp,pjpeg,webp,avif' });
    const renamed = await postForm(ctx.app, '/api/admin/upload/img', tokenA, [{ name: 'file', filename: 'photo.gif', content: tinyPng() }]);
    expect(renamed.body.message).toBe('UploadTypeNotAllowed');
    const wrongExt = await postForm(ctx.app, '/api/admin/upload/img', tokenA, [{ name: 'file', filename: 'notes.txt', content: Buffer.from('x') }]);
    expect(wrongExt.body.message).toBe('UploadTypeNotAllowed');
    expect(await tmpFiles()).toEqual([]);
  });

  it('refuses an image over the image limit, with the limit, keeping nothing', async () => {
    const before = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(uploadFile));
    const res = await postForm(ctx.app, '/api/admin/upload/img', tokenA, [{ name: 'file', filename: 'big.png', content: largePng(1024 * 1024 + 10) }]);
    expect(res.body).toMatchObject({ status: 40001, message: 'UploadSizeExceeded', additional: '1MB' });
    const after = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(uploadFile));
    expect(after.length).toBe(before.length);
    expect(await tmpFiles()).toEqual([]);
  });

  it('applies the kind: a logo is png, jpg or gif only; an attachment may be a PDF; a video must be mp4', async () => {
    const webpAsImage = await postForm<UploadResult>(ctx.app, '/api/admin/upload/img', tokenA, [{ name: 'file', filename: 'x.webp', content: tinyWebp() }]);
    expect(webpAsImage.body.status).toBe(0);
    const webpAsLogo = await postForm(ctx.app, '/api/admin/upload/img', tokenA, [
      { name: 'kind', value: 'logo' },
      { name: 'file', filename: 'x.webp', content: tinyWebp() },
    ]);
    expect(webpAsLogo.body).toMatchObject({ message: 'UploadTypeNotAllowed', additional: 'png,jpg,jpeg,gif' });
    const kindAfterFile = await postForm(ctx.app, '/api/admin/upload/img', tokenA, [
      { name: 'file', filename: 'x.webp', content: tinyWebp() },
      { name: 'kind', value: 'logo' },
    ]);
    expect(kindAfterFile.body.message).toBe('UploadTypeNotAllowed');
    const pdf = await postForm<UploadResult>(ctx.app, '/api/admin/upload/file?kind=attachment', tokenA, [{ name: 'file', filename: '合同.pdf', content: tinyPdf() }]);
    expect(pdf.body.status).toBe(0);
    const served = await ctx.app.inject({ method: 'GET', url: pdf.body.data.url });
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe(`attachment; filename="__.pdf"; filename*=UTF-8''${encodeURIComponent('合同.pdf')}`);
    const video = await postForm(ctx.app, '/api/admin/upload/file', tokenA, [
      { name: 'kind', value: 'video' },
      { name: 'file', filename: 'clip.mp4', content: tinyPdf() },
    ]);
    expect(video.body).toMatchObject({ message: 'UploadTypeNotAllowed', additional: 'mp4' });
    const badKind = await postForm(ctx.app, '/api/admin/upload/img', tokenA, [
      { name: 'kind', value: 'video' },
      { name: 'file', filename: 'x.png', content: tinyPng() },
    ]);
    expect(badKind.body).toMatchObject({ message: 'BadRequest', additional: 'kind' });
  });

  it('takes generic files whose content agrees with their name, and serves them as downloads', async () => {
    const pdf = await postForm<UploadResult>(ctx.app, '/api/admin/upload/file', tokenA, [{ name: 'file', filename: 'offer.pdf', content: tinyPdf() }]);
    expect(pdf.body.status).toBe(0);
    const served = await ctx.app.inject({ method: 'GET', url: pdf.body.data.url });
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(served.rawPayload.equals(tinyPdf())).toBe(true);
    const lying = await postForm(ctx.app, '/api/admin/upload/file', tokenA, [{ name: 'file', filename: 'report.pdf', content: Buffer.from('not a pdf') }]);
    expect(lying.body.message).toBe('UploadTypeNotAllowed');
    const noName = await postForm(ctx.app, '/api/admin/upload/file', tokenA, [{ name: 'file', filename: 'README', content: Buffer.from('x') }]);
    expect(noName.body.message).toBe('UploadTypeNotAllowed');
  });

  it('streams generic files up to the file limit and refuses larger ones', async () => {
    const ok = await postForm<UploadResult>(ctx.app, '/api/admin/upload/file', tokenA, [{ name: 'file', filename: 'big.png', content: largePng(2 * 1024 * 1024) }]);
    expect(ok.body.status).toBe(0);
    expect(ok.body.data.size).toBeGreaterThan(2 * 1024 * 1024);
    const tooBig = await postForm(ctx.app, '/api/admin/upload/file', tokenA, [{ name: 'file', filename: 'huge.pdf', content: Buffer.alloc(3 * 1024 * 1024 + 1, 0x61) }]);
    expect(tooBig.body).toMatchObject({ status: 40001, message: 'UploadSizeExceeded', additional: '3MB' });
    expect(await tmpFiles()).toEqual([]);
  });

  it('takes one file per request and needs a file', async () => {
    const two = await postForm(ctx.app, '/api/admin/upload/img', tokenA, [
      { name: 'file', filename: 'a.png', content: tinyPng() },
      { name: 'file', filename: 'b.png', content: tinyPng() },
    ]);
    expect(two.body.message).toBe('UploadCountExceeded');
    const none = await postForm(ctx.app, '/api/admin/upload/img', tokenA, [{ name: 'kind', value: 'img' }]);
    expect(none.body.message).toBe('PleaseSelectFile');
    const json = await call(ctx.app, 'POST', '/api/admin/upload/img', { token: tokenA, body: { file: 'x' } });
    expect(json.body.message).toBe('PleaseSelectFile');
    expect(await tmpFiles()).toEqual([]);
  });

  it('needs a signed-in user', async () => {
    const res = await postForm(ctx.app, '/api/admin/upload/img', undefined, [{ name: 'file', filename: 'a.png', content: tinyPng() }]);
    expect(res.httpStatus).toBe(401);
    expect(res.body.status).toBe(40100);
  });
});

describe('serving stored files', () => {
  it('answers 404 to every path it did not generate: traversal, odd segments, unknown names', async () => {
    const res = await postForm<UploadResult>(ctx.app, '/api/admin/upload/img', tokenA, [{ name: 'file', filename: 'a.png', content: tinyPng() }]);
    const [, tenantId, month, uuid] = URL_PATTERN.exec(res.body.data.url)!;
    const urls = [
      `/api/base/file/${tenantId}/${month}/..%2F..%2F..%2Fetc%2Fpasswd`,
      `/api/base/file/${tenantId}/..%2F..%2F/${uuid}.png`,
      `/api/base/file/..%2F..%2Fpglite/${month}/${uuid}.png`,
      `/api/base/file/${tenantId}/${month}/%2e%2e%2f${uuid}.png`,
      `/api/base/file/${tenantId}/${month}/${uuid}.png%00.txt`,
      `/api/base/file/${tenantId}/${month}/${uuid.toUpperCase()}.png`,
      `/api/base/file/${tenantId}/${month}/${uuid}.gif`,
      `/api/base/file/${tenantId}/${month}/00000000-0000-4000-8000-000000000000.png`,
      `/api/base/file/${tenantId}/1999-01/${uuid}.png`,
      `/api/base/file/${tenantId}/${month}/.tmp`,
    ];
    for (const url of urls) {
      const served = await ctx.app.inject({ method: 'GET', url });
      expect(served.statusCode, url).toBe(404);
      expect(served.json(), url).toMatchObject({ status: 40001, message: 'FileNotFound' });
      expect(served.body, url).not.toContain('root:');
    }
    // Dot segments of the path itself are resolved before routing: this one is not a file path at all.
    for (const url of ['/api/base/file/../../etc/passwd', `/api/base/file/${tenantId}/${month}/../../../../etc/passwd`]) {
      const outside = await ctx.app.inject({ method: 'GET', url });
      expect(outside.statusCode, url).toBe(404);
      expect(outside.body, url).not.toContain('root:');
    }
    const unknown = await ctx.app.inject({ method: 'GET', url: `/api/base/file/${tenantId}/${month}/00000000-0000-4000-8000-000000000000.png` });
    expect(unknown.json()).toMatchObject({ status: 40001, message: 'FileNotFound' });
  });

  it("does not serve tenant A's file under tenant B, nor show B its record", async () => {
    const b = await seedTenant(ctx.database, 'UpB');
    const res = await postForm<UploadResult>(ctx.app, '/api/admin/upload/img', tokenA, [{ name: 'file', filename: 'a.png', content: tinyPng() }]);
    const [, , month, uuid] = URL_PATTERN.exec(res.body.data.url)!;
    const asB = await ctx.app.inject({ method: 'GET', url: `/api/base/file/${b.tenantId}/${month}/${uuid}.png` });
    expect(asB.statusCode).toBe(404);
    const rowsOfB = await ctx.database.withTenant(b.tenantId, (tx) => tx.select().from(uploadFile).where(eq(uploadFile.storedName, `${uuid}.png`)));
    expect(rowsOfB).toEqual([]);
  });
});

describe('cloud upload token', () => {
  it('is a catalogued error while Qiniu is not configured', async () => {
    const res = await call(ctx.app, 'GET', '/api/base/api/qiniuyun/token', { token: tokenA });
    expect(res.body).toMatchObject({ status: 40001, message: 'CloudUploadNotConfigured' });
    expect((await call(ctx.app, 'GET', '/api/base/api/qiniuyun/token')).httpStatus).toBe(401);
  });

  it("issues a token for the tenant's own prefix of the configured bucket, valid for an hour", async () => {
    const saved = ctx.config.qiniu;
    ctx.config.qiniu = { accessKey: 'test-ak', secretKey: 'test-sk', bucket: 'p8-bucket', domain: 'https://files.example.com', uploadUrl: 'https://upload.example.com' };
    try {
      const res = await call<CloudUploadToken>(ctx.app, 'GET', '/api/base/api/qiniuyun/token', { token: tokenA });
      expect(res.body.data).toMatchObject({ domain: 'https://files.example.com', expired: 3600, uploadUrl: 'https://upload.example.com' });
      const [ak, sign, policy] = res.body.data.token.split(':');
      expect(ak).toBe('test-ak');
      const decoded = JSON.parse(Buffer.from(policy.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString());
      expect(decoded).toMatchObject({ scope: `p8-bucket:${a.tenantId}_`, isPrefixalScope: 1, insertOnly: 1 });
      expect(Math.abs(decoded.deadline - (Math.floor(Date.now() / 1000) + 3600))).toBeLessThan(5);
      const expected = createHmac('sha1', 'test-sk').update(policy).digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
      expect(sign).toBe(expected);
    } finally {
      ctx.config.qiniu = saved;
    }
  });
});

describe('import templates', () => {
  it('serves a registered template as a real .xlsx in the asked language, 404 for others', async () => {
    ctx.app.importTemplates.register('uploadtestbrand', [
      { prop: 'name', title: { zh: '品牌名称', en: 'Brand name' }, required: true },
      { prop: 'remark', title: { zh: '备注', en: 'Remark' } },
    ]);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/base/template/uploadtestbrand.xlsx?lang=en' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''uploadtestbrand.xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0].getRow(1).values).toEqual([undefined, '*Brand name', 'Remark']);
    for (const url of ['/api/base/template/nothing.xlsx', '/api/base/template/uploadtestbrand.xls', '/api/base/template/..%2Fuploadtestbrand.xlsx']) {
      expect((await ctx.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});
