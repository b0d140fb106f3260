import { bigint, customType, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, tenantPolicy } from './tenancy.ts';

/*
 * Picture search (server/src/modules/picture/, docs/picture-search.md): one row per indexed picture of a
 * material or a mall product — the picture's embedding (MobileNetV2's global-pooled features, L2-normalised,
 * float32 little-endian) and its difference hash. Written by the `picture-index` background job when a
 * record's pictures are added or changed, or by a re-index; a row whose picture is no longer the record's (or
 * whose record is gone) is removed by the next index run, and a search only answers records that exist.
 * pgvector is not available: searches rank by brute force in the process (modules/picture/search.ts).
 */

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const pictureEmbedding = pgTable(
  'picture_embedding',
  {
    tenantId: tenantId(),
    id: id(),
    /** `material` or `product` (a mall product). */
    target: text('target').notNull(),
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    /** The picture's address as the record names it (an upload of this installation). */
    imageUrl: text('image_url').notNull(),
    /** 1,280 float32 values, little-endian, L2-normalised. */
    embedding: bytea('embedding').notNull(),
    /** 64-bit difference hash as 16 hex digits. */
    dhash: text('dhash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('picture_embedding_picture_uq').on(t.tenantId, t.target, t.recordId, t.imageUrl),
    index('picture_embedding_target_idx').on(t.tenantId, t.target, t.id),
    tenantPolicy('picture_embedding'),
  ],
).enableRLS();
