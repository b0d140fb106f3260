import type { ServiceStaffUpdate } from '@p8/contract/service';
import { http } from '../../../../app/http.ts';

/** PUT /admin/service/technician — their account, skills, areas, switch and remark (code service_staff_update). */
export function updateServiceStaff(body: ServiceStaffUpdate): Promise<{ id: number }> {
  return http.put<{ id: number }>('/admin/service/technician', body);
}
