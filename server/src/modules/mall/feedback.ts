import { and, desc, eq, inArray } from 'drizzle-orm';
import type { MallFeedback, MallFeedbackCreate, MallFeedbackStatus, MallFeedbackType } from '@p8/contract/mall';
import { mallFeedback, partner } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import { assertIdsExist, distinct } from '../../core/ids.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { customerOf, operatorName } from './common.ts';
import { iso } from '../../core/envelope.ts';

/*
 * Mall → feedback: what customers tell the shop (suggestions, complaints…), with the shop's reply.
 * Pending → Replied (a reply is written) → Closed; a closed one can be reopened by setting its status.
 * Staff may also record feedback received by phone or in person.
 */

type Row = typeof mallFeedback.$inferSelect;

const toFeedback = (r: Row, customerName: string | null): MallFeedback => ({
  id: r.id,
  customerId: r.customerId,
  customerName,
  contactName: r.contactName,
  contactPhone: r.contactPhone,
  type: r.type as MallFeedbackType,
  content: r.content,
  images: r.images,
  status: r.status as MallFeedbackStatus,
  reply: r.reply,
  replierName: r.replierName,
  repliedAt: iso(r.repliedAt),
  createdAt: r.createdAt.toISOString(),
});

const listSpec: ListSpec = {
  fields: {
    content: { column: mallFeedback.content, filter: 'like' },
    contactName: { column: mallFeedback.contactName, filter: 'like' },
    type: { column: mallFeedback.type, filter: 'eq' },
    status: { column: mallFeedback.status, filter: 'eq' },
    createdAt: { column: mallFeedback.createdAt, sortable: true },
  },
  dateColumn: mallFeedback.createdAt,
  defaultOrder: [desc(mallFeedback.createdAt), desc(mallFeedback.id)],
};

const selection = { feedback: mallFeedback, customerName: partner.name };
const customerJoin = and(eq(partner.tenantId, mallFeedback.tenantId), eq(partner.id, mallFeedback.customerId));

export async function listFeedback(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(listSpec, query, [eq(mallFeedback.tenantId, ctx.tenantId)]);
  const page = await runPage(parsed, ctx.tx.select(selection).from(mallFeedback).leftJoin(partner, customerJoin).$dynamic(), ctx.tx.select(countAll()).from(mallFeedback).$dynamic());
  return { data: page.data.map((r) => toFeedback(r.feedback, r.customerName)), pagination: page.pagination };
}

export async function getFeedback(ctx: ServiceContext, id: number): Promise<MallFeedback> {
  const [row] = await ctx.tx
    .select(selection)
    .from(mallFeedback)
    .leftJoin(partner, customerJoin)
    .where(and(eq(mallFeedback.tenantId, ctx.tenantId), eq(mallFeedback.id, id)));
  if (!row) throw new BizError('MallFeedbackNotExist', { additional: id });
  return toFeedback(row.feedback, row.customerName);
}

export async function createFeedback(ctx: ServiceContext, body: MallFeedbackCreate, { at = new Date() }: { at?: Date } = {}): Promise<MallFeedback> {
  if (body.customerId !== null) await customerOf(ctx.tx, ctx.tenantId, body.customerId);
  const [created] = await ctx.tx
    .insert(mallFeedback)
    .values({ ...body, tenantId: ctx.tenantId, status: 'Pending', createdAt: at, updatedAt: at })
    .returning({ id: mallFeedback.id });
  ctx.audit({ action: 'create', entity: 'mall-feedback', entityId: created.id, detail: { type: body.type } });
  return getFeedback(ctx, created.id);
}

/** Replies (again, if need be): the feedback becomes Replied. */
export async function replyFeedback(ctx: ServiceContext, id: number, reply: string, { at = new Date() }: { at?: Date } = {}): Promise<MallFeedback> {
  await getFeedback(ctx, id);
  await ctx.tx
    .update(mallFeedback)
    .set({ reply, status: 'Replied', repliedBy: ctx.account.adminId, replierName: await operatorName(ctx), repliedAt: at, updatedAt: at })
    .where(and(eq(mallFeedback.tenantId, ctx.tenantId), eq(mallFeedback.id, id)));
  ctx.audit({ action: 'reply', entity: 'mall-feedback', entityId: id });
  return getFeedback(ctx, id);
}


export async function setFeedbackStatus(ctx: ServiceContext, requested: number[], status: MallFeedbackStatus) {
  const ids = distinct(requested);
  await assertIdsExist(ctx.tx, mallFeedback, ctx.tenantId, ids, 'MallFeedbackNotExist');
  await ctx.tx.update(mallFeedback).set({ status, updatedAt: new Date() }).where(and(eq(mallFeedback.tenantId, ctx.tenantId), inArray(mallFeedback.id, ids)));
  ctx.audit({ action: 'status', entity: 'mall-feedback', entityId: ids, detail: { status } });
}

export async function deleteFeedback(ctx: ServiceContext, requested: number[]) {
  const ids = distinct(requested);
  await assertIdsExist(ctx.tx, mallFeedback, ctx.tenantId, ids, 'MallFeedbackNotExist');
  await ctx.tx.delete(mallFeedback).where(and(eq(mallFeedback.tenantId, ctx.tenantId), inArray(mallFeedback.id, ids)));
  ctx.audit({ action: 'delete', entity: 'mall-feedback', entityId: ids });
}
