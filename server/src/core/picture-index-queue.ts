import { pictureSearchOpen, type PictureTarget } from '@p8/contract/picture-search';
import { enqueueJob } from './background-jobs.ts';
import type { ServiceContext } from './service-context.ts';
import { readTenantConfig } from './tenant-config.ts';

/** The background job that indexes pictures for picture search (its kind: modules/picture/service.ts). */
export const PICTURE_INDEX_JOB = 'picture-index';

/** What a `picture-index` job works on. */
export interface PictureIndexPayload {
  target: PictureTarget;
  /** Only these records (a save); absent: every record of the target (a re-index). */
  ids?: number[];
}

/**
 * Queues indexing of the records' pictures when the tenant's picture search for `target` is open: the
 * material and mall product services call it when a record's pictures are added or changed
 * (docs/picture-search.md). Answers the job's id, or undefined when the search is closed.
 */
export async function queuePictureIndex(ctx: ServiceContext, target: PictureTarget, ids?: number[]): Promise<number | undefined> {
  if (!pictureSearchOpen(await readTenantConfig(ctx.tx, ctx.tenantId), target)) return undefined;
  return enqueueJob(ctx, { kind: PICTURE_INDEX_JOB, subject: target, payload: { target, ...(ids ? { ids } : {}) } satisfies PictureIndexPayload, maxAttempts: 3 });
}
