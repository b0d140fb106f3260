import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/connection.ts';
import { loginName, loginPhone } from '../db/schema/index.ts';
import { BizError } from './errors.ts';

/**
 * Sign-in by name or phone happens before the tenant is known, so both are unique across tenants: a new or
 * renamed account is refused `AdminExist` / `PhoneIsRegistered` when another account (of any tenant) holds
 * them. They are read from the installation's directory of names and phones (`login_name`, `login_phone`:
 * schema/auth.ts) on the owner connection or a system transaction. `self` is the account being updated (its
 * own name and phone are free for it). The directory's primary keys close the race.
 */
export async function assertAccountFree(q: Pick<Tx, 'select'>, who: { name?: string; phone?: string | null; self?: { tenantId: number; id: number } }) {
  const isSelf = (row: { tenantId: number; id: number } | undefined) => !!row && !!who.self && row.tenantId === who.self.tenantId && row.id === who.self.id;
  if (who.name) {
    const [taken] = await q.select({ tenantId: loginName.tenantId, id: loginName.adminId }).from(loginName).where(eq(loginName.name, sql`lower(${who.name})`));
    if (taken && !isSelf(taken)) throw new BizError('AdminExist', { additional: who.name });
  }
  if (who.phone) {
    const [taken] = await q.select({ tenantId: loginPhone.tenantId, id: loginPhone.adminId }).from(loginPhone).where(eq(loginPhone.phone, who.phone));
    if (taken && !isSelf(taken)) throw new BizError('PhoneIsRegistered', { additional: who.phone });
  }
}
