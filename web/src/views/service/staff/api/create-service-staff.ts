import type { ServiceStaffCreate } from '@p8/contract/service';
import { http } from '../../../../app/http.ts';

/** POST /admin/service/technician — makes a staff member service staff (code service_staff_add). */
export function createServiceStaff(body: ServiceStaffCreate): Promise<{ id: number }> {
  return http.post<{ id: number }>('/admin/service/technician', body);
}
