import type { ErrorKey } from '@p8/contract/errors';
import type { Tx } from '../db/connection.ts';
import { BizError } from './errors.ts';

/**
 * What may refuse withdrawing a bill's audit (abandon audit): payments or receipts against the bill, MRP
 * use, cost accounting, completed production, salary write-offs… The bill engine cannot know every module
 * that hangs records on bills, so each such module registers a blocker while the app is built
 * (`ServerModule.register`, `registries.abandonAuditBlockers`), and abandon audit asks every blocker inside
 * its own transaction before it changes anything.
 *
 * Like the "in use" checkers (core/record-usage.ts) the registry belongs to one app instance: apps built
 * side by side in one process (the tests) do not share it.
 */

/** Says why the bill `billId` of the tenant cannot lose its audit (a catalogued key), or undefined. */
export type AbandonAuditBlocker = (tx: Tx, tenantId: number, billId: number) => Promise<ErrorKey | undefined>;

export class AbandonAuditBlockers {
  private readonly blockers = new Map<string, AbandonAuditBlocker>();

  /** `name` says what blocks ("payments"); the same name again replaces its check. */
  register(name: string, blocker: AbandonAuditBlocker): void {
    this.blockers.set(name, blocker);
  }

  /** Throws the first blocker's key, naming `billCode`, when any blocker refuses. */
  async refuseIfBlocked(tx: Tx, tenantId: number, billId: number, billCode: string): Promise<void> {
    for (const blocker of this.blockers.values()) {
      const key = await blocker(tx, tenantId, billId);
      if (key) throw new BizError(key, { additional: billCode });
    }
  }
}
