import { http } from '../../../../app/http.ts';

/** DELETE /admin/basic/attribute `{ ids }` — needs basic_attribute_delete; refused while in use. Silent: the screen shows a refusal, naming the record. */
export function deleteAttributes(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/basic/attribute', { ids }, { silent: true });
}
