import type { PartnerDetail, PartnerKind } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';
import { partnerPath } from './list-partners.ts';

/** GET /admin/basic/<kind>/:id — one supplier or customer with its contacts, addresses and assignment. */
export function getPartner(kind: PartnerKind, id: number): Promise<PartnerDetail> {
  return http.get<PartnerDetail>(`${partnerPath(kind)}/${id}`);
}
