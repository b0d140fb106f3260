import type { BillPayload, BillTypeDecl } from '@p8/contract/bills/registry';
import type { RefusalKey } from '@p8/contract/refusals';
import type { Micro } from '@p8/contract/bills/decimal';
import type { ServiceContext } from '../core/service-context.ts';
import type { bill } from '../db/schema/index.ts';
import type { LineRow } from './bill-rows.ts';

/**
 * A bill type's own rules, beyond the engine's, registered by the module the type belongs to (finance's
 * payments: which payment types need bills, a fund account, an amount to prepaid…). The engine asks them
 * by type at the steps below, in the operation's transaction; a thrown BizError refuses the step.
 *
 * Held per app instance (`registries.billRules`, core/registries.ts), filled by the modules'
 * `ServerModule.register`, like the posting hooks and abandon-audit blockers.
 */

/** A bill as saving found it: its header (typed columns and own fields together), lines and totals. */
export interface BillDraft {
  /** The bill's id when it is edited; 0 for a new bill. */
  billId: number;
  header: Record<string, unknown>;
  lines: ReadonlyArray<{ sourceBillId: number | null; amount: Micro; extra: Record<string, unknown> }>;
  total: Micro;
}

export interface BillTypeRules {
  /**
   * Save (create, update), before anything is checked: the lines as the type completes them (a production
   * order's materials from its products' BOMs, a salary bill's piece wages). Refusing throws.
   */
  completeLines?(ctx: ServiceContext, decl: BillTypeDecl, payload: BillPayload): Promise<BillPayload['lines']>;
  /** Save (create, update): the draft is checked, nothing is written yet. */
  saving?(ctx: ServiceContext, decl: BillTypeDecl, draft: BillDraft): Promise<void>;
  /** Submit and audit: what a draft may lack but a bill under review may not (a payment's fund account). */
  completing?(ctx: ServiceContext, decl: BillTypeDecl, header: Record<string, unknown>): Promise<void>;
  /**
   * Audit of a type valued `rule` (registry.ts `InboundCost`), before its stock is posted: the unit cost of each
   * inbound line by id. It may record what the valuation used (an outsourcing receipt's consumption of the
   * materials at the supplier), which the type's posting hook takes back when the audit is withdrawn.
   */
  valuing?(ctx: ServiceContext, decl: BillTypeDecl, row: typeof bill.$inferSelect, lines: readonly LineRow[]): Promise<Map<number, Micro>>;
  /** The refusal of a settlement line beyond what is open on its bill (by the bill's header: a payment's type). */
  exceedRefusal?(header: Record<string, unknown>): RefusalKey;
}

export class BillRules {
  private readonly rules = new Map<string, BillTypeRules>();

  /** The rules of bill type `type`; registering the type again replaces them. */
  register(type: string, rules: BillTypeRules): void {
    this.rules.set(type, rules);
  }

  of(type: string): BillTypeRules {
    return this.rules.get(type) ?? {};
  }
}
