import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MallCategoryNode, MallLottery, MallLotteryRecord, MallOrder, MallOrderCounts, MallOrderRow, MallProduct, MallProductRow, MallSkuOption, MallFeedback } from '@p8/contract/mall';
import { mallSku, message } from '../src/db/schema/index.ts';
import { withServiceContext } from '../src/core/service-context.ts';
import { prizeAt } from '../src/modules/mall/lottery.ts';
import { createOrder } from '../src/modules/mall/order.ts';
import { call, login, seedStaff, seedTenant, setAdmin, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { mallApi } from './mall-fixtures.ts';
import { grant } from './office-fixtures.ts';

let ctx: TestContext;
let a: TestTenant;
let api: ReturnType<typeof mallApi>;
let apiB: ReturnType<typeof mallApi>;
let plainToken: string;
let staffRoleId: number;
let customer: number;

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'MallA');
  const b = await seedTenant(ctx.database, 'MallB');
  api = mallApi(ctx, await login(ctx.app, a.name, a.password));
  apiB = mallApi(ctx, await login(ctx.app, b.name, b.password));
  const staff = await seedStaff(ctx.database, a);
  staffRoleId = staff.roleId;
  plainToken = await login(ctx.app, staff.name, staff.password);
  customer = await api.customer('顾客甲');
});
afterAll(() => ctx.close());

const M = '/api/admin/mall';
const stockOf = async (skuId: number) => {
  const [row] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ stock: mallSku.stock, sales: mallSku.sales }).from(mallSku).where(and(eq(mallSku.tenantId, a.tenantId), eq(mallSku.id, skuId))));
  return row;
};

describe(`mall categories (${TEST_DB})`, () => {
  it('keeps a two-level tree with icon, order and switch', async () => {
    const top = await api.category('服装');
    const child = await api.send<{ id: number; level: number }>('POST', `${M}/category`, { name: '男装', parentId: top, icon: '/i.png', sort: 2 });
    expect(child.level).toBe(2);
    expect((await api.refused('POST', `${M}/category`, { name: '衬衫', parentId: child.id })).message).toBe('MallCategoryMaxTwoLevels');
    expect((await api.refused('POST', `${M}/category`, { name: '男装', parentId: top })).message).toBe('NameRepeat');
    // A top category with children cannot go below another.
    const other = await api.category('鞋靴');
    expect((await api.refused('PUT', `${M}/category`, { id: top, name: '服装', parentId: other })).message).toBe('MallCategoryMaxTwoLevels');
    const tree = await api.send<MallCategoryNode[]>('GET', `${M}/category/tree`);
    expect(tree.find((n) => n.id === top)!.children!.map((c) => [c.name, c.icon, c.sort, c.productCount])).toEqual([['男装', '/i.png', 2, 0]]);
    await api.send('PUT', `${M}/category/enable`, { ids: [other], enabled: false });
    expect((await api.send<MallCategoryNode[]>('GET', `${M}/category/tree?enabled=true`)).some((n) => n.id === other)).toBe(false);
    expect((await api.refused('POST', `${M}/product`, { categoryId: other, name: 'x', images: ['/a.png'], skus: [{ specValues: [], price: 1, stock: 1 }] })).message).toBe('MallCategoryDisabled');
    expect((await api.refused('DELETE', `${M}/category`, { ids: [top] })).message).toBe('MallCategoryHasChildren');
    await api.send('DELETE', `${M}/category`, { ids: [top, child.id] });
    expect((await apiB.refused('GET', `${M}/category/${other}`)).message).toBe('MallCategoryNotExist');
  });

  it('refuses to delete a category with products', async () => {
    const cat = await api.category('数码');
    await api.product(cat, { onShelf: false });
    expect((await api.send<{ productCount: number }>('GET', `${M}/category/${cat}`)).productCount).toBe(1);
    expect((await api.refused('DELETE', `${M}/category`, { ids: [cat] })).message).toBe('MallCategoryHasProducts');
  });
});

describe(`mall products (${TEST_DB})`, () => {
  it('saves a 2 × 3 SKU matrix and lists the price range, stock and SKU count', async () => {
    const cat = await api.category('家居');
    const p = await api.product(cat);
    expect(p.skus).toHaveLength(6);
    expect(p.specs).toEqual([{ name: '颜色', values: ['红', '蓝'] }, { name: '尺码', values: ['S', 'M', 'L'] }]);
    const list = await api.send<MallProductRow[]>('GET', `${M}/product?categoryId=${cat}`);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ minPrice: 10, maxPrice: 22, stock: 120, skuCount: 6, onShelf: true, categoryName: '家居' });
  });

  it('keeps the detail as sanitised rich text', async () => {
    const p = await api.product(await api.category('详情'), { detail: '<p onclick="x()">好<script>alert(1)</script><img src="javascript:alert(1)"><a href="https://example.com">链接</a></p>' });
    expect(p.detail).toContain('好');
    expect(p.detail).toContain('https://example.com');
    expect(p.detail).not.toMatch(/script|onclick|javascript/i);
  });

  it('refuses SKUs that are not exactly the spec combinations', async () => {
    const cat = await api.category('食品');
    const base = { categoryId: cat, name: '礼盒', images: ['/a.png'], specs: [{ name: '规格', values: ['大', '小'] }] };
    const sku = (v: string) => ({ specValues: [v], price: 1, stock: 1 });
    expect((await api.refused('POST', `${M}/product`, { ...base, skus: [sku('大')] })).message).toBe('MallSkuMismatch');
    expect((await api.refused('POST', `${M}/product`, { ...base, skus: [sku('大'), sku('大')] })).message).toBe('MallSkuMismatch');
    expect((await api.refused('POST', `${M}/product`, { ...base, skus: [sku('大'), sku('中')] })).message).toBe('MallSkuMismatch');
    expect((await api.refused('POST', `${M}/product`, { ...base, specs: [{ name: '规格', values: ['大', '大'] }], skus: [sku('大'), sku('大')] })).message).toBe('MallSpecRepeat');
    expect((await api.refused('POST', `${M}/product`, { ...base, images: [], skus: [sku('大'), sku('小')] })).message).toBe('MallProductImageRequired');
    expect((await api.refused('POST', `${M}/product`, { ...base, skus: [{ ...sku('大'), price: 1.234 }, sku('小')] })).message).toBe('AmountPrecisionError');
    expect((await api.refused('POST', `${M}/product`, { ...base, skus: [{ ...sku('大'), stock: -1 }, sku('小')] })).status).not.toBe(0);
    expect((await api.refused('POST', `${M}/product`, { ...base, materialId: 999999, skus: [sku('大'), sku('小')] })).message).toBe('MaterialNotExist');
  });

  it('keeps the ids of kept combinations on update, adds new ones and removes dropped ones', async () => {
    const cat = await api.category('文具');
    const p = await api.product(cat);
    const red = p.skus.filter((s) => s.specValues[0] === '红');
    const updated = await api.send<MallProduct>('PUT', `${M}/product`, {
      id: p.id,
      categoryId: cat,
      name: p.name,
      images: p.images,
      specs: [{ name: '颜色', values: ['红', '绿'] }, { name: '尺码', values: ['S', 'M', 'L'] }],
      skus: ['红', '绿'].flatMap((c) => ['S', 'M', 'L'].map((s) => ({ specValues: [c, s], price: 5, stock: 3 }))),
    });
    expect(updated.skus.filter((s) => s.specValues[0] === '红').map((s) => s.id)).toEqual(red.map((s) => s.id));
    expect(updated.skus.every((s) => s.price === 5 && s.stock === 3)).toBe(true);
    expect(updated.skus.some((s) => s.specValues[0] === '蓝')).toBe(false);
  });

  it('links an ERP material, puts on and off the shelf, deletes only off the shelf', async () => {
    const unit = (await api.send<{ id: number }>('POST', '/api/admin/basic/unit', { name: `件${Date.now()}` })).id;
    const materialId = (await api.send<{ id: number }>('POST', '/api/admin/basic/material', { name: '电机', units: [{ unitId: unit, isMain: true }] })).id;
    const cat = await api.category('电器');
    const p = await api.product(cat, { materialId });
    expect(p.materialName).toBe('电机');
    expect((await api.refused('DELETE', '/api/admin/basic/material', { ids: [materialId] })).message).toBe('MaterialInUseProhibitDelete');
    expect((await api.refused('DELETE', `${M}/product`, { ids: [p.id] })).message).toBe('MallProductOnShelfProhibitDelete');
    await api.send('PUT', `${M}/product/shelves`, { ids: [p.id], onShelf: false });
    expect((await api.send<MallProductRow[]>('GET', `${M}/product?categoryId=${cat}&onShelf=false`)).map((r) => r.id)).toEqual([p.id]);
    const options = await api.send<MallSkuOption[]>('GET', `${M}/product/sku?productId=${p.id}`);
    expect(options).toEqual([]);
    await api.send('DELETE', `${M}/product`, { ids: [p.id] });
    expect((await api.refused('GET', `${M}/product/${p.id}`)).message).toBe('MallProductNotExist');
  });

  it('needs the button codes to write, and never shows another tenant', async () => {
    const cat = await api.category('权限');
    const body = { categoryId: cat, name: 'x', images: ['/a.png'], skus: [{ specValues: [], price: 1, stock: 1 }] };
    expect((await call(ctx.app, 'POST', `${M}/product`, { token: plainToken, body })).body.status).toBe(40300);
    await grant(ctx, a, staffRoleId, ['mall_product_add']);
    expect((await call(ctx.app, 'POST', `${M}/product`, { token: plainToken, body })).body.status).toBe(0);
    expect(await apiB.send<unknown[]>('GET', `${M}/product`)).toEqual([]);
    expect((await apiB.refused('POST', `${M}/product`, body)).message).toBe('MallCategoryNotExist');
  });
});

describe(`mall orders (${TEST_DB})`, () => {
  let product: MallProduct;
  beforeAll(async () => {
    product = await api.product(await api.category('订单测试'));
  });

  it('takes stock at order time and gives it back on cancel', async () => {
    const [s1, s2] = product.skus;
    const before1 = await stockOf(s1.id);
    const order = await api.order(customer, [{ skuId: s1.id, quantity: 3 }, { skuId: s2.id, quantity: 1 }], { freightAmount: 8, discountAmount: 2.5 });
    expect(order).toMatchObject({ status: 'PendingPayment', refundStatus: 'None', source: 'proxy', itemCount: 4, customerName: expect.stringContaining('顾客甲') });
    expect(order.goodsAmount).toBe(s1.price * 3 + s2.price);
    expect(order.payAmount).toBe(order.goodsAmount + 8 - 2.5);
    expect(order.items.map((i) => [i.skuId, i.quantity, i.specValues])).toEqual([[s1.id, 3, s1.specValues], [s2.id, 1, s2.specValues]]);
    expect(await stockOf(s1.id)).toEqual({ stock: before1.stock - 3, sales: before1.sales + 3 });
    const cancelled = await api.send<MallOrder>('PUT', `${M}/order/cancel`, { id: order.id, reason: '客户不要了' });
    expect(cancelled).toMatchObject({ status: 'Cancelled', cancelReason: '客户不要了' });
    expect(await stockOf(s1.id)).toEqual(before1);
    // Twice cancelled gives nothing back twice.
    expect((await api.refused('PUT', `${M}/order/cancel`, { id: order.id })).message).toBe('MallOrderStatusError');
    expect(await stockOf(s1.id)).toEqual(before1);
    expect(cancelled.logs.map((l) => l.action)).toEqual(['create', 'cancel']);
  });

  it('tells the staff who handle orders of a new one: newOrderNotify on and the order screen, in the reader’s language', async () => {
    const [sku] = product.skus;
    const handler = await seedStaff(ctx.database, a);
    await grant(ctx, a, handler.roleId, ['mall_order']);
    const bystander = await seedStaff(ctx.database, a);
    for (const s of [handler, bystander]) await setAdmin(ctx.database, a.tenantId, s.adminId, { newOrderNotify: true });
    const noticesTo = (adminId: number) => ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(message).where(and(eq(message.tenantId, a.tenantId), eq(message.receiverId, adminId))));
    // Placed by the administrator for a customer: from them, to the handler only (the bystander cannot open the orders).
    const order = await api.order(customer, [{ skuId: sku.id, quantity: 2 }]);
    const [told] = (await noticesTo(handler.adminId)).filter((m) => m.title.includes(order.orderNo));
    expect(told).toMatchObject({ senderId: a.adminId, title: `新商城订单 ${order.orderNo}`, notice: { key: 'mallOrderNew', params: { itemCount: '2', payAmount: order.payAmount.toFixed(2) } } });
    expect((await noticesTo(bystander.adminId)).filter((m) => m.title.includes(order.orderNo))).toEqual([]);
    const token = await login(ctx.app, handler.name, handler.password);
    const en = await ctx.app.inject({ method: 'GET', url: `/api/admin/office/message/${told.id}`, headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' } });
    expect((en.json() as { data: { title: string; content: string } }).data).toMatchObject({ title: `New mall order ${order.orderNo}`, content: expect.stringContaining('2 item(s)') });
    // Placed by the customer in the mall: from the system.
    const caller = { tenantId: a.tenantId, account: { tenantId: a.tenantId, adminId: a.adminId, sessionId: '' }, config: ctx.config, registries: ctx.app.registries, log: ctx.app.log, ip: '', access: ctx.app.access };
    const own = await withServiceContext(ctx.database, caller, (c) => createOrder(c, { customerId: customer, consignee: '李四', phone: '13800000001', address: '杭州市', items: [{ skuId: sku.id, quantity: 1 }], freightAmount: 0, discountAmount: 0, buyerRemark: '' }, 'mall'));
    expect((await noticesTo(handler.adminId)).find((m) => m.title.includes(own.orderNo))).toMatchObject({ senderId: null });
    for (const s of [handler, bystander]) await setAdmin(ctx.database, a.tenantId, s.adminId, { newOrderNotify: false });
  });

  it('keeps what orders took while the product was being edited (the change typed applies to the stock there is now)', async () => {
    const p = await api.product(await api.category('编辑中下单'));
    // The editor reads the product; meanwhile an order takes 5 of the first SKU.
    const seen = await api.send<MallProduct>('GET', `${M}/product/${p.id}`);
    const [first, second] = seen.skus;
    const order = await api.order(customer, [{ skuId: first.id, quantity: 5 }]);
    const body = (stock: (s: MallProduct['skus'][number]) => number) => ({
      id: p.id,
      categoryId: p.categoryId,
      name: p.name,
      images: p.images,
      specs: p.specs,
      onShelf: true,
      skus: seen.skus.map((s) => ({ specValues: s.specValues, price: s.price + 1, stock: stock(s), stockSeen: s.stock })),
    });
    // Saved with a new price and the first SKU's stock raised by 10, the second left: 20 − 5 + 10, and 20.
    await api.send('PUT', `${M}/product`, body((s) => (s.id === first.id ? s.stock + 10 : s.stock)));
    expect((await stockOf(first.id)).stock).toBe(25);
    expect((await stockOf(second.id)).stock).toBe(20);
    // The cancelled order gives back exactly what it took.
    await api.send('PUT', `${M}/order/cancel`, { id: order.id, reason: '' });
    expect((await stockOf(first.id)).stock).toBe(30);
    // A cut below what is left is refused, naming the SKU, and changes nothing.
    await api.order(customer, [{ skuId: second.id, quantity: 15 }]);
    const refused = await api.refused('PUT', `${M}/product`, body((s) => (s.id === second.id ? 3 : s.stock)));
    expect([refused.message, refused.additional]).toEqual(['MallSkuStockChanged', `${p.name} ${second.specValues.join(' ')}`]);
    expect((await stockOf(second.id)).stock).toBe(5);
    expect((await stockOf(first.id)).stock).toBe(30);
    // Without stockSeen the stock is set as sent.
    await api.send('PUT', `${M}/product`, { ...body((s) => s.stock), skus: seen.skus.map((s) => ({ specValues: s.specValues, price: s.price, stock: 7 })) });
    expect((await stockOf(second.id)).stock).toBe(7);
  });

  it('refuses an order beyond the stock, leaving every SKU as it was', async () => {
    const [s1, s2] = product.skus;
    const b1 = await stockOf(s1.id);
    const b2 = await stockOf(s2.id);
    const res = await api.refused('POST', `${M}/proxyOrder`, { customerId: customer, consignee: 'a', phone: '1', address: 'x', items: [{ skuId: s1.id, quantity: 1 }, { skuId: s2.id, quantity: b2.stock + 1 }] });
    expect(res.message).toBe('MallStockInsufficient');
    expect(await stockOf(s1.id)).toEqual(b1);
    expect(await stockOf(s2.id)).toEqual(b2);
    expect((await api.refused('POST', `${M}/proxyOrder`, { customerId: customer, consignee: 'a', phone: '1', address: 'x', items: [{ skuId: s1.id, quantity: 1 }, { skuId: s1.id, quantity: 1 }] })).message).toBe('MallOrderSkuRepeat');
    expect((await api.refused('POST', `${M}/proxyOrder`, { customerId: customer, consignee: 'a', phone: '1', address: 'x', items: [{ skuId: s1.id, quantity: 0 }] })).message).toBe('MallQuantityError');
    expect((await api.refused('POST', `${M}/proxyOrder`, { customerId: customer, consignee: 'a', phone: '1', address: 'x', items: [{ skuId: s1.id, quantity: 1 }], discountAmount: 9999 })).message).toBe('MallDiscountExceed');
    expect((await apiB.refused('POST', `${M}/proxyOrder`, { customerId: customer, consignee: 'a', phone: '1', address: 'x', items: [{ skuId: s1.id, quantity: 1 }] })).message).toBe('CustomerNotExist');
  });

  it('moves an order through payment, shipping and completion, with its timeline', async () => {
    const order = await api.order(customer, [{ skuId: product.skus[0].id, quantity: 1 }]);
    expect((await api.refused('PUT', `${M}/order/ship`, { id: order.id, logisticsCompany: '顺丰', logisticsNo: 'SF1' })).message).toBe('MallOrderStatusError');
    await api.send('PUT', `${M}/order/pay`, { id: order.id, payType: 'wechat' });
    expect((await api.refused('PUT', `${M}/order/ship`, { id: order.id, logisticsCompany: '', logisticsNo: '' })).message).toBe('MallLogisticsRequired');
    await api.send('PUT', `${M}/order/ship`, { id: order.id, logisticsCompany: '顺丰', logisticsNo: 'SF1001' });
    expect((await api.refused('PUT', `${M}/order/cancel`, { id: order.id })).message).toBe('MallOrderStatusError');
    await api.send('PUT', `${M}/order/remark`, { id: order.id, remark: '加急' });
    const done = await api.send<MallOrder>('PUT', `${M}/order/complete`, { id: order.id });
    expect(done).toMatchObject({ status: 'Completed', payType: 'wechat', logisticsCompany: '顺丰', logisticsNo: 'SF1001', adminRemark: '加急' });
    expect(done.paidAt && done.shippedAt && done.completedAt).toBeTruthy();
    expect(done.logs.map((l) => [l.action, l.toStatus])).toEqual([['create', 'PendingPayment'], ['pay', 'Paid'], ['ship', 'Shipped'], ['remark', null], ['complete', 'Completed']]);
    expect(done.logs.every((l) => l.operatorName)).toBe(true);
  });

  it('runs a refund: request, refuse, request again, approve, refunded — stock back', async () => {
    const sku = product.skus[1];
    const before = await stockOf(sku.id);
    const order = await api.order(customer, [{ skuId: sku.id, quantity: 2 }]);
    expect((await api.refused('PUT', `${M}/order/refund/apply`, { id: order.id, reason: '不想要' })).message).toBe('MallOrderStatusError');
    await api.send('PUT', `${M}/order/pay`, { id: order.id });
    expect((await api.refused('PUT', `${M}/order/refund/apply`, { id: order.id, reason: '不想要', amount: order.payAmount + 1 })).message).toBe('MallRefundAmountExceed');
    await api.send('PUT', `${M}/order/refund/apply`, { id: order.id, reason: '不想要' });
    // An open refund blocks shipping.
    expect((await api.refused('PUT', `${M}/order/ship`, { id: order.id, logisticsCompany: '顺丰', logisticsNo: 'SF2' })).message).toBe('MallOrderRefundOpen');
    expect((await api.refused('PUT', `${M}/order/refund/confirm`, { id: order.id })).message).toBe('MallRefundStatusError');
    const refused = await api.send<MallOrder>('PUT', `${M}/order/refund/refuse`, { id: order.id, reason: '已在途' });
    expect(refused).toMatchObject({ status: 'Paid', refundStatus: 'Refused', refuseReason: '已在途' });
    // A refund of nothing of an order paid something is refused (it would still make the order Refunded).
    expect((await api.refused('PUT', `${M}/order/refund/apply`, { id: order.id, reason: '零元', amount: 0 })).message).toBe('AmountMustGreaterThanZero');
    await api.send('PUT', `${M}/order/refund/apply`, { id: order.id, reason: '还是不想要', amount: 1 });
    await api.send('PUT', `${M}/order/refund/approve`, { id: order.id });
    // The list row carries the amount asked for (what the approve and confirm dialogs name), not the amount paid.
    const row = (await api.send<MallOrderRow[]>('GET', `${M}/order?orderNo=${order.orderNo}`))[0];
    expect([row.refundAmount, row.payAmount]).toEqual([1, order.payAmount]);
    const counts = await api.send<MallOrderCounts>('GET', `${M}/order/counts`);
    expect(counts.Refunding).toBeGreaterThanOrEqual(1);
    const refunded = await api.send<MallOrder>('PUT', `${M}/order/refund/confirm`, { id: order.id });
    expect(refunded).toMatchObject({ status: 'Refunded', refundStatus: 'Refunded', refundAmount: 1, refundReason: '还是不想要' });
    expect(await stockOf(sku.id)).toEqual(before);
    expect(refunded.logs.map((l) => l.action)).toEqual(['create', 'pay', 'refund_apply', 'refund_refuse', 'refund_apply', 'refund_approve', 'refund_confirm']);
    expect((await api.refused('PUT', `${M}/order/refund/apply`, { id: order.id, reason: 'again' })).message).toBe('MallOrderStatusError');
  });

  it('lists by tab with counts that add up, and filters', async () => {
    const counts = await api.send<MallOrderCounts>('GET', `${M}/order/counts`);
    const statuses = ['PendingPayment', 'Paid', 'Shipped', 'Completed', 'Cancelled', 'Refunded'] as const;
    expect(statuses.reduce((n, s) => n + counts[s], 0)).toBe(counts.all);
    for (const s of statuses) {
      const res = await call<MallOrderRow[]>(ctx.app, 'GET', `${M}/order?tab=${s}&pageSize=200`, { token: await login(ctx.app, a.name, a.password) });
      expect(res.body.data.every((o) => o.status === s)).toBe(true);
      expect((res.body.pagination as { total: number }).total).toBe(counts[s]);
    }
    expect((await api.refused('GET', `${M}/order?tab=Nope`)).message).toBe('BadRequest');
    const one = (await api.send<MallOrderRow[]>('GET', `${M}/order?pageSize=1`))[0];
    expect((await api.send<MallOrderRow[]>('GET', `${M}/order?orderNo=${one.orderNo}`)).map((o) => o.id)).toEqual([one.id]);
    // The tabs count under the list's search, the tab itself aside: one order number counts one order, in its status's tab.
    const searched = await api.send<MallOrderCounts>('GET', `${M}/order/counts?orderNo=${one.orderNo}&tab=Cancelled`);
    expect(searched).toMatchObject({ all: 1, [one.status]: 1 });
    expect((await api.send<MallOrderRow[]>('GET', `${M}/proxyOrder?pageSize=200`)).every((o) => o.source === 'proxy')).toBe(true);
    expect(await apiB.send<MallOrderRow[]>('GET', `${M}/order`)).toEqual([]);
    expect((await apiB.refused('GET', `${M}/order/${one.id}`)).message).toBe('MallOrderNotExist');
    expect((await apiB.refused('PUT', `${M}/order/pay`, { id: one.id })).message).toBe('MallOrderNotExist');
  });

  it('gives exactly the stock there is to concurrent orders (100 orders, stock 10)', async () => {
    const p = await api.product(await api.category('秒杀'), { specs: [], skus: [{ specValues: [], price: 1, stock: 10 }] });
    const skuId = p.skus[0].id;
    const results = await Promise.all(
      Array.from({ length: 100 }, () => call(ctx.app, 'POST', `${M}/proxyOrder`, { token: tokenOf(api), body: { customerId: customer, consignee: 'a', phone: '1', address: 'x', items: [{ skuId, quantity: 1 }] } })),
    );
    const ok = results.filter((r) => r.body.status === 0);
    expect(ok).toHaveLength(10);
    expect(results.filter((r) => r.body.status !== 0).every((r) => r.body.message === 'MallStockInsufficient')).toBe(true);
    expect(await stockOf(skuId)).toEqual({ stock: 0, sales: 10 });
    // Cancelling them all concurrently gives back exactly 10.
    const ids = ok.map((r) => (r.body.data as MallOrder).id);
    await Promise.all([...ids, ...ids].map((id) => call(ctx.app, 'PUT', `${M}/order/cancel`, { token: tokenOf(api), body: { id } })));
    expect(await stockOf(skuId)).toEqual({ stock: 10, sales: 0 });
  }, 120_000);
});

// The fixtures keep the token inside; the concurrency test sends raw calls with it.
let tokenA = '';
const tokenOf = (_: unknown) => tokenA;
beforeAll(async () => {
  tokenA = await login(ctx.app, a.name, a.password);
});

describe(`mall lottery (${TEST_DB})`, () => {
  const prizes = (stock = 2) => [
    { name: '一等奖', kind: 'goods', probability: 10.5, stock },
    { name: '积分', kind: 'points', probability: 39.5, stock: 100 },
    { name: '谢谢参与', kind: 'none', probability: 50 },
  ];
  const window = { startAt: '2020-01-01 00:00:00', endAt: '2999-01-01 00:00:00' };

  it('checks the prizes: one no-prize slot, probabilities summing to 100 %', async () => {
    expect((await api.refused('POST', `${M}/lottery`, { name: 'x', ...window, prizes: prizes().slice(0, 2) })).message).toBe('MallPrizeNoneSlot');
    expect((await api.refused('POST', `${M}/lottery`, { name: 'x', ...window, prizes: [...prizes().slice(0, 2), { name: 'n', kind: 'none', probability: 49.99 }] })).message).toBe('MallPrizeProbabilitySum');
    expect((await api.refused('POST', `${M}/lottery`, { name: 'x', ...window, prizes: [...prizes().slice(0, 2), { name: 'n', kind: 'none', probability: 49.999 }] })).message).toBe('MallPrizeProbabilityPrecision');
    expect((await api.refused('POST', `${M}/lottery`, { name: 'x', startAt: window.endAt, endAt: window.startAt, prizes: prizes() })).message).toBe('MallLotteryTimeError');
    const l = await api.send<MallLottery>('POST', `${M}/lottery`, { name: '双十一抽奖', ...window, prizes: prizes() });
    expect(l).toMatchObject({ status: 'InProgress', prizeCount: 3 });
    expect(l.prizes.map((p) => [p.name, p.probability])).toEqual([['一等奖', 10.5], ['积分', 39.5], ['谢谢参与', 50]]);
  });

  it('maps a roll onto the prizes laid end to end', () => {
    const laid = [{ probability: 1050 }, { probability: 3950 }, { probability: 5000 }];
    expect([0, 1049, 1050, 4999, 5000, 9999].map((r) => prizeAt(laid, r))).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it('draws within the window and the per-customer limit; start and end move the window', async () => {
    const future = { startAt: '2998-01-01 00:00:00', endAt: '2999-01-01 00:00:00' };
    const l = await api.send<MallLottery>('POST', `${M}/lottery`, { name: '新年抽奖', ...future, drawLimit: 2, prizes: prizes() });
    expect(l.status).toBe('NotStarted');
    expect((await api.refused('POST', `${M}/lottery/draw`, { lotteryId: l.id, customerId: customer })).message).toBe('MallLotteryNotInProgress');
    expect((await api.send<MallLottery>('PUT', `${M}/lottery/start`, { id: l.id })).status).toBe('InProgress');
    await api.send('POST', `${M}/lottery/draw`, { lotteryId: l.id, customerId: customer });
    await api.send('POST', `${M}/lottery/draw`, { lotteryId: l.id, customerId: customer });
    expect((await api.refused('POST', `${M}/lottery/draw`, { lotteryId: l.id, customerId: customer })).message).toBe('MallLotteryDrawLimit');
    const records = await api.send<MallLotteryRecord[]>('GET', `${M}/lottery/record?lotteryId=${l.id}`);
    expect(records).toHaveLength(2);
    expect((await api.refused('DELETE', `${M}/lottery`, { ids: [l.id] })).message).toBe('MallLotteryHasDraws');
    expect((await api.send<MallLottery>('PUT', `${M}/lottery/end`, { id: l.id })).status).toBe('Ended');
    expect((await api.refused('POST', `${M}/lottery/draw`, { lotteryId: l.id, customerId: customer })).message).toBe('MallLotteryNotInProgress');
  });

  it('keeps drawn prizes on update and refuses to remove a won prize', async () => {
    const l = await api.send<MallLottery>('POST', `${M}/lottery`, { name: '必中', ...window, prizes: [{ name: '必中奖', kind: 'goods', probability: 100, stock: 5 }, { name: '无', kind: 'none', probability: 0 }] });
    await api.send('POST', `${M}/lottery/draw`, { lotteryId: l.id, customerId: customer });
    const won = (await api.send<MallLottery>('GET', `${M}/lottery/${l.id}`)).prizes[0];
    expect(won).toMatchObject({ stock: 4, drawn: 1 });
    const body = { id: l.id, name: '必中', ...window, prizes: [{ name: '无', kind: 'none', probability: 100, id: (await api.send<MallLottery>('GET', `${M}/lottery/${l.id}`)).prizes[1].id }] };
    expect((await api.refused('PUT', `${M}/lottery`, body)).message).toBe('MallPrizesRequired');
    expect((await api.refused('PUT', `${M}/lottery`, { ...body, prizes: [...body.prizes, { name: '新', kind: 'coupon', probability: 0, stock: 1 }] })).message).toBe('MallPrizeHasDraws');
    const updated = await api.send<MallLottery>('PUT', `${M}/lottery`, { ...body, prizes: [{ ...won, stock: 10, probability: 20 }, { ...body.prizes[0], probability: 80 }] });
    expect(updated.prizes[0]).toMatchObject({ id: won.id, stock: 10, drawn: 1, probability: 20 });
    // The editor read stock 10; meanwhile the prize is won once more (to 9). Saved with 12 and the stock
    // read, the change typed (+2) applies to what is left: 11, the prize won meanwhile stays won.
    const read = updated.prizes.map((p) => ({ id: p.id, name: p.name, kind: p.kind, probability: p.kind === 'none' ? 0 : 100, stock: p.stock, stockSeen: p.stock }));
    await api.send('PUT', `${M}/lottery`, { ...body, prizes: read }); // every draw wins from here on
    await api.send('POST', `${M}/lottery/draw`, { lotteryId: l.id, customerId: customer });
    const saved = await api.send<MallLottery>('PUT', `${M}/lottery`, { ...body, prizes: [{ ...read[0], stock: 12 }, read[1]] });
    expect(saved.prizes[0]).toMatchObject({ stock: 11, drawn: 2 });
    // Read 11, won once more meanwhile (10): setting it to 0 is a cut of 11, below what is left — refused.
    await api.send('POST', `${M}/lottery/draw`, { lotteryId: l.id, customerId: customer });
    const cut = await api.refused('PUT', `${M}/lottery`, { ...body, prizes: [{ ...read[0], stockSeen: 11, stock: 0 }, read[1]] });
    expect([cut.message, cut.additional]).toEqual(['MallPrizeStockChanged', '必中奖']);
    const [stillLeft] = (await api.send<MallLottery>('GET', `${M}/lottery/${l.id}`)).prizes;
    expect([stillLeft.stock, stillLeft.drawn]).toEqual([10, 3]);
  });

  it('never gives away more than a prize’s stock under concurrent draws', async () => {
    const l = await api.send<MallLottery>('POST', `${M}/lottery`, { name: '限量', ...window, prizes: [{ name: '限量奖', kind: 'goods', probability: 100, stock: 7 }, { name: '无', kind: 'none', probability: 0 }] });
    const customers = await Promise.all(Array.from({ length: 5 }, (_, i) => api.customer(`抽奖客${i}`)));
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call<MallLotteryRecord>(ctx.app, 'POST', `${M}/lottery/draw`, { token: tokenA, body: { lotteryId: l.id, customerId: customers[i % 5] } })),
    );
    expect(results.every((r) => r.body.status === 0)).toBe(true);
    expect(results.filter((r) => r.body.data.won)).toHaveLength(7);
    const after = await api.send<MallLottery>('GET', `${M}/lottery/${l.id}`);
    expect(after.prizes.map((p) => [p.stock, p.drawn])).toEqual([[0, 7], [0, 33]]);
    expect(after).toMatchObject({ drawCount: 40, winCount: 7 });
  }, 120_000);
});

describe(`mall feedback (${TEST_DB})`, () => {
  it('records, replies, sets the status and deletes', async () => {
    const f = await api.send<MallFeedback>('POST', `${M}/feedback`, { customerId: customer, type: 'complaint', content: '发货太慢', images: ['/f.png'] });
    expect(f).toMatchObject({ status: 'Pending', customerName: expect.stringContaining('顾客甲') });
    expect((await api.refused('PUT', `${M}/feedback/reply`, { id: f.id, reply: ' ' })).message).toBe('MallFeedbackReplyRequired');
    const replied = await api.send<MallFeedback>('PUT', `${M}/feedback/reply`, { id: f.id, reply: '已催促仓库' });
    expect(replied).toMatchObject({ status: 'Replied', reply: '已催促仓库' });
    expect(replied.replierName).toBeTruthy();
    await api.send('PUT', `${M}/feedback/status`, { ids: [f.id], status: 'Closed' });
    expect((await api.send<MallFeedback[]>('GET', `${M}/feedback?status=Closed`)).map((r) => r.id)).toContain(f.id);
    expect(await apiB.send<unknown[]>('GET', `${M}/feedback`)).toEqual([]);
    expect((await apiB.refused('PUT', `${M}/feedback/status`, { ids: [f.id], status: 'Pending' })).message).toBe('MallFeedbackNotExist');
    await api.send('DELETE', `${M}/feedback`, { ids: [f.id] });
    expect((await api.refused('GET', `${M}/feedback/${f.id}`)).message).toBe('MallFeedbackNotExist');
  });
});
