import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { EntrustReceipt, EntrustReturn, ProductionPick, ProductionReturn } from '@p8/contract/bills/production';
import type { ExcelColumn } from '../../core/excel.ts';
import { allOf, likePattern, reportDay, reportId, reportPage, reportRoutes, reportSorts, reportText } from '../../core/report-routes.ts';
import type { RouteDeclaration } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';

/*
 * The statement of a customer's own materials (受托加工材料对账, GET /api/admin/production/entrustStatement): per
 * customer and material, for a period, what its consignment warehouses held at the start, what came in on
 * entrusted-material receipts, what production orders consumed (picks less production returns — the orders
 * named), what went back to the customer on entrusted-material returns, any other movement (a stock count's
 * difference) and what is held at the end. Read from the stock ledger of the warehouses that name a customer
 * (audited bills only, a withdrawn audit's reversal counted), so opening + received − consumed − returned + other =
 * closing always, and closing is what current stock shows there. Quantities in the material's main unit; the
 * materials carry no value (they are the customer's). Filtered by customer, material, keyword; sorted by
 * `<column>Sort`; exported as .xlsx (`production_entrustStatement_export`).
 */

const SORTABLE = { customerName: '"customerName"', materialCode: '"materialCode"', consumed: 'consumed::numeric', closing: 'closing::numeric' } as const;

export const entrustStatementQuerySchema = z.object({
  ...reportPage,
  customerId: reportId,
  materialId: reportId,
  /** Material code or name (contains). */
  keyword: reportText(100),
  /** The period: from the first day (inclusive; none: from the beginning) to the last (inclusive; none: today on). */
  startDate: reportDay,
  endDate: reportDay,
  ...reportSorts(Object.keys(SORTABLE) as Array<keyof typeof SORTABLE>),
});
type Query = z.infer<typeof entrustStatementQuerySchema>;

const types = (...list: string[]) => sql.join(list.map((t) => sql`${t}`), sql`, `);

function select(ctx: ServiceContext, q: Omit<Query, 'current' | 'pageSize'>): SQL {
  const start = q.startDate?.slice(0, 10);
  const end = q.endDate?.slice(0, 10);
  const inPeriod = allOf([sql`true`, start ? sql`e.bill_date >= ${start}` : undefined, end ? sql`e.bill_date <= ${end}` : undefined]);
  const before = start ? sql`e.bill_date < ${start}` : sql`false`;
  const consuming = types(ProductionPick.type, ProductionReturn.type);
  const own = types(EntrustReceipt.type, EntrustReturn.type, ProductionPick.type, ProductionReturn.type);
  // A production return reaches its order through the pick line it returns.
  return sql`select s.*, c.name as "customerName", m.code as "materialCode", m.name as "materialName", m.specification, u.name as "unitName",
             count(*) over () as total
      from (
        select w.customer_id as "customerId", e.material_id as "materialId",
               coalesce(sum(e.quantity) filter (where ${before}), 0)::text as opening,
               coalesce(sum(e.quantity) filter (where ${inPeriod} and e.bill_type = ${EntrustReceipt.type}), 0)::text as received,
               coalesce(-sum(e.quantity) filter (where ${inPeriod} and e.bill_type in (${consuming})), 0)::text as consumed,
               coalesce(-sum(e.quantity) filter (where ${inPeriod} and e.bill_type = ${EntrustReturn.type}), 0)::text as returned,
               coalesce(sum(e.quantity) filter (where ${inPeriod} and e.bill_type not in (${own})), 0)::text as other,
               coalesce(sum(e.quantity) filter (where ${end ? sql`e.bill_date <= ${end}` : sql`true`}), 0)::text as closing,
               string_agg(distinct o.bill_code, ', ' order by o.bill_code) filter (where ${inPeriod} and e.bill_type in (${consuming})) as orders
        from stock_ledger e
        join warehouse w on w.tenant_id = e.tenant_id and w.id = e.warehouse_id and w.customer_id is not null
        left join bill_line d on d.tenant_id = e.tenant_id and d.id = e.bill_line_id and e.bill_type in (${consuming})
        left join bill_line p on p.tenant_id = d.tenant_id and p.id = d.source_line_id and e.bill_type = ${ProductionReturn.type}
        left join bill o on o.tenant_id = e.tenant_id and o.id = case when e.bill_type = ${ProductionReturn.type} then p.source_bill_id else d.source_bill_id end
        where ${allOf([
          sql`e.tenant_id = ${ctx.tenantId}`,
          end ? sql`e.bill_date <= ${end}` : undefined,
          q.customerId ? sql`w.customer_id = ${q.customerId}` : undefined,
          q.materialId ? sql`e.material_id = ${q.materialId}` : undefined,
        ])}
        group by 1, 2
      ) s
      join partner c on c.tenant_id = ${ctx.tenantId} and c.id = s."customerId"
      join material m on m.tenant_id = ${ctx.tenantId} and m.id = s."materialId"
      left join material_unit mu on mu.tenant_id = m.tenant_id and mu.material_id = m.id and mu.is_main
      left join unit u on u.tenant_id = m.tenant_id and u.id = mu.unit_id
      where ${allOf([q.keyword ? sql`(m.code ilike ${likePattern(q.keyword)} or m.name ilike ${likePattern(q.keyword)})` : undefined])}`;
}

const COLUMNS: ExcelColumn[] = [
  { prop: 'customerName', title: { zh: '客户', en: 'Customer' }, width: 20 },
  { prop: 'materialCode', title: { zh: '物料编码', en: 'Material code' } },
  { prop: 'materialName', title: { zh: '物料名称', en: 'Material' }, width: 24 },
  { prop: 'specification', title: { zh: '规格', en: 'Specification' }, width: 18 },
  { prop: 'unitName', title: { zh: '单位', en: 'Unit' } },
  { prop: 'opening', title: { zh: '期初结存', en: 'Opening' } },
  { prop: 'received', title: { zh: '本期收料', en: 'Received' } },
  { prop: 'consumed', title: { zh: '生产耗用', en: 'Consumed' } },
  { prop: 'returned', title: { zh: '退回客户', en: 'Returned' } },
  { prop: 'other', title: { zh: '其他', en: 'Other' } },
  { prop: 'closing', title: { zh: '期末结存', en: 'Closing' } },
  { prop: 'orders', title: { zh: '耗用订单', en: 'Consumed by' }, width: 30 },
];
export const entrustStatementRoutes: RouteDeclaration[] = reportRoutes({
  url: '/api/admin/production/entrustStatement',
  tags: ['production'],
  summary: "A customer's own materials per material and period: opening, received, consumed by production orders (named), returned, other, closing",
  screen: 'production_entrustStatement',
  query: entrustStatementQuerySchema,
  sortable: SORTABLE,
  order: '"customerName", "materialCode"',
  period: ['startDate', 'endDate'],
  select,
  columns: COLUMNS,
  filename: { zh: '受托加工材料对账', en: 'Entrusted materials statement' },
});
