import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { parseDateValue, storableText } from '@p8/contract/text';
import { BizError } from '../core/errors.ts';
import { billType } from '@p8/contract/bills/catalogue';
import { exportXlsx, langOf, sendXlsx, type ExcelColumn, type Lang } from '../core/excel.ts';
import { route, untransactedRoute, type RouteDeclaration } from '../core/route.ts';
import { MATERIAL_BILL_SCREENS } from '../core/screens.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { rows } from '../db/connection.ts';
import { batchSuggestQuerySchema, earlyWarningQuerySchema } from '@p8/contract/bills/api';
import { earlyWarning } from './early-warning.ts';
import { verifyStock } from './stock.ts';
import { suggestBatches } from './stock-rules.ts';

/**
 * Stock reports and the ledger check, under /api/admin/stock: current stock (by warehouse, location,
 * batch, serial), the ledger's entries, the in / out summary of a period, and `verify`, which recomputes
 * every balance from the ledger. Quantities are decimal strings in the material's main unit. Each report
 * sorts by `<column>Sort=asc|desc` on its whitelisted columns and exports its query as .xlsx
 * (`POST …/export`, button code `stock_<report>_export`).
 */

const id = z.coerce.number().int().positive().optional();
const page = { current: z.coerce.number().int().min(1).default(1), pageSize: z.coerce.number().int().min(1).max(200).default(10) };
const day = storableText().refine((v) => parseDateValue(v.slice(0, 10)) !== undefined, { message: 'DateOutOfRange' }).optional();
const text = (max: number) => storableText().trim().max(max).optional();
const direction = z.enum(['asc', 'desc']).optional();
/** `<prop>Sort=asc|desc` for each sortable column of a report (the list kit's sort parameters). */
const sorts = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [`${k}Sort`, direction])) as Record<`${K}Sort`, typeof direction>;

/** A report: its filters and sortable columns, the rows of a query, the columns of its export. */
interface Report<Q extends z.ZodObject> {
  name: 'current' | 'ledger' | 'summary';
  summary: string;
  query: Q;
  /** Sortable column → the SQL it sorts by (an alias of the select). */
  sortable: Record<string, string>;
  /** The default order (after any requested sort). */
  order: string;
  select(ctx: ServiceContext, q: z.infer<Q>): SQL;
  columns: ExcelColumn[];
  filename: { zh: string; en: string };
}

const like = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const and = (parts: Array<SQL | undefined>) => sql.join(parts.filter((p): p is SQL => p !== undefined), sql` and `);
const keyword = (alias: string, v: string | undefined) => (v ? sql`(${sql.raw(alias)}.code ilike ${like(v)} or ${sql.raw(alias)}.name ilike ${like(v)})` : undefined);

/** Requested sorts first (whitelisted columns only), then the report's own order. */
function orderOf(report: Report<z.ZodObject>, q: Record<string, unknown>): SQL {
  const requested = Object.entries(report.sortable)
    .filter(([key]) => q[`${key}Sort`])
    .map(([key, column]) => `${column} ${q[`${key}Sort`] === 'desc' ? 'desc' : 'asc'}`);
  return sql.raw([...requested, report.order].join(', '));
}

/** The export columns the reports share, titled once. */
const COLUMN = {
  materialCode: { prop: 'materialCode', title: { zh: '物料编码', en: 'Material code' } },
  materialName: { prop: 'materialName', title: { zh: '物料名称', en: 'Material' }, width: 24 },
  warehouseName: { prop: 'warehouseName', title: { zh: '仓库', en: 'Warehouse' } },
  locationName: { prop: 'locationName', title: { zh: '库位', en: 'Location' } },
  batchNumber: { prop: 'batchNumber', title: { zh: '批次号', en: 'Batch number' } },
  serialNumber: { prop: 'serialNumber', title: { zh: '序列号', en: 'Serial number' } },
  quantity: { prop: 'quantity', title: { zh: '数量', en: 'Quantity' } },
  unitCost: { prop: 'unitCost', title: { zh: '单位成本', en: 'Unit cost' } },
  amount: { prop: 'amount', title: { zh: '金额', en: 'Amount' } },
} satisfies Record<string, ExcelColumn>;

const current: Report<z.ZodObject> = {
  name: 'current',
  summary: 'Current stock by warehouse, location, batch and serial number',
  query: z.object({ ...page, materialId: id, warehouseId: id, locationId: id, batchNumber: text(100), keyword: text(100), ...sorts(['materialCode', 'warehouseName', 'quantity']) }),
  sortable: { materialCode: '"materialCode"', warehouseName: '"warehouseName"', quantity: 'b.quantity' },
  order: '"materialCode", "warehouseName", b.location_id nulls first, b.batch_number, b.serial_number',
  select: (ctx, q) => sql`select b.material_id as "materialId", m.code as "materialCode", m.name as "materialName", m.specification, u.name as "unitName",
               b.warehouse_id as "warehouseId", w.name as "warehouseName", b.location_id as "locationId", l.name as "locationName",
               b.batch_number as "batchNumber", b.serial_number as "serialNumber", b.quantity::text as quantity,
               (case when v.quantity <> 0 then round(v.amount / v.quantity, 6) else 0 end)::text as "unitCost",
               (case when b.stranded then v.amount when v.quantity <> 0 then round(b.quantity * v.amount / v.quantity, 2) else 0 end)::text as amount,
               count(*) over () as total
        from (
          -- Every place holding a quantity (below zero too, with its value), and every material and warehouse
          -- whose value is not zero at zero quantity (stock posted before an empty shelf was kept at zero value).
          select tenant_id, material_id, warehouse_id, location_id, batch_number, serial_number, quantity, false as stranded
          from stock_balance where tenant_id = ${ctx.tenantId} and quantity <> 0
          union all
          select tenant_id, material_id, warehouse_id, null, '', '', 0, true
          from stock_valuation where tenant_id = ${ctx.tenantId} and quantity = 0 and amount <> 0
        ) b
        join material m on m.tenant_id = b.tenant_id and m.id = b.material_id
        join warehouse w on w.tenant_id = b.tenant_id and w.id = b.warehouse_id
        left join location l on l.tenant_id = b.tenant_id and l.id = b.location_id
        left join material_unit mu on mu.tenant_id = b.tenant_id and mu.material_id = b.material_id and mu.is_main
        left join unit u on u.tenant_id = b.tenant_id and u.id = mu.unit_id
        left join stock_valuation v on v.tenant_id = b.tenant_id and v.material_id = b.material_id and v.warehouse_id = b.warehouse_id
        where ${and([
          sql`b.tenant_id = ${ctx.tenantId}`,
          q.materialId ? sql`b.material_id = ${q.materialId}` : undefined,
          q.warehouseId ? sql`b.warehouse_id = ${q.warehouseId}` : undefined,
          q.locationId ? sql`b.location_id = ${q.locationId}` : undefined,
          q.batchNumber ? sql`b.batch_number = ${q.batchNumber}` : undefined,
          keyword('m', q.keyword as string | undefined),
        ])}`,
  columns: [
    COLUMN.materialCode,
    COLUMN.materialName,
    { prop: 'specification', title: { zh: '规格', en: 'Specification' }, width: 18 },
    { prop: 'unitName', title: { zh: '单位', en: 'Unit' } },
    COLUMN.warehouseName,
    COLUMN.locationName,
    COLUMN.batchNumber,
    COLUMN.serialNumber,
    COLUMN.quantity,
    COLUMN.unitCost,
    COLUMN.amount,
  ],
  filename: { zh: '即时库存', en: 'Current stock' },
};

const ledger: Report<z.ZodObject> = {
  name: 'ledger',
  summary: 'Stock ledger entries, newest first',
  query: z.object({
    ...page, materialId: id, warehouseId: id, locationId: id, billType: text(64), billCode: text(64), batchNumber: text(100), keyword: text(100), start: day, end: day,
    ...sorts(['billDate', 'billCode', 'quantity']),
  }),
  sortable: { billDate: 'e.bill_date', billCode: 'e.bill_code', quantity: 'e.quantity' },
  order: 'e.id desc',
  select: (ctx, q) => sql`select e.id, e.bill_id as "billId", e.bill_type as "billType", e.bill_code as "billCode", e.bill_date::text as "billDate",
               e.material_id as "materialId", m.code as "materialCode", m.name as "materialName", e.warehouse_id as "warehouseId", w.name as "warehouseName",
               e.location_id as "locationId", l.name as "locationName", e.batch_number as "batchNumber", e.serial_number as "serialNumber",
               e.quantity::text as quantity, e.unit_cost::text as "unitCost", e.amount::text as amount, e.reversal, e.created_at as "createdAt",
               count(*) over () as total
        from stock_ledger e
        join material m on m.tenant_id = e.tenant_id and m.id = e.material_id
        join warehouse w on w.tenant_id = e.tenant_id and w.id = e.warehouse_id
        left join location l on l.tenant_id = e.tenant_id and l.id = e.location_id
        where ${and([
          sql`e.tenant_id = ${ctx.tenantId}`,
          q.materialId ? sql`e.material_id = ${q.materialId}` : undefined,
          q.warehouseId ? sql`e.warehouse_id = ${q.warehouseId}` : undefined,
          q.locationId ? sql`e.location_id = ${q.locationId}` : undefined,
          q.billType ? sql`e.bill_type = ${q.billType}` : undefined,
          q.billCode ? sql`e.bill_code ilike ${like(q.billCode as string)}` : undefined,
          q.batchNumber ? sql`e.batch_number = ${q.batchNumber}` : undefined,
          keyword('m', q.keyword as string | undefined),
          q.start ? sql`e.bill_date >= ${(q.start as string).slice(0, 10)}::date` : undefined,
          q.end ? sql`e.bill_date <= ${(q.end as string).slice(0, 10)}::date` : undefined,
        ])}`,
  columns: [
    { prop: 'billDate', title: { zh: '单据日期', en: 'Bill date' } },
    { prop: 'billTypeName', title: { zh: '单据类型', en: 'Bill type' }, width: 16 },
    { prop: 'billCode', title: { zh: '单据编号', en: 'Bill code' }, width: 20 },
    COLUMN.materialCode,
    COLUMN.materialName,
    COLUMN.warehouseName,
    COLUMN.locationName,
    COLUMN.batchNumber,
    COLUMN.serialNumber,
    COLUMN.quantity,
    COLUMN.unitCost,
    COLUMN.amount,
  ],
  filename: { zh: '库存流水', en: 'Stock ledger' },
};

/**
 * Per material and warehouse: opening balance before `start`, in and out within the period, closing. A
 * reversal (a withdrawn audit) counts against the movement it takes back — a withdrawn out-stock lowers the
 * period's out, it is not stock that came in — so a bill audited and withdrawn adds nothing to either.
 */
const summary: Report<z.ZodObject> = {
  name: 'summary',
  summary: 'Stock in / out summary of a period per material and warehouse',
  query: z.object({ ...page, materialId: id, warehouseId: id, keyword: text(100), start: day, end: day, ...sorts(['materialCode', 'warehouseName', 'inQuantity', 'outQuantity', 'closing']) }),
  sortable: { materialCode: '"materialCode"', warehouseName: '"warehouseName"', inQuantity: 's."inQuantity"::numeric', outQuantity: 's."outQuantity"::numeric', closing: 's.closing::numeric' },
  order: '"materialCode", "warehouseName"',
  select(ctx, q) {
    const start = q.start ? sql`${(q.start as string).slice(0, 10)}::date` : sql`'1900-01-01'::date`;
    const end = q.end ? sql`${(q.end as string).slice(0, 10)}::date` : sql`'9999-12-31'::date`;
    return sql`select s.*, m.code as "materialCode", m.name as "materialName", w.name as "warehouseName", count(*) over () as total from (
          select e.material_id as "materialId", e.warehouse_id as "warehouseId",
                 coalesce(sum(e.quantity) filter (where e.bill_date < ${start}), 0)::text as opening,
                 coalesce(sum(e.quantity) filter (where e.bill_date >= ${start} and (e.quantity > 0) <> e.reversal), 0)::text as "inQuantity",
                 coalesce(-sum(e.quantity) filter (where e.bill_date >= ${start} and (e.quantity < 0) <> e.reversal), 0)::text as "outQuantity",
                 sum(e.quantity)::text as closing
          from stock_ledger e where ${and([
            sql`e.tenant_id = ${ctx.tenantId}`,
            sql`e.bill_date <= ${end}`,
            q.materialId ? sql`e.material_id = ${q.materialId}` : undefined,
            q.warehouseId ? sql`e.warehouse_id = ${q.warehouseId}` : undefined,
          ])}
          group by e.material_id, e.warehouse_id) s
        join material m on m.tenant_id = ${ctx.tenantId} and m.id = s."materialId"
        join warehouse w on w.tenant_id = ${ctx.tenantId} and w.id = s."warehouseId"
        ${q.keyword ? sql`where ${keyword('m', q.keyword as string)}` : sql``}`;
  },
  columns: [
    COLUMN.materialCode,
    COLUMN.materialName,
    COLUMN.warehouseName,
    { prop: 'opening', title: { zh: '期初数量', en: 'Opening' } },
    { prop: 'inQuantity', title: { zh: '入库数量', en: 'In' } },
    { prop: 'outQuantity', title: { zh: '出库数量', en: 'Out' } },
    { prop: 'closing', title: { zh: '期末数量', en: 'Closing' } },
  ],
  filename: { zh: '收发汇总', en: 'Stock in-out summary' },
};

const REPORTS = [current, ledger, summary];
/** Most rows one export writes (a larger stock is filtered first). */
const EXPORT_LIMIT = 50_000;

function checkPeriod(q: Record<string, unknown>) {
  if (typeof q.start === 'string' && typeof q.end === 'string' && q.start.slice(0, 10) > q.end.slice(0, 10)) throw new BizError('StartDateAfterEndDate');
}

/**
 * Ids as numbers on both databases: PostgreSQL answers bigint columns of a raw query as strings (PGlite as
 * numbers), so a report row's `id` and `…Id` values are made numbers here.
 */
export function withNumberIds<T extends Record<string, unknown>>(row: T): T {
  const out: Record<string, unknown> = { ...row };
  for (const [key, value] of Object.entries(row)) if ((key === 'id' || key.endsWith('Id')) && typeof value === 'string') out[key] = Number(value);
  return out as T;
}

async function paged(ctx: ServiceContext, report: Report<z.ZodObject>, q: Record<string, unknown>) {
  checkPeriod(q);
  const current = q.current as number;
  const pageSize = q.pageSize as number;
  const found = await rows<{ total?: unknown }>(ctx.tx, sql`${report.select(ctx, q)} order by ${orderOf(report, q)} limit ${pageSize} offset ${(current - 1) * pageSize}`);
  return { data: found.map(({ total: _total, ...row }) => withNumberIds(row)), pagination: { current, pageSize, total: Number(found[0]?.total ?? 0) } };
}

async function exportRows(ctx: ServiceContext, report: Report<z.ZodObject>, q: Record<string, unknown>, lang: Lang) {
  checkPeriod(q);
  const found = await rows<Record<string, unknown>>(ctx.tx, sql`${report.select(ctx, q)} order by ${orderOf(report, q)} limit ${EXPORT_LIMIT}`);
  return found.map((row) => {
    const decl = typeof row.billType === 'string' ? billType(row.billType) : undefined;
    return { ...withNumberIds(row), billTypeName: decl ? decl.label[lang] : row.billType };
  });
}

const tags = ['stock'];
export const stockRoutes: RouteDeclaration[] = [
  ...REPORTS.flatMap((report) => {
    const url = `/api/admin/stock/${report.name}`;
    // Exports take the list's query without paging (the export button posts it as the body).
    const exportQuery = report.query.omit({ current: true, pageSize: true }).extend({ lang: text(10) });
    return [
      route({ method: 'GET', url, tags, summary: report.summary, permission: `stock_${report.name}`, query: report.query, page: true, handler: (ctx, { query }) => paged(ctx, report, query) }),
      untransactedRoute({
        method: 'POST', url: `${url}/export`, tags, summary: `${report.summary}, as .xlsx`, permission: `stock_${report.name}_export`, query: exportQuery, body: exportQuery.optional(),
        async handler(caller, { query, body }, { request, reply }) {
          const lang = langOf(request);
          const found = await caller.transaction((ctx) => exportRows(ctx, report, { ...query, ...(body ?? {}) }, lang));
          return sendXlsx(reply, await exportXlsx(report.columns, found, lang), report.filename[lang]);
        },
      }),
    ];
  }),
  route({
    method: 'GET', url: '/api/admin/stock/batches/suggest', tags, summary: 'Batches an out line should take, first expiry first out', picker: MATERIAL_BILL_SCREENS, query: batchSuggestQuerySchema,
    handler: (ctx, { query }) => suggestBatches(ctx, query),
  }),
  route({
    method: 'GET', url: '/api/admin/stock/warning', tags, summary: 'Early warning: bills due within their warning days, low stock, expiring batches', permission: 'stock_current', query: earlyWarningQuerySchema,
    handler: (ctx, { query }) => earlyWarning(ctx, query),
  }),
  route({ method: 'POST', url: '/api/admin/stock/verify', tags, summary: 'Recompute every balance from the ledger: the differences (empty when they agree)', handler: (ctx) => verifyStock(ctx.tx, ctx.tenantId) }),
];
