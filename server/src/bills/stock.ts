import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { microText, toMicro, type Micro } from '@p8/contract/bills/decimal';
import type { StockDifference } from '@p8/contract/bills/api';
import { rows, type Tx } from '../db/connection.ts';
import { stockLedger, tenant } from '../db/schema/index.ts';
import { BizError } from '../core/errors.ts';
import { parseTenantConfig } from '../core/tenant-config.ts';
import { balanceKey, planPosting, reversalOf, valuationKey, type LedgerEntry, type Movement, type StockState } from './stock-math.ts';

/**
 * Stock in the database: a posting locks the balance and valuation rows it touches (in one fixed order,
 * so two postings never wait for each other in a circle), hands their values to the pure `planPosting`
 * (stock-math.ts), and writes what it returns — the new balances and valuations and the ledger entries —
 * in the caller's transaction. Concurrent postings on one row queue on its lock and each sees the
 * value the one before committed: without the negative-stock switch no balance goes below zero, however
 * many out-stocks are audited at once.
 */

export interface PostingBill {
  id: number;
  billType: string;
  billCode: string;
  billDate: string;
  tenantId: number;
}

function sortedUnique<T>(items: T[], keyOf: (t: T) => string): T[] {
  const map = new Map<string, T>();
  for (const item of items) map.set(keyOf(item), item);
  return [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

/** Locks (creating when missing) the rows `movements` touch and returns their current values. */
async function lockState(tx: Tx, tenantId: number, movements: readonly Movement[]): Promise<{ state: StockState; balanceIds: Map<string, number> }> {
  const valuationKeys = sortedUnique(
    movements.map((m) => ({ materialId: m.key.materialId, warehouseId: m.key.warehouseId })),
    valuationKey,
  );
  const balanceKeys = sortedUnique(
    movements.map((m) => m.key),
    balanceKey,
  );
  // The keys travel as one JSON parameter joined as a record set: a row-value IN list of 2,000 keys took
  // PostgreSQL 0.4–3.8 s to plan and run (bench/bills.ts, a 2,750-line in-stock), the join milliseconds.
  const valuationSet = sql`jsonb_to_recordset(${JSON.stringify(valuationKeys.map((k) => ({ m: k.materialId, w: k.warehouseId })))}::jsonb) as k(m bigint, w bigint)`;
  const balanceSet = sql`jsonb_to_recordset(${JSON.stringify(
    balanceKeys.map((k) => ({ m: k.materialId, w: k.warehouseId, l: k.locationId, b: k.batchNumber, s: k.serialNumber })),
  )}::jsonb) as k(m bigint, w bigint, l bigint, b text, s text)`;
  await tx.execute(sql`insert into stock_valuation (tenant_id, material_id, warehouse_id) select ${tenantId}, k.m, k.w from ${valuationSet} on conflict do nothing`);
  const valuations = await rows<{ material_id: string; warehouse_id: string; quantity: string; amount: string }>(
    tx,
    sql`select v.material_id, v.warehouse_id, v.quantity::text, v.amount::text from stock_valuation v join ${valuationSet} on v.material_id = k.m and v.warehouse_id = k.w
        where v.tenant_id = ${tenantId}
        order by v.material_id, v.warehouse_id for update of v`,
  );
  await tx.execute(sql`
    insert into stock_balance (tenant_id, material_id, warehouse_id, location_id, batch_number, serial_number)
    select ${tenantId}, k.m, k.w, k.l, k.b, k.s from ${balanceSet}
    on conflict do nothing`);
  const balances = await rows<{ id: string; material_id: string; warehouse_id: string; location_id: string | null; batch_number: string; serial_number: string; quantity: string }>(
    tx,
    sql`select b.id, b.material_id, b.warehouse_id, b.location_id, b.batch_number, b.serial_number, b.quantity::text
        from stock_balance b join ${balanceSet}
          on b.material_id = k.m and b.warehouse_id = k.w and coalesce(b.location_id, 0) = coalesce(k.l, 0) and b.batch_number = k.b and b.serial_number = k.s
        where b.tenant_id = ${tenantId}
        order by b.material_id, b.warehouse_id, coalesce(b.location_id, 0), b.batch_number, b.serial_number for update of b`,
  );
  const state: StockState = { balances: new Map(), valuations: new Map() };
  const balanceIds = new Map<string, number>();
  for (const v of valuations) state.valuations.set(valuationKey({ materialId: Number(v.material_id), warehouseId: Number(v.warehouse_id) }), { quantity: toMicro(v.quantity), amount: toMicro(v.amount) });
  for (const b of balances) {
    const key = balanceKey({ materialId: Number(b.material_id), warehouseId: Number(b.warehouse_id), locationId: b.location_id === null ? null : Number(b.location_id), batchNumber: b.batch_number, serialNumber: b.serial_number });
    state.balances.set(key, toMicro(b.quantity));
    balanceIds.set(key, Number(b.id));
  }
  return { state, balanceIds };
}

/**
 * Posts `movements` of a bill: balances, valuations and ledger entries, or the catalogued refusal with
 * nothing written. `reversal` marks entries that withdraw an earlier posting.
 */
export async function postMovements(tx: Tx, bill: PostingBill, movements: readonly Movement[], allowNegative: boolean, reversal = false): Promise<LedgerEntry[]> {
  if (!movements.length) return [];
  if (movements.some((m) => m.key.locationId !== null)) await assertShelvesOpen(tx, bill.tenantId);
  const { state, balanceIds } = await lockState(tx, bill.tenantId, movements);
  const plan = planPosting(state, movements, allowNegative);
  if (!plan.entries.length) return [];
  const changedBalances = [...plan.state.balances].filter(([k, q]) => state.balances.get(k) !== q);
  const changedValuations = [...plan.state.valuations].filter(([k, v]) => {
    const was = state.valuations.get(k);
    return !was || was.quantity !== v.quantity || was.amount !== v.amount;
  });
  if (changedBalances.length) {
    await tx.execute(sql`
      update stock_balance b set quantity = v.quantity::numeric, updated_at = now()
      from (values ${sql.join(changedBalances.map(([k, q]) => sql`(${balanceIds.get(k)!}::bigint, ${microText(q)})`), sql`, `)}) as v(id, quantity)
      where b.tenant_id = ${bill.tenantId} and b.id = v.id`);
  }
  if (changedValuations.length) {
    await tx.execute(sql`
      update stock_valuation s set quantity = v.quantity::numeric, amount = v.amount::numeric, updated_at = now()
      from (values ${sql.join(
        changedValuations.map(([k, val]) => {
          const [materialId, warehouseId] = k.split('|').map(Number);
          return sql`(${materialId}::bigint, ${warehouseId}::bigint, ${microText(val.quantity)}, ${microText(val.amount)})`;
        }),
        sql`, `,
      )}) as v(material_id, warehouse_id, quantity, amount)
      where s.tenant_id = ${bill.tenantId} and s.material_id = v.material_id and s.warehouse_id = v.warehouse_id`);
  }
  await registerBatches(tx, bill.tenantId, plan.entries);
  // Inserted in chunks: a 2,750-line bill with serial numbers can post many thousands of entries.
  for (let i = 0; i < plan.entries.length; i += 1000) {
    await tx.insert(stockLedger).values(
      plan.entries.slice(i, i + 1000).map((e) => ({
        tenantId: bill.tenantId,
        billId: bill.id,
        billLineId: e.lineId,
        billType: bill.billType,
        billCode: bill.billCode,
        billDate: bill.billDate,
        materialId: e.key.materialId,
        warehouseId: e.key.warehouseId,
        locationId: e.key.locationId,
        batchNumber: e.key.batchNumber,
        serialNumber: e.key.serialNumber,
        expirationDate: e.expirationDate ?? null,
        quantity: microText(e.quantity),
        unitCost: microText(e.unitCost),
        amount: microText(e.amount),
        reversal,
      })),
    );
  }
  return plan.entries;
}

/**
 * Stock moves on a storage location only while the tenant keeps locations (`openShelves`). The tenant row is
 * read FOR KEY SHARE: turning the switch off locks it FOR UPDATE and then looks for stock on locations
 * (modules/tenant/settings.ts), so a posting and that change go one after the other — a posting that comes
 * first is seen by the check, one that comes second sees the switch off. (Other updates of the tenant row
 * take weaker locks and do not wait for it.)
 */
async function assertShelvesOpen(tx: Tx, tenantId: number) {
  const [row] = await tx.select({ config: tenant.config }).from(tenant).where(eq(tenant.id, tenantId)).for('key share');
  if (!parseTenantConfig(row?.config).openShelves) throw new BizError('ShelvesNotOpen');
}

/**
 * Records the batches inbound entries bring, with their expiry: the first entry naming an expiry sets it
 * (a batch without one takes the first given later); a batch keeps its date once it has one.
 */
async function registerBatches(tx: Tx, tenantId: number, entries: readonly LedgerEntry[]) {
  const batches = new Map<string, { materialId: number; batchNumber: string; expirationDate: string | null }>();
  for (const e of entries) {
    if (!e.key.batchNumber || e.quantity <= 0n) continue;
    const key = `${e.key.materialId}|${e.key.batchNumber}`;
    if (!batches.get(key)?.expirationDate) batches.set(key, { materialId: e.key.materialId, batchNumber: e.key.batchNumber, expirationDate: e.expirationDate ?? null });
  }
  if (!batches.size) return;
  const sorted = [...batches.values()].sort((a, b) => a.materialId - b.materialId || (a.batchNumber < b.batchNumber ? -1 : 1));
  await tx.execute(sql`
    insert into stock_batch (tenant_id, material_id, batch_number, expiration_date)
    values ${sql.join(sorted.map((b) => sql`(${tenantId}, ${b.materialId}, ${b.batchNumber}, ${b.expirationDate}::date)`), sql`, `)}
    on conflict (tenant_id, material_id, batch_number) do update set expiration_date = excluded.expiration_date
    where stock_batch.expiration_date is null and excluded.expiration_date is not null`);
}

/** The ledger entries of a bill's current posting (those after its last withdrawal). */
async function currentPosting(tx: Tx, tenantId: number, billId: number): Promise<LedgerEntry[]> {
  const [lastReversal] = await tx
    .select({ id: stockLedger.id })
    .from(stockLedger)
    .where(and(eq(stockLedger.tenantId, tenantId), eq(stockLedger.billId, billId), eq(stockLedger.reversal, true)))
    .orderBy(desc(stockLedger.id))
    .limit(1);
  const found = await tx
    .select()
    .from(stockLedger)
    .where(and(eq(stockLedger.tenantId, tenantId), eq(stockLedger.billId, billId), eq(stockLedger.reversal, false), lastReversal ? gt(stockLedger.id, lastReversal.id) : undefined))
    .orderBy(stockLedger.id);
  return found.map((e) => ({
    key: { materialId: e.materialId, warehouseId: e.warehouseId, locationId: e.locationId, batchNumber: e.batchNumber, serialNumber: e.serialNumber },
    quantity: toMicro(e.quantity),
    unitCost: toMicro(e.unitCost),
    amount: toMicro(e.amount),
    lineId: e.billLineId,
    expirationDate: e.expirationDate,
  }));
}

/** Withdraws a bill's current posting with reversal entries (abandoning its audit). */
export async function reversePosting(tx: Tx, bill: PostingBill, allowNegative: boolean): Promise<void> {
  const entries = await currentPosting(tx, bill.tenantId, bill.id);
  await postMovements(tx, bill, reversalOf(entries), allowNegative, true);
}

/**
 * Every balance and valuation recomputed from the ledger: the rows that disagree (an empty list when
 * all agree). Balances and valuations with no ledger entry must be zero.
 */
export async function verifyStock(tx: Tx, tenantId: number): Promise<StockDifference[]> {
  const balance = await rows<{ material_id: string; warehouse_id: string; location_id: string | null; batch_number: string; serial_number: string; balance: string; ledger: string }>(
    tx,
    sql`with l as (
          select material_id, warehouse_id, coalesce(location_id, 0) as location_id, batch_number, serial_number, sum(quantity) as quantity
          from stock_ledger where tenant_id = ${tenantId}
          group by material_id, warehouse_id, coalesce(location_id, 0), batch_number, serial_number),
        b as (
          select material_id, warehouse_id, coalesce(location_id, 0) as location_id, batch_number, serial_number, quantity
          from stock_balance where tenant_id = ${tenantId})
        select coalesce(b.material_id, l.material_id) as material_id, coalesce(b.warehouse_id, l.warehouse_id) as warehouse_id,
               nullif(coalesce(b.location_id, l.location_id), 0) as location_id, coalesce(b.batch_number, l.batch_number) as batch_number,
               coalesce(b.serial_number, l.serial_number) as serial_number,
               coalesce(b.quantity, 0)::text as balance, coalesce(l.quantity, 0)::text as ledger
        from b full join l using (material_id, warehouse_id, location_id, batch_number, serial_number)
        where coalesce(b.quantity, 0) <> coalesce(l.quantity, 0)
        order by 1, 2, 3, 4, 5`,
  );
  const valuation = await rows<{ material_id: string; warehouse_id: string; balance: string; ledger: string }>(
    tx,
    sql`with l as (select material_id, warehouse_id, sum(quantity) as quantity, sum(amount) as amount from stock_ledger where tenant_id = ${tenantId} group by 1, 2),
        v as (select material_id, warehouse_id, quantity, amount from stock_valuation where tenant_id = ${tenantId})
        select material_id, warehouse_id,
               coalesce(v.quantity, 0)::text || ' / ' || coalesce(v.amount, 0)::text as balance,
               coalesce(l.quantity, 0)::text || ' / ' || coalesce(l.amount, 0)::text as ledger
        from v full join l using (material_id, warehouse_id)
        where coalesce(v.quantity, 0) <> coalesce(l.quantity, 0) or coalesce(v.amount, 0) <> coalesce(l.amount, 0)
        order by 1, 2`,
  );
  return [
    ...balance.map((r) => ({
      kind: 'balance' as const,
      materialId: Number(r.material_id),
      warehouseId: Number(r.warehouse_id),
      locationId: r.location_id === null ? null : Number(r.location_id),
      batchNumber: r.batch_number,
      serialNumber: r.serial_number,
      balance: r.balance,
      ledger: r.ledger,
    })),
    ...valuation.map((r) => ({
      kind: 'valuation' as const,
      materialId: Number(r.material_id),
      warehouseId: Number(r.warehouse_id),
      locationId: null,
      batchNumber: '',
      serialNumber: '',
      balance: r.balance,
      ledger: r.ledger,
    })),
  ];
}


/**
 * The stock ledger's bill type of value-only entries (no quantity): the month-end cost run's adjustment of what a
 * completion brought in. They name the completion and its line, so the line's history shows them; the stock
 * engine's own valuation of later bills does not count them as the bill's movement (`workInProgressCost`).
 */
export const COST_ADJUSTMENT = 'CostAdjustment';

export interface ValueAdjustment {
  billId: number;
  billLineId: number;
  billCode: string;
  billDate: string;
  materialId: number;
  warehouseId: number;
  /** Added to the valuation (negative: taken off). */
  amount: Micro;
}

/**
 * Adds value without quantity to the moving-average valuations (the month-end cost run): each valuation row
 * locked in one fixed order as postings lock them, its amount moved, and a ledger entry of no quantity written,
 * so that verify's Σ ledger = valuation holds and the next movement out takes the new average.
 */
export async function postValueAdjustments(tx: Tx, tenantId: number, adjustments: readonly ValueAdjustment[]): Promise<void> {
  const moving = adjustments.filter((a) => a.amount !== 0n);
  if (!moving.length) return;
  const byKey = new Map<string, { materialId: number; warehouseId: number; amount: Micro }>();
  for (const a of moving) {
    const key = valuationKey(a);
    const was = byKey.get(key) ?? { materialId: a.materialId, warehouseId: a.warehouseId, amount: 0n };
    byKey.set(key, { ...was, amount: was.amount + a.amount });
  }
  const keys = [...byKey.values()].sort((a, b) => a.materialId - b.materialId || a.warehouseId - b.warehouseId);
  const set = sql`jsonb_to_recordset(${JSON.stringify(keys.map((k) => ({ m: k.materialId, w: k.warehouseId, a: microText(k.amount) })))}::jsonb) as k(m bigint, w bigint, a numeric)`;
  await tx.execute(sql`insert into stock_valuation (tenant_id, material_id, warehouse_id) select ${tenantId}, k.m, k.w from ${set} on conflict do nothing`);
  await tx.execute(sql`select 1 from stock_valuation v join ${set} on v.material_id = k.m and v.warehouse_id = k.w where v.tenant_id = ${tenantId} order by v.material_id, v.warehouse_id for update of v`);
  await tx.execute(sql`update stock_valuation v set amount = v.amount + k.a, updated_at = now() from ${set} where v.tenant_id = ${tenantId} and v.material_id = k.m and v.warehouse_id = k.w`);
  for (let i = 0; i < moving.length; i += 1000) {
    await tx.insert(stockLedger).values(
      moving.slice(i, i + 1000).map((a) => ({
        tenantId,
        billId: a.billId,
        billLineId: a.billLineId,
        billType: COST_ADJUSTMENT,
        billCode: a.billCode,
        billDate: a.billDate,
        materialId: a.materialId,
        warehouseId: a.warehouseId,
        quantity: '0',
        unitCost: '0',
        amount: microText(a.amount),
      })),
    );
  }
}
