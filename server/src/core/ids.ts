import type { ErrorKey } from '@p8/contract/errors';
import { BizError } from './errors.ts';

/** Ids of a request body, without repeats (a client may send the same row twice). */
export const distinct = <T>(ids: readonly T[]): T[] => [...new Set(ids)];

/** Throws `key` naming the first requested id that is not among the rows found (unknown or another tenant's). */
export function assertAllFound(ids: readonly number[], found: ReadonlyArray<{ id: number }>, key: ErrorKey) {
  const seen = new Set(found.map((f) => f.id));
  const missing = ids.find((id) => !seen.has(id));
  if (missing !== undefined) throw new BizError(key, { additional: missing });
}
