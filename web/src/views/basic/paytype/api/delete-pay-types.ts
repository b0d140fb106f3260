import { http } from '../../../../app/http.ts';
import { PAYTYPE_PATH } from './list-pay-types.ts';

/** DELETE /admin/basic/paytype `{ ids }` (code basic_paytype_delete). Silent: the screen names a refused record. */
export function deletePayTypes(ids: number[]): Promise<null> {
  return http.delete<null>(PAYTYPE_PATH, { ids }, { silent: true });
}
