import { and, eq, sql } from 'drizzle-orm';
import { Replacement } from '@p8/contract/bills/people';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import { judgeDay, type AttendanceDay, type DayResult } from '@p8/contract/people';
import { lockKey } from '../../core/advisory-lock.ts';
import { BizError } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows } from '../../db/connection.ts';
import { attendancePunch } from '../../db/schema/index.ts';
import type { BillPostingHook } from '../../bills/posting-hooks.ts';
import type { BillRules } from '../../bills/rules.ts';
import { localDate, midnightOf, ownRules, personDay, type GroupRules } from './attendance.ts';

/*
 * Replacement clock-in (补卡申请, contract bills/people.ts): a bill of the engine whose creator asks for a punch
 * at a time of a past day. Its rules, asked by the engine at save, submit and audit (docs/people.md):
 * - never for a day to come (`ReplacementFutureDate`, also at save);
 * - the creator's attendance group (`NoAttendanceRules`) with replacement rules — a count a month above 0
 *   (`NoReplacementRules`);
 * - submitted within the group's days of the day replaced (`ReplacementTimeLimitExceeded`; the review may take
 *   longer);
 * - a workday (`ReplacementRestDay`) whose result is a missing punch or absent — late or early too where the
 *   group allows it (`ReplacementOnlyForAbsence`) —, and the time fills one of its checks that is missing (or
 *   late / early where allowed): otherwise `ReplacementNotNeeded`;
 * - at most the group's count a month (the month of the day replaced), counting the requests under review
 *   (submitted, in joint review) and audited ones (`ReplacementMonthlyCountExceeded`).
 * Submits and audits of one staff member's requests take turns on an advisory lock, so two requests at the same
 * moment never both pass the count, nor two approvals both fill one check. Auditing records the punch (source
 * `replacement`, naming the bill); withdrawing the audit deletes it. The day is judged from the punches when read.
 */

/** The statuses of a request that counts against the month: under review or audited. */
const COUNTED = ['Submitted', 'UnAudit', 'Audit'] as const;
const UNDER_REVIEW = new Set(['Submitted', 'UnAudit']);

const DAY_MS = 86_400_000;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Whether a check's result still needs a punch: missing, or late / early where the group lets those be replaced. */
const needsPunch = (rules: GroupRules) => (result: string) => result === 'missing' || (rules.replaceLateEarly && (result === 'late' || result === 'early'));

/** Days from `from` to `to` (local calendar days). */
const daysBetween = (from: string, to: string) => Math.round((midnightOf(to).getTime() - midnightOf(from).getTime()) / DAY_MS);

export function assertNotFuture(date: string, now = new Date()) {
  if (date > localDate(now)) throw new BizError('ReplacementFutureDate');
}

/**
 * The instant a request's time stands for on its day, if it fills a check the day still needs: the time on the
 * day itself, or on the next day for a shift running past midnight (a night shift's clock-out). Undefined: none.
 */
export function replacementInstant(rules: GroupRules, day: AttendanceDay, time: string): Date | undefined {
  const midnight = midnightOf(day.date).getTime();
  const held = day.punches.map((p) => Math.floor((new Date(p.punchedAt).getTime() - midnight) / 60_000));
  const needs = needsPunch(rules);
  const open = (minutes: readonly number[]) => judgeDay(rules.shift, minutes, day.dayType).checks.filter((c) => needs(c.result)).length;
  const before = open(held);
  for (const minutes of [minutesOf(time), minutesOf(time) + 1440]) {
    if (open([...held, minutes]) < before) return new Date(midnight + minutes * 60_000);
  }
  return undefined;
}

/** The requests of a staff member counting against the month of `date` (other than `billId`). */
async function countedThisMonth(ctx: ServiceContext, staffId: number, date: string, billId: number): Promise<number> {
  const month = date.slice(0, 7);
  const [found] = await rows<{ n: number | string }>(
    ctx.tx,
    sql`select count(*)::int as n from bill
        where tenant_id = ${ctx.tenantId} and bill_type = ${Replacement.type} and created_by = ${staffId} and id <> ${billId}
          and bill_status in (${sql.join(COUNTED.map((s) => sql`${s}`), sql`, `)})
          and left(extra->>'replaceDate', 7) = ${month}`,
  );
  return Number(found?.n ?? 0);
}

/**
 * Checks a request of `staffId` as it is submitted (`atSubmit`: the time limit too) or audited, under the staff
 * member's lock; answers the punch it stands for.
 */
export async function assertReplaceable(ctx: ServiceContext, staffId: number, request: { id: number; replaceDate: string; replaceTime: string }, atSubmit: boolean, now = new Date()): Promise<{ rules: GroupRules; at: Date }> {
  await lockKey(ctx.tx, `replacement:${ctx.tenantId}:${staffId}`);
  assertNotFuture(request.replaceDate, now);
  const rules = await ownRules(ctx, staffId);
  if (rules.replacementPerMonth <= 0) throw new BizError('NoReplacementRules');
  if (atSubmit && daysBetween(request.replaceDate, localDate(now)) > rules.replacementDays) throw new BizError('ReplacementTimeLimitExceeded');
  const day = await personDay(ctx, rules, staffId, request.replaceDate, now);
  if (day.dayType !== 'workday') throw new BizError('ReplacementRestDay');
  const replaceable: DayResult[] = rules.replaceLateEarly ? ['missing', 'absent', 'late', 'early'] : ['missing', 'absent'];
  if (!day.result || !replaceable.includes(day.result)) throw new BizError('ReplacementOnlyForAbsence');
  const at = replacementInstant(rules, day, request.replaceTime);
  if (!at) throw new BizError('ReplacementNotNeeded');
  if ((await countedThisMonth(ctx, staffId, request.replaceDate, request.id)) >= rules.replacementPerMonth) throw new BizError('ReplacementMonthlyCountExceeded');
  return { rules, at };
}

const requestOf = (header: Record<string, unknown>) => ({ id: Number(header.id ?? 0), replaceDate: String(header.replaceDate ?? ''), replaceTime: String(header.replaceTime ?? '') });

/** The type's rules with the engine: a draft never names a day to come; submit and audit check the rest. */
export function registerReplacementRules(rules: BillRules) {
  rules.register(Replacement.type, {
    async saving(_ctx, _decl, draft) {
      if (typeof draft.header.replaceDate === 'string') assertNotFuture(draft.header.replaceDate);
    },
    async completing(ctx, _decl, header) {
      await assertReplaceable(ctx, Number(header.createdBy), requestOf(header), !UNDER_REVIEW.has(String(header.billStatus)));
    },
  });
}

/** Auditing a request records its punch; withdrawing the audit takes it away. */
export const replacementPunchHook: BillPostingHook = {
  async audited(ctx: ServiceContext, decl: BillTypeDecl, row) {
    if (decl.type !== Replacement.type) return;
    const staffId = Number(row.createdBy);
    // The engine asked the rules just before (completing), under the same lock: the same answer.
    const { rules, at } = await assertReplaceable(ctx, staffId, requestOf({ ...row, ...row.extra }), false);
    await ctx.tx.insert(attendancePunch).values({ tenantId: ctx.tenantId, staffId, groupId: rules.groupId, punchedAt: at, source: 'replacement', billId: row.id });
  },
  async abandoned(ctx: ServiceContext, decl: BillTypeDecl, row) {
    if (decl.type !== Replacement.type) return;
    await ctx.tx.delete(attendancePunch).where(and(eq(attendancePunch.tenantId, ctx.tenantId), eq(attendancePunch.billId, row.id)));
  },
};
