import { sql } from 'drizzle-orm';
import type { ErrorKey } from '@p8/contract/errors';
import { rows, type Tx } from '../../db/connection.ts';
import { BizError } from '../../core/errors.ts';

/** Ids of a request body, without repeats (a client may send the same row twice). */
export const distinct = (ids: number[]) => [...new Set(ids)];

/** Throws `key` naming the first requested id that is not among the rows found (unknown or another tenant's). */
export function assertAllFound(ids: number[], found: Array<{ id: number }>, key: ErrorKey) {
  const seen = new Set(found.map((f) => f.id));
  const missing = ids.find((id) => !seen.has(id));
  if (missing !== undefined) throw new BizError(key, { additional: missing });
}

const idList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

/**
 * The given rows and every row below them in a parent_id tree (departments, menus): one recursive
 * query along the (tenant_id, parent_id) index. `union` (not `union all`) stops at a cycle.
 */
export async function subtreeIds(tx: Tx, table: 'department' | 'menu', tenantId: number, rootIds: number[]): Promise<number[]> {
  if (!rootIds.length) return [];
  const t = sql.raw(`"${table}"`);
  const found = await rows<{ id: string | number }>(
    tx,
    sql`with recursive sub(id) as (
          select id from ${t} where tenant_id = ${tenantId} and id in (${idList(rootIds)})
          union
          select c.id from ${t} c join sub on c.parent_id = sub.id where c.tenant_id = ${tenantId}
        ) select id from sub`,
  );
  return found.map((r) => Number(r.id));
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

/**
 * Nests rows by parent_id, ordered by sort then id. A row whose parent is not among the rows (filtered
 * out) becomes a root, so a filtered tree never loses rows.
 */
export function buildTree<T extends { id: number; parentId: number | null; sort: number }>(items: T[]): Array<T & { children?: T[] }> {
  type Node = T & { children?: Node[] };
  const byId = new Map<number, Node>(items.map((item) => [item.id, { ...item, children: [] }]));
  const roots: Node[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId === null ? undefined : byId.get(node.parentId);
    if (parent) parent.children!.push(node);
    else roots.push(node);
  }
  const order = (nodes: Node[]) => {
    nodes.sort((a, b) => a.sort - b.sort || a.id - b.id);
    for (const n of nodes) {
      if (n.children!.length) order(n.children!);
      else delete n.children;
    }
  };
  order(roots);
  return roots;
}

/**
 * What an update changed, for the audit log: `{ field: { from, to } }` for each sent field whose value
 * differs from the stored one.
 */
export function changes(before: object, sent: object): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, to] of Object.entries(sent)) {
    if (key === 'id' || to === undefined) continue;
    const from = (before as Record<string, unknown>)[key];
    if (JSON.stringify(from ?? null) !== JSON.stringify(to ?? null)) out[key] = { from: from ?? null, to };
  }
  return out;
}

/** Only the fields a partial update sent (undefined = keep the stored value). */
export function sentFields<T extends Record<string, unknown>>(body: T): Partial<T> {
  return Object.fromEntries(Object.entries(body).filter(([key, value]) => key !== 'id' && value !== undefined)) as Partial<T>;
}

export const iso = (date: Date | null) => (date ? date.toISOString() : null);
