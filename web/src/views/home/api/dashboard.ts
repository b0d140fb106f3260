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

/**
 * GET /admin/home/chart — the sections' daily series from `start` to `end` (yyyy-mm-dd); without a range the
 * server's default (the last 30 business days, ending on its `today`).
 */
export function useDashboardChart(range: { start: string; end: string } | null) {
  return useQuery({
    queryKey: ['admin', 'home', 'chart', range?.start ?? '', range?.end ?? ''],
    queryFn: () => http.get<DashboardChart>('/admin/home/chart', range ?? undefined, { noLoading: true }),
    staleTime: 30_000,
    // Another range keeps the chart (and the picker's value) until the new days arrive.
    placeholderData: (previous) => previous,
  });
}
