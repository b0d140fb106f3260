import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { billType } from '@p8/contract/bills/catalogue';
import type { ExcelColumn, Lang } from '../core/excel.ts';
import { allOf, likePattern, reportDay, reportId, reportPage, reportRoutes, reportSorts, reportText, type Report } from '../core/report-routes.ts';
import { route, type RouteDeclaration } from '../core/route.ts';
import { MATERIAL_BILL_SCREENS } from '../core/screens.ts';
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

const tags = ['stock'];
const id = reportId;
const page = reportPage;
const day = reportDay;
const text = reportText;
const sorts = reportSorts;
const like = likePattern;
const and = allOf;
const keyword = (alias: string, v: string | undefined) => (v ? sql`(${sql.raw(alias)}.code ilike ${like(v)} or ${sql.raw(alias)}.name ilike ${like(v)})` : undefined);

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
  url: '/api/admin/stock/current',
  tags,
  screen: 'stock_current',
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
  url: '/api/admin/stock/ledger',
  tags,
  screen: 'stock_ledger',
  period: ['start', 'end'],
  exportRow: (row, lang) => billTypeName(row, lang),
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
  url: '/api/admin/stock/summary',
  tags,
  screen: 'stock_summary',
  period: ['start', 'end'],
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

/** A ledger row's bill type by its name in the export's language. */
const billTypeName = (row: Record<string, unknown>, lang: Lang) => {
  const decl = typeof row.billType === 'string' ? billType(row.billType) : undefined;
  return { billTypeName: decl ? decl.label[lang] : row.billType };
};

export const stockRoutes: RouteDeclaration[] = [
  ...[current, ledger, summary].flatMap((report) => reportRoutes(report)),
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
