import type { AgreementRow, AgreementSave } from '@p8/contract/base';
import { http } from '../../../../app/http.ts';

/** GET /admin/base/agreement — the user agreement and the privacy policy (never saved: default title, empty). */
export function getAgreements(): Promise<AgreementRow[]> {
  return http.get<AgreementRow[]>('/admin/base/agreement');
}

/** PUT /admin/base/agreement (code base_agreement_update) — the server sanitises the HTML and answers the stored row. */
export function saveAgreement(body: AgreementSave): Promise<AgreementRow> {
  return http.put<AgreementRow>('/admin/base/agreement', body);
}
