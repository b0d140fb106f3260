import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/connection.ts';
import { admin } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';

/**
 * Who owns a new record: its creator and the creator's department, kept on materials, partners and
 * warehouses (the columns the data-scope helper reads).
 */
export async function creatorOf(ctx: Pick<ServiceContext, 'tx' | 'account'>): Promise<{ deptId: number | null; createdBy: number }> {
  const { tenantId, adminId } = ctx.account;
  const [me] = await ctx.tx.select({ deptId: admin.deptId }).from(admin).where(and(eq(admin.tenantId, tenantId), eq(admin.id, adminId)));
  return { deptId: me?.deptId ?? null, createdBy: adminId };
}

/** Resolves a staff cell of an import: the account name, or a real name only one staff member has. */
export async function staffResolver(tx: Tx, tenantId: number): Promise<(text: string) => number> {
  const staff = await tx.select({ id: admin.id, name: admin.name, realName: admin.realName }).from(admin).where(eq(admin.tenantId, tenantId));
  return (text: string) => {
    const byAccount = staff.find((s) => s.name.toLowerCase() === text.toLowerCase());
    if (byAccount) return byAccount.id;
    const byName = staff.filter((s) => s.realName === text);
    if (byName.length !== 1) throw new BizError('AdminNotExist', { additional: text });
    return byName[0].id;
  };
}
