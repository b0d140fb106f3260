import type { VerifyRuleRow, VerifyRuleUpdate } from '@p8/contract/office';
import { http } from '../../../../app/http.ts';

/** PUT /admin/system/verify — replaces the rule and its reviewers (code system_verify_update). */
export function updateVerifyRule(body: VerifyRuleUpdate): Promise<VerifyRuleRow> {
  return http.put<VerifyRuleRow>('/admin/system/verify', body);
}
