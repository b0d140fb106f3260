import { desc, eq } from 'drizzle-orm';
import type { AuditEntry } from '@p8/contract/system';
import type { ServiceContext } from '../../core/service-context.ts';
import { auditLog } from '../../db/schema/index.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { iso } from '../../core/envelope.ts';

const auditList: ListSpec = {
  fields: {
    id: { column: auditLog.id, sortable: true },
    action: { column: auditLog.action, filter: 'eq' },
    entity: { column: auditLog.entity, filter: 'eq' },
    entityId: { column: auditLog.entityId, filter: 'eq' },
    adminId: { column: auditLog.adminId, filter: 'number' },
    adminName: { column: auditLog.adminName, filter: 'like', sortable: true },
    createdAt: { column: auditLog.createdAt, sortable: true },
  },
  // `start` / `end` bound the time of the change; (tenant_id, created_at) is indexed.
  dateColumn: auditLog.createdAt,
  defaultOrder: [desc(auditLog.createdAt), desc(auditLog.id)],
};

export async function listAudit(ctx: ServiceContext, query: Record<string, unknown>) {
  const { tx, tenantId } = ctx;
  const parsed = parseList(auditList, query, [eq(auditLog.tenantId, tenantId)]);
  const page = await runPage(parsed, tx.select().from(auditLog).$dynamic(), tx.select(countAll()).from(auditLog).$dynamic());
  const data: AuditEntry[] = page.data.map((e) => ({
    id: e.id,
    adminId: e.adminId,
    adminName: e.adminName,
    action: e.action,
    entity: e.entity,
    entityId: e.entityId,
    detail: e.detail,
    ip: e.ip,
    createdAt: iso(e.createdAt)!,
  }));
  return { ...page, data };
}
