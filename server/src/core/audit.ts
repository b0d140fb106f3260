import type { FastifyRequest } from 'fastify';
import type { Tx } from '../db/connection.ts';
import { admin, auditLog } from '../db/schema/index.ts';
import { and, eq } from 'drizzle-orm';

/**
 * Records an administrative change in the request's own transaction, so the log entry and the change
 * commit or roll back together.
 */
export async function audit(
  tx: Tx,
  req: Pick<FastifyRequest, 'auth' | 'ip'>,
  entry: { action: string; entity: string; entityId?: string | number | Array<string | number>; detail?: unknown },
) {
  const [me] = await tx
    .select({ name: admin.name })
    .from(admin)
    .where(and(eq(admin.tenantId, req.auth.tenantId), eq(admin.id, req.auth.adminId)));
  await tx.insert(auditLog).values({
    tenantId: req.auth.tenantId,
    adminId: req.auth.adminId,
    adminName: me?.name ?? '',
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === undefined ? null : Array.isArray(entry.entityId) ? entry.entityId.join(',') : String(entry.entityId),
    detail: entry.detail ?? null,
    ip: req.ip,
  });
}
