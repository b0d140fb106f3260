import type { BillTypeDecl } from '@p8/contract/bills/registry';
import type { ServiceContext } from '../core/service-context.ts';
import type { bill } from '../db/schema/index.ts';

/**
 * What another module does when a bill is posted or its posting withdrawn, in the same transaction (finance
 * writes the ledger and the bill's open receivable / payable; it also checks invoices when they are saved). `audited` runs after the stock posting,
 * `abandoned` after the abandon-audit blockers agreed; a thrown BizError refuses the operation.
 *
 * Held per app instance (`registries.billPostingHooks`, core/registries.ts), filled by the modules'
 * `ServerModule.register`: apps built side by side in one process (the tests) do not share hooks.
 */
export interface BillPostingHook {
  /** After a bill's lines were saved (created or updated, sources linked and locked): a type's own save rules. */
  saved?(ctx: ServiceContext, decl: BillTypeDecl, billId: number): Promise<void>;
  audited(ctx: ServiceContext, decl: BillTypeDecl, row: typeof bill.$inferSelect): Promise<void>;
  abandoned(ctx: ServiceContext, decl: BillTypeDecl, row: typeof bill.$inferSelect): Promise<void>;
}

export class BillPostingHooks {
  private readonly hooks = new Map<string, BillPostingHook>();

  /** The same name again replaces its hook. */
  register(name: string, hook: BillPostingHook): void {
    this.hooks.set(name, hook);
  }

  async saved(ctx: ServiceContext, decl: BillTypeDecl, billId: number): Promise<void> {
    for (const hook of this.hooks.values()) await hook.saved?.(ctx, decl, billId);
  }

  async audited(ctx: ServiceContext, decl: BillTypeDecl, row: typeof bill.$inferSelect): Promise<void> {
    for (const hook of this.hooks.values()) await hook.audited(ctx, decl, row);
  }

  async abandoned(ctx: ServiceContext, decl: BillTypeDecl, row: typeof bill.$inferSelect): Promise<void> {
    for (const hook of this.hooks.values()) await hook.abandoned(ctx, decl, row);
  }
}
