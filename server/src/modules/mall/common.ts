import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/connection.ts';
import { admin, partner } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';

/** Shared by the mall's services: money in cents, who acts, the customer an order or a draw is for. */

/** Yuan (two decimals) to whole cents, so that sums never pick up binary fractions. */
export const cents = (yuan: number) => Math.round(yuan * 100);
export const yuan = (cents: number) => cents / 100;

const operatorNames = new WeakMap<ServiceContext, string>();

/** The acting staff member's name, as timelines and records show it (read once per unit of work). */
export async function operatorName(ctx: ServiceContext): Promise<string> {
  const known = operatorNames.get(ctx);
  if (known !== undefined) return known;
  const [row] = await ctx.tx
    .select({ realName: admin.realName, name: admin.name })
    .from(admin)
    .where(and(eq(admin.tenantId, ctx.tenantId), eq(admin.id, ctx.account.adminId)));
  const name = row ? row.realName || row.name : '';
  operatorNames.set(ctx, name);
  return name;
}

/** A customer of the tenant (basic records → customers), refused when unknown or disabled. */
export async function customerOf(tx: Tx, tenantId: number, id: number): Promise<{ id: number; name: string }> {
  const [row] = await tx
    .select({ id: partner.id, name: partner.name, enabled: partner.enabled })
    .from(partner)
    .where(and(eq(partner.tenantId, tenantId), eq(partner.kind, 'customer'), eq(partner.id, id)));
  if (!row || !row.enabled) throw new BizError('CustomerNotExist', { additional: id });
  return { id: row.id, name: row.name };
}

/** Names of customers by id (for lists whose rows name a customer). */
export async function customerNames(tx: Tx, tenantId: number, ids: Array<number | null>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (!wanted.length) return new Map();
  const rows = await tx
    .select({ id: partner.id, name: partner.name })
    .from(partner)
    .where(and(eq(partner.tenantId, tenantId), inArray(partner.id, wanted)));
  return new Map(rows.map((r) => [r.id, r.name]));
}
