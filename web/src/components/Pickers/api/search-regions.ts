import type { RegionMatch } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';

/** GET /admin/basic/region/search — national regions whose name contains the keyword (or whose code starts with it), each with its path. */
export function searchRegions(keyword: string, limit = 50): Promise<RegionMatch[]> {
  return http.get<RegionMatch[]>('/admin/basic/region/search', { keyword, limit }, { noLoading: true });
}
