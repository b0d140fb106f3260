import type { PartnerDetail, PartnerKind, PartnerUpdate } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';
import { partnerPath } from './list-partners.ts';

/** PUT /admin/basic/<kind> (code basic_<kind>_update): the contacts and addresses sent replace the stored ones. */
export function updatePartner(kind: PartnerKind, body: PartnerUpdate): Promise<PartnerDetail> {
  return http.put<PartnerDetail>(partnerPath(kind), body);
}
