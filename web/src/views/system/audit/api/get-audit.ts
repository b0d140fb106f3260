import type { AuditEntry } from '@p8/contract/system';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/**
 * GET /admin/security/audit — administrative changes, newest first; needs system_audit_view. Filters
 * `action`, `entity` (exact), `adminName` (contains), `start` / `end`; sorts `createdAtSort`, `adminNameSort`.
 */
export function getAudit(params: QueryParams): Promise<PagedResult<AuditEntry>> {
  return http.list<AuditEntry>('/admin/security/audit', params, { noLoading: true });
}
