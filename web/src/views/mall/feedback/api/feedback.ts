import type { MallFeedback, MallFeedbackCreate, MallFeedbackStatus } from '@p8/contract/mall';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/mall/feedback — feedback (content, contactName, type, status, start/end). */
export function listFeedback(params: QueryParams): Promise<PagedResult<MallFeedback>> {
  return http.list<MallFeedback>('/admin/mall/feedback', params, { noLoading: true });
}
/** POST /admin/mall/feedback — needs mall_feedback_add: feedback received by phone or in person. */
export function createFeedback(body: MallFeedbackCreate): Promise<MallFeedback> {
  return http.post<MallFeedback>('/admin/mall/feedback', body);
}
/** PUT /admin/mall/feedback/reply — needs mall_feedback_reply; the feedback becomes Replied. */
export function replyFeedback(id: number, reply: string): Promise<MallFeedback> {
  return http.put<MallFeedback>('/admin/mall/feedback/reply', { id, reply });
}
/** PUT /admin/mall/feedback/status — needs mall_feedback_status. */
export function setFeedbackStatus(ids: number[], status: MallFeedbackStatus): Promise<null> {
  return http.put<null>('/admin/mall/feedback/status', { ids, status }, { noLoading: true });
}
/** DELETE /admin/mall/feedback — needs mall_feedback_delete. Silent: the screen names the refused record. */
export function deleteFeedback(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/mall/feedback', { ids }, { silent: true });
}
