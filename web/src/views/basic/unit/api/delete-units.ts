import { http } from '../../../../app/http.ts';

/** DELETE /admin/basic/unit `{ ids }` — needs basic_unit_delete; refused while in use. Silent: the screen shows a refusal, naming the record. */
export function deleteUnits(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/basic/unit', { ids }, { silent: true });
}
