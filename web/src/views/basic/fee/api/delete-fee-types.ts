import { http } from '../../../../app/http.ts';
import { FEE_PATH } from './list-fee-types.ts';

/** DELETE /admin/basic/fee `{ ids }` (code basic_fee_delete). Silent: the screen names a refused record. */
export function deleteFeeTypes(ids: number[]): Promise<null> {
  return http.delete<null>(FEE_PATH, { ids }, { silent: true });
}
