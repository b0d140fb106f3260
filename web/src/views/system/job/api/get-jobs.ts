import type { BackgroundJobView } from '@p8/contract/system';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/system/jobs — the tenant's background jobs, newest first; needs system_job. Filters `kind`, `status` (exact), `start` / `end`. */
export function getJobs(params: QueryParams): Promise<PagedResult<BackgroundJobView>> {
  return http.list<BackgroundJobView>('/admin/system/jobs', params, { noLoading: true });
}
