import { randomInt } from 'node:crypto';
import { and, asc, count, desc, eq, gt, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { parseDateValue } from '@p8/contract/text';
import {
  MallLotteryStatus,
  type MallLottery,
  type MallLotteryCreate,
  type MallLotteryRecord,
  type MallLotteryRow,
  type MallLotteryUpdate,
  type MallPrize,
  type MallPrizeInput,
  type MallPrizeKind,
} from '@p8/contract/mall';
import { mallLottery, mallLotteryPrize, mallLotteryRecord } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import { assertIdsExist, distinct } from '../../core/ids.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { customerOf, operatorName } from './common.ts';
import { lockKey } from '../../core/advisory-lock.ts';

/*
 * Mall → lottery: activities with their prizes. Probabilities are kept in hundredths of a percent and
 * must add up to exactly 100 %, with exactly one "no prize" slot, which also catches a draw whose prize has
 * run out: a prize's stock is taken by one conditional UPDATE (`stock = stock - 1 where stock > 0`), so
 * concurrent draws never give away more than there is. An activity is in progress while it is enabled and
 * the clock is inside its window; start and end move the window's edge to now.
 */

type LotteryRow = typeof mallLottery.$inferSelect;
type PrizeRow = typeof mallLotteryPrize.$inferSelect;

/** Percent with two decimals ↔ hundredths of a percent. */
const toBasis = (percent: number) => Math.round(percent * 100);

export function lotteryStatus(l: Pick<LotteryRow, 'enabled' | 'startAt' | 'endAt'>, now = new Date()): MallLotteryStatus {
  if (!l.enabled) return 'Disabled';
  if (now < l.startAt) return 'NotStarted';
  if (now >= l.endAt) return 'Ended';
  return 'InProgress';
}

/** The SQL condition of a status filter. */
function statusCondition(status: unknown): SQL | undefined {
  if (status === undefined || status === '') return undefined;
  if (!MallLotteryStatus.includes(status as MallLotteryStatus)) throw new BizError('BadRequest', { additional: 'status' });
  const now = new Date();
  switch (status as MallLotteryStatus) {
    case 'Disabled':
      return eq(mallLottery.enabled, false);
    case 'NotStarted':
      return and(eq(mallLottery.enabled, true), gt(mallLottery.startAt, now));
    case 'Ended':
      return and(eq(mallLottery.enabled, true), lte(mallLottery.endAt, now));
    case 'InProgress':
      return and(eq(mallLottery.enabled, true), lte(mallLottery.startAt, now), gt(mallLottery.endAt, now));
  }
}

// Correlated subqueries name the outer table in full: drizzle leaves a lone table's columns unqualified,
// which inside the subquery would mean the subquery's own columns.
const recordCount = (extra: SQL) =>
  sql<number>`(select count(*)::int from ${mallLotteryRecord} r where r.tenant_id = "mall_lottery"."tenant_id" and r.lottery_id = "mall_lottery"."id" and ${extra})`;
const rowSelection = {
  lottery: mallLottery,
  prizeCount: sql<number>`(select count(*)::int from ${mallLotteryPrize} p where p.tenant_id = "mall_lottery"."tenant_id" and p.lottery_id = "mall_lottery"."id")`,
  drawCount: recordCount(sql`true`),
  winCount: recordCount(sql`r.won`),
};

const toRow = (r: { lottery: LotteryRow; prizeCount: number; drawCount: number; winCount: number }): MallLotteryRow => ({
  id: r.lottery.id,
  name: r.lottery.name,
  startAt: r.lottery.startAt.toISOString(),
  endAt: r.lottery.endAt.toISOString(),
  drawLimit: r.lottery.drawLimit,
  enabled: r.lottery.enabled,
  status: lotteryStatus(r.lottery),
  prizeCount: Number(r.prizeCount),
  drawCount: Number(r.drawCount),
  winCount: Number(r.winCount),
  createdAt: r.lottery.createdAt.toISOString(),
});

const toPrize = (p: PrizeRow): MallPrize => ({
  id: p.id,
  name: p.name,
  kind: p.kind as MallPrizeKind,
  image: p.image,
  probability: p.probability / 100,
  stock: p.stock,
  drawn: p.drawn,
  sort: p.sort,
});

const listSpec: ListSpec = {
  fields: {
    name: { column: mallLottery.name, filter: 'like', sortable: true },
    startAt: { column: mallLottery.startAt, sortable: true },
    createdAt: { column: mallLottery.createdAt, sortable: true },
  },
  dateColumn: mallLottery.createdAt,
  defaultOrder: [desc(mallLottery.createdAt), desc(mallLottery.id)],
};

export async function listLotteries(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(listSpec, query, [eq(mallLottery.tenantId, ctx.tenantId), statusCondition(query.status)]);
  const page = await runPage(parsed, ctx.tx.select(rowSelection).from(mallLottery).$dynamic(), ctx.tx.select(countAll()).from(mallLottery).$dynamic());
  return { data: page.data.map(toRow), pagination: page.pagination };
}

async function findLottery(ctx: ServiceContext, id: number): Promise<LotteryRow> {
  const [row] = await ctx.tx.select().from(mallLottery).where(and(eq(mallLottery.tenantId, ctx.tenantId), eq(mallLottery.id, id)));
  if (!row) throw new BizError('MallLotteryNotExist', { additional: id });
  return row;
}

async function prizesOf(ctx: ServiceContext, lotteryId: number): Promise<PrizeRow[]> {
  return ctx.tx
    .select()
    .from(mallLotteryPrize)
    .where(and(eq(mallLotteryPrize.tenantId, ctx.tenantId), eq(mallLotteryPrize.lotteryId, lotteryId)))
    .orderBy(asc(mallLotteryPrize.sort), asc(mallLotteryPrize.id));
}

export async function getLottery(ctx: ServiceContext, id: number): Promise<MallLottery> {
  const [row] = await ctx.tx.select(rowSelection).from(mallLottery).where(and(eq(mallLottery.tenantId, ctx.tenantId), eq(mallLottery.id, id)));
  if (!row) throw new BizError('MallLotteryNotExist', { additional: id });
  return { ...toRow(row), rule: row.lottery.rule, prizes: (await prizesOf(ctx, id)).map(toPrize) };
}

function window(body: { startAt: string; endAt: string }): { startAt: Date; endAt: Date } {
  const startAt = parseDateValue(body.startAt);
  const endAt = parseDateValue(body.endAt);
  if (!startAt) throw new BizError('DateOutOfRange', { additional: 'startAt' });
  if (!endAt) throw new BizError('DateOutOfRange', { additional: 'endAt' });
  if (endAt <= startAt) throw new BizError('MallLotteryTimeError');
  return { startAt, endAt };
}

/** Exactly one no-prize slot; probabilities add up to 100 %. */
export function assertPrizes(prizes: MallPrizeInput[]) {
  if (prizes.filter((p) => p.kind === 'none').length !== 1) throw new BizError('MallPrizeNoneSlot');
  const sum = prizes.reduce((n, p) => n + toBasis(p.probability), 0);
  if (sum !== 10_000) throw new BizError('MallPrizeProbabilitySum', { additional: (sum / 100).toFixed(2) });
}

const prizeValues = (ctx: ServiceContext, lotteryId: number, p: MallPrizeInput, sort: number) => ({
  tenantId: ctx.tenantId,
  lotteryId,
  name: p.name,
  kind: p.kind,
  image: p.image,
  probability: toBasis(p.probability),
  stock: p.kind === 'none' ? 0 : p.stock,
  sort,
});

export async function createLottery(ctx: ServiceContext, body: MallLotteryCreate): Promise<MallLottery> {
  assertPrizes(body.prizes);
  const { prizes, ...fields } = body;
  const [created] = await ctx.tx
    .insert(mallLottery)
    .values({ ...fields, ...window(body), tenantId: ctx.tenantId })
    .returning({ id: mallLottery.id });
  await ctx.tx.insert(mallLotteryPrize).values(prizes.map((p, i) => prizeValues(ctx, created.id, p, i)));
  ctx.audit({ action: 'create', entity: 'mall-lottery', entityId: created.id, detail: { name: body.name, prizes: prizes.map((p) => `${p.name} ${p.probability}%`) } });
  return getLottery(ctx, created.id);
}

/**
 * Saves an activity and its prizes: a prize sent with its id is updated (what has been drawn stays), one
 * without is added, a stored one left out is removed — unless it has been won.
 */
export async function updateLottery(ctx: ServiceContext, { id, prizes, ...fields }: MallLotteryUpdate): Promise<MallLottery> {
  await findLottery(ctx, id);
  assertPrizes(prizes);
  const stored = await prizesOf(ctx, id);
  const storedIds = new Set(stored.map((p) => p.id));
  const unknown = prizes.find((p) => p.id !== undefined && !storedIds.has(p.id));
  if (unknown) throw new BizError('DataNotExist', { additional: unknown.id });
  await ctx.tx
    .update(mallLottery)
    .set({ ...fields, ...window(fields), updatedAt: new Date() })
    .where(and(eq(mallLottery.tenantId, ctx.tenantId), eq(mallLottery.id, id)));
  const sent = new Set(prizes.map((p) => p.id).filter((v): v is number => v !== undefined));
  const removed = stored.filter((p) => !sent.has(p.id));
  const won = removed.find((p) => p.drawn > 0);
  if (won) throw new BizError('MallPrizeHasDraws', { additional: won.name });
  if (removed.length) await ctx.tx.delete(mallLotteryPrize).where(and(eq(mallLotteryPrize.tenantId, ctx.tenantId), inArray(mallLotteryPrize.id, removed.map((p) => p.id))));
  for (const [i, p] of prizes.entries()) {
    const values = prizeValues(ctx, id, p, i);
    if (p.id === undefined) await ctx.tx.insert(mallLotteryPrize).values(values);
    else {
      const { name, kind, image, probability, stock, sort } = values;
      // With the stock the editor read, the change typed applies to the stock there is now: prizes won
      // while the dialog was open stay won (setting the number read would give them away again).
      const delta = p.stockSeen === undefined || kind === 'none' ? null : stock - p.stockSeen;
      const [updated] = await ctx.tx
        .update(mallLotteryPrize)
        .set({ name, kind, image, probability, stock: delta === null ? stock : sql`${mallLotteryPrize.stock} + ${delta}`, sort })
        .where(and(eq(mallLotteryPrize.tenantId, ctx.tenantId), eq(mallLotteryPrize.id, p.id), delta === null ? undefined : gte(sql`${mallLotteryPrize.stock} + ${delta}`, 0)))
        .returning({ id: mallLotteryPrize.id });
      if (!updated) throw new BizError('MallPrizeStockChanged', { additional: name });
    }
  }
  ctx.audit({ action: 'update', entity: 'mall-lottery', entityId: id, detail: { name: fields.name, prizes: prizes.map((p) => `${p.name} ${p.probability}% ×${p.stock}`) } });
  return getLottery(ctx, id);
}


export async function deleteLotteries(ctx: ServiceContext, requested: number[]) {
  const ids = distinct(requested);
  await assertIdsExist(ctx.tx, mallLottery, ctx.tenantId, ids, 'MallLotteryNotExist');
  const [drawn] = await ctx.tx
    .select({ id: mallLotteryRecord.lotteryId })
    .from(mallLotteryRecord)
    .where(and(eq(mallLotteryRecord.tenantId, ctx.tenantId), inArray(mallLotteryRecord.lotteryId, ids)))
    .limit(1);
  if (drawn) throw new BizError('MallLotteryHasDraws', { additional: drawn.id });
  await ctx.tx.delete(mallLottery).where(and(eq(mallLottery.tenantId, ctx.tenantId), inArray(mallLottery.id, ids)));
  ctx.audit({ action: 'delete', entity: 'mall-lottery', entityId: ids });
}

export async function enableLotteries(ctx: ServiceContext, requested: number[], enabled: boolean) {
  const ids = distinct(requested);
  await assertIdsExist(ctx.tx, mallLottery, ctx.tenantId, ids, 'MallLotteryNotExist');
  await ctx.tx.update(mallLottery).set({ enabled, updatedAt: new Date() }).where(and(eq(mallLottery.tenantId, ctx.tenantId), inArray(mallLottery.id, ids)));
  ctx.audit({ action: enabled ? 'enable' : 'disable', entity: 'mall-lottery', entityId: ids });
}

/** Starts an activity now (enabled, its start moved to now); refused once its end has passed. */
export async function startLottery(ctx: ServiceContext, id: number): Promise<MallLottery> {
  const l = await findLottery(ctx, id);
  const now = new Date();
  if (l.endAt <= now) throw new BizError('MallLotteryTimeError');
  await ctx.tx
    .update(mallLottery)
    .set({ enabled: true, startAt: l.startAt > now ? now : l.startAt, updatedAt: now })
    .where(and(eq(mallLottery.tenantId, ctx.tenantId), eq(mallLottery.id, id)));
  ctx.audit({ action: 'start', entity: 'mall-lottery', entityId: id, detail: { name: l.name } });
  return getLottery(ctx, id);
}

/** Ends an activity now (its end moved to now; a start still ahead moves too). */
export async function endLottery(ctx: ServiceContext, id: number): Promise<MallLottery> {
  const l = await findLottery(ctx, id);
  const now = new Date();
  if (l.endAt <= now) throw new BizError('MallLotteryNotInProgress');
  await ctx.tx
    .update(mallLottery)
    .set({ endAt: now, startAt: l.startAt > now ? now : l.startAt, updatedAt: now })
    .where(and(eq(mallLottery.tenantId, ctx.tenantId), eq(mallLottery.id, id)));
  ctx.audit({ action: 'end', entity: 'mall-lottery', entityId: id, detail: { name: l.name } });
  return getLottery(ctx, id);
}

/** Which prize a number in [0, 10000) falls on: the prizes' probabilities laid end to end, in their order. */
export function prizeAt(prizes: Array<{ probability: number }>, roll: number): number {
  let edge = 0;
  for (const [i, p] of prizes.entries()) {
    edge += p.probability;
    if (roll < edge) return i;
  }
  return prizes.length - 1;
}

/**
 * One draw for a customer of an activity in progress. The prize the roll falls on is won only if its
 * stock can be taken; otherwise the draw falls on the no-prize slot.
 */
export async function draw(ctx: ServiceContext, lotteryId: number, customerId: number, { at = new Date(), roll = randomInt(0, 10_000) } = {}): Promise<MallLotteryRecord> {
  const lottery = await findLottery(ctx, lotteryId);
  if (lotteryStatus(lottery, at) !== 'InProgress') throw new BizError('MallLotteryNotInProgress');
  const customer = await customerOf(ctx.tx, ctx.tenantId, customerId);
  if (lottery.drawLimit > 0) {
    // One customer's draws of one activity wait for each other, so the limit holds under concurrency.
    await lockKey(ctx.tx, `mall_lottery:${ctx.tenantId}:${lotteryId}:${customerId}`);
    const [{ n }] = await ctx.tx
      .select({ n: count() })
      .from(mallLotteryRecord)
      .where(and(eq(mallLotteryRecord.tenantId, ctx.tenantId), eq(mallLotteryRecord.lotteryId, lotteryId), eq(mallLotteryRecord.customerId, customerId)));
    if (n >= lottery.drawLimit) throw new BizError('MallLotteryDrawLimit', { additional: lottery.drawLimit });
  }
  const prizes = await prizesOf(ctx, lotteryId);
  const none = prizes.find((p) => p.kind === 'none')!;
  let prize = prizes[prizeAt(prizes, roll)];
  if (prize.kind !== 'none') {
    const [taken] = await ctx.tx
      .update(mallLotteryPrize)
      .set({ stock: sql`${mallLotteryPrize.stock} - 1`, drawn: sql`${mallLotteryPrize.drawn} + 1` })
      .where(and(eq(mallLotteryPrize.tenantId, ctx.tenantId), eq(mallLotteryPrize.id, prize.id), gt(mallLotteryPrize.stock, 0)))
      .returning({ id: mallLotteryPrize.id });
    if (!taken) prize = none;
  }
  if (prize.kind === 'none') {
    await ctx.tx
      .update(mallLotteryPrize)
      .set({ drawn: sql`${mallLotteryPrize.drawn} + 1` })
      .where(and(eq(mallLotteryPrize.tenantId, ctx.tenantId), eq(mallLotteryPrize.id, none.id)));
  }
  const won = prize.kind !== 'none';
  const [record] = await ctx.tx
    .insert(mallLotteryRecord)
    .values({
      tenantId: ctx.tenantId,
      lotteryId,
      prizeId: prize.id,
      prizeName: prize.name,
      prizeKind: prize.kind,
      won,
      customerId,
      customerName: customer.name,
      operatorName: await operatorName(ctx),
      createdAt: at,
    })
    .returning();
  ctx.audit({ action: 'draw', entity: 'mall-lottery', entityId: lotteryId, detail: { customer: customer.name, prize: prize.name, won } });
  return toRecord(record, lottery.name);
}

const toRecord = (r: typeof mallLotteryRecord.$inferSelect, lotteryName: string): MallLotteryRecord => ({
  id: r.id,
  lotteryId: r.lotteryId,
  lotteryName,
  prizeId: r.prizeId,
  prizeName: r.prizeName,
  prizeKind: r.prizeKind as MallPrizeKind,
  won: r.won,
  customerId: r.customerId,
  customerName: r.customerName,
  operatorName: r.operatorName,
  createdAt: r.createdAt.toISOString(),
});

const recordSpec: ListSpec = {
  fields: {
    lotteryId: { column: mallLotteryRecord.lotteryId, filter: 'number' },
    customerName: { column: mallLotteryRecord.customerName, filter: 'like' },
    prizeName: { column: mallLotteryRecord.prizeName, filter: 'like' },
    won: { column: mallLotteryRecord.won, filter: 'bool' },
    createdAt: { column: mallLotteryRecord.createdAt, sortable: true },
  },
  dateColumn: mallLotteryRecord.createdAt,
  defaultOrder: [desc(mallLotteryRecord.createdAt), desc(mallLotteryRecord.id)],
};

export async function listRecords(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(recordSpec, query, [eq(mallLotteryRecord.tenantId, ctx.tenantId)]);
  const join = and(eq(mallLottery.tenantId, mallLotteryRecord.tenantId), eq(mallLottery.id, mallLotteryRecord.lotteryId));
  const page = await runPage(
    parsed,
    ctx.tx.select({ record: mallLotteryRecord, lotteryName: mallLottery.name }).from(mallLotteryRecord).leftJoin(mallLottery, join).$dynamic(),
    ctx.tx.select(countAll()).from(mallLotteryRecord).$dynamic(),
  );
  return { data: page.data.map((r) => toRecord(r.record, r.lotteryName ?? '')), pagination: page.pagination };
}
