import { http } from '../../../../app/http.ts';
import { FEE_PATH } from './list-fee-types.ts';

/** PUT /admin/basic/fee/enable `{ ids, enabled }` (code basic_fee_enable). Silent: the screen shows a refusal. */
export function enableFeeTypes(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>(`${FEE_PATH}/enable`, { ids, enabled }, { noLoading: true, silent: true });
}
