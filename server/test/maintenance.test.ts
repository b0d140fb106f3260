import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../src/db/connection.ts';
import type { EarlyWarning } from '@p8/contract/bills/api';
import { seedTenant, startTestApp, TEST_DB, type TestContext } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { billPath as path, billSteps, financeVerifyEmpty, ok, refused, stockOf, verifyEmpty } from './bill-fixtures.ts';

/*
 * Equipment maintenance (PGlite; PostgreSQL with TEST_DB=postgres): machines' plans by days and by hours of use
 * generate dated work orders once, the early warning lists them until they are audited, an audited one takes
 * its spare parts out of stock into manufacturing overhead (5101) and restarts the machine's cycle, a scrapped
 * machine is neither maintained nor given work, and two users generating at once make each order once.
 * "Today" is the database's, as the generation's.
 */

let ctx: TestContext;
let api: Caller;
const ids = { piece: 0, belt: 0, product: 0, w: 0, press: 0, lathe: 0, scrapped: 0, unplanned: 0, yearly: 0, order: 0, step: 0, process: 0 };
let today = '';
const shift = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const steps = billSteps<{ id: number; billStatus: string; deliveryDate: string; maintenanceKind: string; equipmentId: number; lines: Array<{ id: number; role?: string }> }>(() => api, '');
const maintenance = path('EquipmentMaintenance');

const generate = (days?: number) => ok(api.post<{ count: number; ids: number[] }>(`${maintenance}/generate`, days === undefined ? {} : { days }));
async function warnings() {
  const found = await ok(api.get<EarlyWarning>('/api/admin/stock/warning'));
  return found.bills.filter((b) => b.kind === 'maintenance');
}
async function balances() {
  const trial = await ok(api.get<{ accounts: Array<{ code: string; balance: string }> }>('/api/admin/finance/trialBalance'));
  return Object.fromEntries(trial.accounts.map((a) => [a.code, Number(a.balance)]));
}
const machine = (name: string, plan: { maintenanceDays?: number; maintenanceHours?: number; status?: string }) =>
  api.create('equipment', { code: name.toUpperCase(), name, status: plan.status ?? 'running', maintenanceDays: plan.maintenanceDays ?? 0, maintenanceHours: plan.maintenanceHours ?? 0 });

beforeAll(async () => {
  ctx = await startTestApp();
  const t = await seedTenant(ctx.database, 'Maint');
  api = await adminCaller(ctx, t);
  [{ today }] = await rows<{ today: string }>(ctx.database, sql`select current_date::text as today`);
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.belt = await api.create('material', { code: 'BELT', name: 'Drive belt', units: [{ unitId: ids.piece, isMain: true }] });
  ids.product = await api.create('material', { code: 'P', name: 'Bracket', units: [{ unitId: ids.piece, isMain: true }] });
  ids.w = await api.create('stock', { code: 'W', name: 'Spare parts' });
  ids.press = await machine('Press', { maintenanceDays: 30 });
  ids.lathe = await machine('Lathe', { maintenanceHours: 100 });
  ids.scrapped = await machine('Old drill', { maintenanceDays: 30, status: 'scrapped' });
  ids.unplanned = await machine('Bench', {});
  ids.yearly = await machine('Crane', { maintenanceDays: 365 });
  ids.process = await api.create('process', { name: 'Stamp', pieceRate: 1 });
  const routing = await api.create('routing', { name: 'Stamping', steps: [{ processId: ids.process }] });
  await api.create('bom', { materialId: ids.product, version: 'V1', isDefault: true, routingId: routing, lines: [{ materialId: ids.belt, quantity: 1 }] });
  const opening = await steps.saved('OtherInstock', { billDate: shift(-40), warehouseId: ids.w, lines: [{ materialId: ids.belt, number: 10, unitPrice: 5 }] });
  await steps.pass('OtherInstock', opening);
  ids.order = await steps.saved('ProductionOrder', { billDate: shift(-5), lines: [{ role: 'Product', materialId: ids.product, number: 500, warehouseId: ids.w }] });
  await steps.pass('ProductionOrder', ids.order);
  ids.step = (await steps.get('ProductionOrder', ids.order)).lines.find((l) => l.role === 'Process')!.id;
});
afterAll(() => ctx.close());

describe('equipment maintenance', () => {
  it('records a repair: the spare parts leave stock at the moving average into manufacturing overhead', async () => {
    const before = await balances();
    const repair = await steps.saved('EquipmentMaintenance', { billDate: shift(-27), equipmentId: ids.press, maintenanceKind: 'Repair', downtimeHours: 3.5, lines: [{ materialId: ids.belt, number: 2, warehouseId: ids.w }] });
    await steps.pass('EquipmentMaintenance', repair);
    expect(await stockOf(api, ids.belt, ids.w)).toBe(8);
    const after = await balances();
    expect(after['5101'] - (before['5101'] ?? 0)).toBeCloseTo(10, 6);
    expect(after['1405'] - (before['1405'] ?? 0)).toBeCloseTo(-10, 6);
    // A maintenance may use no spare parts.
    const none = await steps.saved('EquipmentMaintenance', { billDate: shift(-40), equipmentId: ids.unplanned, maintenanceKind: 'Repair', lines: [] });
    await steps.pass('EquipmentMaintenance', none);
  });

  it('refuses a work order without a machine or for a scrapped one, and a report on a scrapped machine', async () => {
    await refused(api.post(maintenance, { billDate: today, maintenanceKind: 'Planned', lines: [] }), 'PleaseSelectEquipment');
    await refused(api.post(maintenance, { billDate: today, equipmentId: ids.scrapped, maintenanceKind: 'Planned', lines: [] }), 'EquipmentScrappedNoMaintenance');
    await refused(
      api.post(path('ProcessReport'), { billDate: today, lines: [{ materialId: ids.product, number: 1, processId: ids.process, equipmentId: ids.scrapped, hours: 1, sourceLineId: ids.step }] }),
      'EquipmentScrapped',
    );
  });

  it('generates the work orders due within the horizon, once: by days from the last maintenance, by hours of use', async () => {
    // 120 hours reported on the lathe (plan: every 100 hours): due today.
    const report = await steps.saved('ProcessReport', { billDate: shift(-1), lines: [{ materialId: ids.product, number: 100, processId: ids.process, equipmentId: ids.lathe, hours: 120, unitPrice: 1, sourceLineId: ids.step }] });
    await steps.pass('ProcessReport', report);

    const made = await generate();
    expect(made.count).toBe(2);
    const orders = await Promise.all(made.ids.map((id) => steps.get('EquipmentMaintenance', id)));
    const byMachine = Object.fromEntries(orders.map((o) => [Number(o.equipmentId), o]));
    // The press was repaired 27 days ago, every 30 days: due in 3 days. The lathe is due now. The scrapped drill,
    // the bench without a plan and the crane due in a year are not.
    expect(Object.keys(byMachine).map(Number).sort()).toEqual([ids.press, ids.lathe].sort());
    expect(byMachine[ids.press]).toMatchObject({ billStatus: 'Saved', maintenanceKind: 'Planned', deliveryDate: shift(3) });
    expect(byMachine[ids.lathe]).toMatchObject({ billStatus: 'Saved', maintenanceKind: 'Planned', deliveryDate: today });

    // Generating again makes nothing: each machine has its open work order.
    expect((await generate()).count).toBe(0);
    // A longer horizon reaches the crane (created today, due in 365 days).
    const yearly = await generate(365);
    expect(yearly.count).toBe(1);
    await ok(api.del(maintenance, { ids: yearly.ids }));

    const warned = await warnings();
    expect(warned.map((w) => [w.billId, w.partnerName, w.daysLeft]).sort()).toEqual(
      [
        [byMachine[ids.press].id, 'Press', 3],
        [byMachine[ids.lathe].id, 'Lathe', 0],
      ].sort(),
    );
  });

  it('an audited work order is done: off the early warning, and the machine counts again from its date', async () => {
    const [lathe] = (await warnings()).filter((w) => w.partnerName === 'Lathe');
    await ok(api.put(maintenance, { ...(await steps.get('EquipmentMaintenance', lathe.billId)), billDate: today, downtimeHours: 2, lines: [{ materialId: ids.belt, number: 1, warehouseId: ids.w }] }));
    await steps.pass('EquipmentMaintenance', lathe.billId);
    expect((await warnings()).map((w) => w.partnerName)).toEqual(['Press']);
    // The hours reported before it no longer count: nothing new for the lathe.
    expect((await generate()).count).toBe(0);
    // Withdrawn, it is due again (and listed again).
    await ok(api.post(`${maintenance}/abandonAudit`, { id: lathe.billId }));
    expect((await warnings()).map((w) => w.partnerName).sort()).toEqual(['Lathe', 'Press']);
    await steps.pass('EquipmentMaintenance', lathe.billId);
    expect(await stockOf(api, ids.belt, ids.w)).toBe(7);
  });

  it('keeps a machine named by a work order from being deleted', async () => {
    await refused(api.del('/api/admin/basic/equipment', { ids: [ids.press] }), 'EquipmentInUseProhibitDelete');
  });

  it('two users generating at once make each work order once', async () => {
    await machine('Mill', { maintenanceDays: 1 });
    await machine('Saw', { maintenanceDays: 2 });
    const [a, b] = await Promise.all([generate(), generate()]);
    expect(a.count + b.count).toBe(2);
    expect((await warnings()).map((w) => w.partnerName).sort()).toEqual(['Mill', 'Press', 'Saw']);
    // A generated order is audited as it was made (a maintenance that used no spare parts).
    await steps.pass('EquipmentMaintenance', [...a.ids, ...b.ids][0]);
  });

  it('leaves stock and the books agreeing', async () => {
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
    expect(TEST_DB).toMatch(/pglite|postgres/);
  });
});
