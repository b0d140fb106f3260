import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/connection.ts';
import { admin } from '../../db/schema/index.ts';
import { assertAllFound } from '../../core/ids.ts';

/** Every id must be a staff account of the tenant (message receivers, reviewers); AdminNotExist names another. */
export async function assertStaffOfTenant(tx: Tx, tenantId: number, ids: number[]) {
  if (!ids.length) return;
  const found = await tx
    .select({ id: admin.id })
    .from(admin)
    .where(and(eq(admin.tenantId, tenantId), inArray(admin.id, ids)));
  assertAllFound(ids, found, 'AdminNotExist');
}
