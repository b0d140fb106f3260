import { createHmac, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromFile, supportedExtensions, type FileTypeResult } from 'file-type';
import { DENIED_EXTENSIONS, UPLOAD_RULES, type CloudUploadToken, type UploadKind, type UploadLimit } from '@p8/contract/upload';
import type { Config } from '../config.ts';
import { BizError } from './errors.ts';
import { checkImageFile } from './image-check.ts';

/*
 * Files on our own server (the 'location' upload type) and the cloud type's upload token.
 * A file is accepted when its extension is one of its kind's (plus, for the generic file and attachment
 * kinds, those the tenant added — never a denied one), when its bytes are what the extension says (magic
 * numbers via file-type), and, for an image, when it decodes and ends where its format ends
 * (core/image-check.ts). It is streamed to disk, so a 500 MB upload never sits in memory.
 */

export const MB = 1024 * 1024;

/** Registers the multipart parser for the whole app, so every module's `{path}/import` can use it. */
export const multipartPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  await app.register(multipart, {
    limits: { fileSize: opts.config.upload.fileMaxMb * MB, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30, headerPairs: 100 },
    throwFileSizeLimit: true,
  });
});

export function limitBytes(config: Config, limit: UploadLimit): number {
  const mb = limit === 'image' ? config.upload.imageMaxMb : limit === 'excel' ? config.upload.excelMaxMb : config.upload.fileMaxMb;
  return mb * MB;
}

/** The lower-case extension of a client's file name, or '' when it has none worth the name. */
export function extensionOf(filename: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename.trim());
  return match ? match[1].toLowerCase() : '';
}

/**
 * Sniffed types an extension may carry, where they differ from the extension itself: a .png may be an
 * animated PNG, a .jpeg or progressive .pjpeg is a JPEG, and legacy Office files (.doc/.xls/.ppt) are all
 * OLE compound files, which the sniffer cannot tell apart.
 */
const SNIFFED_AS: Record<string, readonly string[]> = {
  png: ['png', 'apng'],
  apng: ['apng', 'png'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  jpe: ['jpg'],
  pjpeg: ['jpg'],
  tiff: ['tif'],
  doc: ['cfb'],
  xls: ['cfb'],
  ppt: ['cfb'],
  msg: ['cfb'],
  m4v: ['m4v', 'mp4'],
  htm: ['html'],
};

/** Formats the sniffer recognises only sometimes (an XML file without its declaration, an MP3 without tags…). */
const TEXTUAL_OR_LOOSE = new Set(['xml', 'ics', 'vcf', 'vtt', 'eps', 'ps', 'reg', 'dat', 'mp3', 'mp2', 'mp1', 'aac', 'mpg']);

/**
 * Whether a name's extension agrees with the sniffed content. Content the sniffer does not recognise
 * (plain text, CSV…) agrees only with an extension the sniffer would have recognised nothing for: a
 * ".png" that is really a text file is refused.
 */
export function extensionAgrees(ext: string, sniffed: FileTypeResult | undefined): boolean {
  if (!ext) return false;
  if (!sniffed) return TEXTUAL_OR_LOOSE.has(ext) || (!(supportedExtensions as ReadonlySet<string>).has(ext) && !(ext in SNIFFED_AS));
  return (SNIFFED_AS[ext] ?? [ext]).includes(sniffed.ext);
}

export interface CheckedFile {
  ext: string;
  /** The sniffed content type; application/octet-stream for content nothing recognises. */
  mime: string;
}

/**
 * Checks a received file against the rules of its kind; throws the catalogued error. `added` are the
 * tenant's own extensions (system settings), counted for the kinds that may be widened.
 */
export async function checkUpload(
  file: { path: string; filename: string; size: number },
  kind: UploadKind,
  config: Config,
  added: readonly string[] = [],
): Promise<CheckedFile> {
  const rule = UPLOAD_RULES[kind];
  const allowed = [...rule.extensions, ...(rule.widenable ? added.filter((ext) => !DENIED_EXTENSIONS.includes(ext) && !rule.extensions.includes(ext)) : [])];
  const refuse = () => new BizError('UploadTypeNotAllowed', { additional: allowed.join(',') });
  const ext = extensionOf(file.filename);
  if (!allowed.includes(ext) || DENIED_EXTENSIONS.includes(ext)) throw refuse();
  const max = limitBytes(config, rule.limit);
  if (file.size > max) throw new BizError('UploadSizeExceeded', { additional: `${max / MB}MB` });
  if (file.size === 0) throw new BizError('PleaseSelectFile');
  const sniffed = await fileTypeFromFile(file.path);
  // Every standard type has a signature; an added one may be plain text the sniffer knows nothing of.
  if (rule.extensions.includes(ext) && !sniffed) throw refuse();
  if (!extensionAgrees(ext, sniffed)) throw refuse();
  await checkImageFile(file.path, ext);
  return { ext, mime: sniffed?.mime ?? 'application/octet-stream' };
}

export interface ReceivedFile {
  /** Temporary file holding the upload; the caller moves it or calls `discard`. */
  path: string;
  filename: string;
  size: number;
  /** The plain fields of the form. */
  fields: Record<string, string>;
}

const tmpDirOf = (config: Config) => path.join(config.dataDir, 'uploads', '.tmp');

export async function discard(file: { path: string } | undefined) {
  if (file) await unlink(file.path).catch(() => {});
}

/**
 * Whether a failure while reading a multipart body is the client's broken form (no boundary, a body that
 * ends mid-part, a malformed part header) rather than our disk failing. The multipart parser (busboy)
 * throws plain Errors for the former; the file system's errors carry a `syscall`.
 */
function isMalformedMultipart(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof BizError) return false;
  const { code, syscall } = error as { code?: string; syscall?: string };
  if (syscall) return false;
  return code === undefined || code.startsWith('FST_') || /multipart|boundary|unexpected end|malformed/i.test(error.message);
}

/**
 * Streams the one file of a multipart request to a temporary file, at most `maxBytes`. A second file
 * answers UploadCountExceeded, a larger one UploadSizeExceeded.
 */
export async function receiveSingleFile(req: FastifyRequest, config: Config, maxBytes: number): Promise<ReceivedFile> {
  if (!req.isMultipart()) throw new BizError('PleaseSelectFile');
  const tmpDir = tmpDirOf(config);
  await mkdir(tmpDir, { recursive: true });
  const fields: Record<string, string> = {};
  let received: ReceivedFile | undefined;
  let tmp: string | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
      if (part.type !== 'file') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      tmp = path.join(tmpDir, randomUUID());
      const out = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
      await pipeline(part.file, out);
      if (part.file.truncated) throw new BizError('UploadSizeExceeded', { additional: `${maxBytes / MB}MB` });
      received = { path: tmp, filename: part.filename ?? '', size: out.bytesWritten, fields };
    }
  } catch (error) {
    await discard(tmp ? { path: tmp } : undefined);
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new BizError('UploadSizeExceeded', { additional: `${maxBytes / MB}MB` });
    if (code === 'FST_FILES_LIMIT') throw new BizError('UploadCountExceeded', { additional: 1 });
    if (isMalformedMultipart(error)) throw new BizError('MultipartMalformed');
    throw error;
  }
  if (!received) throw new BizError('PleaseSelectFile');
  return received;
}

// ---------------------------------------------------------------- storage layout

const TENANT_SEGMENT = /^[1-9]\d{0,15}$/;
const MONTH_SEGMENT = /^\d{4}-(0[1-9]|1[0-2])$/;
const NAME_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,10}$/;

export const uploadRoot = (config: Config) => path.join(config.dataDir, 'uploads');

/** `yyyy-mm` of a date in UTC: the month folder of a stored file. */
export const monthOf = (date: Date) => date.toISOString().slice(0, 7);

/** The URL a stored file is served at. */
export const fileUrl = (tenantId: number, month: string, storedName: string) => `/api/base/file/${tenantId}/${month}/${storedName}`;

/**
 * The disk path of a served file, or undefined when any segment is not exactly what the server itself
 * generates (digits, yyyy-mm, uuid.ext): nothing a client sends can climb out of the upload folder.
 */
export function storedFilePath(config: Config, segments: { tenantId: string; month: string; name: string }): string | undefined {
  if (!TENANT_SEGMENT.test(segments.tenantId) || !MONTH_SEGMENT.test(segments.month) || !NAME_SEGMENT.test(segments.name)) return undefined;
  const root = uploadRoot(config);
  const full = path.resolve(root, segments.tenantId, segments.month, segments.name);
  return full.startsWith(root + path.sep) ? full : undefined;
}

/** Moves a checked temporary file to its final place `uploads/<tenantId>/<yyyy-mm>/<uuid>.<ext>`. */
export async function storeFile(config: Config, tmpPath: string, tenantId: number, ext: string, now = new Date()) {
  const month = monthOf(now);
  const storedName = `${randomUUID()}.${ext}`;
  const dir = path.join(uploadRoot(config), String(tenantId), month);
  await mkdir(dir, { recursive: true });
  const finalPath = path.join(dir, storedName);
  await rename(tmpPath, finalPath);
  return { month, storedName, path: finalPath, url: fileUrl(tenantId, month, storedName) };
}

/** `content-disposition` with the original name, ASCII fallback plus RFC 5987 UTF-8 form. */
export function contentDisposition(type: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_') || 'file';
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Types a browser may show in place: raster images and mp4 video, which it never runs as a page. Anything
 * else — including what an older release may have stored before the deny-list — is a download.
 */
const INLINE_TYPES = new Set(['image/png', 'image/apng', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'video/mp4']);

/**
 * Sends a stored file with safe headers, honouring a single byte range (video seeking): `nosniff` (the
 * stored type counts, never a browser's guess), a CSP that lets the answer run nothing and reach nothing
 * (`sandbox`: even opened directly it is a page of no origin), and a download for what is not shown in place.
 */
export async function sendStoredFile(request: FastifyRequest, reply: FastifyReply, file: { path: string; mime: string; originalName: string }) {
  const info = await stat(file.path);
  const inline = INLINE_TYPES.has(file.mime);
  reply
    .header('content-type', file.mime)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', file.originalName))
    .header('cache-control', 'private, max-age=86400')
    .header('accept-ranges', 'bytes');
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(request.headers.range ?? ''));
  if (range && (range[1] || range[2])) {
    let start = range[1] ? Number(range[1]) : Math.max(0, info.size - Number(range[2]));
    let end = range[1] && range[2] ? Number(range[2]) : info.size - 1;
    end = Math.min(end, info.size - 1);
    if (start > end || start >= info.size) {
      return reply.code(416).header('content-range', `bytes */${info.size}`).send();
    }
    start = Math.max(0, start);
    return reply
      .code(206)
      .header('content-range', `bytes ${start}-${end}/${info.size}`)
      .header('content-length', end - start + 1)
      .send(createReadStream(file.path, { start, end }));
  }
  return reply.header('content-length', info.size).send(createReadStream(file.path));
}

// ---------------------------------------------------------------- cloud upload (Qiniu)

/** Qiniu's "URL-safe Base64": standard Base64 with + → - and / → _, padding kept (as Qiniu documents). */
export const urlsafeBase64 = (data: Buffer | string) => Buffer.from(data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');

/**
 * A Qiniu upload token: `AccessKey:urlsafe(HMAC-SHA1(secretKey, encodedPutPolicy)):encodedPutPolicy`,
 * where encodedPutPolicy is the URL-safe Base64 of the put policy's JSON.
 */
export function qiniuUploadToken(accessKey: string, secretKey: string, putPolicy: string | object): string {
  const encodedPolicy = urlsafeBase64(typeof putPolicy === 'string' ? putPolicy : JSON.stringify(putPolicy));
  const encodedSign = urlsafeBase64(createHmac('sha1', secretKey).update(encodedPolicy).digest());
  return `${accessKey}:${encodedSign}:${encodedPolicy}`;
}

export const CLOUD_TOKEN_SECONDS = 3600;

/**
 * The cloud upload token of GET /base/api/qiniuyun/token; CloudUploadNotConfigured without keys.
 * The token only allows new keys under the tenant's own prefix (`<tenantId>_`, the file-name rule of
 * `tenantId_YYYYMMDDHHmmss.ext`), never overwriting, and no larger than the file limit — a tenant cannot write into another's names.
 */
export function cloudUploadToken(config: Config, tenantId: number, now = Date.now()): CloudUploadToken {
  const { accessKey, secretKey, bucket, domain, uploadUrl } = config.qiniu;
  if (!accessKey || !secretKey || !bucket) throw new BizError('CloudUploadNotConfigured');
  const deadline = Math.floor(now / 1000) + CLOUD_TOKEN_SECONDS;
  const policy = { scope: `${bucket}:${tenantId}_`, isPrefixalScope: 1, insertOnly: 1, fsizeLimit: config.upload.fileMaxMb * 1024 * 1024, deadline };
  return { token: qiniuUploadToken(accessKey, secretKey, policy), domain, expired: CLOUD_TOKEN_SECONDS, uploadUrl };
}
