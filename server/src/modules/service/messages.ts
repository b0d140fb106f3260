import { and, asc, eq, gt } from 'drizzle-orm';
import type { ServiceMessageQuery, ServiceMessageRow, ServiceMessageSend } from '@p8/contract/service';
import { admin, serviceMessage } from '../../db/schema/index.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { assertChatAccess } from './orders.ts';

/*
 * Chat on a service order: the messages are stored here; the live delivery to open screens is the chat
 * hub's (chat-hub.ts), told after the message's transaction committed.
 */

/** At most this many messages per read (the screen pages back with `afterId`). */
export const MESSAGE_PAGE = 200;

function withSender(ctx: ServiceContext) {
  return ctx.tx
    .select({ m: serviceMessage, name: admin.realName, account: admin.name })
    .from(serviceMessage)
    .leftJoin(admin, and(eq(admin.tenantId, serviceMessage.tenantId), eq(admin.id, serviceMessage.senderId)));
}

const toRow = ({ m, name, account }: { m: typeof serviceMessage.$inferSelect; name: string | null; account: string | null }): ServiceMessageRow => ({
  id: m.id,
  orderId: m.orderId,
  senderId: m.senderId,
  senderName: name || account || '',
  content: m.content,
  createdAt: m.createdAt.toISOString(),
});

/** An order's messages after `afterId` (0: from the first), oldest first: REST and the WebSocket's subscribe alike. */
export async function listOrderMessages(ctx: ServiceContext, { orderId, afterId = 0, limit = MESSAGE_PAGE }: ServiceMessageQuery): Promise<ServiceMessageRow[]> {
  await assertChatAccess(ctx, orderId);
  const rows = await withSender(ctx)
    .where(and(eq(serviceMessage.tenantId, ctx.tenantId), eq(serviceMessage.orderId, orderId), gt(serviceMessage.id, afterId)))
    .orderBy(asc(serviceMessage.id))
    .limit(limit);
  return rows.map(toRow);
}

/**
 * Stores a message of the caller on an order. Sending is an action on the order, so it is audited (who, which
 * order, which message, how long) — never the text: the conversation is the chat's, not the audit log's.
 */
export async function sendOrderMessage(ctx: ServiceContext, { orderId, content }: ServiceMessageSend): Promise<ServiceMessageRow> {
  const order = await assertChatAccess(ctx, orderId);
  const [created] = await ctx.tx.insert(serviceMessage).values({ tenantId: ctx.tenantId, orderId, senderId: ctx.account.adminId, content }).returning({ id: serviceMessage.id });
  ctx.audit({ action: 'message', entity: 'service-order', entityId: orderId, detail: { orderNo: order.orderNo, messageId: created.id, length: content.length } });
  const [row] = await withSender(ctx).where(and(eq(serviceMessage.tenantId, ctx.tenantId), eq(serviceMessage.id, created.id)));
  return toRow(row);
}
