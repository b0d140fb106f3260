import { http } from '../../../../app/http.ts';

/** DELETE /admin/basic/bom `{ ids }` — needs basic_bom_delete; a BOM in use is refused (BomInUseProhibitDelete). Silent: the screen shows a refusal, naming the record. */
export function deleteBoms(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/basic/bom', { ids }, { silent: true });
}
