import type { VerifyRuleCreate, VerifyRuleRow } from '@p8/contract/office';
import { http } from '../../../../app/http.ts';

/** POST /admin/system/verify — one rule per bill type (code system_verify_add). */
export function createVerifyRule(body: VerifyRuleCreate): Promise<VerifyRuleRow> {
  return http.post<VerifyRuleRow>('/admin/system/verify', body);
}
