import { sum, toMicro, microText, type Micro } from '@p8/contract/bills/decimal';
import type { OpenBill } from './api.ts';

/** What the payment / receipt form holds per open bill: the amount to settle as typed (decimal text). */
export type SettleInput = Record<number, string | null | undefined>;

/** Why the amounts to settle cannot be sent (a key of `finance.money.*`), or null when they can. */
export type SettleProblem = { key: 'settleRequired' } | { key: 'settleSign' | 'settleExceeds'; billCode: string; open: string } | null;

/**
 * The bills with an amount to settle, checked as the server will: each of its bill's sign (negative for a
 * refund) and never beyond what is open on it; at least one when the type settles bills. Exact decimals.
 */
export function checkSettlement(bills: OpenBill[], input: SettleInput, required: boolean): { problem: SettleProblem; allocations: Array<{ billId: number; amount: string }>; total: Micro } {
  const allocations: Array<{ billId: number; amount: string }> = [];
  for (const b of bills) {
    const text = input[b.billId];
    if (text === null || text === undefined || String(text).trim() === '') continue;
    const amount = toMicro(String(text));
    if (amount === 0n) continue;
    const open = toMicro(b.unsettled);
    if (amount > 0n !== open > 0n) return { problem: { key: 'settleSign', billCode: b.billCode, open: b.unsettled }, allocations: [], total: 0n };
    if ((amount < 0n ? -amount : amount) > (open < 0n ? -open : open)) return { problem: { key: 'settleExceeds', billCode: b.billCode, open: b.unsettled }, allocations: [], total: 0n };
    allocations.push({ billId: b.billId, amount: microText(amount) });
  }
  if (required && allocations.length === 0) return { problem: { key: 'settleRequired' }, allocations, total: 0n };
  return { problem: null, allocations, total: sum(allocations.map((a) => toMicro(a.amount))) };
}
