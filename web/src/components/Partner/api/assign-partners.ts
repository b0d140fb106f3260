import type { Assignment, PartnerKind } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';
import { partnerPath } from './list-partners.ts';

/** PUT /admin/basic/<kind>/assign `{ ids, deptIds, adminIds }` (code basic_<kind>_assign): replaces the assignment of each record. */
export function assignPartners(kind: PartnerKind, ids: number[], assignment: Assignment): Promise<null> {
  return http.put<null>(`${partnerPath(kind)}/assign`, { ids, ...assignment });
}
