import { http } from '../../../../app/http.ts';

/** DELETE /admin/basic/material `{ ids }` — needs basic_material_delete; refused while a material has stock or is used by a BOM. Silent: the screen shows a refusal, naming the record. */
export function deleteMaterials(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/basic/material', { ids }, { silent: true });
}
