import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/db/connection.ts';
import { menu, roleMenu } from '../src/db/schema/index.ts';
import type { Reply, TestTenant } from './harness.ts';

/**
 * Grants a role the given button codes (and the screens above them), as the role screen would — which
 * also tells the access cache, so a token already in use sees the grant on its next request.
 */
export async function grant(ctx: { database: Database; app: FastifyInstance }, tenant: TestTenant, roleId: number, codes: string[]) {
  await ctx.database.withTenant(tenant.tenantId, async (tx) => {
    const buttons = await tx
      .select({ id: menu.id, parentId: menu.parentId })
      .from(menu)
      .where(and(eq(menu.tenantId, tenant.tenantId), inArray(menu.name, codes)));
    if (buttons.length !== codes.length) throw new Error(`unknown button codes in ${codes.join(',')}`);
    const ids = new Set<number>(buttons.map((b) => b.id));
    for (const b of buttons) if (b.parentId) ids.add(b.parentId);
    await tx
      .insert(roleMenu)
      .values([...ids].map((menuId) => ({ tenantId: tenant.tenantId, roleId, menuId })))
      .onConflictDoNothing();
  });
  await ctx.app.access.changed([{ tenantId: tenant.tenantId }]);
}

/** A PNG chunk: length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG of width × height opaque pixels, built from its chunks (signature, IHDR, IDAT, IEND). */
export function tinyPng(width = 1, height = 1): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const raw = Buffer.alloc(height * (1 + width * 3), 0x7f);
  for (let y = 0; y < height; y++) raw[y * (1 + width * 3)] = 0; // filter byte: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG followed by `extraBytes` of ancillary data: still a PNG to the sniffer, as large as wanted. */
export function largePng(extraBytes: number): Buffer {
  const png = tinyPng();
  const iend = png.subarray(png.length - 12);
  return Buffer.concat([png.subarray(0, png.length - 12), pngChunk('teXt', Buffer.concat([Buffer.from('Comment\0'), randomBytes(extraBytes)])), iend]);
}

export const tinyPdf = () => Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** A real 1×1 lossless WebP (uploads are decoded, so a header alone is refused). */
export const tinyWebp = () => Buffer.from('524946461e000000574542505650384c110000002f0000000007d0bffef5afff8188e87f0000', 'hex');

export type Part = { name: string; value: string } | { name: string; filename: string; content: Buffer; type?: string };

/** A multipart/form-data body as a browser sends it. */
export function multipart(parts: Part[]) {
  const boundary = `----p8${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in part) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(part.content, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Posts a multipart form like the web uploader. */
export async function postForm<T = unknown>(app: FastifyInstance, url: string, token: string | undefined, parts: Part[]): Promise<Reply<T>> {
  const form = multipart(parts);
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { ...form.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: form.payload,
  });
  return { httpStatus: res.statusCode, body: res.json(), headers: res.headers };
}
