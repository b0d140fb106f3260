import type { VerifyRuleRow } from '@p8/contract/office';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/system/verify — joint review rules with their reviewers in order. */
export function listVerifyRules(params: QueryParams): Promise<PagedResult<VerifyRuleRow>> {
  return http.list<VerifyRuleRow>('/admin/system/verify', params, { noLoading: true });
}

/** Bill types that already have a rule (one rule per bill type): the add dialog marks them. */
export async function listRuleBillTypes(): Promise<string[]> {
  const page = await http.list<VerifyRuleRow>('/admin/system/verify', { pageSize: 200 }, { noLoading: true });
  return page.data.map((r) => r.billType);
}
