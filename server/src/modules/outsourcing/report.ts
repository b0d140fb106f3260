import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { ExcelColumn } from '../../core/excel.ts';
import { allOf, likePattern, reportId, reportPage, reportRoutes, reportSorts, reportText } from '../../core/report-routes.ts';
import type { RouteDeclaration } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { billScope } from '../../bills/list.ts';
import { atSupplierSql } from './rules.ts';

/*
 * Materials at suppliers (委外物料结存, GET /api/admin/outsourcing/atSupplier): per outsourcing order and material,
 * what picks sent, returns brought back and receipts consumed, what the supplier holds and its value — the
 * orders within the caller's data scope, filtered by supplier, order, material; sorted by `<column>Sort`;
 * exported as .xlsx (`outsourcing_atSupplier_export`).
 */

const SORTABLE = { billCode: 'o.bill_code', supplierName: 's.name', materialCode: 'm.code', quantity: 'h.quantity::numeric', amount: 'h.amount::numeric' } as const;

export const atSupplierQuerySchema = z.object({
  ...reportPage,
  supplierId: reportId,
  orderId: reportId,
  materialId: reportId,
  /** The order's code (contains). */
  billCode: reportText(50),
  /** Material code or name (contains). */
  keyword: reportText(100),
  /** Only what a supplier still holds (not zero). */
  held: z.enum(['true', 'false']).optional(),
  ...reportSorts(Object.keys(SORTABLE) as Array<keyof typeof SORTABLE>),
});
type Query = z.infer<typeof atSupplierQuerySchema>;

async function select(ctx: ServiceContext, q: Omit<Query, 'current' | 'pageSize'>): Promise<SQL> {
  const scope = await billScope(ctx, 'o');
  const orders = allOf([
    sql`o.bill_status not in ('Merged')`,
    scope,
    q.supplierId ? sql`o.supplier_id = ${q.supplierId}` : undefined,
    q.orderId ? sql`o.id = ${q.orderId}` : undefined,
    q.billCode ? sql`o.bill_code ilike ${likePattern(q.billCode)}` : undefined,
  ]);
  return sql`select h.order_id as "orderId", o.bill_code as "billCode", o.bill_date::text as "billDate", o.supplier_id as "supplierId", s.name as "supplierName",
             h.material_id as "materialId", m.code as "materialCode", m.name as "materialName", m.specification, u.name as "unitName",
             h.sent, h.returned, h.consumed, h.quantity, h.amount, count(*) over () as total
      from (${atSupplierSql(ctx.tenantId, orders)}) h
      join bill o on o.tenant_id = ${ctx.tenantId} and o.id = h.order_id::bigint
      left join partner s on s.tenant_id = o.tenant_id and s.id = o.supplier_id
      join material m on m.tenant_id = o.tenant_id and m.id = h.material_id::bigint
      left join material_unit mu on mu.tenant_id = m.tenant_id and mu.material_id = m.id and mu.is_main
      left join unit u on u.tenant_id = m.tenant_id and u.id = mu.unit_id
      where ${allOf([
        sql`true`,
        q.materialId ? sql`h.material_id::bigint = ${q.materialId}` : undefined,
        q.keyword ? sql`(m.code ilike ${likePattern(q.keyword)} or m.name ilike ${likePattern(q.keyword)})` : undefined,
        q.held === 'true' ? sql`h.quantity::numeric <> 0` : undefined,
      ])}`;
}

const COLUMNS: ExcelColumn[] = [
  { prop: 'supplierName', title: { zh: '供应商', en: 'Supplier' }, width: 20 },
  { prop: 'billCode', title: { zh: '委外订单', en: 'Outsourcing order' }, width: 20 },
  { prop: 'billDate', title: { zh: '单据日期', en: 'Bill date' } },
  { prop: 'materialCode', title: { zh: '物料编码', en: 'Material code' } },
  { prop: 'materialName', title: { zh: '物料名称', en: 'Material' }, width: 24 },
  { prop: 'specification', title: { zh: '规格', en: 'Specification' }, width: 18 },
  { prop: 'unitName', title: { zh: '单位', en: 'Unit' } },
  { prop: 'sent', title: { zh: '已发料', en: 'Sent' } },
  { prop: 'returned', title: { zh: '已退料', en: 'Returned' } },
  { prop: 'consumed', title: { zh: '已耗用', en: 'Consumed' } },
  { prop: 'quantity', title: { zh: '供应商结存', en: 'At supplier' } },
  { prop: 'amount', title: { zh: '结存金额', en: 'Value' } },
];
const FILENAME = { zh: '委外物料结存', en: 'Materials at suppliers' };

export const atSupplierRoutes: RouteDeclaration[] = reportRoutes({
  url: '/api/admin/outsourcing/atSupplier',
  tags: ['outsourcing'],
  summary: 'Materials at suppliers: per outsourcing order and material, sent, returned, consumed, held and its value',
  screen: 'outsourcing_atSupplier',
  query: atSupplierQuerySchema,
  sortable: SORTABLE,
  order: 'o.bill_code desc, m.code',
  select,
  columns: COLUMNS,
  filename: FILENAME,
});
