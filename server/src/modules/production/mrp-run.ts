import { and, eq, inArray } from 'drizzle-orm';
import { idSchema } from '@p8/contract/common';
import { billApiPath, billButtonCode, meets, type BillPayload } from '@p8/contract/bills/registry';
import { MRP_LINES, MrpPlan } from '@p8/contract/bills/production';
import type { BillStatus } from '@p8/contract/bills/status';
import { z } from 'zod';
import { enqueueJob, type JobContext, type JobKind } from '../../core/background-jobs.ts';
import { BizError } from '../../core/errors.ts';
import { yieldToEventLoop } from '../../core/excel.ts';
import { route } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { assertCreator, headerPayload, loadBill, loadLines, payloadLine } from '../../bills/bill-rows.ts';
import { updateBill } from '../../bills/bill-save.ts';
import { transition } from '../../bills/state-machine.ts';
import { backgroundJob } from '../../db/schema/index.ts';
import { planLines } from './mrp.ts';
import type { MrpStep } from './mrp-netting.ts';

/*
 * Running MRP for a saved plan as a background job (docs/production.md, "Running it"): the plan's form asks
 * for a run (`POST /api/admin/production/mrp/run`, the plan's save button code), which queues a job; a runner
 * in any process runs it as the account that asked, within its data scope: in one transaction it reads the
 * plan's demand lines, runs MRP over them against today's stock and supply (a low-level code at a time, its
 * progress the materials netted), saves the plan with the new suggestions in place of the old ones (the
 * plan's own save: its checks, totals, history and audit) and marks the job succeeded — all of it commits
 * or none of it. A plan has at most one run queued or running.
 */

export const MRP_RUN_JOB = 'mrp';

interface MrpRunPayload {
  planId: number;
  /** What the job list says the job is about: the plan. */
  title: { zh: string; en: string };
}

/** What a run answers: the plan, and its demand and suggestion lines now. */
export interface MrpRunResult {
  billCode: string;
  demands: number;
  suggestions: number;
}

/** The job's subject: the plan (its API path), by which a second run is refused. */
const subjectOf = (planId: number) => `${billApiPath(MrpPlan)}/${planId}`;

/**
 * Queues a run of plan `id` for the caller: a plan they may save (theirs, in their data scope, a draft or
 * refused), none of whose runs is queued or running. The plan's row is locked while asking, so two requests
 * at once are one after the other and the second is refused.
 */
export async function queueMrpRun(ctx: ServiceContext, id: number): Promise<{ id: number }> {
  const plan = await loadBill(ctx, MrpPlan, id, true);
  assertCreator(ctx, plan);
  transition(plan.billStatus as BillStatus, 'save');
  const subject = subjectOf(plan.id);
  const [running] = await ctx.tx
    .select({ id: backgroundJob.id })
    .from(backgroundJob)
    .where(and(eq(backgroundJob.tenantId, ctx.tenantId), eq(backgroundJob.kind, MRP_RUN_JOB), eq(backgroundJob.subject, subject), inArray(backgroundJob.status, ['queued', 'running'])))
    .limit(1);
  if (running) throw new BizError('MrpRunRunning', { additional: running.id });
  const payload: MrpRunPayload = { planId: plan.id, title: { zh: `${MrpPlan.label.zh} ${plan.billCode}`, en: `${MrpPlan.label.en} ${plan.billCode}` } };
  return { id: await enqueueJob(ctx, { kind: MRP_RUN_JOB, subject, payload }) };
}

/** The plan's lines with the suggestions of a new run, reporting each low-level code netted to the job. */
async function runPlan(ctx: ServiceContext, job: JobContext, planId: number, betweenLevels?: () => Promise<void>): Promise<MrpRunResult> {
  const plan = await loadBill(ctx, MrpPlan, planId, true);
  assertCreator(ctx, plan);
  transition(plan.billStatus as BillStatus, 'save');
  const demands = (await loadLines(ctx.tx, ctx.tenantId, plan.id)).map(payloadLine).filter((l) => meets(MRP_LINES.demands, l));
  const payload: BillPayload & { id: number } = { ...headerPayload(MrpPlan, plan), id: plan.id, billCode: plan.billCode, billDate: plan.billDate, lines: demands };
  let materials = 0;
  const step = async (at: MrpStep) => {
    materials = at.materials;
    // Not awaited: on the embedded database the progress waits for this transaction (PostgreSQL writes it at once).
    job.progress(at.materialsDone, at.materials).catch(() => {});
    await betweenLevels?.();
    await yieldToEventLoop();
    // Stopped or taken over: roll back here rather than at the end.
    job.signal.throwIfAborted();
  };
  const lines = await planLines(ctx, MrpPlan, payload, step);
  await updateBill(ctx, MrpPlan, { ...payload, lines });
  // Every material netted: the job's progress, written with its success.
  await ctx.tx.update(backgroundJob).set({ progressTotal: materials }).where(and(eq(backgroundJob.tenantId, job.tenantId), eq(backgroundJob.id, job.jobId)));
  return { billCode: plan.billCode, demands: demands.length, suggestions: lines.length - demands.length };
}

/**
 * The MRP run job kind. `betweenLevels` is awaited after each low-level code (the tests stop a runner there,
 * mid-transaction).
 */
export function mrpRunJobKind(options: { kind?: string; betweenLevels?: () => Promise<void> } = {}): JobKind {
  return {
    kind: options.kind ?? MRP_RUN_JOB,
    async run(job) {
      const { planId } = job.payload as MrpRunPayload;
      await job.progress(0, null);
      await job.caller.transaction(async (ctx) => {
        const result = await runPlan(ctx, job, planId, options.betweenLevels);
        await job.complete(ctx.tx, result);
      });
      return undefined;
    },
  };
}

export const mrpRunRoutes = [
  route({
    method: 'POST', url: `${billApiPath(MrpPlan)}/run`, tags: ['production: MRP'], summary: "Run MRP for a saved plan as a background job (its suggestions replaced when the job succeeds); answers the job's id",
    permission: billButtonCode(MrpPlan, 'update'), body: z.object({ id: idSchema }),
    handler: (ctx, { body }) => queueMrpRun(ctx, body.id),
  }),
];
