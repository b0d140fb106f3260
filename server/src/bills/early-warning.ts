import { sql, type SQL } from 'drizzle-orm';
import type { BillWarning, EarlyWarning, EarlyWarningQuery, ExpiryWarning, LowStockWarning } from '@p8/contract/bills/api';
import type { ServiceContext } from '../core/service-context.ts';
import { rows } from '../db/connection.ts';
import { databaseToday } from '../core/dashboard.ts';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { BillStatus, POSTED_STATUSES } from '@p8/contract/bills/status';
import { textList } from '../core/tree.ts';

/**
 * The early warning: what needs attention within its warning days — for the home dashboard and
 * `GET /api/admin/stock/warning`.
 *
 * - **Bills** whose delivery, payment or receipt date is within the bill's own warning days (or past):
 *   open posted bills only (Audit, Partially); a delivery date counts until the goods arrived (types
 *   with the delivery button) — completing the bill ends it anyway; a payment or receipt date counts
 *   until the bill's settlement progress is AllSettlement. Work orders due by a date (`dueUntilAudited`:
 *   equipment maintenance) and inspections (`inspection`) count until they are audited. Sorted by the date, each kind cut at `limit`.
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
  // The three lists in one statement (one round trip: the dashboard asks it among its other sections),
  // each list as JSON in its own order.
  const [found] = await rows<{ bills: DueBillRow[]; lowStock: LowStockWarning[]; expiring: Array<Omit<ExpiryWarning, 'daysLeft'> & { daysLeft: number }> }>(
    ctx.tx,
    sql`select (select coalesce(json_agg(d), '[]') from (${dueBills(ctx, today, limit)}) d) as bills,
               ${parts.lowStock === false ? sql`'[]'::json` : sql`(select coalesce(json_agg(l order by l.ordinal), '[]') from (${lowStock(ctx, limit)}) l)`} as "lowStock",
               (select coalesce(json_agg(e order by e.ordinal), '[]') from (${expiring(ctx, today, limit)}) e) as expiring`,
  );
  const kinds = Object.keys(DATES) as Array<BillWarning['kind']>;
  return {
    bills: found.bills
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
      .sort((a, b) => a.daysLeft - b.daysLeft || a.billId - b.billId || kinds.indexOf(a.kind) - kinds.indexOf(b.kind)),
    lowStock: found.lowStock.map(({ ordinal: _, ...r }: LowStockWarning & { ordinal?: number }) => r),
    expiring: found.expiring.map(({ ordinal: _, ...r }: Omit<ExpiryWarning, 'daysLeft'> & { daysLeft: number; ordinal?: number }) => ({ ...r, daysLeft: Number(r.daysLeft) })),
  };
}

interface DueBillRow {
  kind: BillWarning['kind'];
  id: string | number;
  bill_type: string;
  bill_code: string;
  partner_name: string | null;
  date: string;
  warn_days: number;
  days_left: number;
}

/** Types whose delivery date is a date the work is due by, done when audited (`dueUntilAudited`). */
const DUE_UNTIL_AUDITED = BILL_TYPES.filter((d) => d.dueUntilAudited).map((d) => d.type);
/** …of which the inspections (their own kind: `inspection`), and the work orders (`maintenance`). */
const INSPECTIONS = BILL_TYPES.filter((d) => d.dueUntilAudited && d.inspection).map((d) => d.type);
const WORK_ORDERS = DUE_UNTIL_AUDITED.filter((type) => !INSPECTIONS.includes(type));
const NOT_YET_DONE = textList(BillStatus.filter((st) => !POSTED_STATUSES.includes(st) && st !== 'Merged'));
const POSTED = sql`b.bill_status in ('Audit', 'Partially')`;

/**
 * Each kind: its date and warning-days columns, which bills it looks at (`open`: the partial date indexes of
 * `bill` cover the posted ones), when one is done, and what it concerns (`subject`: the partner, a machine).
 */
const DATES: Record<BillWarning['kind'], { date: string; warn: string; open: SQL; done: SQL; subject: SQL }> = {
  delivery: {
    date: 'delivery_date',
    warn: 'delivery_warn_days',
    open: sql`${POSTED} and b.bill_type not in (${textList(DUE_UNTIL_AUDITED)})`,
    done: sql`coalesce(b.delivery_status, '') = 'Arrived'`,
    subject: sql`p.name`,
  },
  pay: { date: 'pay_date', warn: 'pay_warn_days', open: POSTED, done: sql`coalesce(b.progress ->> 'settlement', '') = 'AllSettlement'`, subject: sql`p.name` },
  receipt: { date: 'receipt_date', warn: 'receipt_warn_days', open: POSTED, done: sql`coalesce(b.progress ->> 'settlement', '') = 'AllSettlement'`, subject: sql`p.name` },
  // Work orders not yet done: saved, under review, refused or withdrawn (a few per machine: the type's index).
  maintenance: {
    date: 'delivery_date',
    warn: 'delivery_warn_days',
    open: sql`b.bill_type in (${textList(WORK_ORDERS)}) and b.bill_status in (${NOT_YET_DONE})`,
    done: sql`false`,
    subject: sql`(select e.name from equipment e where e.tenant_id = b.tenant_id and e.id = (b.extra ->> 'equipmentId')::bigint)`,
  },
  // Inspections not audited by their date: the partner's (incoming, shipment), else the first line's material.
  inspection: {
    date: 'delivery_date',
    warn: 'delivery_warn_days',
    open: sql`b.bill_type in (${textList(INSPECTIONS)}) and b.bill_status in (${NOT_YET_DONE})`,
    done: sql`false`,
    subject: sql`coalesce(p.name, (select m.name from bill_line l join material m on m.tenant_id = l.tenant_id and m.id = l.material_id where l.tenant_id = b.tenant_id and l.bill_id = b.id order by l.line_no limit 1))`,
  },
};

/** The largest warning days a bill may have (fields.ts `warnDays`). */
const MAX_WARN_DAYS = 3650;

/** The bills due by each kind of date, the first `limit` of each (each on its partial date index). */
function dueBills(ctx: ServiceContext, today: string, limit: number): SQL {
  const byKind = (Object.keys(DATES) as Array<BillWarning['kind']>).map((kind) => {
    const { date, warn, open, done, subject } = DATES[kind];
    const d = sql.raw(`b.${date}`);
    const w = sql.raw(`coalesce(b.${warn}, 0)`);
    return sql`(select ${kind}::text as kind, b.id, b.bill_type, b.bill_code, ${subject} as partner_name, ${d}::text as date, ${w} as warn_days, (${d} - ${today}::date) as days_left
        from bill b
        left join partner p on p.tenant_id = b.tenant_id and p.id = coalesce(b.supplier_id, b.customer_id)
        where b.tenant_id = ${ctx.tenantId} and ${d} is not null and ${open}
          and ${d} <= ${today}::date + ${sql.raw(String(MAX_WARN_DAYS))} and ${d} - ${w} <= ${today}::date and not (${done})
        order by ${d}, b.id
        limit ${limit})`;
  });
  return sql.join(byKind, sql` union all `);
}

/** Materials below their safety stock, the emptiest first (`ordinal`: their order). */
function lowStock(ctx: ServiceContext, limit: number): SQL {
  return sql`select m.id::int as "materialId", m.code as "materialCode", m.name as "materialName",
               coalesce(s.quantity, 0)::text as quantity, m.safety_stock::text as "safetyStock",
               row_number() over (order by coalesce(s.quantity, 0) / m.safety_stock, m.code) as ordinal
        from material m
        left join lateral (select sum(b.quantity) as quantity from stock_balance b where b.tenant_id = m.tenant_id and b.material_id = m.id) s on true
        where m.tenant_id = ${ctx.tenantId} and m.enabled and m.safety_stock is not null and m.safety_stock > 0
          and coalesce(s.quantity, 0) < m.safety_stock
        order by coalesce(s.quantity, 0) / m.safety_stock, m.code
        limit ${limit}`;
}

/** Batches in stock close to their expiry, the soonest first (`ordinal`: their order). */
function expiring(ctx: ServiceContext, today: string, limit: number): SQL {
  return sql`select m.id::int as "materialId", m.code as "materialCode", m.name as "materialName", b.warehouse_id::int as "warehouseId",
               sb.batch_number as "batchNumber", sb.expiration_date::text as "expirationDate", sum(b.quantity)::text as quantity,
               (sb.expiration_date - ${today}::date) as "daysLeft",
               row_number() over (order by sb.expiration_date, m.code, sb.batch_number, b.warehouse_id) as ordinal
        from stock_batch sb
        join material m on m.tenant_id = sb.tenant_id and m.id = sb.material_id
        join stock_balance b on b.tenant_id = sb.tenant_id and b.material_id = sb.material_id and b.batch_number = sb.batch_number
        where sb.tenant_id = ${ctx.tenantId} and sb.expiration_date is not null
          and sb.expiration_date <= ${today}::date + ${sql.raw(String(MAX_WARN_DAYS))} and sb.expiration_date - coalesce(m.warn_days, 0) <= ${today}::date
        group by m.id, m.code, m.name, b.warehouse_id, sb.batch_number, sb.expiration_date
        having sum(b.quantity) > 0
        order by sb.expiration_date, m.code, sb.batch_number, b.warehouse_id
        limit ${limit}`;
}
