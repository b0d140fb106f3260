import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { renderNotice, type Notice } from '@p8/contract/notices';
import { deferToCommit, type Tx } from '../db/connection.ts';
import { admin, message } from '../db/schema/index.ts';
import { loadPermissions } from './permissions.ts';
import type { ServiceContext } from './service-context.ts';

/** How a notice is sent (all optional: `sendNotice(ctx, ids, notice)` sends it from the one acting). */
export interface NoticeOptions {
  /**
   * 'system': sent by the system itself, with no sender (a scheduled notice: an attendance anomaly, a
   * reminder). Nobody acts, so the account the work runs as is told too when it is a receiver.
   */
  from?: 'system';
  /** Sent at most once per receiver and key (e.g. `attendance:2026-11-28`): a repeat send stores nothing. */
  onceKey?: string;
  /** When it was sent (the demo data's past); now by default. */
  at?: Date;
}

/**
 * Sends a system notice (contract notices.ts) to staff of the tenant as messages of the message center,
 * from the one acting (or from the system): each reader reads it in their language — the notice's key and
 * values are stored, and both languages' texts come from them; the stored title and content keep the Chinese
 * text for what reads the table directly. A message's sender and receiver differ, so the one acting is never
 * told of what they did themselves. The receivers' bells update live once the transaction commits.
 * Answers the receivers the notice was stored for.
 */
export async function sendNotice(ctx: ServiceContext, receiverIds: readonly number[], notice: Notice, options: NoticeOptions = {}): Promise<number[]> {
  const system = options.from === 'system';
  const senderId = system ? null : ctx.account.adminId;
  const receivers = [...new Set(receiverIds)].filter((id) => id !== senderId);
  if (!receivers.length) return [];
  const text = renderNotice(notice, 'zh');
  const rows = receivers.map((receiverId) => ({ tenantId: ctx.tenantId, senderId, receiverId, ...text, notice, onceKey: options.onceKey ?? null, ...(options.at ? { createdAt: options.at } : {}) }));
  const stored = options.onceKey
    ? await ctx.tx
        .insert(message)
        .values(rows)
        .onConflictDoNothing({ target: [message.tenantId, message.receiverId, message.onceKey], where: sql`${message.onceKey} is not null` })
        .returning({ receiverId: message.receiverId })
    : await ctx.tx.insert(message).values(rows).returning({ receiverId: message.receiverId });
  const told = stored.map((r) => r.receiverId);
  announceUnread(ctx, told);
  return told;
}

/**
 * Who hears that accounts' unread counts changed, once the change committed: the live channel
 * (service/chat-hub.ts) publishes it to every server process, which tells those accounts' open screens.
 * Held per app (core/registries.ts); without a listener (a tool, a test without the channel) nothing is told.
 */
export class InboxSignals {
  private listener: ((tenantId: number, adminIds: number[]) => Promise<void>) | undefined;

  listen(listener: (tenantId: number, adminIds: number[]) => Promise<void>): void {
    this.listener = listener;
  }

  async changed(tenantId: number, adminIds: number[]): Promise<void> {
    if (this.listener && adminIds.length) await this.listener(tenantId, adminIds);
  }
}

/** The unread messages of an account's inbox (hidden ones not counted): the bell's number. */
export async function unreadCount(ctx: ServiceContext): Promise<{ count: number }> {
  const [row] = await ctx.tx
    .select({ count: count() })
    .from(message)
    .where(and(eq(message.tenantId, ctx.tenantId), eq(message.receiverId, ctx.account.adminId), isNull(message.readAt), isNull(message.hiddenAt)));
  return { count: Number(row?.count ?? 0) };
}

/**
 * Tells the accounts' open screens their unread count changed, after the unit of work commits (never when it
 * rolls back). Inside a savepoint (an import's row) nothing is told live: the bell's fallback poll reads it.
 */
export function announceUnread(ctx: ServiceContext, adminIds: readonly number[]): void {
  const ids = [...new Set(adminIds)];
  if (!ids.length) return;
  const { registries, tenantId, log } = ctx;
  deferToCommit(ctx.tx, () =>
    registries.inbox.changed(tenantId, ids).catch((error: unknown) => {
      // Stored all the same: the screens read it on their next connect or fallback poll.
      log.warn({ err: error }, 'unread count not published');
    }),
  );
}

/**
 * Who hears of a new order (mall or service): the enabled, unlocked staff who switched new-order notices on
 * (the staff screen's switch) and whose roles open `screen`, the screen where the order is handled — the
 * switch says who wants to hear, the screen who may act on it (a module that expired closes it).
 */
export async function newOrderListeners(tx: Tx, tenantId: number, screen: string): Promise<number[]> {
  const candidates = await tx
    .select({ id: admin.id })
    .from(admin)
    .where(and(eq(admin.tenantId, tenantId), eq(admin.enabled, true), eq(admin.isLock, false), eq(admin.newOrderNotify, true)));
  const listeners: number[] = [];
  for (const { id } of candidates) if ((await loadPermissions(tx, tenantId, id)).menuNames.has(screen)) listeners.push(id);
  return listeners;
}
