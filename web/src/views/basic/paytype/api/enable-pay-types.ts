import { http } from '../../../../app/http.ts';
import { PAYTYPE_PATH } from './list-pay-types.ts';

/** PUT /admin/basic/paytype/enable `{ ids, enabled }` (code basic_paytype_enable). Silent: the screen shows a refusal. */
export function enablePayTypes(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>(`${PAYTYPE_PATH}/enable`, { ids, enabled }, { noLoading: true, silent: true });
}
