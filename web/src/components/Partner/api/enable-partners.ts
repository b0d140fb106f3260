import type { PartnerKind } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';
import { partnerPath } from './list-partners.ts';

/** PUT /admin/basic/<kind>/enable `{ ids, enabled }` (code basic_<kind>_enable). Silent: the screen shows refusals. */
export function enablePartners(kind: PartnerKind, ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>(`${partnerPath(kind)}/enable`, { ids, enabled }, { noLoading: true, silent: true });
}
