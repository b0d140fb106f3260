import type { PartnerKind } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';
import { partnerPath } from './list-partners.ts';

/** DELETE /admin/basic/<kind> `{ ids }` (code basic_<kind>_delete). Silent: the screen names the refused record. */
export function deletePartners(kind: PartnerKind, ids: number[]): Promise<null> {
  return http.delete<null>(partnerPath(kind), { ids }, { silent: true });
}
