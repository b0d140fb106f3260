import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, startTestApp, TEST_DB, unique, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, readXlsx, staffCaller, type Caller } from './basic-fixtures.ts';
import { mallApi } from './mall-fixtures.ts';

/*
 * The list exports of base content, the mall and the service orders (core/list-export.ts): each exports the
 * list's current query through the list's own service — its filters, its scope, its tenant — titled in the
 * caller's language, behind its `<screen>_export` button.
 */

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let callerA: Caller;
let callerB: Caller;
let mall: ReturnType<typeof mallApi>;

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'ExpA');
  b = await seedTenant(ctx.database, 'ExpB');
  callerA = await adminCaller(ctx, a);
  callerB = await adminCaller(ctx, b);
  mall = mallApi(ctx, callerA.token);
});
afterAll(() => ctx.close());

interface Made {
  /** A text the exported row holds. */
  marker: string;
  /** The list filter that finds only it. */
  filter: Record<string, string>;
}

const serviceOrder = async (): Promise<Made> => {
  const order = (await callerA.post<{ orderNo: string }>('/api/admin/service/proxyOrder', { serviceName: `Clean ${unique()}`, customerName: '王先生', customerPhone: '13800001234', address: '上海' })).body.data;
  return { marker: order.orderNo, filter: { orderNo: order.orderNo } };
};

/** A lottery running now, always drawing its one prize. */
const lottery = async (name = `Lottery ${unique()}`) =>
  mall.send<{ id: number }>('POST', '/api/admin/mall/lottery', {
    name,
    startAt: '2020-01-01 00:00:00',
    endAt: '2999-01-01 00:00:00',
    prizes: [{ name: 'Cup', kind: 'goods', probability: 100, stock: 5 }, { name: 'None', kind: 'none', probability: 0 }],
  });

const cases: Array<{ list: string; url: string; code: string; header: [string, string]; make: () => Promise<Made>; mine?: false; rows?: number }> = [
  {
    list: 'swiper', url: '/api/admin/base/swiper', code: 'base_swiper_export', header: ['标题', 'Title'],
    make: async () => {
      const title = `Slide ${unique()}`;
      expect((await callerA.post('/api/admin/base/swiper', { title, image: '/api/upload/img/a.png' })).body.status).toBe(0);
      return { marker: title, filter: { title } };
    },
  },
  {
    list: 'mall products', url: '/api/admin/mall/product', code: 'mall_product_export', header: ['商品名称', 'Name'],
    make: async () => {
      const name = `Export ${unique()}`;
      await mall.product(await mall.category(`Cat ${unique()}`), { name });
      return { marker: name, filter: { name } };
    },
  },
  {
    list: 'mall orders', url: '/api/admin/mall/order', code: 'mall_order_export', header: ['订单号', 'Order no.'],
    make: async () => {
      const product = await mall.product(await mall.category(`Cat ${unique()}`));
      const order = await mall.order(await mall.customer(), [{ skuId: product.skus[0].id, quantity: 1 }]);
      return { marker: order.orderNo, filter: { orderNo: order.orderNo } };
    },
  },
  {
    list: 'mall proxy orders', url: '/api/admin/mall/proxyOrder', code: 'mall_proxyOrder_export', header: ['订单号', 'Order no.'],
    make: async () => {
      const product = await mall.product(await mall.category(`Cat ${unique()}`));
      const order = await mall.order(await mall.customer(), [{ skuId: product.skus[0].id, quantity: 1 }]);
      return { marker: order.orderNo, filter: { orderNo: order.orderNo } };
    },
  },
  {
    // A name search keeps the path to a match: the top category comes with its matching sub-category.
    list: 'mall category tree', url: '/api/admin/mall/category', code: 'mall_category_export', header: ['分类名称', 'Name'], rows: 2,
    make: async () => {
      const top = `Top ${unique()}`;
      const sub = `Sub ${unique()}`;
      await mall.category(sub, await mall.category(top));
      return { marker: `${top} / ${sub}`, filter: { name: sub } };
    },
  },
  {
    list: 'lotteries', url: '/api/admin/mall/lottery', code: 'mall_lottery_export', header: ['活动名称', 'Name'],
    make: async () => {
      const name = `Lottery ${unique()}`;
      await lottery(name);
      return { marker: name, filter: { name } };
    },
  },
  {
    list: 'lottery draws', url: '/api/admin/mall/lottery/record', code: 'mall_lottery_record_export', header: ['活动名称', 'Lottery'],
    make: async () => {
      const { id } = await lottery();
      const customer = await mall.customer();
      const record = await mall.send<{ customerName: string }>('POST', '/api/admin/mall/lottery/draw', { lotteryId: id, customerId: customer });
      return { marker: record.customerName, filter: { lotteryId: String(id) } };
    },
  },
  {
    list: 'feedback', url: '/api/admin/mall/feedback', code: 'mall_feedback_export', header: ['类型', 'Type'],
    make: async () => {
      const content = `Too slow ${unique()}`;
      await mall.send('POST', '/api/admin/mall/feedback', { type: 'complaint', content });
      return { marker: content, filter: { content } };
    },
  },
  {
    // The slots are one short list without filters: the tenant's only slot.
    list: 'time slots', url: '/api/admin/base/time/slot', code: 'base_time_export', header: ['开始', 'Start'],
    make: async () => {
      await mall.send('POST', '/api/admin/base/time/slot', { start: '07:10', end: '08:20', capacity: 3 });
      return { marker: '07:10', filter: {} };
    },
  },
  { list: 'service orders', url: '/api/admin/service/order', code: 'service_order_export', header: ['订单号', 'Order no.'], make: serviceOrder },
  { list: 'proxy service orders', url: '/api/admin/service/proxyOrder', code: 'service_proxyOrder_export', header: ['订单号', 'Order no.'], make: serviceOrder },
  // "My orders" exports only what is dispatched to the caller: an undispatched order is not in it.
  { list: 'my service orders', url: '/api/admin/service/myOrder', code: 'service_myOrder_export', header: ['订单号', 'Order no.'], make: serviceOrder, mine: false },
];

describe(`list exports (${TEST_DB})`, () => {
  it.each(cases)('$list: the filtered list as .xlsx in zh and en, of the tenant only, behind $code', async ({ url, code, header, make, mine, rows: count = 1 }) => {
    const { marker, filter } = await make();
    const zh = await callerA.download(`${url}/export`, filter);
    expect(zh.status).toBe(200);
    expect(String(zh.headers['content-type'])).toContain('spreadsheetml');
    const rows = await readXlsx(zh.body);
    expect(rows[0][0]).toBe(header[0]);
    const expected = mine === false ? 0 : count;
    expect(rows.slice(1)).toHaveLength(expected);
    if (expected) expect(rows.at(-1)).toContain(marker);

    const en = await readXlsx((await callerA.download(`${url}/export?lang=en`, filter)).body);
    expect(en[0][0]).toBe(header[1]);
    expect(en.slice(1)).toHaveLength(expected);

    // Another tenant's export of the same query holds none of it.
    const other = await readXlsx((await callerB.download(`${url}/export`, filter)).body);
    expect(other).toHaveLength(1);

    // Without the button code: refused.
    const viewer = await staffCaller(ctx, a, []);
    const refused = await viewer.download(`${url}/export`, filter);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ status: 40300 });
    const holder = await staffCaller(ctx, a, [code]);
    expect((await holder.download(`${url}/export`, filter)).status).toBe(200);
  });
});
