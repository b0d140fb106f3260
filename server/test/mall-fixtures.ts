import { expect } from 'vitest';
import type { MallOrder, MallProduct } from '@p8/contract/mall';
import { call, type TestContext } from './harness.ts';

/** Calls of the mall tests: succeed or fail loudly with the envelope. */
export function mallApi(ctx: TestContext, token: string) {
  const send = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<T> => {
    const res = await call<T>(ctx.app, method, url, { token, body });
    expect(res.body.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(0);
    return res.body.data;
  };
  const refused = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => (await call(ctx.app, method, url, { token, body })).body;
  let serial = 0;
  return {
    send,
    refused,
    customer: async (name = `Customer ${++serial}`) => (await send<{ id: number }>('POST', '/api/admin/basic/customer', { name: `${name} ${Date.now()}${serial}` })).id,
    category: async (name = `Category ${++serial}`, parentId: number | null = null) => (await send<{ id: number }>('POST', '/api/admin/mall/category', { name, parentId })).id,
    /** A product on the shelf: 2 colours × 3 sizes unless specs are given. */
    product: async (categoryId: number, overrides: Record<string, unknown> = {}) => {
      const colours = ['红', '蓝'];
      const sizes = ['S', 'M', 'L'];
      const skus = colours.flatMap((c, i) => sizes.map((s, j) => ({ specValues: [c, s], price: 10 + i * 10 + j, marketPrice: 50, stock: 20, code: `C${i}${j}` })));
      return send<MallProduct>('POST', '/api/admin/mall/product', {
        categoryId,
        name: `Product ${++serial}`,
        images: ['/api/base/file/1/202611/a.png'],
        specs: [{ name: '颜色', values: colours }, { name: '尺码', values: sizes }],
        skus,
        onShelf: true,
        ...overrides,
      });
    },
    order: (customerId: number, items: Array<{ skuId: number; quantity: number }>, extra: Record<string, unknown> = {}) =>
      send<MallOrder>('POST', '/api/admin/mall/proxyOrder', { customerId, consignee: '张三', phone: '13800000000', address: '上海市浦东新区世纪大道1号', items, ...extra }),
  };
}
