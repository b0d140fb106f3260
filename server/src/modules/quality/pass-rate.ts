import { sql, type SQL } from 'drizzle-orm';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import type { PassRateQuery, PassRateRow } from '@p8/contract/quality';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows } from '../../db/connection.ts';
import { textList } from '../../core/tree.ts';

/*
 * The pass-rate report: audited inspection lines of a period grouped by supplier, material or process, with what
 * they inspected, accepted, took on concession and rejected (scaled to the main unit as the line's quantity is)
 * and the pass rate (accepted + concession over inspected). One grouped query, paged, busiest groups first.
 */

/** An inspection line's quantity field (`l.extra`) in the main unit: the field × main-unit quantity ÷ quantity. */
export const inMainUnit = (field: string) => sql`coalesce((l.extra ->> ${field})::numeric, 0) * l.base_number / nullif(l.number, 0)`;

const INSPECTION_TYPES = BILL_TYPES.filter((d) => d.inspection).map((d) => d.type);
const PROCESS_TYPES = BILL_TYPES.filter((d) => d.inspection === 'Process' || d.inspection === 'FirstArticle' || d.inspection === 'Patrol').map((d) => d.type);

/** Each grouping: the group's id and name, and which inspections it reads. */
const GROUPS: Record<PassRateQuery['by'], { id: SQL; name: SQL; types: readonly string[] }> = {
  supplier: { id: sql`b.supplier_id`, name: sql`(select p.name from partner p where p.tenant_id = b.tenant_id and p.id = b.supplier_id)`, types: BILL_TYPES.filter((d) => d.inspection === 'Incoming').map((d) => d.type) },
  material: { id: sql`l.material_id`, name: sql`(select m.name from material m where m.tenant_id = l.tenant_id and m.id = l.material_id)`, types: INSPECTION_TYPES },
  process: { id: sql`(l.extra ->> 'processId')::bigint`, name: sql`(select p.name from process p where p.tenant_id = l.tenant_id and p.id = (l.extra ->> 'processId')::bigint)`, types: PROCESS_TYPES },
};

export async function passRate(ctx: ServiceContext, query: PassRateQuery): Promise<{ data: PassRateRow[]; pagination: { current: number; pageSize: number; total: number } }> {
  const group = GROUPS[query.by];
  const to = query.to ?? new Date().toISOString().slice(0, 10);
  const from = query.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  const found = await rows<{ id: string; name: string | null; lines: string; inspected: string; accepted: string; concession: string; rejected: string; total: string }>(
    ctx.tx,
    sql`with grouped as (
          select ${group.id} as id, min(${group.name}) as name, count(*) as lines, sum(l.base_number) as inspected,
                 sum(${inMainUnit('acceptedNumber')}) as accepted, sum(${inMainUnit('concessionNumber')}) as concession, sum(${inMainUnit('rejectedNumber')}) as rejected
          from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
          where l.tenant_id = ${ctx.tenantId} and b.bill_type in (${textList(group.types)}) and b.bill_status in (${textList(POSTED_STATUSES)})
            and b.bill_date between ${from} and ${to} and ${group.id} is not null
          group by 1
        )
        select id::text, name, lines::text, round(inspected, 6)::text as inspected, round(accepted, 6)::text as accepted, round(concession, 6)::text as concession,
               round(rejected, 6)::text as rejected, count(*) over ()::text as total
        from grouped order by inspected desc, id
        limit ${query.pageSize} offset ${(query.current - 1) * query.pageSize}`,
  );
  const rate = (r: (typeof found)[number]) => {
    const inspected = Number(r.inspected);
    return inspected > 0 ? (((Number(r.accepted) + Number(r.concession)) / inspected) * 100).toFixed(2) : '0.00';
  };
  return {
    data: found.map((r) => ({ id: Number(r.id), name: r.name ?? '', lines: Number(r.lines), inspected: r.inspected, accepted: r.accepted, concession: r.concession, rejected: r.rejected, passRate: rate(r) })),
    pagination: { current: query.current, pageSize: query.pageSize, total: Number(found[0]?.total ?? 0) },
  };
}
