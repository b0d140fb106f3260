import { and, count, eq, gt, inArray, max } from 'drizzle-orm';
import { readFile } from 'node:fs/promises';
import { PICTURE_SEARCH_LIMIT, PICTURE_SEARCH_MIN_INDEXED, pictureSearchOpen, type PictureIndexStatus, type PictureMatch, type PictureSearchResult, type PictureTarget } from '@p8/contract/picture-search';
import { UPLOAD_RULES } from '@p8/contract/upload';
import type { JobContext, JobKind } from '../../core/background-jobs.ts';
import { PICTURE_INDEX_JOB, queuePictureIndex, type PictureIndexPayload } from '../../core/picture-index-queue.ts';
import { assignmentRangeWhere } from '../../core/assignment-range.ts';
import { BizError } from '../../core/errors.ts';
import type { Http, RequestCaller } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { readTenantConfig } from '../../core/tenant-config.ts';
import { checkUpload, discard, limitBytes, receiveSingleFile, storedFilePath } from '../../core/uploads.ts';
import type { Tx } from '../../db/connection.ts';
import { backgroundJob, mallProduct, material, pictureEmbedding } from '../../db/schema/index.ts';
import { dHash, embed, embeddingBytes, embeddingOf, embedTurns, loadEmbedder } from './embedder.ts';
import { buildIndex, rank, type PictureIndex } from './similarity.ts';

/*
 * Picture search's index and search (docs/picture-search.md).
 *
 * Indexing is a background job (`picture-index`), queued when a material's or product's pictures are saved
 * and by the re-index action: it compares the records' pictures with the index, removes what is no longer a
 * record's picture, and embeds what is missing — BATCH pictures at a time, each batch committed with its
 * progress, so memory stays bounded and a stopped job resumes where it was (the comparison is made again).
 *
 * A search embeds the photo (outside any transaction), ranks it against the tenant's index held in this
 * process (re-read when the index changed: its count and last id are compared on every search), and answers
 * the records the caller may see, best first.
 */

/** Pictures of a record that are indexed (the first ones: the first is its main picture). */
const PICTURES_PER_RECORD = 5;
const BATCH = 16;
/** Tenants' indexes held in this process at once (each ≈ 5 KB per picture). */
const CACHED_INDEXES = 8;

const TABLE = { material, product: mallProduct } as const;

/** Whether `target`'s picture search is open to the tenant; refused with the catalogued error if not. */
async function assertOpen(tx: Tx, tenantId: number, target: PictureTarget) {
  const config = await readTenantConfig(tx, tenantId);
  if (!pictureSearchOpen(config, target)) throw new BizError('PictureSearchNotOpen');
  return config;
}

/** The stored file behind an upload address of this tenant, or undefined (another tenant's, a cloud address). */
function localPath(ctx: Pick<ServiceContext, 'config' | 'tenantId'>, url: string): string | undefined {
  const match = /^\/api\/base\/file\/(\d+)\/([^/]+)\/([^/]+)$/.exec(url);
  if (!match || Number(match[1]) !== ctx.tenantId) return undefined;
  return storedFilePath(ctx.config, { tenantId: match[1], month: match[2], name: match[3] });
}

/** The pictures the records name now: record id → its indexable picture addresses. */
async function picturesOf(ctx: ServiceContext, target: PictureTarget, ids?: number[]): Promise<Map<number, string[]>> {
  const t = TABLE[target];
  const found = await ctx.tx
    .select({ id: t.id, images: t.images })
    .from(t)
    .where(and(eq(t.tenantId, ctx.tenantId), ids ? inArray(t.id, ids) : undefined));
  return new Map(found.map((r) => [r.id, [...new Set((r.images as string[]).filter((url) => localPath(ctx, url)))].slice(0, PICTURES_PER_RECORD)]));
}

/** The re-index action: every picture of the target compared with the index again. */
export async function reindex(ctx: ServiceContext, target: PictureTarget): Promise<{ id: number }> {
  await assertOpen(ctx.tx, ctx.tenantId, target);
  const id = await queuePictureIndex(ctx, target);
  return { id: id! };
}

export function pictureIndexJobKind(): JobKind {
  return {
    kind: PICTURE_INDEX_JOB,
    maxAttempts: 3,
    async run(job: JobContext) {
      const { target, ids } = job.payload as PictureIndexPayload;
      const t = TABLE[target];
      // What to embed and what to remove: the records' pictures against the index.
      const plan = await job.caller.transaction(async (ctx) => {
        const wanted = await picturesOf(ctx, target, ids);
        const stored = await ctx.tx
          .select({ id: pictureEmbedding.id, recordId: pictureEmbedding.recordId, url: pictureEmbedding.imageUrl })
          .from(pictureEmbedding)
          .where(and(eq(pictureEmbedding.tenantId, ctx.tenantId), eq(pictureEmbedding.target, target), ids ? inArray(pictureEmbedding.recordId, ids) : undefined));
        const have = new Set(stored.map((r) => `${r.recordId} ${r.url}`));
        const stale = stored.filter((r) => !wanted.get(r.recordId)?.includes(r.url)).map((r) => r.id);
        for (let i = 0; i < stale.length; i += 5000) await ctx.tx.delete(pictureEmbedding).where(and(eq(pictureEmbedding.tenantId, ctx.tenantId), inArray(pictureEmbedding.id, stale.slice(i, i + 5000))));
        const missing = [...wanted].flatMap(([recordId, urls]) => urls.filter((url) => !have.has(`${recordId} ${url}`)).map((url) => ({ recordId, url })));
        return { missing, removed: stale.length };
      });
      await job.progress(0, plan.missing.length);
      if (plan.missing.length) await loadEmbedder();
      let indexed = 0;
      let unreadable = 0;
      for (let i = 0; i < plan.missing.length; i += BATCH) {
        job.signal.throwIfAborted(); // an orderly stop: what is committed stays, the next run goes on from there
        const rows: Array<typeof pictureEmbedding.$inferInsert & { recordId: number }> = [];
        for (const picture of plan.missing.slice(i, i + BATCH)) {
          const file = localPath({ config: job.caller.config, tenantId: job.tenantId }, picture.url);
          try {
            const bytes = await readFile(file!);
            rows.push({ tenantId: job.tenantId, target, recordId: picture.recordId, imageUrl: picture.url, embedding: embeddingBytes(await embed(bytes)), dhash: await dHash(bytes) });
          } catch {
            unreadable++; // gone from the disk, or not a picture sharp can read: left out, counted
          }
        }
        await job.caller.transaction(async (ctx) => {
          // Only for records that still exist (one deleted meanwhile is not indexed again).
          const alive = new Set(
            (await ctx.tx.select({ id: t.id }).from(t).where(and(eq(t.tenantId, ctx.tenantId), inArray(t.id, [...new Set(rows.map((r) => r.recordId))]))).then((r) => r.map((x) => x.id))),
          );
          const kept = rows.filter((r) => alive.has(r.recordId));
          if (kept.length) await ctx.tx.insert(pictureEmbedding).values(kept).onConflictDoNothing();
          indexed += kept.length;
        });
        await job.progress(Math.min(plan.missing.length, i + BATCH), plan.missing.length);
      }
      return { indexed, removed: plan.removed, unreadable };
    },
  };
}

/** The index against the records' pictures, and the index job under way (answered whether the search is open or not). */
export async function indexStatus(ctx: ServiceContext, target: PictureTarget): Promise<PictureIndexStatus> {
  const open = pictureSearchOpen(await readTenantConfig(ctx.tx, ctx.tenantId), target);
  const [{ indexed }] = await ctx.tx
    .select({ indexed: count() })
    .from(pictureEmbedding)
    .where(and(eq(pictureEmbedding.tenantId, ctx.tenantId), eq(pictureEmbedding.target, target)));
  let pictures = 0;
  for (const urls of (await picturesOf(ctx, target)).values()) pictures += urls.length;
  const [job] = await ctx.tx
    .select({ id: backgroundJob.id, status: backgroundJob.status, done: backgroundJob.progressDone, total: backgroundJob.progressTotal })
    .from(backgroundJob)
    .where(and(eq(backgroundJob.tenantId, ctx.tenantId), eq(backgroundJob.kind, PICTURE_INDEX_JOB), eq(backgroundJob.subject, target), inArray(backgroundJob.status, ['queued', 'running'])))
    .orderBy(backgroundJob.id)
    .limit(1);
  return {
    open,
    indexed,
    pictures,
    required: PICTURE_SEARCH_MIN_INDEXED,
    job: job ? { id: job.id, status: job.status as 'queued' | 'running', done: job.done, total: job.total } : null,
  };
}

// ---------------------------------------------------------------- the index held in the process

const cache = new Map<string, { count: number; lastId: number; index: PictureIndex }>();

/** The tenant's index of `target`, read again only when it changed (rows are only added and removed). */
async function indexOf(tx: Tx, tenantId: number, target: PictureTarget): Promise<PictureIndex> {
  const where = and(eq(pictureEmbedding.tenantId, tenantId), eq(pictureEmbedding.target, target));
  const [state] = await tx.select({ count: count(), lastId: max(pictureEmbedding.id) }).from(pictureEmbedding).where(where);
  const key = `${tenantId} ${target}`;
  const held = cache.get(key);
  if (held && held.count === state.count && held.lastId === (state.lastId ?? 0)) {
    cache.delete(key);
    cache.set(key, held); // most recently used last
    return held.index;
  }
  const pictures = [];
  for (let after = 0; ; ) {
    const page = await tx
      .select({ id: pictureEmbedding.id, recordId: pictureEmbedding.recordId, url: pictureEmbedding.imageUrl, embedding: pictureEmbedding.embedding, hash: pictureEmbedding.dhash })
      .from(pictureEmbedding)
      .where(and(where, gt(pictureEmbedding.id, after)))
      .orderBy(pictureEmbedding.id)
      .limit(2000);
    for (const r of page) pictures.push({ recordId: r.recordId, url: r.url, hash: r.hash, vector: embeddingOf(r.embedding) });
    if (page.length < 2000) break;
    after = page[page.length - 1].id;
  }
  const index = buildIndex(pictures);
  cache.set(key, { count: state.count, lastId: state.lastId ?? 0, index });
  while (cache.size > CACHED_INDEXES) cache.delete(cache.keys().next().value!);
  return index;
}

/** Forgets the indexes held (tests that clear tables under the same ids). */
export const forgetPictureIndexes = () => cache.clear();

// ---------------------------------------------------------------- search

/**
 * Searches `target` with the uploaded picture (multipart "file"): refused when the tenant's picture search is
 * not open or fewer than PICTURE_SEARCH_MIN_INDEXED pictures are indexed. `enabledOnly`: leaves out disabled
 * materials (the bill form's picker).
 */
export async function searchByPicture(caller: RequestCaller, target: PictureTarget, { request }: Http, enabledOnly: boolean): Promise<PictureSearchResult> {
  // Refused before the upload is read when the search is closed.
  await caller.transaction(({ tx, tenantId }) => assertOpen(tx, tenantId, target));
  const file = await receiveSingleFile(request, caller.config, limitBytes(caller.config, UPLOAD_RULES.img.limit));
  let bytes: Buffer;
  try {
    await checkUpload(file, 'img', caller.config);
    bytes = await readFile(file.path);
  } finally {
    await discard(file);
  }
  const [turns, hash] = await Promise.all([embedTurns(bytes).catch(() => Promise.reject(new BizError('UploadTypeNotAllowed'))), dHash(bytes)]);
  return caller.transaction(async (ctx) => {
    const config = await assertOpen(ctx.tx, ctx.tenantId, target);
    const index = await indexOf(ctx.tx, ctx.tenantId, target);
    if (index.size < PICTURE_SEARCH_MIN_INDEXED) throw new BizError('PictureSearchCountInsufficient', { additional: `${index.size}/${PICTURE_SEARCH_MIN_INDEXED}` });
    const ranked = rank(index, turns, hash, PICTURE_SEARCH_LIMIT * 3);
    const ids = ranked.map((r) => r.recordId);
    const named = new Map<number, { code: string; name: string; specification: string }>();
    if (target === 'material') {
      const range = await assignmentRangeWhere(ctx.tx, ctx.account, 'material', material.id);
      const found = await ctx.tx
        .select({ id: material.id, code: material.code, name: material.name, specification: material.specification })
        .from(material)
        .where(and(eq(material.tenantId, ctx.tenantId), inArray(material.id, ids), range, enabledOnly ? eq(material.enabled, true) : undefined));
      for (const r of found) named.set(r.id, r);
    } else {
      const found = await ctx.tx.select({ id: mallProduct.id, name: mallProduct.name }).from(mallProduct).where(and(eq(mallProduct.tenantId, ctx.tenantId), inArray(mallProduct.id, ids)));
      for (const r of found) named.set(r.id, { code: '', specification: '', name: r.name });
    }
    const threshold = config.pictureSearchSimilarity;
    const matches: PictureMatch[] = ranked
      .filter((r) => named.has(r.recordId))
      .slice(0, PICTURE_SEARCH_LIMIT)
      .map((r) => ({ id: r.recordId, ...named.get(r.recordId)!, image: r.url, similarity: Math.round(r.similarity * 1000) / 1000, match: r.similarity >= threshold }));
    return { threshold, indexed: index.size, matches };
  });
}

