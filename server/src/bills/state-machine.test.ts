import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BillOperation, BillStatus, DeliveryOperation, DeliveryStatus, POSTED_STATUSES, PROHIBIT_KEY } from '@p8/contract/bills/status';
import { BizError } from '../core/errors.ts';
import { allowedOperations, deliveryTransition, progressStatus, transition } from './state-machine.ts';

/**
 * Every status × operation, written out as the table a reader checks against the rules: the status
 * after the operation, or `x` for a refusal with the operation's CurrentStatusBillProhibit… key.
 * `=` means allowed, the status unchanged (delete removes the bill; push down makes a new one).
 */
const TABLE: Record<BillStatus, Record<BillOperation, BillStatus | 'x' | '='>> = {
  Saved: { save: 'Saved', submit: 'Submitted', audit: 'x', refuse: 'x', abandonAudit: 'x', delete: '=', pushDown: 'x', merge: 'Merged', manualCompletion: 'x' },
  Submitted: { save: 'x', submit: 'x', audit: 'Audit', refuse: 'Refuse', abandonAudit: 'x', delete: 'x', pushDown: 'x', merge: 'x', manualCompletion: 'x' },
  UnAudit: { save: 'x', submit: 'x', audit: 'Audit', refuse: 'Refuse', abandonAudit: 'x', delete: 'x', pushDown: 'x', merge: 'x', manualCompletion: 'x' },
  Audit: { save: 'x', submit: 'x', audit: 'x', refuse: 'x', abandonAudit: 'AbandonAudit', delete: 'x', pushDown: '=', merge: 'x', manualCompletion: 'ManualCompletion' },
  Refuse: { save: 'Saved', submit: 'Submitted', audit: 'x', refuse: 'x', abandonAudit: 'x', delete: '=', pushDown: 'x', merge: 'Merged', manualCompletion: 'x' },
  Partially: { save: 'x', submit: 'x', audit: 'x', refuse: 'x', abandonAudit: 'AbandonAudit', delete: 'x', pushDown: '=', merge: 'x', manualCompletion: 'ManualCompletion' },
  Complete: { save: 'x', submit: 'x', audit: 'x', refuse: 'x', abandonAudit: 'AbandonAudit', delete: 'x', pushDown: 'x', merge: 'x', manualCompletion: 'x' },
  ManualCompletion: { save: 'x', submit: 'x', audit: 'x', refuse: 'x', abandonAudit: 'AbandonAudit', delete: 'x', pushDown: 'x', merge: 'x', manualCompletion: 'x' },
  AbandonAudit: { save: 'Saved', submit: 'Submitted', audit: 'x', refuse: 'x', abandonAudit: 'x', delete: '=', pushDown: 'x', merge: 'Merged', manualCompletion: 'x' },
  Merged: { save: 'x', submit: 'x', audit: 'x', refuse: 'x', abandonAudit: 'x', delete: 'x', pushDown: 'x', merge: 'x', manualCompletion: 'x' },
};

const cases = BillStatus.flatMap((status) => BillOperation.map((operation) => [status, operation, TABLE[status][operation]] as const));

describe('bill state machine', () => {
  it.each(cases)('%s × %s → %s', (status, operation, expected) => {
    if (expected === 'x') {
      let caught: unknown;
      try {
        transition(status, operation);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(BizError);
      expect((caught as BizError).key).toBe(PROHIBIT_KEY[operation]);
      expect((caught as BizError).additional).toBe(status);
      expect(allowedOperations(status)).not.toContain(operation);
    } else {
      expect(transition(status, operation)).toBe(expected === '=' ? status : expected);
      expect(allowedOperations(status)).toContain(operation);
    }
  });

  it('moves only audited bills along their downstream progress; a bill completed by hand stays so', () => {
    expect(progressStatus('Audit', 'partial')).toBe('Partially');
    expect(progressStatus('Partially', 'all')).toBe('Complete');
    expect(progressStatus('Complete', 'none')).toBe('Audit');
    expect(progressStatus('ManualCompletion', 'none')).toBe('ManualCompletion');
    expect(progressStatus('Saved', 'all')).toBe('Saved');
  });
});

/** Delivery status × step of an audited bill: the status after it, or the refusal's key. */
const DELIVERY: Record<DeliveryStatus, Record<DeliveryOperation, DeliveryStatus | string>> = {
  NotDelivered: { deliver: 'InDelivery', arrive: 'DeliveryNotConfirmed' },
  InDelivery: { deliver: 'DeliveryAlreadyConfirmed', arrive: 'Arrived' },
  Arrived: { deliver: 'DeliveryAlreadyConfirmed', arrive: 'DeliveryAlreadyConfirmed' },
};

const outcome = (run: () => string) => {
  try {
    return run();
  } catch (error) {
    return (error as BizError).key;
  }
};

describe('delivery', () => {
  it.each(DeliveryStatus.flatMap((d) => DeliveryOperation.map((op) => [d, op, DELIVERY[d][op]] as const)))('%s × %s → %s', (delivery, operation, expected) => {
    for (const status of POSTED_STATUSES) expect(outcome(() => deliveryTransition(status, delivery === 'NotDelivered' ? null : delivery, operation))).toBe(expected);
  });

  it('never arrives unsent and never goes back, whatever the order of confirmations', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...DeliveryOperation), { maxLength: 12 }), (operations) => {
        let status: DeliveryStatus | null = null;
        const seen: DeliveryStatus[] = [];
        for (const operation of operations) {
          const next = outcome(() => deliveryTransition('Audit', status, operation));
          if ((DeliveryStatus as readonly string[]).includes(next)) {
            status = next as DeliveryStatus;
            seen.push(status);
          }
        }
        expect(seen).toEqual(['InDelivery', 'Arrived'].slice(0, seen.length));
        expect(status === 'Arrived').toBe(operations.indexOf('arrive', operations.indexOf('deliver')) > operations.indexOf('deliver') && operations.includes('deliver'));
      }),
    );
  });

  it.each(BillStatus.filter((s) => !POSTED_STATUSES.includes(s)))('refuses delivering a bill that is %s (not audited)', (status) => {
    for (const operation of DeliveryOperation) expect(outcome(() => deliveryTransition(status, null, operation))).toBe('BillNotAudit');
  });
});
