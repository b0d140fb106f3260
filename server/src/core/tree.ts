import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { rows, type Tx } from '../db/connection.ts';

/**
 * parent_id trees (departments, menus, categories, districts): nesting rows for the client and finding a
 * subtree in one query. Shared by every module that keeps a tree.
 */
export type TreeTable = 'department' | 'menu' | 'category' | 'district' | 'mall_category';

/** `1, 2, 3` as bound parameters, for `id in (…)` inside raw SQL. */
export const idList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);
/**
 * `'a', 'b'` as bound parameters, for `x in (…)` inside raw SQL (statuses, bill types); an empty list is `null`, which
 * no value equals, so `in (…)` matches nothing rather than failing to parse.
 */
export const textList = (values: readonly string[]) => (values.length ? sql.join(values.map((v) => sql`${v}`), sql`, `) : sql`null`);
/** Ids as one bigint[] parameter, for `= any(…)`: one bind value however many ids (a plan reaching 20,000 materials). */
export const idArray = (ids: readonly number[]) => sql`${`{${ids.join(',')}}`}::bigint[]`;

/**
 * The given rows and every row below them: one recursive query along the (tenant_id, parent_id) index.
 * `union` (not `union all`) stops at a cycle.
 */
export async function subtreeIds(tx: Tx, table: TreeTable | PgTable, tenantId: number, rootIds: number[]): Promise<number[]> {
  if (!rootIds.length) return [];
  const t = sql.raw(`"${typeof table === 'string' ? table : getTableName(table)}"`);
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

/**
 * Nests rows by parent_id, ordered by sort then id. A row whose parent is not among the rows (filtered
 * out) becomes a root, so a filtered tree never loses rows — unless `orphans: 'drop'` (a menu the caller
 * may not see takes its children with it).
 */
export function buildTree<T extends { id: number; parentId: number | null; sort: number }>(
  items: T[],
  options: { orphans: 'root' | 'drop' } = { orphans: 'root' },
): Array<T & { children?: T[] }> {
  type Node = T & { children?: Node[] };
  const byId = new Map<number, Node>(items.map((item) => [item.id, { ...item, children: [] }]));
  const roots: Node[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId === null ? undefined : byId.get(node.parentId);
    if (parent) parent.children!.push(node);
    else if (node.parentId === null || options.orphans === 'root') roots.push(node);
  }
  const order = (nodes: Node[]) => {
    nodes.sort((a, b) => a.sort - b.sort || a.id - b.id);
    for (const n of nodes) {
      if (n.children?.length) order(n.children);
      else delete n.children;
    }
  };
  order(roots);
  return roots;
}
