import { sql, type SQL } from 'drizzle-orm';
import type { BillWarning, EarlyWarning, EarlyWarningQuery, ExpiryWarning, LowStockWarning } from '@p8/contract/bills/api';
import type { ServiceContext } from '../core/service-context.ts';
import { rows } from '../db/connection.ts';
import { databaseToday } from '../core/dashboard.ts';

/**
 * The early warning: what needs attention within its warning days — for the home dashboard and
 * `GET /api/admin/stock/warning`.
 *
 * - **Bills** whose delivery, payment or receipt date is within the bill's own warning days (or past):
 *   open posted bills only (Audit, Partially); a delivery date counts until the goods arrived (types
 *   with the delivery button) — completing the bill ends it anyway; a payment or receipt date counts
 *   until the bill's settlement progress is AllSettlement. Sorted by the date, each kind cut at `limit`.
 * - **Low stock**: materials with a safety stock whose stock in all warehouses is below it.
 * - **Expiring batches**: batches in stock whose expiry is within their material's warning days (or past).
 *
 * "Today" is the database's date, as everywhere on the dashboard (docs/dashboard.md, "Which day is
 * today"), unless the query names a day.
 *
 * Each list reads an index (the partial date indexes of `bill`, `stock_batch_expiry_idx`); warning days
 * are at most 3650, so a date range bounds each scan.
 */
export async function earlyWarning(
  ctx: ServiceContext,
  query: Partial<EarlyWarningQuery> = {},
  /** `lowStock: false` leaves the low-stock list empty (the dashboard's asset section has its own). */
  parts: { lowStock?: boolean } = {},
): Promise<EarlyWarning> {
  const today = query.today ?? (await databaseToday(ctx));
  const limit = query.limit ?? 50;
  return {
    bills: await dueBills(ctx, today, limit),
    lowStock: parts.lowStock === false ? [] : await lowStock(ctx, limit),
    expiring: await expiring(ctx, today, limit),
  };
}

const DATES: Record<BillWarning['kind'], { date: string; warn: string; done: SQL }> = {
  delivery: { date: 'delivery_date', warn: 'delivery_warn_days', done: sql`coalesce(b.delivery_status, '') = 'Arrived'` },
  pay: { date: 'pay_date', warn: 'pay_warn_days', done: sql`coalesce(b.progress ->> 'settlement', '') = 'AllSettlement'` },
  receipt: { date: 'receipt_date', warn: 'receipt_warn_days', done: sql`coalesce(b.progress ->> 'settlement', '') = 'AllSettlement'` },
};

/** The largest warning days a bill may have (fields.ts `warnDays`). */
const MAX_WARN_DAYS = 3650;

/**
 * The bills due by each kind of date, the first `limit` of each (each on its partial date index), in one
 * statement; sorted by the days left.
 */
async function dueBills(ctx: ServiceContext, today: string, limit: number): Promise<BillWarning[]> {
  const kinds = Object.keys(DATES) as Array<BillWarning['kind']>;
  const byKind = kinds.map((kind) => {
    const { date, warn, done } = DATES[kind];
    const d = sql.raw(`b.${date}`);
    const w = sql.raw(`coalesce(b.${warn}, 0)`);
    return sql`(select ${kind}::text as kind, b.id, b.bill_type, b.bill_code, p.name as partner_name, ${d}::text as date, ${w} as warn_days, (${d} - ${today}::date) as days_left
        from bill b
        left join partner p on p.tenant_id = b.tenant_id and p.id = coalesce(b.supplier_id, b.customer_id)
        where b.tenant_id = ${ctx.tenantId} and ${d} is not null and b.bill_status in ('Audit', 'Partially')
          and ${d} <= ${today}::date + ${sql.raw(String(MAX_WARN_DAYS))} and ${d} - ${w} <= ${today}::date and not (${done})
        order by ${d}, b.id
        limit ${limit})`;
  });
  const found = await rows<{ kind: BillWarning['kind']; id: string; bill_type: string; bill_code: string; partner_name: string | null; date: string; warn_days: number; days_left: number }>(
    ctx.tx,
    sql.join(byKind, sql` union all `),
  );
  return found
    .map((r) => ({
      kind: r.kind,
      billId: Number(r.id),
      billType: r.bill_type,
      billCode: r.bill_code,
      partnerName: r.partner_name,
      date: r.date,
      warnDays: Number(r.warn_days),
      daysLeft: Number(r.days_left),
    }))
    .sort((a, b) => a.daysLeft - b.daysLeft || a.billId - b.billId || kinds.indexOf(a.kind) - kinds.indexOf(b.kind));
}

async function lowStock(ctx: ServiceContext, limit: number): Promise<LowStockWarning[]> {
  return rows<LowStockWarning>(
    ctx.tx,
    sql`select m.id::int as "materialId", m.code as "materialCode", m.name as "materialName",
               coalesce(s.quantity, 0)::text as quantity, m.safety_stock::text as "safetyStock"
        from material m
        left join lateral (select sum(b.quantity) as quantity from stock_balance b where b.tenant_id = m.tenant_id and b.material_id = m.id) s on true
        where m.tenant_id = ${ctx.tenantId} and m.enabled and m.safety_stock is not null and m.safety_stock > 0
          and coalesce(s.quantity, 0) < m.safety_stock
        order by coalesce(s.quantity, 0) / m.safety_stock, m.code
        limit ${limit}`,
  );
}

async function expiring(ctx: ServiceContext, today: string, limit: number): Promise<ExpiryWarning[]> {
  const found = await rows<Omit<ExpiryWarning, 'daysLeft'> & { daysLeft: string }>(
    ctx.tx,
    sql`select m.id::int as "materialId", m.code as "materialCode", m.name as "materialName", b.warehouse_id::int as "warehouseId",
               sb.batch_number as "batchNumber", sb.expiration_date::text as "expirationDate", sum(b.quantity)::text as quantity,
               (sb.expiration_date - ${today}::date) as "daysLeft"
        from stock_batch sb
        join material m on m.tenant_id = sb.tenant_id and m.id = sb.material_id
        join stock_balance b on b.tenant_id = sb.tenant_id and b.material_id = sb.material_id and b.batch_number = sb.batch_number
        where sb.tenant_id = ${ctx.tenantId} and sb.expiration_date is not null
          and sb.expiration_date <= ${today}::date + ${sql.raw(String(MAX_WARN_DAYS))} and sb.expiration_date - coalesce(m.warn_days, 0) <= ${today}::date
        group by m.id, m.code, m.name, b.warehouse_id, sb.batch_number, sb.expiration_date
        having sum(b.quantity) > 0
        order by sb.expiration_date, m.code, sb.batch_number, b.warehouse_id
        limit ${limit}`,
  );
  return found.map((r) => ({ ...r, daysLeft: Number(r.daysLeft) }));
}
