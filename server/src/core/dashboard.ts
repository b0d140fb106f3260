import type { DashboardFigure, DashboardSeries, DashboardText, DashboardWarning } from '@p8/contract/home';
import { sql, type SQL } from 'drizzle-orm';
import { rows } from '../db/connection.ts';
import { orderDaily, orderTotal } from '../db/schema/index.ts';
import type { ServiceContext } from './service-context.ts';

/**
 * The home dashboard's sections (GET /api/admin/home/statistics and /chart). The home module knows no
 * orders, stock or funds: each module that has something to show registers a section in its
 * `ServerModule.register` — the mall its orders, the service module its service orders, the bill engine
 * the stock value and low stock, finance its funds — and the home module asks every section the caller may
 * see. Held per app instance (`registries.dashboard`, see core/registries.ts).
 */

/** The dashboard's days, yyyy-mm-dd in the database's time zone (docs/dashboard.md, "Which day is today"). */
export interface DashboardDates {
  today: string;
  yesterday: string;
  monthStart: string;
  lastMonthStart: string;
}

/** What a section is asked with. */
export interface DashboardView {
  ctx: ServiceContext;
  /** Whether the caller may open the menu (screen) of that name: for figures that belong to another screen. */
  may(menu: string): boolean;
  /** Today and the days the figures compare with, read once per request with the caller's menus. */
  dates: DashboardDates;
}

export interface DashboardRange {
  /** yyyy-mm-dd, both included. */
  start: string;
  end: string;
  /** Every day of the range, yyyy-mm-dd. */
  days: string[];
}

/**
 * A figure as a section gives it: `menus` when the figure belongs to a narrower screen than the section
 * (the fund balance to the fund accounts' screen); the home module drops it for a caller who may open none
 * of them, and never sends `menus` itself.
 */
export type SectionFigure = DashboardFigure & { menus?: readonly string[] };

export interface DashboardSection {
  /** Unique among the sections (`mall`, `service`, `asset`, `fund`…); the web keys the card by it. */
  key: string;
  title: DashboardText;
  /** Smaller first. */
  order: number;
  /**
   * The section shows only to callers who may open at least one of these menus (by menu name): the
   * screens that show the same data, company-wide — a section is never shown by a screen that shows less.
   */
  menus: string[];
  /** Its number statistics, each shown to the section's callers or, with `menus`, to those of its own screens. */
  figures?(view: DashboardView): Promise<SectionFigure[]>;
  /** Its daily series over the range (one chart per section). */
  series?(view: DashboardView, range: DashboardRange): Promise<DashboardSeries[]>;
  /** Its early warnings: the first `limit`, most urgent first, and how many there are. */
  warnings?(view: DashboardView, limit: number): Promise<{ total: number; items: DashboardWarning[] }>;
}

export class Dashboard {
  private readonly sections = new Map<string, DashboardSection>();

  /** Registering a key again replaces the section (a module registered twice is harmless). */
  register(section: DashboardSection): void {
    if (!/^[a-z][A-Za-z0-9_]*$/.test(section.key)) throw new Error(`invalid dashboard section key ${section.key}`);
    if (!section.menus.length) throw new Error(`dashboard section ${section.key} names no menu`);
    this.sections.set(section.key, section);
  }

  /** The sections a caller who may open `may` menus sees, in their order. */
  visible(may: (menu: string) => boolean): DashboardSection[] {
    return [...this.sections.values()].filter((s) => s.menus.some(may)).sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));
  }

  /** Every section, for the tests. */
  all(): DashboardSection[] {
    return [...this.sections.values()];
  }
}

// ---------------------------------------------------------------- orders per day (order_daily)

/** Orders of one kind placed on one day in one status, summed over the shards. */
export interface OrderDay {
  day: string;
  status: string;
  orders: number;
  amount: number;
}

type OrderKind = 'mall' | 'service';

const toOrderDays = (found: Array<{ day: string; status: string; orders: string; amount: string }>): OrderDay[] =>
  found.map((r) => ({ day: r.day, status: r.status, orders: Number(r.orders), amount: Number(r.amount) }));

/** The orders of `kind` per day and status from `start` to `end` (yyyy-mm-dd, both included): a range of order_daily's key. */
export async function orderDays(ctx: ServiceContext, kind: OrderKind, start: string, end: string): Promise<OrderDay[]> {
  return toOrderDays(
    await rows(
      ctx.tx,
      sql`select day::text as day, status, sum(orders)::text as orders, sum(amount)::text as amount from ${orderDaily}
          where tenant_id = ${ctx.tenantId} and kind = ${kind} and day between ${start}::date and ${end}::date
          group by day, status`,
    ),
  );
}

export interface OrderOverview<Extra = undefined> {
  /** Per status over all days (`day` empty). */
  totals: OrderDay[];
  /** Per day and status since the start of last month. */
  recent: OrderDay[];
  /** What the section asked for besides (`extra`), as the database answered it. */
  extra: Extra;
}

/**
 * Today's date in the database (`yyyy-mm-dd`): the dashboard's one clock, the day its daily aggregates are
 * written in (docs/dashboard.md, "Which day is today") — never the Node process's clock.
 */
export async function databaseToday(ctx: Pick<ServiceContext, 'tx'>): Promise<string> {
  const [{ today }] = await rows<{ today: string }>(ctx.tx, sql`select current_date::text as today`);
  return today;
}

/** The database's dates the dashboard counts by, read once per request (`DashboardView.dates`). */
export async function dashboardDates(ctx: Pick<ServiceContext, 'tx'>): Promise<DashboardDates> {
  const [dates] = await rows<DashboardDates>(
    ctx.tx,
    sql`select current_date::text as today, (current_date - 1)::text as yesterday, date_trunc('month', current_date)::date::text as "monthStart",
               (date_trunc('month', current_date) - interval '1 month')::date::text as "lastMonthStart"`,
  );
  return dates;
}

/**
 * The orders of `kind` per status over all days and per day and status since the start of last month, in
 * one statement (one round trip: the statistics request asks every section in turn on one connection),
 * with `extra` — a scalar subquery of the section's own — in the same statement.
 */
export async function orderOverview<Extra = undefined>({ ctx, dates }: DashboardView, kind: OrderKind, extra?: SQL): Promise<OrderOverview<Extra>> {
  const [found] = await rows<{ totals: Array<Record<keyof OrderDay, string>>; recent: Array<Record<keyof OrderDay, string>>; extra: Extra }>(
    ctx.tx,
    sql`select (select coalesce(json_agg(t), '[]') from (select '' as day, status, sum(orders)::text as orders, sum(amount)::text as amount from ${orderTotal}
                 where tenant_id = ${ctx.tenantId} and kind = ${kind} group by status) t) as totals,
               (select coalesce(json_agg(r), '[]') from (select day::text as day, status, sum(orders)::text as orders, sum(amount)::text as amount from ${orderDaily}
                 where tenant_id = ${ctx.tenantId} and kind = ${kind} and day between ${dates.lastMonthStart}::date and ${dates.today}::date group by day, status) r) as recent,
               ${extra ?? sql`null`} as extra`,
  );
  return { totals: toOrderDays(found.totals), recent: toOrderDays(found.recent), extra: found.extra };
}

/** Sums orders (or amounts) of `found` that pass `pick`. */
export function sumOf(found: OrderDay[], pick: (r: OrderDay) => boolean, field: 'orders' | 'amount' = 'orders'): number {
  return Math.round(found.reduce((n, r) => (pick(r) ? n + r[field] : n), 0) * 100) / 100;
}

/** One value per day of `days` from `found` (those that pass `pick`), zero for a day without orders. */
export function perDay(days: string[], found: OrderDay[], pick: (r: OrderDay) => boolean, field: 'orders' | 'amount' = 'orders'): number[] {
  const byDay = new Map<string, number>();
  for (const r of found) if (pick(r)) byDay.set(r.day, (byDay.get(r.day) ?? 0) + r[field]);
  return days.map((d) => Math.round((byDay.get(d) ?? 0) * 100) / 100);
}
