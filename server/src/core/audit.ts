import type { FastifyRequest } from 'fastify';
import type { Tx } from '../db/connection.ts';
import { admin, auditLog } from '../db/schema/index.ts';
import { and, eq } from 'drizzle-orm';

/** What an update changed, as the audit log records it: `{ field: { from, to } }`. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * What an update changed, for the audit log: `{ field: { from, to } }` for each sent field whose value
 * differs from the stored one. `id` and fields not sent (undefined) are left out. A nested settings object
 * is compared field by field and named by its path (`printTemplate.copies`), so the log names exactly the
 * fields that moved. Empty when nothing changed: a caller then writes no entry.
 */
export function changes(before: object, sent: object, prefix = ''): FieldChanges {
  const out: FieldChanges = {};
  for (const [key, to] of Object.entries(sent)) {
    if ((!prefix && key === 'id') || to === undefined) continue;
    const from = (before as Record<string, unknown>)[key];
    if (isPlainObject(from) && isPlainObject(to)) Object.assign(out, changes(from, to, `${prefix}${key}.`));
    else if (JSON.stringify(from ?? null) !== JSON.stringify(to ?? null)) out[`${prefix}${key}`] = { from: from ?? null, to };
  }
  return out;
}

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
