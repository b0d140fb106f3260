import { and, asc, eq, getTableName, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ErrorKey } from '@p8/contract/errors';
import type { RecordTreeDecl } from '@p8/contract/records/registry';
import type { Tx } from '../db/connection.ts';
import { BizError } from './errors.ts';
import { col } from './excel-cells.ts';
import type { ExcelColumn } from './excel.ts';
import { qualified, type ListField } from './list-query.ts';
import { subtreeIds } from './tree.ts';

/*
 * The tree of a declared record kind (`RecordKindDecl.tree`: material categories): each row names its parent
 * (`parent_id`, null at the top) and keeps its level (1 at the top). What the record kit adds for a tree: the
 * parent's name and the level in lists and details, the level a new record gets, moves with their subtree,
 * deletes that leave no child behind, the nested tree, and Excel's parent by name or path.
 */

/** The columns a tree kind's table has besides the common ones. */
export type TreeColumns = { tenantId: AnyPgColumn; id: AnyPgColumn; parentId: AnyPgColumn; level: AnyPgColumn; sort: AnyPgColumn; enabled: AnyPgColumn };

/** The path separators an imported parent may use ("A/B", "A > B", full-width ones too). */
const PATH_SEPARATORS = /[/>＞／]/;

export function declaredTree(tree: RecordTreeDecl, t: PgTable & TreeColumns, title: AnyPgColumn, notExist: ErrorKey) {
  const tableName = getTableName(t);
  const ofTenant = (tenantId: number) => eq(t.tenantId, tenantId);
  // The parent's title beside each row: the same table under another name.
  const parentName = sql<string | null>`(select p.${sql.identifier(title.name)} from ${sql.identifier(tableName)} p where p.tenant_id = ${qualified(t.tenantId)} and p.id = ${qualified(t.parentId)})`;

  async function nodeOf(tx: Tx, tenantId: number, id: number) {
    const [row] = await tx
      .select({ id: t.id, parentId: t.parentId, level: t.level })
      .from(t as PgTable)
      .where(and(ofTenant(tenantId), eq(t.id, id)));
    if (!row) throw new BizError(notExist, { additional: id });
    return row as { id: number; parentId: number | null; level: number };
  }

  /** Full paths ("A/B/C") of the tenant's records, by id. */
  async function paths(tx: Tx, tenantId: number): Promise<Map<number, string>> {
    const all = (await tx.select({ id: t.id, parentId: t.parentId, name: title }).from(t as PgTable).where(ofTenant(tenantId))) as Array<{ id: number; parentId: number | null; name: string }>;
    const byId = new Map(all.map((c) => [c.id, c]));
    const found = new Map<number, string>();
    const pathOf = (id: number, depth = 0): string => {
      const known = found.get(id);
      if (known !== undefined) return known;
      const node = byId.get(id)!;
      // A depth bound: a cycle (which no write makes) cannot hang the walk.
      const path = node.parentId !== null && byId.has(node.parentId) && depth < tree.maxLevel + 1 ? `${pathOf(node.parentId, depth + 1)}/${node.name}` : node.name;
      found.set(id, path);
      return path;
    };
    for (const c of all) pathOf(c.id);
    return found;
  }

  return {
    /** What a list row and a detail carry besides the declared fields. */
    selection: { parentId: t.parentId, parentName, level: t.level },
    listFields: { parentId: { column: t.parentId, filter: 'number' }, level: { column: t.level, filter: 'number', sortable: true } } satisfies Record<string, ListField>,
    /** Top levels first, then the declared order among siblings. */
    defaultOrder: [asc(t.level), asc(t.sort), asc(t.id)] as SQL[],

    /** The level a record gets below `parentId` (1 at the top), refused beyond the deepest level. */
    async levelUnder(tx: Tx, tenantId: number, parentId: number | null | undefined): Promise<number> {
      if (parentId == null) return 1;
      const level = (await nodeOf(tx, tenantId, parentId)).level + 1;
      if (level > tree.maxLevel) throw new BizError(tree.tooDeep);
      return level;
    },

    /**
     * Moves a record below `parentId` (null: to the top) with its subtree: never below itself or a descendant, and
     * the subtree's deepest record must still fit. The levels of the subtree shift along.
     */
    async move(tx: Tx, tenantId: number, id: number, parentId: number | null) {
      const current = await nodeOf(tx, tenantId, id);
      if (parentId === current.parentId) return;
      if (parentId === id) throw new BizError('ParentCannotBeSelf');
      const subtree = await subtreeIds(tx, t, tenantId, [id]);
      if (parentId !== null && subtree.includes(parentId)) throw new BizError('ParentCannotBeSelf');
      const level = parentId === null ? 1 : (await nodeOf(tx, tenantId, parentId)).level + 1;
      const inSubtree = and(ofTenant(tenantId), inArray(t.id, subtree));
      const [{ deepest }] = await tx
        .select({ deepest: sql<number>`coalesce(max(${t.level}), 0)::int` })
        .from(t as PgTable)
        .where(inSubtree);
      // The deepest record below keeps its distance from the moved one.
      if (level + (deepest - current.level) > tree.maxLevel) throw new BizError(tree.tooDeep);
      const shift = level - current.level;
      if (shift !== 0) await tx.update(t).set({ level: sql`${t.level} + ${shift}` } as never).where(inSubtree);
      await tx.update(t).set({ parentId } as never).where(and(ofTenant(tenantId), eq(t.id, id)));
    },

    /** Children deleted together with their parent are fine; a child left behind is refused. */
    async refuseOrphans(tx: Tx, tenantId: number, ids: number[]) {
      const [child] = await tx
        .select({ id: t.id })
        .from(t as PgTable)
        .where(and(ofTenant(tenantId), inArray(t.parentId, ids), notInArray(t.id, ids)))
        .limit(1);
      if (child) throw new BizError(tree.hasChildren, { additional: (child as { id: number }).id });
    },

    paths,

    /**
     * Resolves an imported text naming a record: a full path ("A/B/C", any of the usual separators) or a title
     * only one record has; else the kind's missing-record refusal. The records are those of when it was made (an
     * import whose rows build a tree top-down makes one per row).
     */
    async resolver(tx: Tx, tenantId: number): Promise<(text: string) => number> {
      const byPath = new Map<string, number>();
      const byName = new Map<string, number[]>();
      for (const [id, path] of await paths(tx, tenantId)) {
        byPath.set(path, id);
        const name = path.split('/').pop()!;
        byName.set(name, [...(byName.get(name) ?? []), id]);
      }
      return (text: string) => {
        const normalised = text.split(PATH_SEPARATORS).map((p) => p.trim()).filter(Boolean).join('/');
        const id = byPath.get(normalised) ?? (byName.get(normalised)?.length === 1 ? byName.get(normalised)![0] : undefined);
        if (id === undefined) throw new BizError(notExist, { additional: text });
        return id;
      };
    },

    /** The parent's Excel column (an import's and, titled alike, an export's). */
    parentColumn: col('parentId', `${tree.parentLabel.zh}(名称或路径 A/B)`, 'Parent (name or path A/B)', false, 30) satisfies ExcelColumn,
    /** The export's own columns: a record's path and level. */
    exportColumns: [col('path', tree.pathLabel.zh, tree.pathLabel.en, false, 30), col('level', '层级', 'Level')] satisfies ExcelColumn[],
  };
}

export type DeclaredTree = ReturnType<typeof declaredTree>;
