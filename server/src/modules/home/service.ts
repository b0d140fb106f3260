import { DASHBOARD_MAX_DAYS, type DashboardChart, type DashboardChartQuery, type DashboardStatistics } from '@p8/contract/home';
import { dashboardDates, type DashboardSection, type DashboardView } from '../../core/dashboard.ts';
import { BizError } from '../../core/errors.ts';
import { callerPermissions } from '../../core/permissions.ts';
import type { ServiceContext } from '../../core/service-context.ts';

/**
 * The home dashboard: asks every section the caller may see (core/dashboard.ts) for its figures, series
 * and early warnings. A section shows when the caller may open one of its menus; what else it shows is
 * the section's business.
 */

/** Early warnings per section at most; the total says how many there are. */
export const WARNINGS_PER_SECTION = 10;
/** The chart's range when none is asked for: the last 30 days. */
const DEFAULT_DAYS = 30;

/**
 * The sections the caller may see (by the menu names of the access cache: no query), and the view they are
 * asked with: the database's dates, read once, which every section counts by (docs/dashboard.md).
 */
async function visibleSections(ctx: ServiceContext): Promise<{ view: DashboardView; sections: DashboardSection[] }> {
  const { menuNames } = await callerPermissions(ctx.tx, ctx.account);
  const may = (name: string) => menuNames.has(name);
  return { view: { ctx, may, dates: await dashboardDates(ctx) }, sections: ctx.registries.dashboard.visible(may) };
}

export async function dashboardStatistics(ctx: ServiceContext): Promise<DashboardStatistics> {
  const { view, sections } = await visibleSections(ctx);
  const result: DashboardStatistics = { sections: [], overview: [], warnings: { total: 0, items: [] } };
  for (const section of sections) {
    const figures = ((await section.figures?.(view)) ?? []).filter((f) => !f.menus || f.menus.some(view.may)).map(({ menus: _menus, ...figure }) => figure);
    const own = figures.filter((f) => f.group !== 'overview');
    if (own.length) result.sections.push({ key: section.key, title: section.title, figures: own });
    result.overview.push(...figures.filter((f) => f.group === 'overview').map((f) => ({ ...f, section: section.key })));
    const warnings = await section.warnings?.(view, WARNINGS_PER_SECTION);
    if (warnings) {
      result.warnings.total += warnings.total;
      result.warnings.items.push(...warnings.items);
    }
  }
  return result;
}

const DAY_MS = 86_400_000;
const dayOf = (value: string) => value.slice(0, 10);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

export async function dashboardChart(ctx: ServiceContext, query: DashboardChartQuery): Promise<DashboardChart> {
  // Days are the database's (order_daily keeps an order under its created_at's date there).
  const { view, sections } = await visibleSections(ctx);
  const { today } = view.dates;
  const end = query.end ? dayOf(query.end) : today;
  const start = query.start ? dayOf(query.start) : addDays(end, 1 - DEFAULT_DAYS);
  if (start > end) throw new BizError('StartDateAfterEndDate');
  const count = Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;
  if (count > DASHBOARD_MAX_DAYS) throw new BizError('DashboardRangeTooLong', { additional: DASHBOARD_MAX_DAYS });
  const days = Array.from({ length: count }, (_, i) => addDays(start, i));

  const charts: DashboardChart['charts'] = [];
  for (const section of sections) {
    if (!section.series) continue;
    charts.push({ key: section.key, title: section.title, series: await section.series(view, { start, end, days }) });
  }
  return { today, start, end, days, charts };
}
