import { and, eq, inArray } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ErrorKey } from '@p8/contract/errors';
import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import type { Tx } from '../db/connection.ts';
import { BizError } from './errors.ts';

/**
 * "In use" checks of the basic records (delete prohibitions). The module that owns a record
 * cannot know every table that refers to it: bills arriving later will name suppliers, materials,
 * warehouses, fee types… So whoever refers to a record registers a checker for its kind, and the record's
 * delete asks every checker of that kind, inside its own transaction, before it deletes anything.
 *
 * The registry belongs to one app instance (`registries.recordUsage`, see core/registries.ts), filled while
 * the app is built by each module's `ServerModule.register`. A checker is registered under its source's
 * name; registering the same source again replaces it, so a duplicate registration is harmless.
 */

/**
 * The hand-written record kinds a delete may be refused for (the names of the routes: `stock` is a
 * warehouse), with the catalogued key refusing it. Declared kinds (packages/contract/src/records) bring
 * their own key.
 */
const HAND_WRITTEN_IN_USE_KEY = {
  material: 'MaterialInUseProhibitDelete',
  supplier: 'SupplierInUseProhibitDelete',
  customer: 'CustomerInUseProhibitDelete',
  stock: 'StockInUseProhibitDelete',
  location: 'LocationInUseProhibitDelete',
  bom: 'BomInUseProhibitDelete',
  district: 'DistrictInUseProhibitDelete',
  // Staff accounts (system module): referred to by bills as creator, handler or auditor.
  staff: 'StaffInUseProhibitDelete',
  // Departments (system module): named by bills.
  department: 'DeptInUseProhibitDelete',
} as const satisfies Record<string, ErrorKey>;

/** The catalogued key refusing the delete of a record in use, per kind. */
export const IN_USE_KEY: Readonly<Record<string, ErrorKey>> = {
  ...HAND_WRITTEN_IN_USE_KEY,
  ...Object.fromEntries(RECORD_KINDS.map((decl) => [decl.kind, decl.inUse])),
};

/** A record kind a delete may be refused for: a hand-written one or a declared one. */
export type RecordKind = keyof typeof HAND_WRITTEN_IN_USE_KEY | (string & {});

/** Says whether any of `ids` (records of one tenant) is referenced: one referenced id, or undefined. */
export type UsageChecker = (tx: Tx, tenantId: number, ids: number[]) => Promise<{ id: number } | undefined>;

export class RecordUsage {
  private readonly checkers = new Map<RecordKind, Map<string, UsageChecker>>();

  /** `source` names what refers to the records ("purchase bills"); the same source again replaces its checker. */
  register(kind: RecordKind, source: string, checker: UsageChecker): void {
    if (!IN_USE_KEY[kind]) throw new Error(`record usage: "${kind}" is no record kind (declare it, or name its in-use key in core/record-usage.ts)`);
    const ofKind = this.checkers.get(kind) ?? new Map<string, UsageChecker>();
    ofKind.set(source, checker);
    this.checkers.set(kind, ofKind);
  }

  /** Throws the kind's `…InUseProhibitDelete`, naming a referenced id, when any of `ids` is in use. */
  async refuseIfInUse(tx: Tx, tenantId: number, kind: RecordKind, ids: number[]): Promise<void> {
    if (!ids.length) return;
    for (const checker of this.checkers.get(kind)?.values() ?? []) {
      const used = await checker(tx, tenantId, ids);
      if (used) throw new BizError(IN_USE_KEY[kind], { additional: used.id });
    }
  }
}

/** The records whose ids `column` of `table` holds are in use while a row of the tenant holds them. */
export function heldBy(table: PgTable & { tenantId: AnyPgColumn }, column: AnyPgColumn): UsageChecker {
  return async (tx, tenantId, ids) => {
    const [row] = await tx
      .select({ id: column })
      .from(table)
      .where(and(eq(table.tenantId, tenantId), inArray(column, ids)))
      .limit(1);
    return row?.id == null ? undefined : { id: Number(row.id) };
  };
}
