import { renderNotice, type Notice } from '@p8/contract/notices';
import { message } from '../db/schema/index.ts';
import type { ServiceContext } from './service-context.ts';

/**
 * Sends a system notice (contract notices.ts) to staff of the tenant as office messages, from the one acting: each
 * reader reads it in their language (the stored title and content keep its Chinese text). A message's sender and
 * receiver differ, so the one acting is never told of what they did themselves.
 */
export async function sendNotice(ctx: ServiceContext, receiverIds: readonly number[], notice: Notice): Promise<void> {
  const receivers = [...new Set(receiverIds)].filter((id) => id !== ctx.account.adminId);
  if (!receivers.length) return;
  const text = renderNotice(notice, 'zh');
  await ctx.tx.insert(message).values(receivers.map((receiverId) => ({ tenantId: ctx.tenantId, senderId: ctx.account.adminId, receiverId, ...text, notice })));
}
