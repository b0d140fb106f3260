import type { ErrorKey } from '../errors.ts';
import type { BillTypeDecl } from './registry.ts';
import type { BillOperation, BillStatus, DeliveryStatus } from './status.ts';

/**
 * The one table of what each bill status allows, shared by the server's state machine
 * (server/src/bills/state-machine.ts, which also says where each operation leads and refuses with the
 * catalogued key) and the web kit (which shows only the buttons this table allows). Pure data.
 */

/** Statuses a draft is in: its creator may still change it. */
export const EDITABLE: readonly BillStatus[] = ['Saved', 'Refuse', 'AbandonAudit'];
/** Statuses waiting for review. */
export const IN_REVIEW: readonly BillStatus[] = ['Submitted', 'UnAudit'];

export interface StatusRule {
  from: readonly BillStatus[];
  /** The status after the operation (undefined: the bill is gone, or it stays as it is). */
  to?: BillStatus;
}

export const RULES: Record<BillOperation, StatusRule> = {
  save: { from: EDITABLE, to: 'Saved' },
  submit: { from: EDITABLE, to: 'Submitted' },
  // With joint review the audit may lead to UnAudit first (others still to review): see the server's review.ts.
  audit: { from: IN_REVIEW, to: 'Audit' },
  refuse: { from: IN_REVIEW, to: 'Refuse' },
  // Partially and Complete always have audited downstream bills: the downstream checker refuses with its
  // own, more telling key (ExistChildrenBillProhibitAbandonAudit).
  abandonAudit: { from: ['Audit', 'Partially', 'Complete', 'ManualCompletion'], to: 'AbandonAudit' },
  delete: { from: EDITABLE },
  pushDown: { from: ['Audit', 'Partially'] },
  merge: { from: EDITABLE, to: 'Merged' },
  manualCompletion: { from: ['Audit', 'Partially'], to: 'ManualCompletion' },
};

/** Whether `status` allows `operation`. */
export function allows(status: BillStatus, operation: BillOperation): boolean {
  return RULES[operation].from.includes(status);
}

/** The operations a bill in `status` allows. */
export function allowedOperations(status: BillStatus): BillOperation[] {
  return (Object.keys(RULES) as BillOperation[]).filter((op) => allows(status, op));
}

/**
 * Whether a bill's delivery keeps its audit: once its goods were confirmed sent (InDelivery or Arrived),
 * withdrawing the audit is refused (`BillDeliveredProhibitAbandonAudit`) and the web kit hides the button.
 */
export function deliveryBlocksAbandon(delivery: DeliveryStatus | null | undefined): boolean {
  return !!delivery && delivery !== 'NotDelivered';
}

/**
 * What keeps an audited bill's audit by its own values, as its type declares it (`keepsAuditWhen`: a started
 * task): the refusal the server's withdrawal answers, and the reason the web kit hides the button; none when
 * the type declares nothing or the bill's values do not meet it. `values`: the bill's header (its `extra`
 * fields included), as stored or as the form shows it.
 */
export function auditHold(decl: Pick<BillTypeDecl, 'keepsAuditWhen'>, values: Record<string, unknown>): ErrorKey | undefined {
  const hold = decl.keepsAuditWhen;
  // The registry's `meets`, not imported: this file stays pure data without the registry's schemas.
  return hold && hold.when.values.includes(String(values[hold.when.field] ?? '')) ? hold.refusal : undefined;
}
