import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DAY_RESULT_LABELS, type AttendanceDay, type DayResult } from '@p8/contract/people';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connection.ts';
import { admin, attendanceGroup, department } from '../../db/schema/index.ts';
import type { AccessInvalidator } from '../../core/access-cache.ts';
import { sendNotice } from '../../core/notices.ts';
import { startPeriodic } from '../../core/periodic.ts';
import type { Registries } from '../../core/registries.ts';
import { superAdminCaller, withServiceContext } from '../../core/service-context.ts';
import { localDate, membersDay, nextDate } from './attendance.ts';

/*
 * Attendance anomalies, told the day after: a periodic job (core/periodic.ts, like the other sweeps) judges
 * yesterday for every member of an enabled attendance group (attendance.ts, the same judging as the person's
 * month and the report) and sends each person whose day was late, left early, absent or missing a punch a
 * notice from the system (no sender: nobody acted), and the leader of their department one too. Each notice
 * is sent once per receiver, person and day (the message's once key `attendance:<staffId>:<date>`), so the
 * job runs hourly on every server process without telling anyone twice — the first run after midnight
 * tells, the later ones find everything sent. A day still open (a night shift's last check ahead) is left
 * for a later run. One unit of work per tenant, acting as its super administrator (as the unpaid-order
 * sweep); one tenant's failure does not stop the others.
 */

export interface AttendanceNoticeDeps {
  database: Database;
  config: Config;
  registries: Registries;
  access: AccessInvalidator;
  log: FastifyBaseLogger;
}

/** What went wrong on a day, in the order of its checks: absent, or its checks' late / early / missing. */
export function anomaliesOf(day: AttendanceDay): DayResult[] {
  // A rest day's checks are all "missing" (nobody punched): only a workday's result counts.
  if (day.result === null || day.result === 'normal' || day.result === 'rest') return [];
  if (day.result === 'absent') return ['absent'];
  return [...new Set<DayResult>(day.checks.map((c) => c.result).filter((r) => r !== 'normal'))];
}

/** Tells every tenant's people of yesterday's anomalies (`now`'s local yesterday); answers the notices stored and whether every day was final. */
export async function notifyAttendanceAnomalies(deps: AttendanceNoticeDeps, { now = new Date() }: { now?: Date } = {}): Promise<{ date: string; sent: number; complete: boolean }> {
  const date = nextDate(localDate(now), -1);
  const tenants = await deps.database.withSystem((tx) => tx.selectDistinct({ tenantId: attendanceGroup.tenantId }).from(attendanceGroup).where(eq(attendanceGroup.enabled, true)));
  let sent = 0;
  let complete = true;
  for (const { tenantId } of tenants) {
    try {
      const done = await notifyTenant(deps, tenantId, date, now);
      sent += done.sent;
      complete &&= done.complete;
    } catch (error) {
      complete = false;
      deps.log.error({ err: error, tenantId, date }, 'attendance notices: a tenant failed');
    }
  }
  return { date, sent, complete };
}

async function notifyTenant(deps: AttendanceNoticeDeps, tenantId: number, date: string, now: Date): Promise<{ sent: number; complete: boolean }> {
  const caller = await superAdminCaller(deps, tenantId);
  if (!caller) return { sent: 0, complete: true };
  return withServiceContext(deps.database, caller, async (ctx) => {
    const days = await membersDay(ctx, date, now);
    const people = days.map((d) => d.staffId);
    // The person's department leader hears of it too (an enabled, unlocked account other than the person).
    const leaders = people.length
      ? await ctx.tx
          .select({ staffId: admin.id, leaderId: department.leaderId })
          .from(admin)
          .innerJoin(department, and(eq(department.tenantId, admin.tenantId), eq(department.id, admin.deptId)))
          .where(and(eq(admin.tenantId, tenantId), inArray(admin.id, people)))
      : [];
    const leaderIds = [...new Set(leaders.flatMap((l) => (l.leaderId === null ? [] : [l.leaderId])))];
    const active = new Set(
      leaderIds.length
        ? (await ctx.tx.select({ id: admin.id }).from(admin).where(and(eq(admin.tenantId, tenantId), inArray(admin.id, leaderIds), eq(admin.enabled, true), eq(admin.isLock, false)))).map((a) => a.id)
        : [],
    );
    const leaderOf = new Map(leaders.map((l) => [l.staffId, l.leaderId !== null && active.has(l.leaderId) ? l.leaderId : null]));
    let sent = 0;
    let complete = true;
    for (const { staffId, staffName, day } of days) {
      if (day.result === null) {
        complete = false;
        continue;
      }
      const anomalies = anomaliesOf(day);
      if (!anomalies.length) continue;
      const notice = {
        key: 'attendanceAnomaly' as const,
        params: {
          date,
          person: staffName,
          anomaliesZh: anomalies.map((r) => DAY_RESULT_LABELS[r].zh).join('、'),
          anomaliesEn: anomalies.map((r) => DAY_RESULT_LABELS[r].en.toLowerCase()).join(', '),
        },
      };
      const leader = leaderOf.get(staffId);
      const receivers = leader && leader !== staffId ? [staffId, leader] : [staffId];
      sent += (await sendNotice(ctx, receivers, notice, { from: 'system', onceKey: `attendance:${staffId}:${date}` })).length;
    }
    return { sent, complete };
  });
}

/**
 * Runs the job two minutes after start and then hourly; a process that has told a whole day skips it until
 * the next one. Answers the stop function.
 */
export function startAttendanceNotices(deps: AttendanceNoticeDeps, intervalMs = 3600_000, delayMs = 120_000): () => Promise<void> {
  let told: string | undefined;
  return startPeriodic(async () => {
    if (told === nextDate(localDate(new Date()), -1)) return;
    try {
      const { date, sent, complete } = await notifyAttendanceAnomalies(deps);
      if (complete) told = date;
      if (sent) deps.log.info({ date, sent }, 'attendance anomalies told');
    } catch (error) {
      deps.log.error({ err: error }, 'attendance notices: the run failed');
    }
  }, intervalMs, delayMs);
}
