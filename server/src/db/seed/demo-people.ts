import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { sql } from 'drizzle-orm';
import { rows, type Database } from '../connection.ts';
import { withServiceContext } from '../../core/service-context.ts';
import { clockIn, localDate, midnightOf, monthDays, rulesOf } from '../../modules/people/attendance.ts';
import { Replacement } from '@p8/contract/bills/people';
import { auditBill, createBill, submitBill } from '../../bills/service.ts';
import { clockOf, dayTypeOf } from '@p8/contract/people';
import { DEMO_TENANTS } from './demo.ts';
import { demoSender, prng, type DemoAccount } from './demo-mall.ts';

/*
 * The first demo tenant's attendance (docs/people.md): this year's calendar with its generated holidays, an
 * office day shift and the workshop's two-period shift, two attendance groups — the office (the administrator)
 * and the workshop (the workers) — each with its clock address, and the punches of last month and this month
 * until yesterday: mostly on time, some late, some leaving early, a few missing the clock-out, a few absent.
 * Punches are made by the clock-in service at the address, dated in the past. The last workdays within the
 * replacement time limit: the administrator missed the clock-out twice (left for the screen's replacement
 * request), three workers once each — two of them asked for a replacement that the administrator approved (the
 * day turns normal, the report counts it), the third's request awaits the audit. The requests go through the bill
 * engine's services, whose time limit is the real clock's: seeded with a past `now` (tests), none are filed.
 */

const OFFICE = { latitude: 22.540503, longitude: 113.934528 };
const WORKSHOP = { latitude: 22.5561, longitude: 113.9382 };
const WORKERS = ['wangqiang', 'liuyang', 'chenjing', 'zhaomin', 'sunli', 'zhoujie', 'wugang'];

/** Whether the first demo tenant exists without an attendance calendar (a read on the owner connection: no sign-in on every start). */
export async function demoPeopleMissing(database: Database): Promise<boolean> {
  const [found] = await rows<{ has_calendar: boolean }>(
    database,
    sql`select exists (select 1 from attendance_calendar c where c.tenant_id = l.tenant_id) as has_calendar from login_name l where l.name = lower(${DEMO_TENANTS[0].adminName})`,
  );
  return !!found && !found.has_calendar;
}

/** Seeds the attendance of the first demo tenant; false when it has a calendar already. */
export async function seedPeopleDemo(app: FastifyInstance, database: Database, config: Config, now = new Date()): Promise<boolean> {
  const demo = DEMO_TENANTS[0];
  const send = demoSender(app, 'people demo');
  const token = (await send<{ token: string }>('POST', '/auth/admin/name', { body: { name: demo.adminName, password: demo.password } })).token;
  try {
    const api = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => send<T>(method, url, { token, body });
    if ((await api<unknown[]>('GET', '/admin/people/calendar?current=1&pageSize=1')).length > 0) return false;
    const me = await api<DemoAccount>('GET', '/admin/current/detail');
    const staff = await api<Array<{ id: number; name: string }>>('GET', '/admin/security/admin?current=1&pageSize=100');
    const workers = staff.filter((s) => WORKERS.includes(s.name)).map((s) => s.id);

    const year = now.getFullYear();
    const calendarId = (await api<{ id: number }>('POST', '/admin/people/calendar', { name: `${year} 年考勤日历`, year, weeklyRest: 'satSun', remark: '法定节假日按规则生成，调休请按国务院通知补充' })).id;
    // Last month may be last year's (January): its calendar too.
    const lastMonth = new Date(now.getFullYear(), now.getMonth() - 1, 1);
    if (lastMonth.getFullYear() !== year) {
      await api('POST', '/admin/people/calendar', { name: `${lastMonth.getFullYear()} 年考勤日历`, year: lastMonth.getFullYear(), weeklyRest: 'satSun' });
    }
    const dayShift = (await api<{ id: number }>('POST', '/admin/people/shift', { name: '行政白班', lateGrace: 5, earlyGrace: 0, inWindow: 120, outWindow: 240, periods: [{ start: '09:00', end: '18:00' }] })).id;
    const workshopShift = (await api<{ id: number }>('POST', '/admin/people/shift', { name: '车间两段班', lateGrace: 3, earlyGrace: 0, inWindow: 60, outWindow: 120, periods: [{ start: '08:00', end: '12:00' }, { start: '13:30', end: '17:30' }] })).id;
    await api('POST', '/admin/people/shift', { name: '夜班', lateGrace: 10, earlyGrace: 0, inWindow: 60, outWindow: 120, periods: [{ start: '22:00', end: '06:00' }], remark: '跨天班次：次日 06:00 下班' });
    const office = (await api<{ id: number }>('POST', '/admin/people/attendanceGroup', { name: '行政办公室', calendarId, shiftId: dayShift, allowOutside: true, replacementPerMonth: 3, replacementDays: 7, replaceLateEarly: false, members: [{ staffId: me.id }] })).id;
    const workshop = (await api<{ id: number }>('POST', '/admin/people/attendanceGroup', { name: '生产车间', calendarId, shiftId: workshopShift, allowOutside: false, replacementPerMonth: 2, replacementDays: 5, replaceLateEarly: false, members: workers.map((staffId) => ({ staffId })) })).id;
    await api('POST', '/admin/people/clockAddress', { name: '公司总部', groupId: office, ...OFFICE, radius: 300, wifiName: 'DEMO-OFFICE' });
    await api('POST', '/admin/people/clockAddress', { name: '生产厂区', groupId: workshop, ...WORKSHOP, radius: 500 });

    const random = prng(20261201);
    const yesterday = localDate(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
    const months = [localDate(lastMonth).slice(0, 7), localDate(now).slice(0, 7)];
    const dates = months.flatMap(monthDays).filter((d) => d <= yesterday);
    // The workers' requests to file for the days they missed the clock-out on purpose (see above).
    const realToday = localDate(new Date());
    const withinLimit = (date: string, days: number) => date < realToday && midnightOf(realToday).getTime() - midnightOf(date).getTime() <= days * 86_400_000;
    const requests: Array<{ staffId: number; date: string; time: string; approve: boolean }> = [];
    for (const staffId of [me.id, ...workers]) {
      const caller = { tenantId: me.tenantId, account: { tenantId: me.tenantId, adminId: staffId, sessionId: '' }, config, registries: app.registries, log: app.log, ip: '', access: app.access };
      // One person's punches in one unit of work.
      await withServiceContext(database, caller, async (ctx) => {
        const rules = (await rulesOf(ctx.tx, ctx.tenantId, [staffId])).get(staffId)!;
        const place = rules.groupId === office ? OFFICE : WORKSHOP;
        const workdays = dates.filter((date) => dayTypeOf(date, rules.weeklyRest, rules.listed) === 'workday');
        const recent = workdays.filter((date) => withinLimit(date, rules.replacementDays - 1));
        const worker = workers.indexOf(staffId);
        const missed = staffId === me.id ? recent.slice(-2) : worker >= 0 && worker < 3 ? recent.slice(-1) : [];
        if (worker >= 0) for (const date of missed) requests.push({ staffId, date, time: clockOf(rules.shift.periods.at(-1)!.end), approve: worker < 2 });
        for (const date of workdays) {
          const roll = missed.includes(date) ? 0.13 : random.next();
          if (roll < 0.03) continue; // absent
          const midnight = midnightOf(date).getTime();
          const at = (minutes: number) => new Date(midnight + minutes * 60_000);
          const punch = (minutes: number) => clockIn(ctx, { latitude: place.latitude + (random.next() - 0.5) * 0.001, longitude: place.longitude + (random.next() - 0.5) * 0.001, accuracy: random.int(5, 40) }, at(minutes), rules);
          for (const [index, period] of rules.shift.periods.entries()) {
            const late = roll >= 0.03 && roll < 0.09 && index === 0;
            const early = roll >= 0.09 && roll < 0.12 && index === rules.shift.periods.length - 1;
            const missing = roll >= 0.12 && roll < 0.15 && index === rules.shift.periods.length - 1;
            await punch(late ? period.start + random.int(8, 40) : period.start - random.int(1, 20));
            if (!missing) await punch(early ? period.end - random.int(10, 60) : period.end + random.int(1, 25));
          }
        }
      });
    }
    // The workers' replacement requests, each in its own unit of work as the worker; approved by the administrator.
    const actingAs = (adminId: number) => ({ tenantId: me.tenantId, account: { tenantId: me.tenantId, adminId, sessionId: '' }, config, registries: app.registries, log: app.log, ip: '', access: app.access });
    for (const request of requests) {
      const id = await withServiceContext(database, actingAs(request.staffId), async (ctx) => {
        const made = await createBill(ctx, Replacement, { billDate: realToday, replaceDate: request.date, replaceTime: request.time, replaceReason: '忘记打下班卡', remark: '', lines: [] });
        await submitBill(ctx, Replacement, made.id);
        return made.id;
      });
      if (request.approve) await withServiceContext(database, actingAs(me.id), (ctx) => auditBill(ctx, Replacement, id));
    }
    return true;
  } finally {
    await send('POST', '/auth/logout', { token }).catch(() => {});
  }
}
