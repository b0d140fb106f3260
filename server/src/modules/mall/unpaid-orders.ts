import { and, asc, eq, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connection.ts';
import { mallOrder, systemSetting } from '../../db/schema/index.ts';
import type { AccessInvalidator } from '../../core/access-cache.ts';
import type { Registries } from '../../core/registries.ts';
import { superAdminCaller, withServiceContext } from '../../core/service-context.ts';
import { cancelOrder } from './order.ts';

/*
 * Unpaid mall orders are cancelled, their stock given back, once they have waited longer than the tenant's
 * system setting `unpaidOrderCancelMinutes` (0: never). A periodic job: per tenant that set it, the orders
 * still PendingPayment and placed before the cut-off, oldest first, in batches of one transaction each
 * (a bounded number of batches per run, so one tenant's backlog never holds the others up for long; the
 * rest waits for the next run). Rows are claimed with FOR UPDATE SKIP LOCKED and each cancel is the usual
 * conditional transition, so two server processes running the job (or a cashier confirming a payment at
 * the same moment) never cancel an order twice nor cancel a paid one. The job acts as the tenant's super
 * administrator: the timeline says `auto_cancel`, the audit log names that account.
 */

export const UNPAID_ORDER_SETTING = 'unpaidOrderCancelMinutes';

export interface UnpaidOrderJobDeps {
  database: Database;
  config: Config;
  registries: Registries;
  access: AccessInvalidator;
  log: FastifyBaseLogger;
}

export interface SweepOptions {
  /** The clock (tests move it). */
  now?: Date;
  /** Orders per transaction. */
  batchSize?: number;
  /** Transactions per tenant and run. */
  maxBatches?: number;
}

/** The tenants that set an unpaid-order time, with it in minutes (read across tenants on the owner connection). */
async function tenantsWithLimit(database: Database): Promise<Array<{ tenantId: number; minutes: number }>> {
  const stored = await database.withSystem((tx) =>
    tx.select({ tenantId: systemSetting.tenantId, value: systemSetting.value }).from(systemSetting).where(eq(systemSetting.key, UNPAID_ORDER_SETTING)),
  );
  return stored.flatMap((r) => (typeof r.value === 'number' && Number.isInteger(r.value) && r.value > 0 ? [{ tenantId: r.tenantId, minutes: r.value }] : []));
}

/** Cancels the overdue unpaid orders of every tenant; answers how many were cancelled. */
export async function cancelUnpaidOrders(deps: UnpaidOrderJobDeps, { now = new Date(), batchSize = 100, maxBatches = 10 }: SweepOptions = {}): Promise<number> {
  let cancelled = 0;
  for (const { tenantId, minutes } of await tenantsWithLimit(deps.database)) {
    try {
      cancelled += await cancelTenantOrders(deps, tenantId, new Date(now.getTime() - minutes * 60_000), { now, batchSize, maxBatches });
    } catch (error) {
      // One tenant's failure (a locked SKU row timing out, a removed account) must not stop the others.
      deps.log.error({ err: error, tenantId }, 'unpaid mall orders: the sweep of a tenant failed');
    }
  }
  return cancelled;
}

async function cancelTenantOrders(deps: UnpaidOrderJobDeps, tenantId: number, cutoff: Date, { now, batchSize, maxBatches }: Required<SweepOptions>): Promise<number> {
  const caller = await superAdminCaller(deps, tenantId);
  if (!caller) return 0;
  let cancelled = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const done = await withServiceContext(deps.database, caller, async (ctx) => {
      const due = await ctx.tx
        .select({ id: mallOrder.id })
        .from(mallOrder)
        .where(and(eq(mallOrder.tenantId, tenantId), eq(mallOrder.status, 'PendingPayment'), lt(mallOrder.createdAt, cutoff)))
        .orderBy(asc(mallOrder.createdAt), asc(mallOrder.id))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      for (const { id } of due) await cancelOrder(ctx, id, '', { at: now, auto: true });
      return due.length;
    });
    cancelled += done;
    if (done < batchSize) break;
  }
  return cancelled;
}

/** Runs the sweep every `intervalMs` (a run still going skips the next tick); answers the stop function (waits for a running sweep). */
export function startUnpaidOrderJob(deps: UnpaidOrderJobDeps, intervalMs = 60_000): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= cancelUnpaidOrders(deps)
      .then(
        (n) => void (n > 0 && deps.log.info({ cancelled: n }, 'unpaid mall orders cancelled')),
        (error: unknown) => deps.log.error({ err: error }, 'unpaid mall orders: the sweep failed'),
      )
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
