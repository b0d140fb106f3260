import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startSuite, waitUntil, type Suite } from '../harness.ts';
import { demoPage, pageCaller, type Lang } from '../bill-steps.ts';

/**
 * Entrusted machining and consumables issues in Chromium, in zh and en, on the first demo tenant: 精工数控's
 * consignment warehouse on the warehouse list and form; a receipt of its castings, an order machining end caps
 * for it and the pick taking its castings (no value) with our screws, through the API as signed in, then the
 * pick's form showing whom it machines for, and the statement of the customer's materials naming that order; the consumables issue list, and with the switch off its notice
 * instead of an add button.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('entrust');
});
afterAll(() => suite?.close());

interface Named {
  id: number;
  name: string;
  shortName?: string;
  customerName?: string | null;
}
interface OrderLine {
  id: number;
  role: string;
  materialId: number;
  number: number;
}

describe('entrusted machining and consumables (browser)', () => {
  it.each<[Lang, string, string, string]>([
    ['zh', 'zh-CN', '受托客户', '耗材出库未开启'],
    ['en', 'en-US', 'Machining for', 'Consumables issue is turned off'],
  ])('keeps a customer’s materials apart and issues consumables (%s)', async (lang, locale, machiningFor, closed) => {
    const page = await demoPage(suite, lang, locale);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const call = await pageCaller(suite, page);
    const materials = await call<Named[]>('GET', '/admin/basic/material?current=1&pageSize=200');
    const material = (name: string) => materials.find((m) => m.name === name)!.id;
    const customer = (await call<Named[]>('GET', '/admin/basic/customer?current=1&pageSize=50')).find((c) => c.shortName === '精工数控')!.id;
    const warehouses = await call<Named[]>('GET', '/admin/basic/stock?current=1&pageSize=50');
    const consignment = warehouses.find((w) => w.customerName === '苏州精工数控机床有限公司')!;
    const raw = warehouses.find((w) => w.name === '原料仓')!.id;
    const goods = warehouses.find((w) => w.name === '成品仓')!.id;
    const screwPlace = (await call<Named[]>('GET', '/admin/basic/location?current=1&pageSize=50')).find((l) => l.name === 'A-03 五金区')!.id;
    const today = new Date().toISOString().slice(0, 10);
    const pass = async (route: string, id: number) => {
      for (const step of ['submit', 'audit']) await call('POST', `/admin/production/${route}/${step}`, { id });
    };

    // The consignment warehouse names its customer on the list.
    await page.goto('/basic/stock');
    const row = page.locator('tr', { hasText: consignment.name });
    await waitUntil(() => row.textContent(), (text) => !!text?.includes('苏州精工数控机床有限公司'), 'the consignment warehouse’s customer');
    await screenshot(page, `entrust-${lang}-warehouses`);

    // 20 castings received, an order of 10 end caps for the customer, its pick: castings from the consignment store, screws from ours.
    const receipt = await call<{ id: number }>('POST', '/admin/production/entrustReceipt', { billDate: today, customerId: customer, warehouseId: consignment.id, remark: `E2E ${lang}`, lines: [{ materialId: material('端盖铸件毛坯'), number: 20, warehouseId: consignment.id }] });
    await pass('entrustReceipt', receipt.id);
    const order = await call<{ id: number }>('POST', '/admin/production/order', { billDate: today, customerId: customer, remark: `E2E ${lang}`, lines: [{ role: 'Product', materialId: material('机床主轴端盖'), number: 10, warehouseId: goods }] });
    await pass('order', order.id);
    const made = await call<{ billCode: string; lines: OrderLine[] }>('GET', `/admin/production/order/${order.id}`);
    const lines = made.lines.filter((l) => l.role === 'Material');
    const pick = await call<{ id: number }>('POST', '/admin/production/pick', {
      billDate: today,
      customerId: customer,
      lines: lines.map((l) => (l.materialId === material('端盖铸件毛坯') ? { materialId: l.materialId, number: l.number, sourceLineId: l.id, warehouseId: consignment.id } : { materialId: l.materialId, number: l.number, sourceLineId: l.id, warehouseId: raw, locationId: screwPlace })),
    });
    await pass('pick', pick.id);
    await page.goto('/production/pick');
    await page.getByTestId(`bill-open-${pick.id}`).click();
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-status').waitFor();
    expect(await form.textContent()).toContain(machiningFor);
    expect(await form.textContent()).toContain('苏州精工数控机床有限公司');
    await screenshot(page, `entrust-${lang}-pick`);
    await form.getByTestId('bill-close').click();

    // The statement of the customer's materials names the order among those that consumed its castings.
    await page.goto('/production/entrustStatement');
    const castings = page.getByTestId('production-entrust-statement').locator('tr', { hasText: '端盖铸件毛坯' });
    await waitUntil(() => castings.textContent(), (text) => !!text?.includes(made.billCode), 'the order on the entrusted materials statement');
    await screenshot(page, `entrust-${lang}-statement`);

    // Consumables: the demo's issue is listed; switched off, the list says so and offers no add button.
    await page.goto('/production/consumables');
    await page.getByTestId('bill-add').waitFor();
    await screenshot(page, `consumables-${lang}-list`);
    await call('PUT', '/admin/admin/tenant', { openConsumablesOutstock: false });
    try {
      await page.reload();
      await page.getByTestId('bill-type-closed').waitFor();
      expect(await page.getByTestId('bill-type-closed').textContent()).toContain(closed);
      expect(await page.getByTestId('bill-add').count()).toBe(0);
      await screenshot(page, `consumables-${lang}-closed`);
    } finally {
      await call('PUT', '/admin/admin/tenant', { openConsumablesOutstock: true });
    }
    expect(pageErrors).toEqual([]);
  });
});
