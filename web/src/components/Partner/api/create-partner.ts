import type { PartnerCreate, PartnerDetail, PartnerKind } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';
import { partnerPath } from './list-partners.ts';

/** POST /admin/basic/<kind> (code basic_<kind>_add): CodeRepeat / NameRepeat when taken. */
export function createPartner(kind: PartnerKind, body: PartnerCreate): Promise<PartnerDetail> {
  return http.post<PartnerDetail>(partnerPath(kind), body);
}
