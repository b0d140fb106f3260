import { sql } from 'drizzle-orm';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import type { BatchSuggestion, BatchSuggestQuery } from '@p8/contract/bills/api';
import { microText, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { LINE_DIRECTION, lineDirection, type BillTypeDecl } from '@p8/contract/bills/registry';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import type { ErrorKey } from '@p8/contract/errors';
import { BizError, refusal } from '../core/errors.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { rows } from '../db/connection.ts';
import { pickBatches, type Movement } from './stock-math.ts';
import { idArray, textList } from '../core/tree.ts';

/**
 * The stock rules a bill meets beyond the balance arithmetic of stock-math.ts: serial numbers (each one
 * a unit that exists, is where the bill takes it from, is not in stock twice, and is not packed into
 * another open out bill), the stock-check lock (a material being counted does not move), a customer's
 * consignment stock (entrusted machining), and the first-expiry-first-out batch suggestion of the line grid.
 */

/** The part of a bill line these rules read (a stored line or one about to be saved). */
export interface RuleLine {
  lineNo?: number;
  materialId: number;
  warehouseId?: number | null;
  locationId?: number | null;
  targetWarehouseId?: number | null;
  targetLocationId?: number | null;
  serialNumbers?: string[] | null;
  extra?: unknown;
}

export interface Placing {
  direction: 'in' | 'out';
  warehouseId: number;
  locationId: number | null;
}

/** Where a line's goods go in or come out of, by its type's stock effect (a stock check moves by count). */
export function placings(decl: BillTypeDecl, line: RuleLine): Placing[] {
  if (!line.warehouseId) return [];
  const here = { warehouseId: line.warehouseId, locationId: line.locationId ?? null };
  switch (decl.stock) {
    case 'in':
    case 'out':
      return [{ direction: decl.stock, ...here }];
    case 'transfer':
      return [{ direction: 'out', ...here }, ...(line.targetWarehouseId ? [{ direction: 'in' as const, warehouseId: line.targetWarehouseId, locationId: line.targetLocationId ?? null }] : [])];
    case 'assembly':
    case 'exchange':
      return [{ direction: lineDirection(decl, line.extra as Record<string, unknown> | undefined)!, ...here }];
    default:
      return [];
  }
}

/** What the database knows of one serial number of a material. */
export interface SerialState {
  /** Any balance row ever held it (it came in once). */
  known: boolean;
  /** Quantity held anywhere now (0 or 1). */
  anywhere: Micro;
  /** Quantity held at the place the line takes it from. */
  here: Micro;
  /** Another open (unposted) bill already takes it out. */
  boxedBy?: string;
}

/**
 * The refusal of one serial number, pure: taking out one that never came in (`SerialNumberNotExist` —
 * also when it is in stock elsewhere, not where the line takes it from), one that already went out
 * (`SerialNumberIsOutStock`), one packed into another open out bill (`SerialNumberIsBoxed`); bringing in one
 * that is in stock (`SerialNumberIsUsed`).
 */
export function serialRefusal(direction: 'in' | 'out', state: SerialState): ErrorKey | undefined {
  if (direction === 'in') return state.anywhere > 0n ? 'SerialNumberIsUsed' : undefined;
  if (!state.known) return 'SerialNumberNotExist';
  if (state.anywhere <= 0n) return 'SerialNumberIsOutStock';
  if (state.here <= 0n) return 'SerialNumberNotExist';
  if (state.boxedBy) return 'SerialNumberIsBoxed';
  return undefined;
}

/** A serial's key in the checks below (`material|serial`), taken apart. */
function serialKey(key: string): { materialId: number; serial: string } {
  const bar = key.indexOf('|');
  return { materialId: Number(key.slice(0, bar)), serial: key.slice(bar + 1) };
}

/** Serial keys as SQL `(material_id, serial)` pairs, for `(material_id, serial_number) in (…)`. */
function serialPairs(keys: Iterable<string>) {
  return sql.join(
    [...keys].map((key) => {
      const { materialId, serial } = serialKey(key);
      return sql`(${materialId}::bigint, ${serial}::text)`;
    }),
    sql`, `,
  );
}

/** Stock bill types and the posted statuses, for the queries below. */
const OUT_TYPES = BILL_TYPES.filter((d) => d.stock === 'out' || d.stock === 'transfer' || LINE_DIRECTION[d.stock]);
const CHECK_TYPES = BILL_TYPES.filter((d) => d.stock === 'check').map((d) => d.type);
const declOf = new Map(BILL_TYPES.map((d) => [d.type, d]));

/**
 * Checks every serial number of a bill that moves stock: no serial twice in the bill (per material), and
 * each one by `serialRefusal`. `boxed`: also refuse serials another open bill takes out (on save; on audit
 * the posting's row locks decide between two bills).
 */
export async function checkSerials(ctx: ServiceContext, decl: BillTypeDecl, billId: number, lines: readonly RuleLine[], boxed: boolean): Promise<void> {
  const wanted: Array<{ line: RuleLine; placing: Placing; serial: string }> = [];
  const seen = new Set<string>();
  for (const line of lines) {
    for (const serial of line.serialNumbers ?? []) {
      const key = `${line.materialId}|${serial}`;
      if (seen.has(key)) throw new BizError('SerialNumberRepeat', { additional: serial });
      seen.add(key);
      for (const placing of placings(decl, line)) wanted.push({ line, placing, serial });
    }
  }
  if (!wanted.length) return;
  const pairs = serialPairs(seen);
  const held = await rows<{ material_id: string; serial_number: string; warehouse_id: string; location_id: string | null; quantity: string }>(
    ctx.tx,
    sql`select material_id, serial_number, warehouse_id, location_id, quantity::text from stock_balance
        where tenant_id = ${ctx.tenantId} and serial_number <> '' and (material_id, serial_number) in (${pairs})`,
  );
  const taken = boxed && OUT_TYPES.length ? await openOutSerials(ctx, billId, pairs) : new Map<string, string>();
  // Serials this bill takes out may come back in within it (a transfer, a disassembly): not "in stock twice".
  const goingOut = new Set(wanted.filter((w) => w.placing.direction === 'out').map((w) => `${w.line.materialId}|${w.serial}`));
  for (const { line, placing, serial } of wanted) {
    const key = `${line.materialId}|${serial}`;
    if (placing.direction === 'in' && goingOut.has(key)) continue;
    const rowsOf = held.filter((h) => Number(h.material_id) === line.materialId && h.serial_number === serial);
    const state: SerialState = {
      known: rowsOf.length > 0,
      anywhere: rowsOf.reduce((s, h) => s + toMicro(h.quantity), 0n),
      here: rowsOf
        .filter((h) => Number(h.warehouse_id) === placing.warehouseId && (placing.locationId === null || Number(h.location_id) === placing.locationId))
        .reduce((s, h) => s + toMicro(h.quantity), 0n),
      boxedBy: taken.get(key),
    };
    const refusal = serialRefusal(placing.direction, state);
    if (refusal) throw new BizError(refusal, { additional: serial });
  }
  await assertWholeBoxes(ctx, goingOut);
}

/**
 * A serial packed into a box by an audited inspection (quality's inspection packing) leaves its place only with
 * its whole box: every serial of that box still in stock goes out in the same bill.
 */
async function assertWholeBoxes(ctx: ServiceContext, goingOut: ReadonlySet<string>): Promise<void> {
  if (!goingOut.size) return;
  const out = serialPairs(goingOut);
  const serials = [...new Set([...goingOut].map((key) => serialKey(key).serial))];
  const boxed = await rows<{ code: string; material_id: string; serial: string }>(
    ctx.tx,
    sql`select x.code, x.material_id, s as serial
        from inspection_box x
        join bill b on b.tenant_id = x.tenant_id and b.id = x.bill_id and b.bill_status in (${textList(POSTED_STATUSES)})
        cross join unnest(x.serial_numbers) s
        where x.tenant_id = ${ctx.tenantId} and x.serial_numbers && array[${textList(serials)}]::text[]
          and exists (select 1 from unnest(x.serial_numbers) w where (x.material_id, w) in (${out}))
          and exists (select 1 from stock_balance h where h.tenant_id = x.tenant_id and h.material_id = x.material_id and h.serial_number = s and h.quantity > 0)`,
  );
  const left = boxed.find((b) => !goingOut.has(`${b.material_id}|${b.serial}`));
  if (left) throw new BizError('SerialBoxMovesWhole', { additional: left.code });
}

/** Serials (material|serial → bill code) that open bills other than `billId` take out. */
async function openOutSerials(ctx: ServiceContext, billId: number, pairs: ReturnType<typeof sql.join>): Promise<Map<string, string>> {
  const found = await rows<{ bill_type: string; bill_code: string; material_id: string; serial_number: string; extra: Record<string, unknown> }>(
    ctx.tx,
    sql`select b.bill_type, b.bill_code, l.material_id, s.serial_number, l.extra
        from bill_line l
        join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
        cross join lateral unnest(l.serial_numbers) as s(serial_number)
        where l.tenant_id = ${ctx.tenantId} and l.bill_id <> ${billId} and cardinality(l.serial_numbers) > 0
          and b.bill_type in (${textList(OUT_TYPES.map((d) => d.type))})
          and b.bill_status not in (${textList([...POSTED_STATUSES, 'Merged'])})
          and (l.material_id, s.serial_number) in (${pairs})`,
  );
  const taken = new Map<string, string>();
  for (const f of found) {
    const decl = declOf.get(f.bill_type);
    const out = decl && placings(decl, { materialId: Number(f.material_id), warehouseId: 1, locationId: null, targetWarehouseId: 1, extra: f.extra }).some((p) => p.direction === 'out');
    if (out) taken.set(`${f.material_id}|${f.serial_number}`, f.bill_code);
  }
  return taken;
}

/**
 * The stock-check lock: while a stock check that counts a material in a warehouse is open (saved,
 * submitted, in review, refused or withdrawn — anything but audited or merged), no other bill moves that
 * material there (`ExistMaterialIsInventorying`, naming the check). Asked before posting and before
 * reversing a posting.
 */
export async function assertNotInventorying(ctx: ServiceContext, decl: BillTypeDecl, billId: number, lines: readonly RuleLine[]): Promise<void> {
  const places = new Set<string>();
  for (const line of lines) {
    for (const p of placings(decl, line)) places.add(`${line.materialId}|${p.warehouseId}`);
    if (decl.stock === 'check' && line.warehouseId) places.add(`${line.materialId}|${line.warehouseId}`);
  }
  if (!places.size || !CHECK_TYPES.length) return;
  const pairs = sql.join(
    [...places].map((p) => {
      const [materialId, warehouseId] = p.split('|').map(Number);
      return sql`(${materialId}::bigint, ${warehouseId}::bigint)`;
    }),
    sql`, `,
  );
  const [found] = await rows<{ bill_code: string }>(
    ctx.tx,
    sql`select b.bill_code from bill_line l
        join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
        where l.tenant_id = ${ctx.tenantId} and l.bill_id <> ${billId}
          and b.bill_type in (${textList(CHECK_TYPES)}) and b.bill_status not in (${textList([...POSTED_STATUSES, 'Merged'])})
          and (l.material_id, coalesce(l.warehouse_id, b.warehouse_id)) in (${pairs})
        limit 1`,
  );
  if (found) throw new BizError('ExistMaterialIsInventorying', { additional: found.bill_code });
}

/** The day in the server's calendar, `YYYY-MM-DD`. */
export function localDay(date = new Date()): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** GET /api/admin/stock/batches/suggest: first expiry, first out, for an out line (pickBatches). */
export async function suggestBatches(ctx: ServiceContext, query: BatchSuggestQuery, today = localDay()): Promise<BatchSuggestion> {
  const found = await rows<{ batch_number: string; expiration_date: string | null; location_id: string | null; quantity: string }>(
    ctx.tx,
    sql`select b.batch_number, sb.expiration_date::text, b.location_id, b.quantity::text
        from stock_balance b
        left join stock_batch sb on sb.tenant_id = b.tenant_id and sb.material_id = b.material_id and sb.batch_number = b.batch_number
        where b.tenant_id = ${ctx.tenantId} and b.material_id = ${query.materialId} and b.warehouse_id = ${query.warehouseId}
          and b.batch_number <> '' and b.quantity > 0 ${query.locationId ? sql`and b.location_id = ${query.locationId}` : sql``}`,
  );
  const { picks, short } = pickBatches(
    found.map((f) => ({ batchNumber: f.batch_number, expirationDate: f.expiration_date, locationId: f.location_id === null ? null : Number(f.location_id), quantity: toMicro(f.quantity) })),
    toMicro(query.quantity),
    today,
  );
  return {
    picks: picks.map((p) => ({ batchNumber: p.batchNumber, expirationDate: p.expirationDate, locationId: p.locationId, available: microText(p.quantity), take: microText(p.take) })),
    short: microText(short),
  };
}

/**
 * A customer's consignment warehouse (entrusted machining: a warehouse naming the customer) keeps the
 * customer's materials, not the company's. So every movement in or out of one must be on a bill naming that
 * customer (its orders' picks and returns copy the order's customer), else `EntrustedStockOtherCustomer` — a
 * stock check counts what is there whoever it belongs to; goods come into one only at no value
 * (`EntrustedStockHasValue`: at a price, a source's cost or a transfer's), so its moving average stays zero and
 * nothing of it reaches the ledger; and a type declaring `customerStock` moves nothing but its customer's
 * (`EntrustWarehouseNotCustomers`). Checked as the bill is audited, on the movements it is about to post.
 */
export async function assertCustomerStock(ctx: ServiceContext, decl: BillTypeDecl, customerId: number | null, movements: readonly Movement[]): Promise<void> {
  const warehouseIds = [...new Set(movements.map((m) => m.key.warehouseId))];
  if (!warehouseIds.length) return;
  const found = await rows<{ id: string; customer_id: string }>(
    ctx.tx,
    sql`select id, customer_id from warehouse where tenant_id = ${ctx.tenantId} and customer_id is not null and id = any(${idArray(warehouseIds)})`,
  );
  const ownerOf = new Map(found.map((r) => [Number(r.id), Number(r.customer_id)]));
  if (!ownerOf.size && !decl.customerStock) return;
  for (const m of movements) {
    const owner = ownerOf.get(m.key.warehouseId);
    const about = { lineId: m.lineId, materialId: m.key.materialId, warehouseId: m.key.warehouseId };
    if (decl.customerStock && (owner === undefined || owner !== customerId)) throw refusal('EntrustWarehouseNotCustomers', about);
    if (owner === undefined || decl.stock === 'check') continue;
    if (owner !== customerId) throw refusal('EntrustedStockOtherCustomer', about);
    if (m.quantity > 0n && ((m.unitCost !== undefined && m.unitCost !== 0n) || m.costFrom)) throw refusal('EntrustedStockHasValue', about);
  }
}
