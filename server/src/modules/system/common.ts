import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { rows, type Tx } from '../../db/connection.ts';
import { menu } from '../../db/schema/index.ts';
import { forbidden } from '../../core/errors.ts';
import { callerPermissions } from '../../core/permissions.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { idList } from '../../core/tree.ts';

/**
 * Nobody hands out more than they hold: without the super role, a caller may give or take away — through
 * a role's permissions, a copied role or the roles of an account — only menus and buttons their own roles
 * grant. Else 40300 `PermissionBeyondOwn` naming the first such code: a user allowed to edit roles could
 * otherwise give their own role every permission of the tenant.
 */
export async function assertWithinOwnPermissions(ctx: Pick<ServiceContext, 'tx' | 'account' | 'tenantId'>, menuIds: Iterable<number>) {
  const perms = await callerPermissions(ctx.tx, ctx.account);
  if (perms.isSuper) return;
  const beyond = [...new Set(menuIds)].filter((id) => !perms.menuIds.has(id));
  if (!beyond.length) return;
  const [first] = await ctx.tx
    .select({ name: menu.name })
    .from(menu)
    .where(and(eq(menu.tenantId, ctx.tenantId), inArray(menu.id, beyond)))
    .orderBy(asc(menu.sort), asc(menu.id))
    .limit(1);
  throw forbidden('PermissionBeyondOwn', first?.name ?? String(beyond[0]));
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

/** Only the fields a partial update sent (undefined = keep the stored value). */
export function sentFields<T extends Record<string, unknown>>(body: T): Partial<T> {
  return Object.fromEntries(Object.entries(body).filter(([key, value]) => key !== 'id' && value !== undefined)) as Partial<T>;
}

