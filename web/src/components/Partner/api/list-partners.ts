import type { Partner, PartnerKind } from '@p8/contract/basic';
import { http, type PagedResult, type QueryParams } from '../../../app/http.ts';

/**
 * A supplier or customer as the list shows it. `contactName` and `address` (the default contact and
 * address) are read when the server sends them.
 */
export type PartnerRow = Partner & { contactName?: string | null; address?: string | null };

/** The list path of a kind: `/admin/basic/supplier` or `/admin/basic/customer`. */
export const partnerPath = (kind: PartnerKind) => `/admin/basic/${kind}`;

/**
 * GET /admin/basic/<kind> — a page of suppliers or customers within the caller's assignment range.
 * Filters `code`, `name`, `shortName`, `phone`, `taxNumber` (contains), `managerId`, `enabled`, `start`/`end`;
 * sorts on code, name, enabled, sort, createdAt and the opening balances.
 */
export function listPartners(kind: PartnerKind, params: QueryParams): Promise<PagedResult<PartnerRow>> {
  return http.list<PartnerRow>(partnerPath(kind), params, { noLoading: true });
}
