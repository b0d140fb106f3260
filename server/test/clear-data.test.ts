import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { billType } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import * as schema from '../src/db/schema/index.ts';
import { rows } from '../src/db/connection.ts';
import { REFERENCE_TABLES } from '../src/db/distribution.ts';
import { clearedBy, deleteOrder, TENANT_TABLES, type ClearType, type TableFate } from '../src/modules/tenant/data-categories.ts';
import { seedTenant, startTestApp, TEST_DB, unique, uniquePhone, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, setTenantConfig, type Caller } from './basic-fixtures.ts';
import { allowDirectBills, ok } from './bill-fixtures.ts';
import { mallApi } from './mall-fixtures.ts';

/*
 * "Clear data": every tenant table of the schema has exactly one fate (cleared with business data, with
 * basic data, or kept for a stated reason), foreign keys never let a kept row point at a cleared one, and a
 * tenant that has bills, ledgers, mall and service orders for a customer keeps nothing that names them after
 * the clear — while another tenant's data stays as it was.
 */

const schemaTables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => v instanceof PgTable);
// The shared directory of sign-in names names a tenant but is none of its tables (db/distribution.ts).
const tenantTables = schemaTables.filter((t) => getTableConfig(t).columns.some((c) => c.name === 'tenant_id') && !(getTableConfig(t).name in REFERENCE_TABLES));
const nameOf = (t: PgTable) => getTableConfig(t).name;
const fateOf = (t: PgTable): TableFate => TENANT_TABLES.find(([table]) => table === t)?.[1] ?? { kept: '' };
const CLEAR_TYPES: ClearType[] = ['business', 'basic'];

describe('the clear-data declaration', () => {
  it('gives every tenant table exactly one fate, and only tenant tables', () => {
    const problems: string[] = [];
    for (const table of tenantTables) {
      const entries = TENANT_TABLES.filter(([t]) => t === table).length;
      if (entries !== 1) problems.push(`${nameOf(table)}: ${entries === 0 ? 'no category' : `${entries} categories`}`);
    }
    for (const [table, fate] of TENANT_TABLES) {
      if (!tenantTables.includes(table)) problems.push(`${nameOf(table)}: not a tenant table`);
      if ('kept' in fate && fate.kept.trim() === '') problems.push(`${nameOf(table)}: kept without a reason`);
    }
    expect(problems).toEqual([]);
  });

  it('never keeps a row whose foreign key points at a cleared table, and deletes children first', () => {
    const problems: string[] = [];
    for (const type of CLEAR_TYPES) {
      const order = deleteOrder(type);
      expect(new Set(order)).toEqual(new Set(TENANT_TABLES.filter(([, f]) => clearedBy(type, f)).map(([t]) => t)));
      for (const child of tenantTables) {
        for (const fk of getTableConfig(child).foreignKeys) {
          const parent = fk.reference().foreignTable;
          if (parent === child || !tenantTables.includes(parent) || !clearedBy(type, fateOf(parent))) continue;
          if (!clearedBy(type, fateOf(child))) problems.push(`${type}: ${nameOf(child)} (kept) refers to ${nameOf(parent)} (cleared)`);
          else if (order.indexOf(child) > order.indexOf(parent)) problems.push(`${type}: ${nameOf(child)} deleted after ${nameOf(parent)}`);
        }
      }
      for (const [table, fate] of TENANT_TABLES) {
        for (const source of ('keptBy' in fate && fate.keptBy) || []) {
          if (order.indexOf(source) > order.indexOf(table)) problems.push(`${type}: the counter ${nameOf(table)} deleted before ${nameOf(source)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  // Appointments open, so that a service order takes a place of a slot (slot_booking).
  await ctx.database.db.insert(schema.platformConfig).values({ key: 'openAppointment', value: true }).onConflictDoUpdate({ target: schema.platformConfig.key, set: { value: true } });
});
afterAll(async () => {
  await ctx?.close();
});

interface Story {
  tenant: TestTenant;
  api: Caller;
  /** Text that only this story's records carry. */
  marker: string;
  ids: { customer: number; material: number; warehouse: number; fund: number; sale: number; receipt: number; mallOrder: number; serviceOrder: number; product: number };
}

const path = (type: string) => billApiPath(billType(type)!);
const DAY = '2026-11-24';

/** A weekday at least `days` ahead (open by default). */
function weekdayAhead(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** A tenant whose customer bought on a bill, paid into a fund account, ordered in the mall, drew, complained and booked a service. */
async function story(label: string): Promise<Story> {
  const tenant = await seedTenant(ctx.database, label);
  const api = await adminCaller(ctx, tenant);
  await allowDirectBills(api);
  await setTenantConfig(ctx, tenant.tenantId, { openNegativeInventory: true });
  const marker = `Clr${label}${unique()}`;
  const mall = mallApi(ctx, api.token);
  const unit = await api.create('unit', { name: `${marker}-pc` });
  const material = await api.create('material', { code: `${marker}M`, name: `${marker}-board`, units: [{ unitId: unit, isMain: true }] });
  const customer = await api.create('customer', { code: `${marker}C`, name: `${marker}-customer` });
  const warehouse = await api.create('stock', { code: `${marker}W`, name: `${marker}-store` });
  const fund = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: `${marker}-cash`, kind: 'cash', openingBalance: '100', openingDate: DAY }))).id;
  const audited = async (type: string, body: Record<string, unknown>) => {
    const { id } = await ok(api.post<{ id: number }>(path(type), { billDate: DAY, ...body }));
    await ok(api.post(`${path(type)}/submit`, { id }));
    await ok(api.post(`${path(type)}/audit`, { id }));
    return id;
  };
  const sale = await audited('SaleOutstock', { customerId: customer, warehouseId: warehouse, lines: [{ materialId: material, number: 3, unitPrice: 10 }] });
  const receipt = await audited('Receipt', { customerId: customer, receiptType: 'OrdinaryReceipt', fundAccountId: fund, lines: [{ sourceBillId: sale, amount: '10' }] });

  const product = await mall.product(await mall.category(`${marker}-cat`), { materialId: material });
  const mallOrder = await mall.order(customer, [{ skuId: product.skus[0].id, quantity: 2 }]);
  await mall.send('POST', '/api/admin/mall/feedback', { customerId: customer, type: 'complaint', content: `${marker} slow`, images: [] });
  const lottery = await mall.send<{ id: number }>('POST', '/api/admin/mall/lottery', {
    name: `${marker}-lottery`,
    startAt: '2020-01-01 00:00:00',
    endAt: '2999-01-01 00:00:00',
    prizes: [{ name: 'gift', kind: 'goods', probability: 50, stock: 5 }, { name: 'none', kind: 'none', probability: 50 }],
  });
  await mall.send('POST', '/api/admin/mall/lottery/draw', { lotteryId: lottery.id, customerId: customer });

  const slot = await mall.send<{ id: number }>('POST', '/api/admin/base/time/slot', { start: '09:00', end: '11:00', capacity: 3 });
  const serviceOrder = await mall.send<{ id: number }>('POST', '/api/admin/service/proxyOrder', {
    serviceName: 'Aircon cleaning',
    customerName: `${marker}-customer`,
    customerPhone: uniquePhone(),
    address: `${marker} road 1`,
    amount: 120,
    appointmentDate: weekdayAhead(2),
    slotId: slot.id,
  });
  return { tenant, api, marker, ids: { customer, material, warehouse, fund, sale, receipt, mallOrder: mallOrder.id, serviceOrder: serviceOrder.id, product: product.id } };
}

/** Rows per tenant table of one tenant. */
async function counts(tenantId: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of tenantTables) {
    const [row] = await rows<{ n: number }>(ctx.database, sql`select count(*)::int as n from ${table} where tenant_id = ${tenantId}`);
    out[nameOf(table)] = row.n;
  }
  return out;
}

// The audit trail keeps what was done (the clear included) on purpose; the rest must not name the cleared records.
const HISTORY = new Set(['audit_log']);

/** Tables in which some row of the tenant still carries the story's marker text. */
async function tablesNaming(s: Story): Promise<string[]> {
  const found: string[] = [];
  for (const table of tenantTables) {
    if (HISTORY.has(nameOf(table))) continue;
    const [row] = await rows<{ n: number }>(ctx.database, sql`select count(*)::int as n from ${table} t where t.tenant_id = ${s.tenant.tenantId} and t::text like ${`%${s.marker}%`}`);
    if (row.n > 0) found.push(nameOf(table));
  }
  return found;
}

/** Columns of the tenant's tables that still hold one of the ids the story created under that kind. */
async function idsStillNamed(s: Story, kinds: Record<string, number[]>): Promise<string[]> {
  const found: string[] = [];
  for (const table of tenantTables) {
    if (HISTORY.has(nameOf(table))) continue;
    for (const column of getTableConfig(table).columns) {
      const ids = kinds[column.name];
      if (!ids) continue;
      const [row] = await rows<{ n: number }>(
        ctx.database,
        sql`select count(*)::int as n from ${table} where tenant_id = ${s.tenant.tenantId} and ${sql.identifier(column.name)} in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
      );
      if (row.n > 0) found.push(`${nameOf(table)}.${column.name}`);
    }
  }
  return found;
}

describe(`clearing a tenant's data (${TEST_DB})`, () => {
  it('takes business data, then basic data, leaving nothing that names them and another tenant untouched', async () => {
    const a = await story('A');
    const b = await story('B');
    const bBefore = await counts(b.tenant.tenantId);
    const aBefore = await counts(a.tenant.tenantId);
    // The story reaches the tables it is about.
    for (const name of ['bill', 'fin_posting_line', 'fin_fund_account', 'mall_order', 'mall_order_item', 'mall_lottery_record', 'mall_feedback', 'service_order', 'slot_booking', 'order_daily', 'mall_product']) {
      expect(aBefore[name], name).toBeGreaterThan(0);
    }

    await ok(a.api.put('/api/admin/admin/tenant/clearData', { type: 'business' }));
    const afterBusiness = await counts(a.tenant.tenantId);
    for (const [table, fate] of TENANT_TABLES) {
      const name = nameOf(table);
      if (clearedBy('business', fate)) expect(afterBusiness[name], name).toBe(0);
      else expect(afterBusiness[name], name).toBeGreaterThanOrEqual(aBefore[name]);
    }
    // Basic records stay; nothing names the bills, orders or fund account any more.
    expect(afterBusiness.partner).toBe(aBefore.partner);
    expect(afterBusiness.material).toBe(aBefore.material);
    expect(afterBusiness.mall_product).toBe(aBefore.mall_product);
    const business = { bill_id: [a.ids.sale, a.ids.receipt], source_bill_id: [a.ids.sale], fund_account_id: [a.ids.fund], order_id: [a.ids.mallOrder, a.ids.serviceOrder], customer_id: [a.ids.customer] };
    expect(await idsStillNamed(a, business)).toEqual([]);
    for (const list of ['/api/admin/mall/order', '/api/admin/service/order', '/api/admin/finance/account']) {
      expect(JSON.stringify(await ok(a.api.get(list))), list).not.toContain(a.marker);
    }

    await ok(a.api.put('/api/admin/admin/tenant/clearData', { type: 'basic' }));
    const afterBasic = await counts(a.tenant.tenantId);
    for (const [table, fate] of TENANT_TABLES) {
      const name = nameOf(table);
      if ('clear' in fate) expect(afterBasic[name], name).toBe(0);
      // Kept tables the clear itself writes to: its audit entry, the list versions its deletes move, sessions.
      else if (!['audit_log', 'list_version', 'bill_version', 'session'].includes(name)) expect(afterBasic[name], name).toBe(aBefore[name]);
    }
    expect(await tablesNaming(a)).toEqual([]);
    expect(
      await idsStillNamed(a, { ...business, partner_id: [a.ids.customer], material_id: [a.ids.material], warehouse_id: [a.ids.warehouse], product_id: [a.ids.product], record_id: [a.ids.customer, a.ids.material, a.ids.warehouse] }),
    ).toEqual([]);
    // The administrator still signs in and works: set-up and accounts were kept.
    expect((await a.api.get('/api/admin/current/detail')).body).toMatchObject({ status: 0 });

    // The other tenant saw none of it.
    expect(await counts(b.tenant.tenantId)).toEqual(bBefore);
    expect((await tablesNaming(b)).length).toBeGreaterThan(5);
  }, 180_000);
});
