import type { AuditType } from '@p8/contract/office';
import { BizError, forbidden } from '../core/errors.ts';

/**
 * Joint review, as a pure decision: given the review flow configured for a bill type (its reviewers in
 * order, AnyVerify or AllVerify, sequential or not), who has already approved in this round, who acts and
 * how, where the bill goes — or the catalogued refusal. No database: every mode × step is a unit test
 * (review.test.ts); the engine (service.ts) reads the flow and the round's approvals and asks this.
 *
 * - AnyVerify: the first approval audits the bill.
 * - AllVerify: every reviewer approves; until the last one has, the bill waits in UnAudit.
 * - Sequential: only the next reviewer in order (the first who has not approved) may act, whether to
 *   approve or to refuse (others: WaitPreviousVerify). With AnyVerify that is the first reviewer.
 * - One refusal refuses the bill, whatever the mode.
 * - Someone not among the reviewers: NoVerifyPermission; a reviewer who already approved: AlreadyVerified.
 */

export interface ReviewFlow {
  auditType: AuditType;
  sequential: boolean;
  /** Reviewer account ids, in review order. */
  reviewers: readonly number[];
}

export type ReviewStep = 'approve' | 'refuse';

export interface ReviewOutcome {
  /** Audit: the bill is audited (stock and progress follow); UnAudit: others still to approve; Refuse. */
  to: 'Audit' | 'UnAudit' | 'Refuse';
  /** Reviewers still to approve after this step, in order (empty unless `to` is UnAudit). */
  waiting: number[];
}

/** The reviewers of `flow` who have not approved yet, in order. */
export function waitingReviewers(flow: ReviewFlow, approved: readonly number[]): number[] {
  return flow.reviewers.filter((id) => !approved.includes(id));
}

/** The outcome of `actor`'s `step` on a bill under review whose round so far has the approvals `approved`. */
export function reviewOutcome(flow: ReviewFlow, approved: readonly number[], actor: number, step: ReviewStep): ReviewOutcome {
  if (!flow.reviewers.includes(actor)) throw forbidden('NoVerifyPermission');
  if (approved.includes(actor)) throw new BizError('AlreadyVerified');
  const before = waitingReviewers(flow, approved);
  if (flow.sequential && before[0] !== actor) throw new BizError('WaitPreviousVerify');
  if (step === 'refuse') return { to: 'Refuse', waiting: [] };
  if (flow.auditType === 'AnyVerify') return { to: 'Audit', waiting: [] };
  const waiting = before.filter((id) => id !== actor);
  return waiting.length ? { to: 'UnAudit', waiting } : { to: 'Audit', waiting: [] };
}
