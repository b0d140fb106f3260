import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MallOrder } from '@p8/contract/mall';
import { MAX_UNPAID_ORDER_CANCEL_MINUTES } from '@p8/contract/tenant-config';
import { mallSku } from '../src/db/schema/index.ts';
import { cancelUnpaidOrders, type UnpaidOrderJobDeps } from '../src/modules/mall/unpaid-orders.ts';
import { call, login, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { mallApi } from './mall-fixtures.ts';

let ctx: TestContext;
let deps: UnpaidOrderJobDeps;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let api: ReturnType<typeof mallApi>;
let apiB: ReturnType<typeof mallApi>;

beforeAll(async () => {
  ctx = await startTestApp();
  deps = { database: ctx.database, config: ctx.config, registries: ctx.app.registries, access: ctx.app.access, log: ctx.app.log };
  a = await seedTenant(ctx.database, 'UnpaidA');
  b = await seedTenant(ctx.database, 'UnpaidB');
  tokenA = await login(ctx.app, a.name, a.password);
  api = mallApi(ctx, tokenA);
  apiB = mallApi(ctx, await login(ctx.app, b.name, b.password));
});
afterAll(() => ctx.close());

const M = '/api/admin/mall';
const SETTING = '/api/admin/system/setting';
const minutesLater = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const stockOf = async (tenantId: number, skuId: number) =>
  (await ctx.database.withTenant(tenantId, (tx) => tx.select({ stock: mallSku.stock }).from(mallSku).where(and(eq(mallSku.tenantId, tenantId), eq(mallSku.id, skuId)))))[0].stock;
const orderOf = (id: number, client = api) => client.send<MallOrder>('GET', `${M}/order/${id}`);

/** A product, a customer and `count` unpaid orders of 2 of its first SKU each. */
async function unpaidOrders(client: ReturnType<typeof mallApi>, count: number) {
  const product = await client.product(await client.category());
  const skuId = product.skus[0].id!;
  const customer = await client.customer();
  const orders: MallOrder[] = [];
  for (let i = 0; i < count; i++) orders.push(await client.order(customer, [{ skuId, quantity: 2 }]));
  return { skuId, orders };
}

describe(`unpaid mall orders are cancelled after the tenant's time (${TEST_DB})`, () => {
  it('keeps the setting in the system settings, 0 (never) by default, within its bounds', async () => {
    expect((await api.send<{ unpaidOrderCancelMinutes: number }>('GET', SETTING)).unpaidOrderCancelMinutes).toBe(0);
    for (const bad of [-1, 1.5, MAX_UNPAID_ORDER_CANCEL_MINUTES + 1, '30']) {
      expect((await call(ctx.app, 'PUT', SETTING, { token: tokenA, body: { unpaidOrderCancelMinutes: bad } })).body.status, String(bad)).toBe(40001);
    }
    expect((await api.send<{ unpaidOrderCancelMinutes: number }>('PUT', SETTING, { unpaidOrderCancelMinutes: 30 })).unpaidOrderCancelMinutes).toBe(30);
  });

  it('cancels only the overdue unpaid orders of the tenants that set a time, and gives their stock back', async () => {
    const { skuId, orders } = await unpaidOrders(api, 3);
    const paid = orders[2];
    await api.send('PUT', `${M}/order/pay`, { id: paid.id, payType: 'offline' });
    const other = await unpaidOrders(apiB, 1);
    expect(await stockOf(a.tenantId, skuId)).toBe(20 - 6);

    // Not yet: 29 minutes on the clock.
    expect(await cancelUnpaidOrders(deps, { now: minutesLater(29) })).toBe(0);
    expect((await orderOf(orders[0].id)).status).toBe('PendingPayment');

    // 31 minutes on: the two unpaid ones go, the paid one stays, tenant B (no time set) is not touched.
    const now = minutesLater(31);
    expect(await cancelUnpaidOrders(deps, { now })).toBe(2);
    for (const order of orders.slice(0, 2)) {
      const detail = await orderOf(order.id);
      expect(detail.status).toBe('Cancelled');
      expect(new Date(detail.cancelledAt!).getTime()).toBe(now.getTime());
      expect(detail.logs.map((l) => l.action)).toEqual(['create', 'auto_cancel']);
    }
    expect((await orderOf(paid.id)).status).toBe('Paid');
    expect(await stockOf(a.tenantId, skuId)).toBe(20 - 2);
    expect((await orderOf(other.orders[0].id, apiB)).status).toBe('PendingPayment');
    expect(await stockOf(b.tenantId, other.skuId)).toBe(20 - 2);

    // Run again: nothing left to do.
    expect(await cancelUnpaidOrders(deps, { now })).toBe(0);
  });

  it('works in bounded batches: a run cancels at most batchSize × maxBatches per tenant, the next run the rest', async () => {
    const { skuId, orders } = await unpaidOrders(api, 5);
    const now = minutesLater(60);
    expect(await cancelUnpaidOrders(deps, { now, batchSize: 2, maxBatches: 1 })).toBe(2);
    // Oldest first.
    expect((await Promise.all(orders.map((o) => orderOf(o.id)))).map((o) => o.status)).toEqual(['Cancelled', 'Cancelled', 'PendingPayment', 'PendingPayment', 'PendingPayment']);
    expect(await cancelUnpaidOrders(deps, { now, batchSize: 2, maxBatches: 5 })).toBe(3);
    expect(await stockOf(a.tenantId, skuId)).toBe(20);
  });

  it('stops when the tenant turns the time off again', async () => {
    const { orders } = await unpaidOrders(api, 1);
    await api.send('PUT', SETTING, { unpaidOrderCancelMinutes: 0 });
    expect(await cancelUnpaidOrders(deps, { now: minutesLater(600) })).toBe(0);
    expect((await orderOf(orders[0].id)).status).toBe('PendingPayment');
  });
});
