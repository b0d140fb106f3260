import { sql } from 'drizzle-orm';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import { DISPOSED_KINDS, type InspectionKind, type OpenRejectRow, type OpenRejectsQuery } from '@p8/contract/quality';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows } from '../../db/connection.ts';
import { textList } from '../../core/tree.ts';
import { inMainUnit } from './pass-rate.ts';

/*
 * The open rejects: per inspected source line, what audited inspections rejected, less what the bills waiting for
 * those inspections (their source declares `inspectedBy`) took into reject warehouses, while the source line is
 * still open — a completed or closed line's rejects stayed with the supplier or were written off by hand. Two
 * grouped subqueries and one page, the oldest first.
 */

const kindOf = (kinds: readonly InspectionKind[]) => BILL_TYPES.filter((d) => d.inspection && kinds.includes(d.inspection)).map((d) => d.type);
/** The bills that wait for any inspection: where the rejects they take into reject warehouses count as dealt with. */
const WAITING_TYPES = BILL_TYPES.filter((d) => d.sources.some((s) => s.inspectedBy)).map((d) => d.type);

export async function openRejects(ctx: ServiceContext, query: OpenRejectsQuery): Promise<{ data: OpenRejectRow[]; pagination: { current: number; pageSize: number; total: number } }> {
  const types = kindOf(query.inspectionKind ? [query.inspectionKind] : DISPOSED_KINDS);
  const posted = textList(POSTED_STATUSES);
  const found = await rows<{
    id: string; inspection_type: string; inspections: string; last_date: string; source_bill_id: string; source_bill_type: string; source_bill_code: string;
    partner_name: string | null; material_id: string; material_code: string; material_name: string; rejected: string; into_rejects: string; open: string; total: string;
  }>(
    ctx.tx,
    sql`with rejected as (
          select l.source_line_id, min(b.bill_type) as inspection_type,
                 string_agg(distinct b.bill_code, ', ') filter (where (l.extra ->> 'rejectedNumber')::numeric > 0) as inspections,
                 max(b.bill_date) filter (where (l.extra ->> 'rejectedNumber')::numeric > 0) as last_date,
                 sum(${inMainUnit('rejectedNumber')}) as rejected
          from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
          where l.tenant_id = ${ctx.tenantId} and b.bill_type in (${textList(types)}) and b.bill_status in (${posted}) and l.source_line_id is not null
            ${query.materialId ? sql`and l.material_id = ${query.materialId}` : sql``}
          group by l.source_line_id
          having sum(coalesce((l.extra ->> 'rejectedNumber')::numeric, 0)) > 0
        ), taken as (
          select l.source_line_id, sum(l.base_number) as into_rejects
          from bill_line l
          join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
          join warehouse w on w.tenant_id = l.tenant_id and w.id = l.warehouse_id and w.rejects
          where l.tenant_id = ${ctx.tenantId} and l.source_line_id in (select source_line_id from rejected)
            and b.bill_type in (${textList(WAITING_TYPES)}) and b.bill_status in (${posted})
          group by l.source_line_id
        )
        select r.source_line_id::text as id, r.inspection_type, r.inspections, r.last_date::text, sb.id::text as source_bill_id, sb.bill_type as source_bill_type,
               sb.bill_code as source_bill_code, (select p.name from partner p where p.tenant_id = sb.tenant_id and p.id = coalesce(sb.supplier_id, sb.customer_id)) as partner_name,
               m.id::text as material_id, m.code as material_code, m.name as material_name, round(r.rejected, 6)::text as rejected,
               round(coalesce(t.into_rejects, 0), 6)::text as into_rejects, round(r.rejected - coalesce(t.into_rejects, 0), 6)::text as open, count(*) over ()::text as total
        from rejected r
        join bill_line sl on sl.tenant_id = ${ctx.tenantId} and sl.id = r.source_line_id
        join bill sb on sb.tenant_id = sl.tenant_id and sb.id = sl.bill_id
        join material m on m.tenant_id = sl.tenant_id and m.id = sl.material_id
        left join taken t on t.source_line_id = r.source_line_id
        where not sl.closed and sb.bill_status not in ('Complete', 'ManualCompletion') and r.rejected > coalesce(t.into_rejects, 0)
        order by r.last_date, r.source_line_id
        limit ${query.pageSize} offset ${(query.current - 1) * query.pageSize}`,
  );
  const kinds = new Map(BILL_TYPES.filter((d) => d.inspection).map((d) => [d.type, d.inspection!]));
  return {
    data: found.map((r) => ({
      id: Number(r.id),
      inspectionKind: kinds.get(r.inspection_type)!,
      inspections: r.inspections,
      lastDate: r.last_date,
      sourceBillId: Number(r.source_bill_id),
      sourceBillType: r.source_bill_type,
      sourceBillCode: r.source_bill_code,
      partnerName: r.partner_name,
      materialId: Number(r.material_id),
      materialCode: r.material_code,
      materialName: r.material_name,
      rejected: r.rejected,
      intoRejects: r.into_rejects,
      open: r.open,
    })),
    pagination: { current: query.current, pageSize: query.pageSize, total: Number(found[0]?.total ?? 0) },
  };
}
