import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { storableText } from '@p8/contract/text';
import { exportXlsx, langOf, sendXlsx, type ExcelColumn } from '../../core/excel.ts';
import { route, untransactedRoute, type RouteDeclaration } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows } from '../../db/connection.ts';
import { billScope } from '../../bills/list.ts';
import { withNumberIds } from '../../bills/stock-routes.ts';
import { atSupplierSql } from './rules.ts';

/*
 * Materials at suppliers (委外物料结存, GET /api/admin/outsourcing/atSupplier): per outsourcing order and material,
 * what picks sent, returns brought back and receipts consumed, what the supplier holds and its value — the
 * orders within the caller's data scope, filtered by supplier, order, material; sorted by `<column>Sort`;
 * exported as .xlsx (`outsourcing_atSupplier_export`).
 */

const id = z.coerce.number().int().positive().optional();
const text = (max: number) => storableText().trim().max(max).optional();
const direction = z.enum(['asc', 'desc']).optional();
const SORTABLE = { billCode: 'o.bill_code', supplierName: 's.name', materialCode: 'm.code', quantity: 'h.quantity::numeric', amount: 'h.amount::numeric' } as const;

export const atSupplierQuerySchema = z.object({
  current: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
  supplierId: id,
  orderId: id,
  materialId: id,
  /** The order's code (contains). */
  billCode: text(50),
  /** Material code or name (contains). */
  keyword: text(100),
  /** Only what a supplier still holds (not zero). */
  held: z.enum(['true', 'false']).optional(),
  ...(Object.fromEntries(Object.keys(SORTABLE).map((k) => [`${k}Sort`, direction])) as Record<`${keyof typeof SORTABLE}Sort`, typeof direction>),
});
type Query = z.infer<typeof atSupplierQuerySchema>;

const like = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const all = (parts: Array<SQL | undefined>) => sql.join(parts.filter((p): p is SQL => p !== undefined), sql` and `);

async function select(ctx: ServiceContext, q: Omit<Query, 'current' | 'pageSize'>): Promise<SQL> {
  const scope = await billScope(ctx, 'o');
  const orders = all([
    sql`o.bill_status not in ('Merged')`,
    scope,
    q.supplierId ? sql`o.supplier_id = ${q.supplierId}` : undefined,
    q.orderId ? sql`o.id = ${q.orderId}` : undefined,
    q.billCode ? sql`o.bill_code ilike ${like(q.billCode)}` : undefined,
  ]);
  const order = [
    ...Object.entries(SORTABLE).flatMap(([key, column]) => {
      const dir = q[`${key as keyof typeof SORTABLE}Sort`];
      return dir ? [`${column} ${dir}`] : [];
    }),
    'o.bill_code desc',
    'm.code',
  ].join(', ');
  return sql`select h.order_id as "orderId", o.bill_code as "billCode", o.bill_date::text as "billDate", o.supplier_id as "supplierId", s.name as "supplierName",
             h.material_id as "materialId", m.code as "materialCode", m.name as "materialName", m.specification, u.name as "unitName",
             h.sent, h.returned, h.consumed, h.quantity, h.amount, count(*) over () as total
      from (${atSupplierSql(ctx.tenantId, orders)}) h
      join bill o on o.tenant_id = ${ctx.tenantId} and o.id = h.order_id::bigint
      left join partner s on s.tenant_id = o.tenant_id and s.id = o.supplier_id
      join material m on m.tenant_id = o.tenant_id and m.id = h.material_id::bigint
      left join material_unit mu on mu.tenant_id = m.tenant_id and mu.material_id = m.id and mu.is_main
      left join unit u on u.tenant_id = m.tenant_id and u.id = mu.unit_id
      where ${all([
        sql`true`,
        q.materialId ? sql`h.material_id::bigint = ${q.materialId}` : undefined,
        q.keyword ? sql`(m.code ilike ${like(q.keyword)} or m.name ilike ${like(q.keyword)})` : undefined,
        q.held === 'true' ? sql`h.quantity::numeric <> 0` : undefined,
      ])}
      order by ${sql.raw(order)}`;
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
const EXPORT_LIMIT = 50_000;

async function paged(ctx: ServiceContext, q: Query) {
  const { current, pageSize, ...filters } = q;
  const found = await rows<{ total?: unknown }>(ctx.tx, sql`${await select(ctx, filters)} limit ${pageSize} offset ${(current - 1) * pageSize}`);
  return { data: found.map(({ total: _total, ...row }) => withNumberIds(row)), pagination: { current, pageSize, total: Number(found[0]?.total ?? 0) } };
}

const URL = '/api/admin/outsourcing/atSupplier';
const tags = ['outsourcing'];
const exportQuery = atSupplierQuerySchema.omit({ current: true, pageSize: true }).extend({ lang: text(10) });

export const atSupplierRoutes: RouteDeclaration[] = [
  route({ method: 'GET', url: URL, tags, summary: 'Materials at suppliers: per outsourcing order and material, sent, returned, consumed, held and its value', permission: 'outsourcing_atSupplier', query: atSupplierQuerySchema, page: true, handler: (ctx, { query }) => paged(ctx, query) }),
  untransactedRoute({
    method: 'POST', url: `${URL}/export`, tags, summary: 'Materials at suppliers, as .xlsx', permission: 'outsourcing_atSupplier_export', query: exportQuery, body: exportQuery.optional(),
    async handler(caller, { query, body }, { request, reply }) {
      const lang = langOf(request);
      const found = await caller.transaction(async (ctx) => (await rows<Record<string, unknown>>(ctx.tx, sql`${await select(ctx, { ...query, ...(body ?? {}) })} limit ${EXPORT_LIMIT}`)).map((r) => withNumberIds(r)));
      return sendXlsx(reply, await exportXlsx(COLUMNS, found, lang), FILENAME[lang]);
    },
  }),
];
