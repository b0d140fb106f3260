import { and, eq } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import { UPLOAD_ROUTE_KINDS, UPLOAD_RULES, type UploadKind, type UploadResult } from '@p8/contract/upload';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connection.ts';
import { uploadFile } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import { langOf, sendXlsx, templateXlsx } from '../../core/excel.ts';
import type { ImportTemplates } from '../../core/registries.ts';
import type { Http, RequestCaller } from '../../core/route.ts';
import { readUploadExtensions } from '../../core/system-settings.ts';
import { checkUpload, discard, limitBytes, receiveSingleFile, sendStoredFile, storedFilePath, storeFile } from '../../core/uploads.ts';

/**
 * Receives one file of the route's kinds (outside any transaction: a big upload must not hold a
 * connection), checks it by its content, stores it and records it in one short transaction. A file whose
 * record cannot be written is removed again.
 */
export async function receiveUpload(caller: RequestCaller, { request }: Http, route: keyof typeof UPLOAD_ROUTE_KINDS, kindQuery: string | undefined): Promise<UploadResult> {
  const { config } = caller;
  const kinds: readonly UploadKind[] = UPLOAD_ROUTE_KINDS[route];
  // The stream limit is the largest of the route's kinds; the kind's own limit is checked after.
  const streamMax = Math.max(...kinds.map((k) => limitBytes(config, UPLOAD_RULES[k].limit)));
  const file = await receiveSingleFile(request, config, streamMax);
  try {
    const wanted = file.fields.kind || kindQuery || kinds[0];
    if (!kinds.includes(wanted as UploadKind)) throw new BizError('BadRequest', { additional: 'kind' });
    const kind = wanted as UploadKind;
    const added = UPLOAD_RULES[kind].widenable ? await caller.transaction(({ tx, tenantId }) => readUploadExtensions(tx, tenantId)) : [];
    const checked = await checkUpload(file, kind, config, added);
    const stored = await storeFile(config, file.path, caller.tenantId, checked.ext);
    const name = file.filename.slice(-255);
    try {
      await caller.transaction(({ tx, tenantId, account }) =>
        tx.insert(uploadFile).values({ tenantId, kind, originalName: name, storedName: stored.storedName, mime: checked.mime, size: file.size, createdBy: account.adminId }),
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

const fileNotFound = ({ reply }: Http) => reply.code(404).send({ status: 40001, message: 'FileNotFound', data: null });

/**
 * Sends a stored file. Public, like an <img src>: the name is a random uuid, and every segment must be
 * exactly what the server generates, so no path the client makes up reaches the disk.
 */
export async function sendUploadedFile(deps: { config: Config; database: Database }, segments: { tenantId: string; month: string; name: string }, http: Http) {
  const diskPath = storedFilePath(deps.config, segments);
  if (!diskPath || !existsSync(diskPath)) return fileNotFound(http);
  const tenantId = Number(segments.tenantId);
  const [row] = await deps.database.withTenant(tenantId, (tx) =>
    tx
      .select({ mime: uploadFile.mime, originalName: uploadFile.originalName })
      .from(uploadFile)
      .where(and(eq(uploadFile.tenantId, tenantId), eq(uploadFile.storedName, segments.name)))
      .limit(1),
  );
  if (!row) return fileNotFound(http);
  return sendStoredFile(http.request, http.reply, { path: diskPath, mime: row.mime, originalName: row.originalName });
}

/** Any other shape under the file path (extra segments, dot segments) is the same 404, not the generic one. */
export const noSuchFile = async (http: Http) => fileNotFound(http);

/** An import template (`<key>.xlsx`) as registered by the module of its import, in the caller's language. */
export async function sendTemplate(templates: ImportTemplates, file: string, http: Http) {
  const key = /^([a-z][A-Za-z0-9_]{0,63})\.xlsx$/.exec(file)?.[1];
  const columns = key ? templates.get(key) : undefined;
  if (!key || !columns) return fileNotFound(http);
  return sendXlsx(http.reply, await templateXlsx(columns, langOf(http.request)), `${key}.xlsx`);
}
