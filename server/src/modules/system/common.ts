import { sql } from 'drizzle-orm';
import { rows, type Tx } from '../../db/connection.ts';
import { idList } from '../../core/tree.ts';

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

/** Only the fields a partial update sent (undefined = keep the stored value). */
export function sentFields<T extends Record<string, unknown>>(body: T): Partial<T> {
  return Object.fromEntries(Object.entries(body).filter(([key, value]) => key !== 'id' && value !== undefined)) as Partial<T>;
}

