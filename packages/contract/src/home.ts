import { z } from 'zod';
import { dateQuery } from './text.ts';

/**
 * The home dashboard (/api/admin/home/…). The server builds it from sections that modules contribute
 * (mall and service orders, business overview, early warning, assets, funds…); the caller gets only the
 * sections — and within them the figures — of the menus they may open. Each section and figure carries its
 * own title in both languages, so a module adds a section without the web or the home module changing.
 */

/** At most this many days in one chart. */
export const DASHBOARD_MAX_DAYS = 366;

/** A day of the calendar (2026-02-30 is not one, though a JavaScript Date would roll it over to March). */
const day = dateQuery.refine(
  (value) => {
    const [y, m, d] = value.slice(0, 10).split('-').map(Number);
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  },
  { message: 'DateOutOfRange' },
);

/** `start` and `end` (yyyy-mm-dd, both included); the chart's default is the last 30 days. */
export const dashboardChartQuerySchema = z.object({
  start: day.optional(),
  end: day.optional(),
});
export type DashboardChartQuery = z.infer<typeof dashboardChartQuerySchema>;

/** A text in both languages, as the menus carry theirs. */
export interface DashboardText {
  zh: string;
  en: string;
}

/** How a number is shown: a count, money (2 decimals) or a quantity. */
export type DashboardFormat = 'count' | 'amount' | 'quantity';

export interface DashboardFigure {
  key: string;
  label: DashboardText;
  value: number;
  format: DashboardFormat;
  /** The same figure one period earlier (yesterday, last month), when it compares. */
  previous?: number;
  /** A web path that lists what the figure counts. */
  link?: string;
  /** `overview`: shown in the business overview (gathered from every section) rather than in its section's card. */
  group?: 'overview';
}

export interface DashboardSectionView {
  key: string;
  title: DashboardText;
  figures: DashboardFigure[];
}

/** One early-warning entry: low stock of a material, a bill whose date is inside its warn days… */
export interface DashboardWarning {
  /** What kind of warning (`lowStock`, `deliveryDate`…). */
  kind: string;
  label: DashboardText;
  /** What it is about: a material's code and name, a bill's code. */
  subject: string;
  /** The numbers behind it ("3 / 10", a date). */
  detail: string;
  /** A web path that opens it. */
  link?: string;
}

export interface DashboardStatistics {
  /** The sections with figures of their own, in their order. */
  sections: DashboardSectionView[];
  /** The business overview: the figures sections put in the `overview` group, each with its section's key. */
  overview: Array<DashboardFigure & { section: string }>;
  /** The first warnings of every visible source, most urgent first, and how many there are in all. */
  warnings: { total: number; items: DashboardWarning[] };
}

export interface DashboardSeries {
  key: string;
  label: DashboardText;
  format: DashboardFormat;
  /** One value per day of `days`. */
  values: number[];
}

export interface DashboardChart {
  /**
   * The business day now (yyyy-mm-dd): the database's date, which order_daily's days are in. The screen
   * takes its "today" from here (the default range, the last day it offers, the date shortcuts), never
   * from the browser's clock, so a browser in another time zone shows the same days.
   */
  today: string;
  start: string;
  end: string;
  /** yyyy-mm-dd, every day of the range. */
  days: string[];
  /** One chart per section: its series over the days. */
  charts: Array<{ key: string; title: DashboardText; series: DashboardSeries[] }>;
}
