import { and, asc, eq, gte, ilike, inArray, lt, or, sql } from 'drizzle-orm';
import { dayTypeOf, judgeDay, layShift, weekdayOf, type AttendanceDay, type ClockIn, type DayResult, type DayType, type PersonMonth, type ReportRow, type ShiftRules, type WeeklyRest } from '@p8/contract/people';
import { rows, type Tx } from '../../db/connection.ts';
import { admin, attendanceCalendar, attendanceCalendarDay, attendanceGroup, attendanceGroupMember, attendancePunch, clockAddress, shift, shiftPeriod } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import { containsPattern } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';

/*
 * Attendance: the clock-in (the nearest clock address computed by the database with earthdistance), a person's
 * days judged from the group's shift and calendar and the punches (packages/contract/src/people.ts `judgeDay`,
 * computed when read, so a punch added later — a replacement — changes the day at once), and the month's report.
 * Dates are the server's local days, as every bill date.
 */

/** What a group's member is judged by. */
export interface GroupRules {
  groupId: number;
  groupName: string;
  allowOutside: boolean;
  replacementPerMonth: number;
  replacementDays: number;
  replaceLateEarly: boolean;
  shiftName: string;
  shift: ShiftRules;
  weeklyRest: WeeklyRest;
  listed: Map<string, DayType>;
}

const ms = (minutes: number) => minutes * 60_000;

/** Local midnight of a `yyyy-mm-dd` day. */
export const midnightOf = (date: string) => new Date(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
/** The local `yyyy-mm-dd` of an instant. */
export const localDate = (at: Date) => `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
/** The `yyyy-mm-dd` `days` after `date` (before it when negative). */
export const nextDate = (date: string, days = 1) => {
  const d = midnightOf(date);
  d.setDate(d.getDate() + days);
  return localDate(d);
};

/** The days of a month `yyyy-mm`. */
export function monthDays(month: string): string[] {
  const days: string[] = [];
  for (let date = `${month}-01`; date.startsWith(month); date = nextDate(date)) days.push(date);
  return days;
}

/** The rules of the enabled groups listing these staff members (one group each), by staff id. */
export async function rulesOf(tx: Tx, tenantId: number, staffIds: number[]): Promise<Map<number, GroupRules>> {
  if (!staffIds.length) return new Map();
  const members = await tx
    .select({ staffId: attendanceGroupMember.staffId, group: attendanceGroup })
    .from(attendanceGroupMember)
    .innerJoin(attendanceGroup, and(eq(attendanceGroup.tenantId, attendanceGroupMember.tenantId), eq(attendanceGroup.id, attendanceGroupMember.recordId)))
    .where(and(eq(attendanceGroupMember.tenantId, tenantId), inArray(attendanceGroupMember.staffId, staffIds), eq(attendanceGroup.enabled, true)));
  const groups = new Map<number, GroupRules>();
  for (const group of new Map(members.map((m) => [m.group.id, m.group])).values()) {
    const [own] = await tx.select().from(shift).where(and(eq(shift.tenantId, tenantId), eq(shift.id, group.shiftId)));
    const periods = await tx.select({ start: shiftPeriod.start, end: shiftPeriod.end }).from(shiftPeriod).where(and(eq(shiftPeriod.tenantId, tenantId), eq(shiftPeriod.recordId, group.shiftId))).orderBy(asc(shiftPeriod.lineNo));
    const [calendar] = await tx.select().from(attendanceCalendar).where(and(eq(attendanceCalendar.tenantId, tenantId), eq(attendanceCalendar.id, group.calendarId)));
    const days = await tx.select({ date: attendanceCalendarDay.date, dayType: attendanceCalendarDay.dayType }).from(attendanceCalendarDay).where(and(eq(attendanceCalendarDay.tenantId, tenantId), eq(attendanceCalendarDay.recordId, group.calendarId)));
    const laid = layShift(periods);
    if (!own || !calendar || 'refusal' in laid) continue;
    groups.set(group.id, {
      groupId: group.id,
      groupName: group.name,
      allowOutside: group.allowOutside,
      replacementPerMonth: group.replacementPerMonth,
      replacementDays: group.replacementDays,
      replaceLateEarly: group.replaceLateEarly,
      shiftName: own.name,
      shift: { periods: laid.periods, lateGrace: own.lateGrace, earlyGrace: own.earlyGrace, inWindow: own.inWindow, outWindow: own.outWindow },
      weeklyRest: calendar.weeklyRest as WeeklyRest,
      // A calendar of another year lists nothing for this one: its weekly rest still applies.
      listed: new Map(days.map((d) => [d.date, d.dayType as DayType])),
    });
  }
  return new Map(members.flatMap((m) => (groups.has(m.group.id) ? [[m.staffId, groups.get(m.group.id)!] as const] : [])));
}

/** The caller's group rules, or `NoAttendanceRules`. */
export async function ownRules(ctx: ServiceContext, staffId = ctx.account.adminId): Promise<GroupRules> {
  const rules = (await rulesOf(ctx.tx, ctx.tenantId, [staffId])).get(staffId);
  if (!rules) throw new BizError('NoAttendanceRules');
  return rules;
}

export interface ClockResult {
  id: number;
  punchedAt: string;
  outside: boolean;
  addressName: string | null;
  distance: number | null;
}

/**
 * A web clock-in at the browser's position: the nearest enabled address of the caller's group (or of every
 * group), its distance in metres by the database's earthdistance. Within its radius: a punch; outside every
 * address: refused `NotInClockRange` (with the distance), or recorded as outside where the group allows it.
 */
export async function clockIn(ctx: ServiceContext, body: ClockIn, now = new Date(), known?: GroupRules): Promise<ClockResult> {
  // `known`: the caller's rules read once for many punches in one unit of work (the demo's past punches).
  const rules = known ?? (await ownRules(ctx));
  const here = sql`ll_to_earth(${body.latitude}::float8, ${body.longitude}::float8)`;
  const [nearest] = await rows<{ id: string; name: string; radius: number; distance: number }>(
    ctx.tx,
    sql`select ${clockAddress.id} as id, ${clockAddress.name} as name, ${clockAddress.radius} as radius,
          round(earth_distance(ll_to_earth(${clockAddress.latitude}::float8, ${clockAddress.longitude}::float8), ${here}))::int as distance
        from ${clockAddress}
        where ${clockAddress.tenantId} = ${ctx.tenantId} and ${clockAddress.enabled}
          and (${clockAddress.groupId} is null or ${clockAddress.groupId} = ${rules.groupId})
        order by distance limit 1`,
  );
  if (!nearest && !rules.allowOutside) throw new BizError('ClockNoAddress');
  const outside = !nearest || nearest.distance > nearest.radius;
  if (outside && !rules.allowOutside) throw new BizError('NotInClockRange', { additional: { address: nearest!.name, distance: nearest!.distance, radius: nearest!.radius } });
  const [punch] = await ctx.tx
    .insert(attendancePunch)
    .values({
      tenantId: ctx.tenantId,
      staffId: ctx.account.adminId,
      groupId: rules.groupId,
      punchedAt: now,
      latitude: body.latitude,
      longitude: body.longitude,
      accuracy: body.accuracy === undefined ? null : Math.round(body.accuracy),
      addressId: nearest ? Number(nearest.id) : null,
      distance: nearest ? nearest.distance : null,
      outside,
      source: 'web',
    })
    .returning({ id: attendancePunch.id });
  ctx.audit({ action: 'clockIn', entity: 'attendance punch', entityId: punch.id, detail: { outside, address: nearest?.name ?? null, distance: nearest?.distance ?? null } });
  return { id: punch.id, punchedAt: now.toISOString(), outside, addressName: nearest?.name ?? null, distance: nearest?.distance ?? null };
}



/** The punches of staff members between two instants, by staff id, in time order. */
async function punchesOf(tx: Tx, tenantId: number, staffIds: number[], from: Date, to: Date) {
  const found = await tx
    .select({ id: attendancePunch.id, staffId: attendancePunch.staffId, punchedAt: attendancePunch.punchedAt, outside: attendancePunch.outside, source: attendancePunch.source, addressName: clockAddress.name })
    .from(attendancePunch)
    .leftJoin(clockAddress, and(eq(clockAddress.tenantId, attendancePunch.tenantId), eq(clockAddress.id, attendancePunch.addressId)))
    .where(and(eq(attendancePunch.tenantId, tenantId), inArray(attendancePunch.staffId, staffIds), gte(attendancePunch.punchedAt, from), lt(attendancePunch.punchedAt, to)))
    .orderBy(asc(attendancePunch.punchedAt), asc(attendancePunch.id));
  const byStaff = new Map<number, typeof found>();
  for (const p of found) byStaff.set(p.staffId, [...(byStaff.get(p.staffId) ?? []), p]);
  return byStaff;
}

/** The span of a shift day in which a punch counts: from the first check's window to the last's. */
function windowOf(rules: GroupRules, date: string) {
  const midnight = midnightOf(date).getTime();
  const periods = rules.shift.periods;
  return { midnight, from: midnight + ms(periods[0].start - rules.shift.inWindow), to: midnight + ms(periods[periods.length - 1].end + rules.shift.outWindow) };
}

/** Judges the days of one person from their punches (read around the days for night shifts and windows). */
function judgeDays(rules: GroupRules, dates: string[], punches: Array<{ id: number; punchedAt: Date; outside: boolean; source: string; addressName: string | null }>, now: Date): AttendanceDay[] {
  return dates.map((date) => {
    const { midnight, from, to } = windowOf(rules, date);
    const own = punches.filter((p) => p.punchedAt.getTime() >= from && p.punchedAt.getTime() <= to);
    const dayType = dayTypeOf(date, rules.weeklyRest, rules.listed);
    const judged = judgeDay(rules.shift, own.map((p) => Math.floor((p.punchedAt.getTime() - midnight) / 60_000)), dayType);
    return {
      date,
      weekday: weekdayOf(date),
      dayType,
      result: to < now.getTime() ? judged.result : null,
      checks: judged.checks,
      punches: own.map((p) => ({ id: p.id, punchedAt: p.punchedAt.toISOString(), outside: p.outside, source: p.source, addressName: p.addressName })),
    };
  });
}

/** The span of instants a month's days may take punches from (a day before for none, two after for night shifts). */
const monthSpan = (month: string) => ({ from: midnightOf(`${month}-01`), to: midnightOf(nextDate(monthDays(month).at(-1)!, 2)) });

/** One person's days of a month, judged. */
export async function personMonth(ctx: ServiceContext, staffId: number, month: string, now = new Date()): Promise<PersonMonth> {
  const rules = await ownRules(ctx, staffId);
  const { from, to } = monthSpan(month);
  const punches = (await punchesOf(ctx.tx, ctx.tenantId, [staffId], from, to)).get(staffId) ?? [];
  return { groupName: rules.groupName, shiftName: rules.shiftName, allowOutside: rules.allowOutside, days: judgeDays(rules, monthDays(month), punches, now) };
}

/** One person's days around one date (the replacement rules judge the day a request names). */
export async function personDay(ctx: ServiceContext, rules: GroupRules, staffId: number, date: string, now = new Date()): Promise<AttendanceDay> {
  const punches = (await punchesOf(ctx.tx, ctx.tenantId, [staffId], midnightOf(nextDate(date, -1)), midnightOf(nextDate(date, 2)))).get(staffId) ?? [];
  return judgeDays(rules, [date], punches, now)[0];
}

/**
 * Every enabled member of an enabled group, with their day `date` judged (the attendance notices of the
 * next day: attendance-notices.ts). A day whose last check is still open has no result yet.
 */
export async function membersDay(ctx: ServiceContext, date: string, now = new Date()): Promise<Array<{ staffId: number; staffName: string; day: AttendanceDay }>> {
  const { tx, tenantId } = ctx;
  const staffName = sql<string>`coalesce(nullif(${admin.realName}, ''), ${admin.name})`;
  const members = await tx
    .select({ staffId: attendanceGroupMember.staffId, staffName })
    .from(attendanceGroupMember)
    .innerJoin(attendanceGroup, and(eq(attendanceGroup.tenantId, attendanceGroupMember.tenantId), eq(attendanceGroup.id, attendanceGroupMember.recordId)))
    .innerJoin(admin, and(eq(admin.tenantId, attendanceGroupMember.tenantId), eq(admin.id, attendanceGroupMember.staffId)))
    .where(and(eq(attendanceGroupMember.tenantId, tenantId), eq(attendanceGroup.enabled, true), eq(admin.enabled, true)))
    .orderBy(asc(attendanceGroupMember.staffId));
  if (!members.length) return [];
  const rules = await rulesOf(tx, tenantId, members.map((m) => m.staffId));
  const punches = await punchesOf(tx, tenantId, members.map((m) => m.staffId), midnightOf(nextDate(date, -1)), midnightOf(nextDate(date, 2)));
  return members.flatMap((m) => {
    const own = rules.get(m.staffId);
    return own ? [{ staffId: m.staffId, staffName: m.staffName, day: judgeDays(own, [date], punches.get(m.staffId) ?? [], now)[0] }] : [];
  });
}

/**
 * The month's report: every member of an enabled group (or of one group), with their days counted by result,
 * their outside punches and replaced punches. Sorted by group then name; paged.
 */
export async function monthReport(ctx: ServiceContext, query: { month: string; groupId?: number; keyword?: string; current?: number; pageSize?: number }, now = new Date()) {
  const { tx, tenantId } = ctx;
  const staffName = sql<string>`coalesce(nullif(${admin.realName}, ''), ${admin.name})`;
  const members = await tx
    .select({ staffId: attendanceGroupMember.staffId, staffName, groupName: attendanceGroup.name })
    .from(attendanceGroupMember)
    .innerJoin(attendanceGroup, and(eq(attendanceGroup.tenantId, attendanceGroupMember.tenantId), eq(attendanceGroup.id, attendanceGroupMember.recordId)))
    .innerJoin(admin, and(eq(admin.tenantId, attendanceGroupMember.tenantId), eq(admin.id, attendanceGroupMember.staffId)))
    .where(
      and(
        eq(attendanceGroupMember.tenantId, tenantId),
        eq(attendanceGroup.enabled, true),
        query.groupId ? eq(attendanceGroup.id, query.groupId) : undefined,
        query.keyword ? or(ilike(admin.name, containsPattern(query.keyword)), ilike(admin.realName, containsPattern(query.keyword))) : undefined,
      ),
    )
    .orderBy(asc(attendanceGroup.name), asc(staffName), asc(attendanceGroupMember.staffId));
  const current = query.current ?? 1;
  const pageSize = query.pageSize ?? 10;
  const page = members.slice((current - 1) * pageSize, current * pageSize);
  const rules = await rulesOf(tx, tenantId, page.map((m) => m.staffId));
  const { from, to } = monthSpan(query.month);
  const punches = await punchesOf(tx, tenantId, page.map((m) => m.staffId), from, to);
  const dates = monthDays(query.month);
  const data: ReportRow[] = page.map((m) => {
    const own = rules.get(m.staffId);
    const held = punches.get(m.staffId) ?? [];
    const days = own ? judgeDays(own, dates, held, now) : [];
    const count = (result: DayResult) => days.filter((d) => d.result === result).length;
    const inMonth = held.filter((p) => localDate(p.punchedAt).startsWith(query.month));
    return {
      staffId: m.staffId,
      staffName: m.staffName,
      groupName: m.groupName,
      workdays: days.filter((d) => d.dayType === 'workday').length,
      normal: count('normal'),
      late: count('late'),
      early: count('early'),
      absent: count('absent'),
      missing: count('missing'),
      outside: inMonth.filter((p) => p.outside).length,
      replaced: inMonth.filter((p) => p.source === 'replacement').length,
    };
  });
  return { data, pagination: { current, pageSize, total: members.length } };
}
