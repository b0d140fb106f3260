import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { billType } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller } from './basic-fixtures.ts';
import { billPayload, createBillRecords, ok } from './bill-fixtures.ts';

/*
 * The bill lists' version rows (bill_version) are written when a writing transaction commits, one per tenant and
 * bill type in the transaction's shard. Two writers in one shard that wrote two types in opposite orders must not
 * each hold one row and wait for the other's: the rows are written sorted by tenant and type, whatever order the
 * bills were written in. PostgreSQL only (the embedded database has one connection: nobody waits).
 */

let ctx: TestContext;
let t: TestTenant;
const clients: pg.Client[] = [];

beforeAll(async () => {
  if (TEST_DB !== 'postgres') return;
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Versions');
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => {})));
  await ctx?.close();
});

async function client() {
  const c = new pg.Client({ connectionString: ctx.databaseUrl });
  await c.connect();
  clients.push(c);
  return c;
}

describe.skipIf(TEST_DB !== 'postgres')('bill versions at commit', () => {
  it('are taken in one order (tenant, then type), not in the order the transaction wrote its bills', async () => {
    const api = await adminCaller(ctx, t);
    const records = await createBillRecords(api);
    const made = async (type: string) => (await ok(api.post<{ id: number }>(billApiPath(billType(type)!), billPayload(billType(type)!, records)))).id;
    const order = await made('PurchaseOrder');
    const instock = await made('PurchaseInstock');
    const [writer, other, probe] = [await client(), await client(), await client()];

    await writer.query('begin');
    const shard = Number((await writer.query<{ s: string }>('select txid_current() % 16 as s')).rows[0].s);
    await probe.query(
      `insert into bill_version (tenant_id, bill_type, shard, version) values ($1, 'PurchaseInstock', $2, gen_random_uuid()), ($1, 'PurchaseOrder', $2, gen_random_uuid()) on conflict do nothing`,
      [t.tenantId, shard],
    );
    // Another writer of the same shard holds the in-stocks' version, the first of the two in sorted order.
    await other.query('begin');
    await other.query(`update bill_version set version = gen_random_uuid() where tenant_id = $1 and bill_type = 'PurchaseInstock' and shard = $2`, [t.tenantId, shard]);
    // This one writes an order first, then an in-stock, and commits: it must wait on the in-stocks' version
    // before it takes the orders'.
    await writer.query('update bill set remark = remark where tenant_id = $1 and id = $2', [t.tenantId, order]);
    await writer.query('update bill set remark = remark where tenant_id = $1 and id = $2', [t.tenantId, instock]);
    const committed = writer.query('commit');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await probe.query('begin');
    const ordersVersionFree = await probe
      .query(`select 1 from bill_version where tenant_id = $1 and bill_type = 'PurchaseOrder' and shard = $2 for update nowait`, [t.tenantId, shard])
      .then(
        () => true,
        () => false,
      );
    await probe.query('rollback');
    await other.query('rollback');
    await committed;
    expect(ordersVersionFree).toBe(true);
    // Both types' versions moved at the commit.
    const { rows } = await probe.query<{ bill_type: string }>(`select bill_type from bill_version where tenant_id = $1 and shard = $2 order by bill_type`, [t.tenantId, shard]);
    expect(rows.map((r) => r.bill_type)).toEqual(['PurchaseInstock', 'PurchaseOrder']);
  });
});
