import { describe, expect, it } from 'vitest';
import { microText } from '@p8/contract/bills/decimal';
import type { OpenBill } from './api.ts';
import { checkSettlement } from './settle.ts';

const bill = (billId: number, unsettled: string): OpenBill => ({ billId, billCode: `B${billId}`, billType: 'SaleOutStock', billDate: '2026-11-01', amount: unsettled, settled: '0', unsettled, settledStatus: 'UnSettlement' });
const bills = [bill(1, '100.10'), bill(2, '0.30'), bill(3, '-20.00')];

describe('checkSettlement', () => {
  it.each([
    ['nothing typed, bills required', {}, true, 'settleRequired'],
    ['beyond what is open', { 1: '100.11' }, true, 'settleExceeds'],
    ['a refund beyond what is open', { 3: '-20.01' }, true, 'settleExceeds'],
    ['a positive amount on a refund', { 3: '5' }, true, 'settleSign'],
    ['a negative amount on a sale', { 2: '-0.1' }, true, 'settleSign'],
  ] as const)('refuses %s', (_, input, required, key) => {
    expect(checkSettlement(bills, input, required).problem?.key).toBe(key);
  });

  it('adds exactly what floating point would not (0.1 + 0.2 on the open 0.30)', () => {
    const { problem, allocations, total } = checkSettlement(bills, { 1: '0.1', 2: '0.2', 3: '' }, true);
    expect(problem).toBeNull();
    expect(allocations).toEqual([{ billId: 1, amount: '0.100000' }, { billId: 2, amount: '0.200000' }]);
    expect(microText(total)).toBe('0.300000');
  });

  it('takes the whole open amount, refunds negative, and nothing when not required', () => {
    expect(checkSettlement(bills, { 1: '100.10', 3: '-20' }, true).problem).toBeNull();
    expect(checkSettlement(bills, {}, false)).toEqual({ problem: null, allocations: [], total: 0n });
  });
});
