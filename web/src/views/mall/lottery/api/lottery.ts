import type { MallLottery, MallLotteryCreate, MallLotteryRecord, MallLotteryRow } from '@p8/contract/mall';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/mall/lottery — activities (name, status). */
export function listLotteries(params: QueryParams): Promise<PagedResult<MallLotteryRow>> {
  return http.list<MallLotteryRow>('/admin/mall/lottery', params, { noLoading: true });
}
/** GET /admin/mall/lottery/:id — the activity with its prizes. */
export function getLottery(id: number): Promise<MallLottery> {
  return http.get<MallLottery>(`/admin/mall/lottery/${id}`, undefined, { noLoading: true });
}
/** POST /admin/mall/lottery — needs mall_lottery_add; probabilities add up to 100 %, one no-prize slot. */
export function createLottery(body: MallLotteryCreate): Promise<MallLottery> {
  return http.post<MallLottery>('/admin/mall/lottery', body);
}
/** PUT /admin/mall/lottery — needs mall_lottery_update; a prize that has been won cannot be removed. */
export function updateLottery(body: MallLotteryCreate & { id: number }): Promise<MallLottery> {
  return http.put<MallLottery>('/admin/mall/lottery', body);
}
/** DELETE /admin/mall/lottery — needs mall_lottery_delete; refused once drawn. Silent: the screen names the refused record. */
export function deleteLotteries(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/mall/lottery', { ids }, { silent: true });
}
/** PUT /admin/mall/lottery/enable — needs mall_lottery_enable. Silent: the screen names the refused record. */
export function enableLotteries(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/mall/lottery/enable', { ids, enabled }, { noLoading: true, silent: true });
}
/** PUT /admin/mall/lottery/start|end — needs mall_lottery_update: the window's edge moves to now. */
export function moveLottery(id: number, edge: 'start' | 'end'): Promise<MallLottery> {
  return http.put<MallLottery>(`/admin/mall/lottery/${edge}`, { id });
}
/** POST /admin/mall/lottery/draw — needs mall_lottery_draw: one draw for a customer. */
export function drawFor(lotteryId: number, customerId: number): Promise<MallLotteryRecord> {
  return http.post<MallLotteryRecord>('/admin/mall/lottery/draw', { lotteryId, customerId });
}
/** GET /admin/mall/lottery/record — draws (lotteryId, customerName, won). */
export function listRecords(params: QueryParams): Promise<PagedResult<MallLotteryRecord>> {
  return http.list<MallLotteryRecord>('/admin/mall/lottery/record', params, { noLoading: true });
}
