import { and, desc, eq, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { renderNotice, type NoticeLang } from '@p8/contract/notices';
import { MessageBox, type MessageRow, type MessageSend } from '@p8/contract/office';
import type { Tx } from '../../db/connection.ts';
import { admin, message } from '../../db/schema/index.ts';
import type { AuthContext } from '../../core/auth.ts';
import { BizError, forbidden } from '../../core/errors.ts';
import { assertAllFound } from '../../core/ids.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { announceUnread } from '../../core/notices.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { assertStaffOfTenant } from './staff.ts';

/*
 * The message center: messages between staff of a tenant (sender and receiver differ) and the system's
 * notices (core/notices.ts). Only the sender deletes a message they wrote — gone for both sides; the
 * receiver hides what they received — gone from their inbox and unread count, still in the sender's sent
 * view. A notice is never deleted (it records what happened: a review request, an order), only hidden.
 * Everyone reads their own inbox and outbox; sending and deleting need their button codes (routes.ts).
 * Every change of someone's unread messages reaches their open screens live after the commit.
 */

/** The sender's name of a notice the system itself sent. */
const SYSTEM_SENDER: Record<NoticeLang, string> = { zh: '系统', en: 'System' };

const sender = alias(admin, 'sender');
const receiver = alias(admin, 'receiver');

const listSpec: ListSpec = {
  fields: {
    title: { column: message.title, filter: 'like' },
    senderId: { column: message.senderId, filter: 'number' },
    receiverId: { column: message.receiverId, filter: 'number' },
    createdAt: { column: message.createdAt, sortable: true },
    readAt: { column: message.readAt, sortable: true },
  },
  dateColumn: message.createdAt,
  defaultOrder: [desc(message.createdAt), desc(message.id)],
};

const selection = {
  id: message.id,
  senderId: message.senderId,
  senderName: sender.realName,
  senderAccount: sender.name,
  receiverId: message.receiverId,
  receiverName: receiver.realName,
  receiverAccount: receiver.name,
  title: message.title,
  content: message.content,
  notice: message.notice,
  readAt: message.readAt,
  hiddenAt: message.hiddenAt,
  createdAt: message.createdAt,
};

type Selected = Awaited<ReturnType<typeof fromWithNames>>[number];

/** A message as its reader sees it: a system notice written out in the reader's language. */
const toRow = (m: Selected, lang: NoticeLang): MessageRow => ({
  ...(m.notice ? renderNotice(m.notice, lang) : { title: m.title, content: m.content }),
  id: m.id,
  senderId: m.senderId,
  senderName: m.senderId === null ? SYSTEM_SENDER[lang] : m.senderName || m.senderAccount || '',
  receiverId: m.receiverId,
  receiverName: m.receiverName || m.receiverAccount || '',
  isRead: m.readAt !== null,
  readAt: m.readAt ? m.readAt.toISOString() : null,
  isNotice: m.notice !== null,
  createdAt: m.createdAt.toISOString(),
});

function fromWithNames(tx: Tx) {
  return tx
    .select(selection)
    .from(message)
    .leftJoin(sender, and(eq(sender.tenantId, message.tenantId), eq(sender.id, message.senderId)))
    .leftJoin(receiver, and(eq(receiver.tenantId, message.tenantId), eq(receiver.id, message.receiverId)));
}

/** Conditions of the list's own filters: which box (default inbox) and read / unread. */
function boxConditions(auth: AuthContext, query: Record<string, unknown>): SQL[] {
  const box = query.box === undefined || query.box === '' ? 'inbox' : String(query.box);
  if (!MessageBox.includes(box as MessageBox)) throw new BizError('BadRequest', { additional: 'box' });
  const conditions =
    box === 'inbox'
      ? [eq(message.tenantId, auth.tenantId), eq(message.receiverId, auth.adminId), isNull(message.hiddenAt)]
      : [eq(message.tenantId, auth.tenantId), eq(message.senderId, auth.adminId)];
  const isRead = query.isRead === undefined || query.isRead === '' ? undefined : String(query.isRead);
  if (isRead !== undefined) {
    if (!['true', 'false', '1', '0'].includes(isRead)) throw new BizError('BadRequest', { additional: 'isRead' });
    conditions.push(isRead === 'true' || isRead === '1' ? isNotNull(message.readAt) : isNull(message.readAt));
  }
  return conditions;
}

export async function listMessages(ctx: ServiceContext, query: Record<string, unknown>, lang: NoticeLang = 'zh') {
  const parsed = parseList(listSpec, query, boxConditions(ctx.account, query));
  const page = await runPage(parsed, fromWithNames(ctx.tx).$dynamic(), ctx.tx.select(countAll()).from(message).$dynamic());
  return { data: page.data.map((m) => toRow(m, lang)), pagination: page.pagination };
}

/** A message the caller sent, or received and did not hide. */
export async function getMessage(ctx: ServiceContext, id: number, lang: NoticeLang = 'zh'): Promise<MessageRow> {
  const { adminId } = ctx.account;
  const [row] = await fromWithNames(ctx.tx)
    .where(and(eq(message.tenantId, ctx.tenantId), eq(message.id, id), or(eq(message.senderId, adminId), and(eq(message.receiverId, adminId), isNull(message.hiddenAt)))))
    .limit(1);
  if (!row) throw new BizError('DataNotExist');
  return toRow(row, lang);
}

/** Sends one message to each receiver; answers the new messages' ids. */
export async function sendMessage(ctx: ServiceContext, { receiverIds, title, content }: MessageSend): Promise<{ ids: number[] }> {
  if (receiverIds.includes(ctx.account.adminId)) throw new BizError('MessageSenderReceiverSame');
  await assertStaffOfTenant(ctx.tx, ctx.tenantId, receiverIds);
  const inserted = await ctx.tx
    .insert(message)
    .values(receiverIds.map((receiverId) => ({ tenantId: ctx.tenantId, senderId: ctx.account.adminId, receiverId, title, content })))
    .returning({ id: message.id });
  announceUnread(ctx, receiverIds);
  return { ids: inserted.map((m) => m.id) };
}

/** The caller's received messages among `ids`: all must exist, and all be in the caller's inbox (else `refusal`). */
async function ownReceived(ctx: ServiceContext, ids: number[], refusal: (notMine: number[]) => Error) {
  const found = await ctx.tx
    .select({ id: message.id, receiverId: message.receiverId, hiddenAt: message.hiddenAt })
    .from(message)
    .where(and(eq(message.tenantId, ctx.tenantId), inArray(message.id, ids)));
  assertAllFound(ids, found, 'DataNotExist');
  const notMine = found.filter((m) => m.receiverId !== ctx.account.adminId);
  if (notMine.length) throw refusal(notMine.map((m) => m.id));
  // A hidden message is gone for its receiver: as if it did not exist.
  const hidden = found.find((m) => m.hiddenAt !== null);
  if (hidden) throw new BizError('DataNotExist', { additional: hidden.id });
}

/** Marks messages of the caller's inbox read; a message of someone else's inbox is refused. */
export async function markRead(ctx: ServiceContext, ids: number[]): Promise<{ updated: number }> {
  await ownReceived(ctx, ids, (notMine) => forbidden('Forbidden', notMine.join(',')));
  const rows = await ctx.tx
    .update(message)
    .set({ readAt: new Date() })
    .where(and(eq(message.tenantId, ctx.tenantId), inArray(message.id, ids), isNull(message.readAt)))
    .returning({ id: message.id });
  if (rows.length) announceUnread(ctx, [ctx.account.adminId]);
  return { updated: rows.length };
}

export async function markAllRead(ctx: ServiceContext): Promise<{ updated: number }> {
  const rows = await ctx.tx
    .update(message)
    .set({ readAt: new Date() })
    .where(and(eq(message.tenantId, ctx.tenantId), eq(message.receiverId, ctx.account.adminId), isNull(message.readAt), isNull(message.hiddenAt)))
    .returning({ id: message.id });
  if (rows.length) announceUnread(ctx, [ctx.account.adminId]);
  return { updated: rows.length };
}

/** Hides messages of the caller's inbox (all or nothing): the receiver's way to remove one; the sender still sees it. */
export async function hideMessages(ctx: ServiceContext, ids: number[]): Promise<{ updated: number }> {
  await ownReceived(ctx, ids, (notMine) => new BizError('OnlyMessageReceiverCanHide', { additional: notMine.join(',') }));
  const rows = await ctx.tx
    .update(message)
    .set({ hiddenAt: new Date() })
    .where(and(eq(message.tenantId, ctx.tenantId), inArray(message.id, ids), eq(message.receiverId, ctx.account.adminId), isNull(message.hiddenAt)))
    .returning({ id: message.id });
  announceUnread(ctx, [ctx.account.adminId]);
  return { updated: rows.length };
}

/** Deletes messages the caller wrote and sent (all or nothing): gone for their receivers too. */
export async function deleteMessages(ctx: ServiceContext, ids: number[]) {
  const found = await ctx.tx
    .select({ id: message.id, senderId: message.senderId, receiverId: message.receiverId, hiddenAt: message.hiddenAt, notice: message.notice })
    .from(message)
    .where(and(eq(message.tenantId, ctx.tenantId), inArray(message.id, ids)));
  assertAllFound(ids, found, 'DataNotExist');
  if (found.some((m) => m.senderId !== ctx.account.adminId)) throw new BizError('OnlyMessageSenderCanDelete');
  const notice = found.find((m) => m.notice !== null);
  if (notice) throw new BizError('NoticeProhibitDelete', { additional: notice.id });
  await ctx.tx.delete(message).where(and(eq(message.tenantId, ctx.tenantId), inArray(message.id, ids), eq(message.senderId, ctx.account.adminId)));
  announceUnread(ctx, found.filter((m) => m.hiddenAt === null).map((m) => m.receiverId));
}
