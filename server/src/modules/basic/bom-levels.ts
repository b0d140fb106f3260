import { sql } from 'drizzle-orm';
import { lockKey } from '../../core/advisory-lock.ts';
import { idArray } from '../../core/tree.ts';
import { rows, type Tx } from '../../db/connection.ts';

/*
 * Stored low-level codes (docs/production.md, "MRP"): a material's `low_level_code` is the deepest level it
 * appears at under the enabled default BOMs — the structure multi-level views and MRP follow — 0 for a material
 * in none (a top product, a material used nowhere). A BOM change moves the codes of its components and of
 * everything below them, never of its own material or anything above: each write names the materials whose
 * BOMs it changes, and only their components (before and after the change) and what lies below are computed
 * again, in one statement.
 */

/** Deeper than any real structure (the BOM's own walk stops at 20): keeps a walk over bad data finite. */
const GUARD = 64;

/**
 * BOM writes of one tenant take turns (a transaction-scoped advisory lock): the cycle check and the codes each
 * write computes then see every BOM written before it, whatever the server process — two saves at once could
 * otherwise each pass the cycle check against the other's old lines, or compute codes from them.
 */
export const lockBomStructure = (tx: Tx, tenantId: number) => lockKey(tx, `bom:${tenantId}`);

/** The components of every BOM (any version, enabled or not) of `parents`. */
async function componentsOf(tx: Tx, tenantId: number, parents: number[]): Promise<number[]> {
  if (!parents.length) return [];
  const found = await rows<{ id: string }>(
    tx,
    sql`select distinct l.material_id as id from bom b join bom_line l on l.tenant_id = b.tenant_id and l.bom_id = b.id
        where b.tenant_id = ${tenantId} and b.material_id = any(${idArray(parents)})`,
  );
  return found.map((r) => Number(r.id));
}

/**
 * Computes again the codes of `seeds` and everything below them through the enabled default BOMs: each the
 * longest path down to it — from a parent outside that set, the parent's stored code + 1; 0 without a parent.
 * `union` keeps one row per material and level, so the walk is bounded by materials × depth, not by paths.
 */
export async function refreshLowLevelCodes(tx: Tx, tenantId: number, seeds: number[]): Promise<void> {
  if (!seeds.length) return;
  await tx.execute(sql`with recursive affected(id) as (
      select unnest(${idArray(seeds)})
      union
      select l.material_id from affected a
        join bom b on b.tenant_id = ${tenantId} and b.material_id = a.id and b.is_default and b.enabled
        join bom_line l on l.tenant_id = ${tenantId} and l.bom_id = b.id
    ), depth(id, code) as (
      select id, 0 from affected
      union
      select l.material_id, p.low_level_code + 1 from bom_line l
        join bom b on b.tenant_id = l.tenant_id and b.id = l.bom_id and b.is_default and b.enabled
        join material p on p.tenant_id = b.tenant_id and p.id = b.material_id
        where l.tenant_id = ${tenantId} and l.material_id in (select id from affected) and b.material_id not in (select id from affected)
      union
      select l.material_id, d.code + 1 from depth d
        join bom b on b.tenant_id = ${tenantId} and b.material_id = d.id and b.is_default and b.enabled
        join bom_line l on l.tenant_id = ${tenantId} and l.bom_id = b.id
        where d.code < ${GUARD}
    )
    update material m set low_level_code = x.code from (select id, max(code) as code from depth group by id) x
    where m.tenant_id = ${tenantId} and m.id = x.id and m.low_level_code <> x.code`);
}

/**
 * Runs `change` to the BOMs of `parents` (their materials) with the tenant's BOM writes taking turns, then
 * computes again the codes it can have moved: those of the parents' components before and after it.
 */
export async function changingBoms<T>(tx: Tx, tenantId: number, parents: number[], change: () => Promise<T>): Promise<T> {
  await lockBomStructure(tx, tenantId);
  const before = await componentsOf(tx, tenantId, parents);
  const result = await change();
  const after = await componentsOf(tx, tenantId, parents);
  await refreshLowLevelCodes(tx, tenantId, [...new Set([...before, ...after])]);
  return result;
}
