import type { ServiceStaffRow } from '@p8/contract/service';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/service/technician — a page of the tenant's service staff with their current load (filters name, phone, skill, area, enabled). */
export function listServiceStaff(params: QueryParams): Promise<PagedResult<ServiceStaffRow>> {
  return http.list<ServiceStaffRow>('/admin/service/technician', params, { noLoading: true });
}
