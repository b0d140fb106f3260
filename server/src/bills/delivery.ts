import { and, eq } from 'drizzle-orm';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import type { BillStatus, DeliveryOperation, DeliveryStatus } from '@p8/contract/bills/status';
import type { ServiceContext } from '../core/service-context.ts';
import { bill } from '../db/schema/index.ts';
import { deliveryBlocksAbandon } from '@p8/contract/bills/state-rules';
import { deliveryTransition } from './state-machine.ts';
import type { Tx } from '../db/connection.ts';
import { loadBill, recordTransition } from './service.ts';

/**
 * Delivery of the bill types with the `delivery` button (sale shipping notices and out-stocks): once
 * audited, a holder of `<area>_<route>_delivery` confirms the goods sent (InDelivery), then arrived
 * (Arrived) — never arrived before sent (deliveryTransition in state-machine.ts). Each step is on the
 * bill's timeline. A bill whose goods were sent keeps its audit (`BillDeliveredProhibitAbandonAudit`, the blocker `deliveredBlocker`).
 */

/** POST {path}/delivery `{ id, operation: 'deliver' | 'arrive' }`: the bill's new delivery status. */
export async function confirmDelivery(ctx: ServiceContext, decl: BillTypeDecl, id: number, operation: DeliveryOperation): Promise<{ deliveryStatus: DeliveryStatus }> {
  const row = await loadBill(ctx, decl, id, true);
  const to = deliveryTransition(row.billStatus as BillStatus, row.deliveryStatus as DeliveryStatus | null, operation);
  await ctx.tx
    .update(bill)
    .set({ deliveryStatus: to, updatedAt: new Date() })
    .where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, row.id)));
  await recordTransition(ctx, row.id, operation, row.billStatus, row.billStatus);
  ctx.audit({ action: operation, entity: decl.type, entityId: id, detail: { deliveryStatus: to } });
  return { deliveryStatus: to };
}

/** The abandon-audit blocker of sent goods (registered by the bills module in app.ts). */
export async function deliveredBlocker(tx: Tx, tenantId: number, billId: number) {
  const [row] = await tx
    .select({ deliveryStatus: bill.deliveryStatus })
    .from(bill)
    .where(and(eq(bill.tenantId, tenantId), eq(bill.id, billId)));
  return deliveryBlocksAbandon(row?.deliveryStatus as DeliveryStatus | null | undefined) ? ('BillDeliveredProhibitAbandonAudit' as const) : undefined;
}
