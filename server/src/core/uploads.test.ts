import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { BizError } from './errors.ts';
import { cloudUploadToken, contentDisposition, extensionAgrees, extensionOf, qiniuUploadToken, storedFilePath, urlsafeBase64 } from './uploads.ts';

describe('Qiniu upload token', () => {
  it("matches the worked example of Qiniu's documentation", () => {
    // developer.qiniu.com "上传凭证" (upload token): putPolicy, MY_ACCESS_KEY / MY_SECRET_KEY and the token they give.
    const putPolicy =
      '{"scope":"my-bucket:sunflower.jpg","deadline":1451491200,"returnBody":"{\\"name\\":$(fname),\\"size\\":$(fsize),\\"w\\":$(imageInfo.width),\\"h\\":$(imageInfo.height),\\"hash\\":$(etag)}"}';
    expect(qiniuUploadToken('MY_ACCESS_KEY', 'MY_SECRET_KEY', putPolicy)).toBe(
      'MY_ACCESS_KEY:wQ4ofysef1R7IKnrziqtomqyDvI=:eyJzY29wZSI6Im15LWJ1Y2tldDpzdW5mbG93ZXIuanBnIiwiZGVhZGxpbmUiOjE0NTE0OTEyMDAsInJldHVybkJvZHkiOiJ7XCJuYW1lXCI6JChmbmFtZSksXCJzaXplXCI6JChmc2l6ZSksXCJ3XCI6JChpbWFnZUluZm8ud2lkdGgpLFwiaFwiOiQoaW1hZ2VJbmZvLmhlaWdodCksXCJoYXNoXCI6JChldGFnKX0ifQ==',
    );
  });

  it("signs a put policy limited to the tenant's prefix of the bucket that expires in an hour", () => {
    const config = loadConfig({ qiniu: { accessKey: 'ak-123', secretKey: 'sk-456', bucket: 'p8-files', domain: 'https://cdn.example.com', uploadUrl: '' } });
    const now = Date.UTC(2026, 0, 2, 3, 4, 5);
    const result = cloudUploadToken(config, 42, now);
    expect(result).toMatchObject({ domain: 'https://cdn.example.com', expired: 3600 });

    // Computed independently: JSON → base64 (+/ → -_) → HMAC-SHA1 with the secret key → base64 (+/ → -_).
    const expectedPolicy = { scope: 'p8-files:42_', isPrefixalScope: 1, insertOnly: 1, fsizeLimit: 500 * 1024 * 1024, deadline: Math.floor(now / 1000) + 3600 };
    const policy = JSON.stringify(expectedPolicy);
    const encodedPolicy = Buffer.from(policy).toString('base64').split('+').join('-').split('/').join('_');
    const sign = createHmac('sha1', 'sk-456').update(encodedPolicy).digest('base64').split('+').join('-').split('/').join('_');
    expect(result.token).toBe(`ak-123:${sign}:${encodedPolicy}`);
    const [, , policyPart] = result.token.split(':');
    expect(JSON.parse(Buffer.from(policyPart, 'base64').toString())).toEqual({ ...expectedPolicy, deadline: 1767323045 + 3600 });
  });

  it('keeps the padding and replaces + and / as Qiniu does', () => {
    expect(urlsafeBase64(Buffer.from([0xfb, 0xff]))).toBe('-_8=');
  });

  it('is a catalogued error while the keys are not configured', () => {
    const config = loadConfig({ qiniu: { accessKey: '', secretKey: '', bucket: '', domain: '', uploadUrl: '' } });
    expect(() => cloudUploadToken(config, 1)).toThrowError(BizError);
    expect(() => cloudUploadToken(config, 1)).toThrow('CloudUploadNotConfigured');
  });
});

describe('upload names and paths', () => {
  it('takes the lower-case extension of a name, none for odd names', () => {
    expect(extensionOf('Photo.JPG')).toBe('jpg');
    expect(extensionOf('archive.tar.gz')).toBe('gz');
    expect(extensionOf('noext')).toBe('');
    expect(extensionOf('bad.ph p')).toBe('');
  });

  it('lets an extension agree only with what the content is', () => {
    expect(extensionAgrees('png', { ext: 'png', mime: 'image/png' })).toBe(true);
    expect(extensionAgrees('png', { ext: 'apng', mime: 'image/apng' })).toBe(true);
    expect(extensionAgrees('jpeg', { ext: 'jpg', mime: 'image/jpeg' })).toBe(true);
    expect(extensionAgrees('xls', { ext: 'cfb', mime: 'application/x-cfb' })).toBe(true);
    expect(extensionAgrees('gif', { ext: 'png', mime: 'image/png' })).toBe(false);
    expect(extensionAgrees('png', undefined)).toBe(false);
    expect(extensionAgrees('txt', undefined)).toBe(true);
    expect(extensionAgrees('txt', { ext: 'exe', mime: 'application/x-msdownload' })).toBe(false);
    expect(extensionAgrees('', undefined)).toBe(false);
  });

  it('resolves only the exact segments the server generates, inside the upload folder', () => {
    const config = loadConfig({ dataDir: '/srv/p8' });
    const name = '0f8fad5b-d9cb-469f-a165-70867728950e.png';
    expect(storedFilePath(config, { tenantId: '12', month: '2026-01', name })).toBe(`/srv/p8/uploads/12/2026-01/${name}`);
    for (const bad of [
      { tenantId: '..', month: '2026-01', name },
      { tenantId: '12', month: '..', name },
      { tenantId: '12', month: '2026-13', name },
      { tenantId: '12', month: '2026-01', name: '../../etc/passwd' },
      { tenantId: '12', month: '2026-01', name: `..%2F${name}` },
      { tenantId: '012', month: '2026-01', name },
      { tenantId: '12', month: '2026-01', name: name.toUpperCase() },
      { tenantId: '12', month: '2026-01', name: `${name}/x` },
    ]) {
      expect(storedFilePath(config, bad), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('names a download in ASCII and in UTF-8', () => {
    expect(contentDisposition('attachment', '报表 "Q1".xlsx')).toBe(
      `attachment; filename="__ _Q1_.xlsx"; filename*=UTF-8''${encodeURIComponent('报表 "Q1".xlsx')}`,
    );
  });
});
