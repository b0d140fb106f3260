import { http } from '../../../../app/http.ts';

/** PUT /admin/basic/attribute/enable — needs basic_attribute_enable. Silent: the screen shows a refusal, naming the record. */
export function enableAttributes(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/basic/attribute/enable', { ids, enabled }, { noLoading: true, silent: true });
}
