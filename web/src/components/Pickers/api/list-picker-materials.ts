import type { Material, MaterialTag } from '@p8/contract/basic';
import { http, type PagedResult } from '../../../app/http.ts';

export interface MaterialPickerQuery {
  /** Matches code, name, specification, model or a unit barcode. */
  keyword?: string;
  categoryId?: number;
  tag?: MaterialTag;
  current: number;
  pageSize: number;
}

/** GET /admin/basic/material/picker — enabled materials within the caller's assignment range. */
export function listPickerMaterials(query: MaterialPickerQuery): Promise<PagedResult<Material>> {
  return http.list<Material>('/admin/basic/material/picker', { ...query }, { noLoading: true });
}
