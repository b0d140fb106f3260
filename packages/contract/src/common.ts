import { z } from 'zod';

/**
 * Payload pieces every area shares: one copy each, so that a batch limit or an id rule is the same on
 * every screen.
 */

export const idSchema = z.number().int().positive();

/** The most rows one batch request (delete, enable, assign…) may name; a page holds at most 200. */
export const MAX_BATCH_IDS = 1000;

/** DELETE bodies and batch operations: `{ ids: [...] }`. */
export const idsSchema = z.object({
  ids: z.array(idSchema, { error: 'PleaseSelectData' }).min(1, { message: 'PleaseSelectData' }).max(MAX_BATCH_IDS),
});
export type Ids = z.infer<typeof idsSchema>;

/** PUT {path}/enable */
export const enableSchema = idsSchema.extend({ enabled: z.boolean() });
export type Enable = z.infer<typeof enableSchema>;

/** `/:id` path parameters. */
export const idParamsSchema = z.object({ id: z.coerce.number().int().positive() });

/** The query of a `/tree` route: `enabled=true|false|1|0` keeps only enabled or disabled nodes. */
export const treeQuerySchema = z.object({ enabled: z.enum(['true', 'false', '1', '0']).optional() });
export type TreeQuery = z.infer<typeof treeQuerySchema>;

/** The `enabled` filter of a tree query as a boolean (undefined = every node). */
export const treeEnabledFilter = (query: TreeQuery): boolean | undefined =>
  query.enabled === undefined ? undefined : query.enabled === 'true' || query.enabled === '1';
