import type { Partner, PartnerKind } from '@p8/contract/basic';
import { http, type PagedResult } from '../../../app/http.ts';

export interface PickerParams {
  keyword?: string;
  current: number;
  pageSize: number;
}

/**
 * GET /admin/basic/<supplier|customer>/picker — enabled suppliers or customers within the caller's
 * assignment range, matched on code, name, short name or phone.
 */
export function pickPartners(kind: PartnerKind, params: PickerParams): Promise<PagedResult<Partner>> {
  return http.list<Partner>(`/admin/basic/${kind}/picker`, { ...params }, { noLoading: true });
}
