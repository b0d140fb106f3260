import { and, count, desc, eq, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageBox, messageSendSchema, officeIdsSchema, type MessageRow } from '@p8/contract/office';
import type { Tx } from '../../db/connection.ts';
import { admin, message } from '../../db/schema/index.ts';
import type { AuthContext } from '../../core/auth.ts';
import { ok, paged } from '../../core/envelope.ts';
import { BizError, forbidden } from '../../core/errors.ts';
import { countAll, listQuerySchema, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { assertStaffOfTenant } from './staff.ts';

/*
 * Messages between staff of a tenant (SPEC §5: sender ≠ receiver; §6: only the sender deletes).
 * Everyone reads their own inbox and outbox; sending and deleting need their button codes.
 */
const BASE = '/api/admin/office/message';

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
  readAt: message.readAt,
  createdAt: message.createdAt,
};

type Selected = Awaited<ReturnType<typeof fromWithNames>>[number];

const toRow = (m: Selected): MessageRow => ({
  id: m.id,
  senderId: m.senderId,
  senderName: m.senderName || m.senderAccount || '',
  receiverId: m.receiverId,
  receiverName: m.receiverName || m.receiverAccount || '',
  title: m.title,
  content: m.content,
  isRead: m.readAt !== null,
  readAt: m.readAt ? m.readAt.toISOString() : null,
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
  const conditions = [eq(message.tenantId, auth.tenantId), eq(box === 'inbox' ? message.receiverId : message.senderId, auth.adminId)];
  const isRead = query.isRead === undefined || query.isRead === '' ? undefined : String(query.isRead);
  if (isRead !== undefined) {
    if (!['true', 'false', '1', '0'].includes(isRead)) throw new BizError('BadRequest', { additional: 'isRead' });
    conditions.push(isRead === 'true' || isRead === '1' ? isNotNull(message.readAt) : isNull(message.readAt));
  }
  return conditions;
}

export async function messageRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(BASE, { schema: { tags: ['office'], summary: 'Messages: box=inbox|outbox, isRead=true|false, title, start/end', querystring: listQuerySchema } }, async (req) => {
    const parsed = parseList(listSpec, req.query, boxConditions(req.auth, req.query));
    const page = await req.tenant((tx) =>
      runPage(parsed, fromWithNames(tx).$dynamic(), tx.select(countAll()).from(message).$dynamic()),
    );
    return paged(page.data.map((m) => toRow(m)), page.pagination);
  });

  r.get(`${BASE}/unread/count`, { schema: { tags: ['office'], summary: 'Unread messages in my inbox' } }, async (req) => {
    const [row] = await req.tenant((tx) =>
      tx
        .select({ count: count() })
        .from(message)
        .where(and(eq(message.tenantId, req.auth.tenantId), eq(message.receiverId, req.auth.adminId), isNull(message.readAt))),
    );
    return ok({ count: Number(row?.count ?? 0) });
  });

  r.get(`${BASE}/:id`, { schema: { tags: ['office'], summary: 'A message I sent or received', params: z.object({ id: z.coerce.number().int().positive() }) } }, async (req) => {
    const [row] = await req.tenant((tx) =>
      fromWithNames(tx)
        .where(
          and(
            eq(message.tenantId, req.auth.tenantId),
            eq(message.id, req.params.id),
            or(eq(message.senderId, req.auth.adminId), eq(message.receiverId, req.auth.adminId)),
          ),
        )
        .limit(1),
    );
    if (!row) throw new BizError('DataNotExist');
    return ok(toRow(row));
  });

  r.post(BASE, { config: { permission: 'system_message_send' }, schema: { tags: ['office'], summary: 'Send a message to one or many staff', body: messageSendSchema } }, async (req) => {
    const { receiverIds, title, content } = req.body;
    if (receiverIds.includes(req.auth.adminId)) throw new BizError('MessageSenderReceiverSame');
    const ids = await req.tenant(async (tx) => {
      await assertStaffOfTenant(tx, req.auth.tenantId, receiverIds);
      const inserted = await tx
        .insert(message)
        .values(receiverIds.map((receiverId) => ({ tenantId: req.auth.tenantId, senderId: req.auth.adminId, receiverId, title, content })))
        .returning({ id: message.id });
      return inserted.map((m) => m.id);
    });
    return ok({ ids });
  });

  r.put(`${BASE}/read`, { schema: { tags: ['office'], summary: 'Mark messages of my inbox read', body: officeIdsSchema } }, async (req) => {
    const ids = req.body.ids;
    const updated = await req.tenant(async (tx) => {
      const found = await tx
        .select({ id: message.id, receiverId: message.receiverId })
        .from(message)
        .where(and(eq(message.tenantId, req.auth.tenantId), inArray(message.id, ids)));
      const missing = ids.filter((id) => !found.some((m) => m.id === id));
      if (missing.length) throw new BizError('DataNotExist', { additional: missing.join(',') });
      const notMine = found.filter((m) => m.receiverId !== req.auth.adminId);
      if (notMine.length) throw forbidden('Forbidden', notMine.map((m) => m.id).join(','));
      const rows = await tx
        .update(message)
        .set({ readAt: new Date() })
        .where(and(eq(message.tenantId, req.auth.tenantId), inArray(message.id, ids), isNull(message.readAt)))
        .returning({ id: message.id });
      return rows.length;
    });
    return ok({ updated });
  });

  r.put(`${BASE}/read/all`, { schema: { tags: ['office'], summary: 'Mark my whole inbox read' } }, async (req) => {
    const updated = await req.tenant(async (tx) => {
      const rows = await tx
        .update(message)
        .set({ readAt: new Date() })
        .where(and(eq(message.tenantId, req.auth.tenantId), eq(message.receiverId, req.auth.adminId), isNull(message.readAt)))
        .returning({ id: message.id });
      return rows.length;
    });
    return ok({ updated });
  });

  r.delete(BASE, { config: { permission: 'system_message_delete' }, schema: { tags: ['office'], summary: 'Delete messages I sent', body: officeIdsSchema } }, async (req) => {
    const ids = req.body.ids;
    await req.tenant(async (tx) => {
      const found = await tx
        .select({ id: message.id, senderId: message.senderId })
        .from(message)
        .where(and(eq(message.tenantId, req.auth.tenantId), inArray(message.id, ids)));
      const missing = ids.filter((id) => !found.some((m) => m.id === id));
      if (missing.length) throw new BizError('DataNotExist', { additional: missing.join(',') });
      if (found.some((m) => m.senderId !== req.auth.adminId)) throw new BizError('OnlyMessageSenderCanDelete');
      await tx.delete(message).where(and(eq(message.tenantId, req.auth.tenantId), inArray(message.id, ids), eq(message.senderId, req.auth.adminId)));
    });
    return ok(null);
  });
}
