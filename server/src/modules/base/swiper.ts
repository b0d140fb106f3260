import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { SwiperCreate, SwiperRow, SwiperUpdate } from '@p8/contract/base';
import { swiper } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import { assertAllFound } from '../../core/ids.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';

/** Carousel slides of the customer side: an uploaded image, where a tap leads, their order and switch. */

const listSpec: ListSpec = {
  fields: {
    title: { column: swiper.title, filter: 'like', sortable: true },
    enabled: { column: swiper.enabled, filter: 'bool' },
    sort: { column: swiper.sort, sortable: true },
    createdAt: { column: swiper.createdAt, sortable: true },
  },
  dateColumn: swiper.createdAt,
  // The order the customer side shows them in.
  defaultOrder: [asc(swiper.sort), desc(swiper.id)],
};

type Swiper = typeof swiper.$inferSelect;

const toRow = (s: Swiper): SwiperRow => ({
  id: s.id,
  title: s.title,
  image: s.image,
  link: s.link,
  sort: s.sort,
  enabled: s.enabled,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

const mine = (ctx: ServiceContext, id: number) => and(eq(swiper.tenantId, ctx.tenantId), eq(swiper.id, id));

async function findSwiper(ctx: ServiceContext, id: number): Promise<Swiper> {
  const [row] = await ctx.tx.select().from(swiper).where(mine(ctx, id)).limit(1);
  if (!row) throw new BizError('DataNotExist', { additional: id });
  return row;
}

async function assertAllExist(ctx: ServiceContext, ids: number[]) {
  const found = await ctx.tx.select({ id: swiper.id }).from(swiper).where(and(eq(swiper.tenantId, ctx.tenantId), inArray(swiper.id, ids)));
  assertAllFound(ids, found, 'DataNotExist');
}

export async function listSwipers(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(listSpec, query, [eq(swiper.tenantId, ctx.tenantId)]);
  const page = await runPage(parsed, ctx.tx.select().from(swiper).$dynamic(), ctx.tx.select(countAll()).from(swiper).$dynamic());
  return { data: page.data.map(toRow), pagination: page.pagination };
}

export async function getSwiper(ctx: ServiceContext, id: number): Promise<SwiperRow> {
  return toRow(await findSwiper(ctx, id));
}

export async function createSwiper(ctx: ServiceContext, body: SwiperCreate): Promise<SwiperRow> {
  const [created] = await ctx.tx
    .insert(swiper)
    .values({ ...body, tenantId: ctx.tenantId })
    .returning();
  return toRow(created);
}

export async function updateSwiper(ctx: ServiceContext, { id, ...fields }: SwiperUpdate): Promise<SwiperRow> {
  await findSwiper(ctx, id);
  const [updated] = await ctx.tx
    .update(swiper)
    .set({ ...fields, updatedAt: new Date() })
    .where(mine(ctx, id))
    .returning();
  return toRow(updated);
}

export async function deleteSwipers(ctx: ServiceContext, ids: number[]) {
  await assertAllExist(ctx, ids);
  await ctx.tx.delete(swiper).where(and(eq(swiper.tenantId, ctx.tenantId), inArray(swiper.id, ids)));
}

export async function enableSwipers(ctx: ServiceContext, ids: number[], enabled: boolean) {
  await assertAllExist(ctx, ids);
  await ctx.tx.update(swiper).set({ enabled, updatedAt: new Date() }).where(and(eq(swiper.tenantId, ctx.tenantId), inArray(swiper.id, ids)));
}
