import { describe, expect, it } from 'vitest';
import { dayTypeOf, judgeDay, layShift, minutesOf, nationalHolidays, type ShiftRules } from './people.ts';

const rules = (periods: Array<[string, string]>, extra: Partial<ShiftRules> = {}): ShiftRules => {
  const laid = layShift(periods.map(([start, end]) => ({ start, end })));
  if ('refusal' in laid) throw new Error(laid.refusal);
  return { periods: laid.periods, lateGrace: 0, earlyGrace: 0, inWindow: 120, outWindow: 240, ...extra };
};
const at = (time: string, nextDay = false) => minutesOf(time) + (nextDay ? 1440 : 0);

describe('layShift', () => {
  it('lays a night shift and a split night shift on the next day', () => {
    expect(layShift([{ start: '22:00', end: '06:00' }])).toEqual({ periods: [{ start: 1320, end: 1800 }] });
    expect(layShift([{ start: '20:00', end: '23:00' }, { start: '01:00', end: '05:00' }])).toEqual({ periods: [{ start: 1200, end: 1380 }, { start: 1500, end: 1740 }] });
  });
  it('refuses a period starting at its off time, overlapping or touching periods, and a day or more', () => {
    expect(layShift([{ start: '09:00', end: '09:00' }])).toEqual({ refusal: 'StartTimeMustBeforeOffTime', line: 1 });
    expect(layShift([{ start: '08:00', end: '12:00' }, { start: '11:00', end: '17:00' }])).toEqual({ refusal: 'ShiftTimeOverlap', line: 2 });
    expect(layShift([{ start: '08:00', end: '12:00' }, { start: '12:00', end: '17:00' }])).toEqual({ refusal: 'ShiftTimeOverlap', line: 2 });
    expect(layShift([{ start: '13:00', end: '17:00' }, { start: '08:00', end: '12:00' }])).toEqual({ refusal: 'ShiftTimeOrder', line: 2 });
    expect(layShift([{ start: '22:00', end: '02:00' }, { start: '01:00', end: '05:00' }])).toEqual({ refusal: 'ShiftTimeOverlap', line: 2 });
    expect(layShift([{ start: '22:00', end: '02:00' }, { start: '03:00', end: '05:00' }, { start: '01:00', end: '02:00' }])).toEqual({ refusal: 'ShiftTimeOrder', line: 3 });
    expect(layShift([{ start: '08:00', end: '20:00' }, { start: '21:00', end: '09:00' }])).toEqual({ refusal: 'ShiftLongerThanADay', line: 2 });
  });
});

describe('judgeDay', () => {
  const day = rules([['09:00', '18:00']], { lateGrace: 5, earlyGrace: 3 });
  it('normal, late beyond the grace, early beyond the grace, missing, absent, rest', () => {
    expect(judgeDay(day, [at('08:50'), at('18:02')], 'workday').result).toBe('normal');
    expect(judgeDay(day, [at('09:05'), at('17:57')], 'workday').result).toBe('normal');
    expect(judgeDay(day, [at('09:06'), at('18:00')], 'workday').result).toBe('late');
    expect(judgeDay(day, [at('09:00'), at('17:56')], 'workday').result).toBe('early');
    expect(judgeDay(day, [at('09:00')], 'workday').result).toBe('missing');
    expect(judgeDay(day, [at('17:00')], 'workday').result).toBe('missing');
    expect(judgeDay(day, [], 'workday').result).toBe('absent');
    // Outside the windows: no check's punch.
    expect(judgeDay(day, [at('06:00'), at('23:00')], 'workday').result).toBe('absent');
    expect(judgeDay(day, [], 'holiday').result).toBe('rest');
  });
  it('a night shift takes its clock-out from the next morning', () => {
    const night = rules([['22:00', '06:00']]);
    const judged = judgeDay(night, [at('21:50'), at('06:01', true)], 'workday');
    expect(judged.result).toBe('normal');
    expect(judged.checks.map((c) => c.at)).toEqual([at('21:50'), at('06:01', true)]);
    expect(judgeDay(night, [at('21:50'), at('05:00', true)], 'workday').result).toBe('early');
  });
  it('two periods: each has its clock-in and clock-out', () => {
    const split = rules([['08:00', '12:00'], ['13:00', '17:00']]);
    expect(judgeDay(split, [at('07:59'), at('12:01'), at('12:59'), at('17:00')], 'workday').result).toBe('normal');
    const missing = judgeDay(split, [at('07:59'), at('12:01'), at('17:00')], 'workday');
    expect(missing.result).toBe('missing');
    expect(missing.checks.filter((c) => c.result === 'missing').map((c) => [c.period, c.side])).toEqual([[2, 'in']]);
    expect(judgeDay(split, [at('08:10'), at('12:01'), at('12:59'), at('17:00')], 'workday').result).toBe('late');
  });
});

describe('calendar', () => {
  it('the weekly rest and listed days decide a date', () => {
    const listed = new Map([['2026-10-01', 'holiday' as const], ['2026-10-10', 'workday' as const]]);
    expect(dayTypeOf('2026-10-01', 'satSun', listed)).toBe('holiday');
    expect(dayTypeOf('2026-10-10', 'satSun', listed)).toBe('workday');
    expect(dayTypeOf('2026-10-17', 'satSun', listed)).toBe('rest');
    expect(dayTypeOf('2026-10-17', 'sun', listed)).toBe('workday');
    expect(dayTypeOf('2026-10-18', 'none', listed)).toBe('workday');
  });
  it('generates the statutory holidays from the rules, lunar festivals by the new moon', () => {
    const of = (year: number, name: string) => nationalHolidays(year).filter((d) => d.name === name).map((d) => d.date);
    expect(of(2024, '春节')).toEqual(['2024-02-09', '2024-02-10', '2024-02-11', '2024-02-12']);
    expect(of(2025, '春节')[1]).toBe('2025-01-29');
    expect(of(2026, '春节')[1]).toBe('2026-02-17');
    expect(of(2023, '春节')[1]).toBe('2023-01-22');
    expect(of(2024, '清明节')).toEqual(['2024-04-04']);
    expect(of(2026, '清明节')).toEqual(['2026-04-05']);
    expect(of(2024, '端午节')).toEqual(['2024-06-10']);
    expect(of(2025, '端午节')).toEqual(['2025-05-31']);
    expect(of(2024, '中秋节')).toEqual(['2024-09-17']);
    expect(of(2025, '中秋节')).toEqual(['2025-10-06']);
    expect(of(2026, '国庆节')).toEqual(['2026-10-01', '2026-10-02', '2026-10-03']);
    expect(nationalHolidays(2026)).toHaveLength(13);
  });
});
