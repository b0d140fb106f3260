import { useQuery } from '@tanstack/react-query';
import type { DashboardChart, DashboardStatistics } from '@p8/contract/home';
import { http } from '../../../app/http.ts';

/** GET /admin/home/statistics — the sections' numbers, the business overview and the early warnings. */
export function useDashboardStatistics() {
  return useQuery({
    queryKey: ['admin', 'home', 'statistics'],
    queryFn: () => http.get<DashboardStatistics>('/admin/home/statistics', undefined, { noLoading: true }),
    staleTime: 30_000,
  });
}

/** GET /admin/home/chart — the sections' daily series from `start` to `end` (yyyy-mm-dd). */
export function useDashboardChart(start: string, end: string) {
  return useQuery({
    queryKey: ['admin', 'home', 'chart', start, end],
    queryFn: () => http.get<DashboardChart>('/admin/home/chart', { start, end }, { noLoading: true }),
    staleTime: 30_000,
  });
}
