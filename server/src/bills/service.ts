/**
 * The bill engine's operations, for every type of the registry. Each takes a ServiceContext (the
 * transaction, the tenant, who acts), never an HTTP request: push down calls `createBill` directly, and
 * so can a job or an automatic audit. Each runs inside the caller's one transaction; a refusal throws a
 * catalogued BizError and nothing of the operation stays. They live by concern: reading and locking
 * (bill-rows.ts), saving (bill-save.ts), status operations (bill-lifecycle.ts), push down and progress
 * (push-down.ts) and what a bill answers (bill-view.ts).
 */
export { loadBill, lockBills, recordTransition, type BillRow } from './bill-rows.ts';
export { createBill, deleteBills, updateBill } from './bill-save.ts';
export { abandonAudit, auditBill, completeManually, mergeBills, refuseBill, submitBill } from './bill-lifecycle.ts';
export { openSourceLines, pushDown } from './push-down.ts';
export { billTimeline, getBill } from './bill-view.ts';
