import { describe, expect, it } from 'vitest';
import { AuditType } from '@p8/contract/office';
import { BizError } from '../core/errors.ts';
import { reviewOutcome, waitingReviewers, type ReviewFlow, type ReviewStep } from './review.ts';

/*
 * Every mode (AnyVerify / AllVerify × free / sequential order) × every step of a round with three
 * reviewers (1, 2, 3): who may act after which approvals, and where the bill goes. The expectations are
 * written from the rules, not computed by them.
 */

const REVIEWERS = [1, 2, 3];
const OUTSIDER = 9;

type Expected = 'Audit' | 'UnAudit' | 'Refuse' | 'NoVerifyPermission' | 'AlreadyVerified' | 'WaitPreviousVerify';

/** What `actor`'s approval / refusal leads to, after `approved`, per mode. */
function expected(auditType: AuditType, sequential: boolean, approved: number[], actor: number, step: ReviewStep): Expected {
  if (!REVIEWERS.includes(actor)) return 'NoVerifyPermission';
  if (approved.includes(actor)) return 'AlreadyVerified';
  // In order, the next one is the first reviewer not yet approved.
  if (sequential && REVIEWERS.find((r) => !approved.includes(r)) !== actor) return 'WaitPreviousVerify';
  if (step === 'refuse') return 'Refuse';
  if (auditType === 'AnyVerify') return 'Audit';
  return approved.length + 1 === REVIEWERS.length ? 'Audit' : 'UnAudit';
}

/** Rounds so far: nobody, reviewer 1, reviewer 2 (out of order), reviewers 1 and 2. */
const ROUNDS: number[][] = [[], [1], [2], [1, 2]];

const cases = AuditType.flatMap((auditType) =>
  [false, true].flatMap((sequential) =>
    ROUNDS.flatMap((approved) =>
      [...REVIEWERS, OUTSIDER].flatMap((actor) =>
        (['approve', 'refuse'] as const).map((step) => ({ auditType, sequential, approved, actor, step, want: expected(auditType, sequential, approved, actor, step) })),
      ),
    ),
  ),
);

describe('joint review decision', () => {
  it.each(cases)('$auditType sequential=$sequential after $approved: $actor $step → $want', ({ auditType, sequential, approved, actor, step, want }) => {
    const flow: ReviewFlow = { auditType, sequential, reviewers: REVIEWERS };
    if (want === 'Audit' || want === 'UnAudit' || want === 'Refuse') {
      const outcome = reviewOutcome(flow, approved, actor, step);
      expect(outcome.to).toBe(want);
      expect(outcome.waiting).toEqual(want === 'UnAudit' ? REVIEWERS.filter((r) => r !== actor && !approved.includes(r)) : []);
    } else {
      let caught: unknown;
      try {
        reviewOutcome(flow, approved, actor, step);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(BizError);
      expect((caught as BizError).key).toBe(want);
      expect((caught as BizError).status).toBe(want === 'NoVerifyPermission' ? 40300 : 40001);
    }
  });

  it('walks a whole AllVerify round in order: UnAudit, UnAudit, Audit', () => {
    const flow: ReviewFlow = { auditType: 'AllVerify', sequential: true, reviewers: [5, 3, 8] };
    const approved: number[] = [];
    const path = flow.reviewers.map((actor) => {
      const { to, waiting } = reviewOutcome(flow, approved, actor, 'approve');
      approved.push(actor);
      return [to, waiting];
    });
    expect(path).toEqual([
      ['UnAudit', [3, 8]],
      ['UnAudit', [8]],
      ['Audit', []],
    ]);
  });

  it('counts only approvals of the reviewers the flow names now', () => {
    expect(waitingReviewers({ auditType: 'AllVerify', sequential: false, reviewers: [1, 2] }, [7, 2])).toEqual([1]);
  });
});
