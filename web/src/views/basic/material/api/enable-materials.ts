import { http } from '../../../../app/http.ts';

/** PUT /admin/basic/material/enable — needs basic_material_enable; disabling a material with stock is refused. Silent: the screen shows a refusal, naming the record. */
export function enableMaterials(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/basic/material/enable', { ids, enabled }, { noLoading: true, silent: true });
}
