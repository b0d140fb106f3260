import { and, eq } from 'drizzle-orm';
import type { Tx } from '../db/connection.ts';
import { toStorableText } from '@p8/contract/text';
import { admin, auditLog } from '../db/schema/index.ts';
import type { AuthContext } from './auth.ts';

/** One administrative change, as a service records it through `ServiceContext.audit`. */
export interface AuditEntry {
  action: string;
  /** Business name of what changed ('printer', 'department', 'material'…). */
  entity: string;
  entityId?: string | number | Array<string | number>;
  detail?: unknown;
}

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
 * Writes the audit entries of one unit of work, in its own transaction (core/service-context.ts is the only
 * caller), so the log entries and the change commit or roll back together.
 */
export async function writeAudit(tx: Tx, account: Pick<AuthContext, 'tenantId' | 'adminId'>, ip: string, entries: AuditEntry[]) {
  const [me] = await tx
    .select({ name: admin.name })
    .from(admin)
    .where(and(eq(admin.tenantId, account.tenantId), eq(admin.id, account.adminId)));
  await tx.insert(auditLog).values(
    entries.map((entry) => ({
      tenantId: account.tenantId,
      adminId: account.adminId,
      adminName: me?.name ?? '',
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId === undefined ? null : storable(Array.isArray(entry.entityId) ? entry.entityId.join(',') : String(entry.entityId)),
      detail: entry.detail === undefined ? null : storable(entry.detail),
      ip,
    })),
  );
}

/**
 * An entry as PostgreSQL can store it, whatever the user typed: jsonb refuses `\u0000` and lone
 * surrogates, and a change that passed its own checks must never fail on its log entry. Such characters
 * become U+FFFD (the schemas refuse them before a write; this is the second line).
 */
function storable<T>(value: T): T {
  if (typeof value === 'string') return toStorableText(value) as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [toStorableText(k), storable(v)])) as T;
  return value;
}
