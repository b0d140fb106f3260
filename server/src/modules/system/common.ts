import { sql } from 'drizzle-orm';
import type { ErrorKey } from '@p8/contract/errors';
import { rows, type Tx } from '../../db/connection.ts';
import { BizError } from '../../core/errors.ts';
import { idList } from '../../core/tree.ts';

/** Ids of a request body, without repeats (a client may send the same row twice). */
export const distinct = (ids: number[]) => [...new Set(ids)];

/** Throws `key` naming the first requested id that is not among the rows found (unknown or another tenant's). */
export function assertAllFound(ids: number[], found: Array<{ id: number }>, key: ErrorKey) {
  const seen = new Set(found.map((f) => f.id));
  const missing = ids.find((id) => !seen.has(id));
  if (missing !== undefined) throw new BizError(key, { additional: missing });
}

/** The given menus and all their ancestors (granting a button grants the screens above it). */
export async function menuWithAncestorIds(tx: Tx, tenantId: number, menuIds: number[]): Promise<number[]> {
  if (!menuIds.length) return [];
  const found = await rows<{ id: string | number }>(
    tx,
    sql`with recursive up(id, parent_id) as (
          select id, parent_id from menu where tenant_id = ${tenantId} and id in (${idList(menuIds)})
          union
          select m.id, m.parent_id from menu m join up on m.id = up.parent_id where m.tenant_id = ${tenantId}
        ) select id from up`,
  );
  return found.map((r) => Number(r.id));
}

/** The audit log's diff lives with the audit writer; the system services import it from here. */
export { changes } from '../../core/audit.ts';

/** Only the fields a partial update sent (undefined = keep the stored value). */
export function sentFields<T extends Record<string, unknown>>(body: T): Partial<T> {
  return Object.fromEntries(Object.entries(body).filter(([key, value]) => key !== 'id' && value !== undefined)) as Partial<T>;
}

export const iso = (date: Date | null) => (date ? date.toISOString() : null);
