import type { SwiperCreate, SwiperRow, SwiperUpdate } from '@p8/contract/base';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

const URL = '/admin/base/swiper';

/** GET /admin/base/swiper — a page of the slides (filters title, enabled; sorted by order then newest). */
export function listSwipers(params: QueryParams): Promise<PagedResult<SwiperRow>> {
  return http.list<SwiperRow>(URL, params, { noLoading: true });
}

/** POST /admin/base/swiper (code base_swiper_add). */
export function createSwiper(body: SwiperCreate): Promise<SwiperRow> {
  return http.post<SwiperRow>(URL, body);
}

/** PUT /admin/base/swiper (code base_swiper_update). */
export function updateSwiper(body: SwiperUpdate): Promise<SwiperRow> {
  return http.put<SwiperRow>(URL, body);
}

/** DELETE /admin/base/swiper `{ ids }` (code base_swiper_delete). Silent: the screen names the record in a refusal. */
export function deleteSwipers(ids: number[]): Promise<null> {
  return http.delete<null>(URL, { ids }, { silent: true });
}

/** PUT /admin/base/swiper/enable `{ ids, enabled }` (code base_swiper_enable). */
export function enableSwipers(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>(`${URL}/enable`, { ids, enabled }, { noLoading: true, silent: true });
}
