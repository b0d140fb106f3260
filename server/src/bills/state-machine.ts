import { POSTED_STATUSES, PROHIBIT_KEY, type BillOperation, type BillStatus, type DeliveryOperation, type DeliveryStatus } from '@p8/contract/bills/status';
import { allows, RULES } from '@p8/contract/bills/state-rules';
import { BizError } from '../core/errors.ts';

/**
 * The one state machine of every bill: which statuses allow which operation, and the status it leads
 * to. Pure — no database, no request — so that every status × operation pair is a unit test
 * (state-machine.test.ts) and the services only ask it.
 *
 *   Saved ──submit──▶ Submitted ──audit──▶ Audit ──(downstream progress)──▶ Partially ──▶ Complete
 *     ▲  │              │   ▲  └─audit (joint review, others still to review)─▶ UnAudit ─audit─▶ Audit
 *     │  merge→Merged   └refuse▶ Refuse              │ manualCompletion ──▶ ManualCompletion
 *     └──── save / submit ◀──── Refuse, AbandonAudit ◀─ abandonAudit (Audit, Partially, Complete, ManualCompletion)
 *
 * The table of what each status allows is the contract's (bills/state-rules.ts), shared with the web kit.
 * Editable statuses (Saved, Refuse, AbandonAudit) may be saved, submitted, merged or deleted; posted
 * statuses (Audit, Partially, Complete, ManualCompletion) have their effects in stock and on their sources,
 * and only abandoning the audit takes them back. Merged is final.
 */

export { EDITABLE, IN_REVIEW, RULES, allows, allowedOperations } from '@p8/contract/bills/state-rules';

/**
 * The status after `operation` on a bill in `status`, or the catalogued refusal
 * (`CurrentStatusBillProhibit…`, naming the status in `additional`).
 */
export function transition(status: BillStatus, operation: BillOperation): BillStatus {
  if (!allows(status, operation)) throw new BizError(PROHIBIT_KEY[operation], { additional: status });
  return RULES[operation].to ?? status;
}

/**
 * Where a posted bill stands once its downstream progress changed: Audit while nothing is taken,
 * Partially while some is, Complete when all is. A bill completed by hand stays so; other statuses are
 * not moved by progress.
 */
export function progressStatus(status: BillStatus, progress: 'none' | 'partial' | 'all'): BillStatus {
  if (status !== 'Audit' && status !== 'Partially' && status !== 'Complete') return status;
  return progress === 'none' ? 'Audit' : progress === 'partial' ? 'Partially' : 'Complete';
}

/**
 * Delivery of a bill with the delivery button: once audited, NotDelivered (stored as null) ─deliver▶
 * InDelivery ─arrive▶ Arrived. Arrival is confirmed only after sending (`DeliveryNotConfirmed`); a step
 * confirmed twice is refused (`DeliveryAlreadyConfirmed`); an unaudited bill is not delivered (`BillNotAudit`).
 */
export function deliveryTransition(status: BillStatus, delivery: DeliveryStatus | null, operation: DeliveryOperation): DeliveryStatus {
  if (!POSTED_STATUSES.includes(status)) throw new BizError('BillNotAudit', { additional: status });
  const current = delivery ?? 'NotDelivered';
  if (operation === 'deliver') {
    if (current !== 'NotDelivered') throw new BizError('DeliveryAlreadyConfirmed', { additional: current });
    return 'InDelivery';
  }
  if (current === 'NotDelivered') throw new BizError('DeliveryNotConfirmed');
  if (current === 'Arrived') throw new BizError('DeliveryAlreadyConfirmed', { additional: current });
  return 'Arrived';
}
