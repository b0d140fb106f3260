import { http } from '../../../../app/http.ts';

/** DELETE /admin/basic/district `{ ids }` — needs basic_district_delete; refused for a district with sub-districts or used by an address. Silent: the screen shows a refusal, naming the record. */
export function deleteDistricts(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/basic/district', { ids }, { silent: true });
}
