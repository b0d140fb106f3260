import { and, eq } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { storableText } from '@p8/contract/text';
import { UPLOAD_ROUTE_KINDS, UPLOAD_RULES, type UploadKind, type UploadResult } from '@p8/contract/upload';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connection.ts';
import { uploadFile } from '../../db/schema/index.ts';
import { ok } from '../../core/envelope.ts';
import { BizError } from '../../core/errors.ts';
import { langOf, sendXlsx, templateXlsx } from '../../core/excel.ts';
import { checkUpload, cloudUploadToken, discard, limitBytes, receiveSingleFile, sendStoredFile, storedFilePath, storeFile } from '../../core/uploads.ts';

const kindQuery = z.object({ kind: storableText().optional() });

/** Uploads to our own server, the files they become, the cloud upload token and the import templates. */
export async function uploadRoutes(app: FastifyInstance, opts: { database: Database; config: Config }) {
  const { database, config } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  async function upload(req: FastifyRequest, route: keyof typeof UPLOAD_ROUTE_KINDS): Promise<UploadResult> {
    const kinds: readonly UploadKind[] = UPLOAD_ROUTE_KINDS[route];
    // The stream limit is the largest of the route's kinds; the kind's own limit is checked after.
    const streamMax = Math.max(...kinds.map((k) => limitBytes(config, UPLOAD_RULES[k].limit)));
    const file = await receiveSingleFile(req, config, streamMax);
    try {
      const wanted = file.fields.kind || (req.query as { kind?: string }).kind || kinds[0];
      if (!kinds.includes(wanted as UploadKind)) throw new BizError('BadRequest', { additional: 'kind' });
      const kind = wanted as UploadKind;
      const checked = await checkUpload(file, kind, config);
      const stored = await storeFile(config, file.path, req.auth.tenantId, checked.ext);
      const name = file.filename.slice(-255);
      try {
        await req.tenant((tx) =>
          tx.insert(uploadFile).values({
            tenantId: req.auth.tenantId,
            kind,
            originalName: name,
            storedName: stored.storedName,
            mime: checked.mime,
            size: file.size,
            createdBy: req.auth.adminId,
          }),
        );
      } catch (error) {
        await discard(stored);
        throw error;
      }
      return { url: stored.url, name, size: file.size };
    } finally {
      await discard(file);
    }
  }

  const uploadSchema = (summary: string) => ({
    tags: ['upload'],
    summary,
    consumes: ['multipart/form-data'],
    querystring: kindQuery,
    description: 'Multipart: field `file` (one file), optional field `kind` (img | file | video | attachment | logo | excel). Checked by content sniffing.',
  });

  r.post('/api/admin/upload/img', { schema: uploadSchema('Upload an image (png, jpg, jpeg, gif, apng, bmp, pjpeg, webp, avif; logo: png, jpg, gif)') }, async (req) =>
    ok(await upload(req, 'img')),
  );
  r.post('/api/admin/upload/file', { schema: uploadSchema('Upload a file (≤ 500 MB; video mp4, attachments, Excel)') }, async (req) => ok(await upload(req, 'file')));

  // Public, like an <img src>: the name is a random uuid, and every segment must be exactly what the
  // server generates, so no path the client makes up reaches the disk — or the database: the segments are
  // plain strings here (not storableText) because anything else, a NUL included, is simply not found.
  r.get(
    '/api/base/file/:tenantId/:month/:name',
    {
      config: { auth: false },
      schema: { tags: ['upload'], summary: 'A file uploaded to this server', params: z.object({ tenantId: z.string(), month: z.string(), name: z.string() }) },
    },
    async (req, reply) => {
      const notFound = () => reply.code(404).send({ status: 40001, message: 'FileNotFound', data: null });
      const diskPath = storedFilePath(config, req.params);
      if (!diskPath || !existsSync(diskPath)) return notFound();
      const tenantId = Number(req.params.tenantId);
      const [row] = await database.withTenant(tenantId, (tx) =>
        tx
          .select({ mime: uploadFile.mime, originalName: uploadFile.originalName })
          .from(uploadFile)
          .where(and(eq(uploadFile.tenantId, tenantId), eq(uploadFile.storedName, req.params.name)))
          .limit(1),
      );
      if (!row) return notFound();
      return sendStoredFile(req, reply, { path: diskPath, mime: row.mime, originalName: row.originalName });
    },
  );

  // Any other shape under the file path (extra segments, dot segments) is the same 404, not the generic one.
  r.get('/api/base/file/*', { config: { auth: false }, schema: { hide: true } }, async (_req, reply) =>
    reply.code(404).send({ status: 40001, message: 'FileNotFound', data: null }),
  );

  r.get('/api/base/api/qiniuyun/token', { schema: { tags: ['upload'], summary: 'Cloud (Qiniu) upload token: token, domain, expired (s)' } }, async (req) =>
    ok(cloudUploadToken(config, req.auth.tenantId)),
  );

  // Template download links of the public system config (`templates`), fetched by a plain link.
  r.get(
    '/api/base/template/:file',
    { config: { auth: false }, schema: { tags: ['upload'], summary: 'An Excel import template (<key>.xlsx)', params: z.object({ file: z.string() }) } },
    async (req, reply) => {
      const key = /^([a-z][A-Za-z0-9_]{0,63})\.xlsx$/.exec(req.params.file)?.[1];
      const columns = key ? req.server.importTemplates.get(key) : undefined;
      if (!key || !columns) return reply.code(404).send({ status: 40001, message: 'FileNotFound', data: null });
      return sendXlsx(reply, await templateXlsx(columns, langOf(req)), `${key}.xlsx`);
    },
  );
}
