import { z } from 'zod';
import type { Label } from './bills/status.ts';
import type { ErrorKey } from './errors.ts';
import { storableText } from './text.ts';

/*
 * Attendance (考勤): the pure rules shared by the server and the web — clock times, a shift's periods laid out
 * on the clock (night shifts ending the next day), the day a calendar makes of a date, and a day's result
 * computed from the shift and the punches. No database, no clock: the server gives the instants.
 */

/** A clock time `HH:mm` (00:00–23:59). */
export const clockTime = storableText().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'ClockTimeFormat' });
/** A date `yyyy-mm-dd`. */
export const isoDate = storableText()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'DateOutOfRange' })
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, { message: 'DateOutOfRange' });
/** A month `yyyy-mm`. */
export const isoMonth = storableText().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'DateOutOfRange' });

export const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** A period of a shift as declared: its start and off times. */
export interface ShiftPeriod {
  start: string;
  end: string;
}

/** A period on the clock: minutes from the shift day's midnight (beyond 1440: the next day). */
export interface LaidPeriod {
  start: number;
  end: number;
}

/**
 * Lays a shift's periods on the clock, in the order declared: each time comes after the one before it, and a
 * time earlier on the clock than the one before is on the next day (a night shift's off time, or a later
 * period after midnight, less than 12 hours after the last off time). Refuses a period whose start is its off
 * time (`StartTimeMustBeforeOffTime`), a period starting within the one before (`ShiftTimeOverlap`), periods
 * out of order — a second turn past midnight too (`ShiftTimeOrder`) — and a shift spanning a day or more
 * (`ShiftLongerThanADay`).
 */
export function layShift(periods: readonly ShiftPeriod[]): { periods: LaidPeriod[] } | { refusal: ErrorKey; line: number } {
  const laid: LaidPeriod[] = [];
  let day = 0;
  let last = -1;
  for (const [index, period] of periods.entries()) {
    const start = minutesOf(period.start);
    const end = minutesOf(period.end);
    if (start === end) return { refusal: 'StartTimeMustBeforeOffTime', line: index + 1 };
    let startAt = start + day * 1440;
    // A period starting at or before the last one's off time overlaps it, or comes before it.
    if (startAt <= last) {
      const previous = laid[index - 1];
      // A period read as the next day's follows a break of less than 12 hours (20:00–23:00 then 01:00–05:00);
      // a start within the previous period overlaps it; anything else is out of order (13:00–17:00 then 08:00–12:00).
      if (startAt >= previous.start) return { refusal: 'ShiftTimeOverlap', line: index + 1 };
      if (day > 0 || start >= laid[0].start || start + 1440 - last >= 720) return { refusal: 'ShiftTimeOrder', line: index + 1 };
      day = 1;
      startAt = start + 1440;
    }
    let endAt = end + day * 1440;
    if (endAt <= startAt) {
      if (day > 0) return { refusal: 'ShiftTimeOrder', line: index + 1 };
      day = 1;
      endAt = end + 1440;
    }
    laid.push({ start: startAt, end: endAt });
    last = endAt;
  }
  if (laid.length && laid[laid.length - 1].end - laid[0].start >= 1440) return { refusal: 'ShiftLongerThanADay', line: periods.length };
  return { periods: laid };
}

/** What a calendar makes of a date. */
export const DayType = ['workday', 'rest', 'holiday'] as const;
export type DayType = (typeof DayType)[number];
export const DAY_TYPE_LABELS: Record<DayType, Label> = {
  workday: { zh: '工作日', en: 'Workday' },
  rest: { zh: '休息日', en: 'Rest day' },
  holiday: { zh: '节假日', en: 'Public holiday' },
};

/** The weekly rest of a calendar: Saturday and Sunday, Sunday only, none. */
export const WeeklyRest = ['satSun', 'sun', 'none'] as const;
export type WeeklyRest = (typeof WeeklyRest)[number];

/** Monday to Sunday, as the attendance screens label a date's weekday (index 0 = Monday). */
export const WEEKDAY_LABELS: readonly Label[] = [
  { zh: '星期一', en: 'Monday' },
  { zh: '星期二', en: 'Tuesday' },
  { zh: '星期三', en: 'Wednesday' },
  { zh: '星期四', en: 'Thursday' },
  { zh: '星期五', en: 'Friday' },
  { zh: '星期六', en: 'Saturday' },
  { zh: '星期日', en: 'Sunday' },
];

/** The weekday of a `yyyy-mm-dd` date, 0 = Monday … 6 = Sunday. */
export const weekdayOf = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;

/** A date's type: a day the calendar lists (holiday, make-up workday, rest) as listed, else by the weekly rest. */
export function dayTypeOf(date: string, weeklyRest: WeeklyRest, listed: ReadonlyMap<string, DayType>): DayType {
  const own = listed.get(date);
  if (own) return own;
  const weekday = weekdayOf(date);
  if (weekday === 6 && weeklyRest !== 'none') return 'rest';
  if (weekday === 5 && weeklyRest === 'satSun') return 'rest';
  return 'workday';
}

/** A day's result for one person. */
export const DayResult = ['normal', 'late', 'early', 'absent', 'missing', 'rest'] as const;
export type DayResult = (typeof DayResult)[number];
export const DAY_RESULT_LABELS: Record<DayResult, Label> = {
  normal: { zh: '正常', en: 'Normal' },
  late: { zh: '迟到', en: 'Late' },
  early: { zh: '早退', en: 'Left early' },
  absent: { zh: '旷工', en: 'Absent' },
  missing: { zh: '缺卡', en: 'Missing punch' },
  rest: { zh: '休息', en: 'Rest' },
};

/** What a shift's day needs to be judged: its periods on the clock and its tolerances, in minutes. */
export interface ShiftRules {
  periods: readonly LaidPeriod[];
  /** Minutes after a period's start that still count as on time. */
  lateGrace: number;
  /** Minutes before a period's off time that still count as on time. */
  earlyGrace: number;
  /** How long before a period's start a punch counts as its clock-in. */
  inWindow: number;
  /** How long after a period's off time a punch counts as its clock-out. */
  outWindow: number;
}

/** One check of a period: its clock-in or clock-out, the punch that made it (minutes from the day's midnight), and how it went. */
export interface PunchCheck {
  period: number;
  side: 'in' | 'out';
  /** The minute the check is due. */
  due: number;
  /** The punch taken for it, or none. */
  at: number | null;
  /** Minutes late (in) or early (out) beyond nothing; 0 when on time. */
  off: number;
  result: 'normal' | 'late' | 'early' | 'missing';
}

/**
 * The punches of a day judged against a shift. `punches` are minutes from the shift day's midnight (the next
 * day's beyond 1440). Each period's clock-in is its earliest punch from `inWindow` before its start until the
 * middle of the period; its clock-out the latest punch from that middle until `outWindow` after its off time
 * (a punch in the first half is a clock-in, in the second a clock-out; a second-half punch that is the only
 * one still only clocks out). Between two periods the windows end at the break's middle, so that one punch
 * never makes two checks. A clock-in after start + grace is late; a clock-out before off − grace is early;
 * a check without a punch is missing. The day: rest on a day off; absent when no check has a punch; missing
 * punch when some check has none; else late, else early, else normal.
 */
export function judgeDay(shift: ShiftRules, punches: readonly number[], dayType: DayType): { result: DayResult; checks: PunchCheck[] } {
  const sorted = [...punches].sort((a, b) => a - b);
  const checks: PunchCheck[] = [];
  const periods = shift.periods;
  // Between two periods, the break's middle parts the first one's clock-out from the next one's clock-in.
  const breakMiddle = (i: number) => periods[i].end + Math.floor((periods[i + 1].start - periods[i].end) / 2);
  for (const [index, p] of periods.entries()) {
    const middle = p.start + Math.floor((p.end - p.start) / 2);
    const inFrom = index === 0 ? p.start - shift.inWindow : Math.max(p.start - shift.inWindow, breakMiddle(index - 1));
    const outTo = index === periods.length - 1 ? p.end + shift.outWindow : Math.min(p.end + shift.outWindow, breakMiddle(index) - 1);
    const ins = sorted.filter((m) => m >= inFrom && m < middle);
    const outs = sorted.filter((m) => m >= middle && m <= outTo);
    const inAt = ins.length ? ins[0] : null;
    const outAt = outs.length ? outs[outs.length - 1] : null;
    const late = inAt === null ? 0 : Math.max(0, inAt - p.start);
    const early = outAt === null ? 0 : Math.max(0, p.end - outAt);
    checks.push({ period: index + 1, side: 'in', due: p.start, at: inAt, off: late, result: inAt === null ? 'missing' : late > shift.lateGrace ? 'late' : 'normal' });
    checks.push({ period: index + 1, side: 'out', due: p.end, at: outAt, off: early, result: outAt === null ? 'missing' : early > shift.earlyGrace ? 'early' : 'normal' });
  }
  if (dayType !== 'workday') return { result: 'rest', checks };
  const results = new Set(checks.map((c) => c.result));
  const result: DayResult = checks.every((c) => c.at === null) ? 'absent' : results.has('missing') ? 'missing' : results.has('late') ? 'late' : results.has('early') ? 'early' : 'normal';
  return { result, checks };
}

/** `HH:mm` of minutes from a day's midnight (the next day's with "+1"). */
export function clockOf(minutes: number): string {
  const day = Math.floor(minutes / 1440);
  const m = minutes - day * 1440;
  const text = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return day > 0 ? `${text}+${day}` : text;
}

/* ---------- National holidays, from rules (nothing downloaded) ---------- */

/** Julian day of a UTC instant in ms. */
const jdOfMs = (ms: number) => ms / 86_400_000 + 2_440_587.5;
const msOfJd = (jd: number) => (jd - 2_440_587.5) * 86_400_000;
const rad = Math.PI / 180;

/**
 * The instant (ms, UTC; Terrestrial Time taken as UTC, a minute off at most) of the new moon of lunation `k`
 * (k = 0: 2000-01-06), by Meeus, Astronomical Algorithms ch. 49, with its main periodic terms: good to a
 * minute or two, which decides the date except for a new moon within minutes of midnight.
 */
function newMoon(k: number): number {
  const T = k / 1236.85;
  const jde = 2_451_550.09766 + 29.530588861 * k + 0.00015437 * T * T - 0.00000015 * T ** 3;
  const E = 1 - 0.002516 * T - 0.0000074 * T * T;
  const M = (2.5534 + 29.1053567 * k - 0.0000014 * T * T) * rad;
  const Mp = (201.5643 + 385.81693528 * k + 0.0107582 * T * T + 0.00001238 * T ** 3) * rad;
  const F = (160.7108 + 390.67050284 * k - 0.0016118 * T * T - 0.00000227 * T ** 3) * rad;
  const Om = (124.7746 - 1.56375588 * k + 0.0020672 * T * T) * rad;
  const correction =
    -0.4072 * Math.sin(Mp) +
    0.17241 * E * Math.sin(M) +
    0.01608 * Math.sin(2 * Mp) +
    0.01039 * Math.sin(2 * F) +
    0.00739 * E * Math.sin(Mp - M) -
    0.00514 * E * Math.sin(Mp + M) +
    0.00208 * E * E * Math.sin(2 * M) -
    0.00111 * Math.sin(Mp - 2 * F) -
    0.00057 * Math.sin(Mp + 2 * F) +
    0.00056 * E * Math.sin(2 * Mp + M) -
    0.00042 * Math.sin(3 * Mp) +
    0.00042 * E * Math.sin(M + 2 * F) +
    0.00038 * E * Math.sin(M - 2 * F) -
    0.00024 * E * Math.sin(2 * Mp - M) -
    0.00017 * Math.sin(Om);
  return msOfJd(jde + correction);
}

/** The Beijing-time date (`yyyy-mm-dd`) of an instant. */
const beijingDate = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);

/** The Beijing date of the new moon on or before a Beijing date: the first day of the lunar month holding that date. */
function lunarMonthStart(date: string): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  let k = Math.floor((jdOfMs(ms) - 2_451_550.09766) / 29.530588861) + 1;
  while (beijingDate(newMoon(k)) > date) k -= 1;
  return beijingDate(newMoon(k));
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The day of a solar term in a year of 2000–2099 ("寿星" formula: ⌊Y·0.2422 + C⌋ − ⌊(Y−1)/4⌋, Y the year's last two
 * digits; for a term in January or February, ⌊Y/4⌋ … with Y − 1 as the formula asks).
 */
function solarTermDay(year: number, month: number, c: number): string {
  const y = year % 100;
  const leapBase = month <= 2 ? Math.floor((y - 1) / 4) : Math.floor(y / 4);
  const day = Math.floor(y * 0.2422 + c) - leapBase;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A day the generated calendar lists. */
export interface CalendarDay {
  date: string;
  dayType: DayType;
  name: string;
}

/**
 * China's statutory public holidays of a year (2000–2099), from the rules of the national holiday regulations
 * (as amended for 2025): New Year's Day (1 day); the Spring Festival, New Year's Eve and the first three days of
 * the first lunar month (4); Qingming (1); Labour Day, 1–2 May (2); the Dragon Boat Festival, 5th of the fifth
 * month (1); Mid-Autumn, 15th of the eighth (1); National Day, 1–3 October (3). Lunar months start on the new
 * moon in Beijing time; the first month is the one holding the "rain water" term, the fifth the summer
 * solstice, the eighth the autumn equinox (a month holding a principal term is never a leap month). The
 * bridging days and the weekends worked for them are decided each year by the State Council: the tenant adds
 * them to its calendar.
 */
export function nationalHolidays(year: number): CalendarDay[] {
  const days: CalendarDay[] = [];
  const add = (date: string, count: number, zh: string) => {
    for (let i = 0; i < count; i++) days.push({ date: addDays(date, i), dayType: 'holiday', name: zh });
  };
  add(`${year}-01-01`, 1, '元旦');
  const springFestival = lunarMonthStart(solarTermDay(year, 2, 18.73));
  add(addDays(springFestival, -1), 4, '春节');
  add(solarTermDay(year, 4, 4.81), 1, '清明节');
  add(`${year}-05-01`, 2, '劳动节');
  add(addDays(lunarMonthStart(solarTermDay(year, 6, 21.37)), 4), 1, '端午节');
  add(addDays(lunarMonthStart(solarTermDay(year, 9, 23.042)), 14), 1, '中秋节');
  add(`${year}-10-01`, 3, '国庆节');
  // Mid-Autumn may fall on a National Day holiday: one entry per date, the first rule's name.
  const seen = new Set<string>();
  return days.filter((d) => d.date.startsWith(`${year}-`) && !seen.has(d.date) && seen.add(d.date)).sort((a, b) => a.date.localeCompare(b.date));
}

/* ---------- Clock-in ---------- */

export const clockInSchema = z.object({
  latitude: z.number().min(-90, { message: 'ParamError' }).max(90, { message: 'ParamError' }),
  longitude: z.number().min(-180, { message: 'ParamError' }).max(180, { message: 'ParamError' }),
  /** The browser's accuracy of the position, metres (reported, not trusted). */
  accuracy: z.number().min(0).max(100_000).optional(),
});
export type ClockIn = z.infer<typeof clockInSchema>;

export const monthQuerySchema = z.object({ month: isoMonth });

/** Where a punch came from. */
export const PunchSource = ['web', 'replacement'] as const;
export type PunchSource = (typeof PunchSource)[number];

/** The month's report query: the month, one group or all, a staff name's part, the page. */
export const reportQuerySchema = z.object({
  month: isoMonth,
  groupId: z.coerce.number().int().positive().optional(),
  keyword: storableText().max(50).optional(),
  current: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** One person's days of a month, from the report. */
export const personMonthQuerySchema = z.object({ month: isoMonth, staffId: z.coerce.number().int().positive() });

/** A punch as a day shows it. */
export interface DayPunch {
  id: number;
  punchedAt: string;
  outside: boolean;
  source: PunchSource | string;
  addressName: string | null;
}

/** One person's day, judged. */
export interface AttendanceDay {
  date: string;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
  dayType: DayType;
  /** None while the day's last check is still open, or for a day to come. */
  result: DayResult | null;
  checks: PunchCheck[];
  punches: DayPunch[];
}

/** One person's month: their group, shift and days. */
export interface PersonMonth {
  groupName: string;
  shiftName: string;
  allowOutside: boolean;
  days: AttendanceDay[];
}

/** A row of the month's report: one group member's days counted by result. */
export interface ReportRow {
  staffId: number;
  staffName: string;
  groupName: string;
  workdays: number;
  normal: number;
  late: number;
  early: number;
  absent: number;
  missing: number;
  outside: number;
  replaced: number;
}
