import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { OPEN_SERVICE_STATUSES, type ServiceStaffCreate, type ServiceStaffRow, type ServiceStaffUpdate } from '@p8/contract/service';
import { admin, department, serviceStaff } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import { assertIdsExist, distinct } from '../../core/ids.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { textList } from '../../core/tree.ts';

/*
 * Service staff (service → service staff): the staff accounts service orders are dispatched to, with the
 * skills and areas they serve and, read from the orders, their current load (orders on their hands) and what
 * they completed. Once a tenant has any, dispatching offers and accepts only its enabled service staff.
 */

const load = sql<number>`(select count(*)::int from service_order o where o.tenant_id = ${serviceStaff.tenantId} and o.staff_id = ${serviceStaff.adminId}
  and o.status in (${textList(OPEN_SERVICE_STATUSES)}))`;
const completed = sql<number>`(select count(*)::int from service_order o where o.tenant_id = ${serviceStaff.tenantId} and o.staff_id = ${serviceStaff.adminId} and o.status = 'Completed')`;

const listSpec: ListSpec = {
  fields: {
    name: { column: sql`coalesce(nullif(${admin.realName}, ''), ${admin.name})`, filter: 'like' },
    phone: { column: admin.phone, filter: 'like' },
    skill: { column: sql`array_to_string(${serviceStaff.skills}, ' ')`, filter: 'like' },
    area: { column: sql`array_to_string(${serviceStaff.areas}, ' ')`, filter: 'like' },
    enabled: { column: serviceStaff.enabled, filter: 'bool' },
    load: { column: load, sortable: true },
    createdAt: { column: serviceStaff.createdAt, sortable: true },
  },
  dateColumn: serviceStaff.createdAt,
  defaultOrder: [desc(serviceStaff.id)],
};

function selectRows(ctx: ServiceContext) {
  return ctx.tx
    .select({
      row: serviceStaff,
      name: sql<string>`coalesce(nullif(${admin.realName}, ''), ${admin.name})`,
      account: admin.name,
      phone: admin.phone,
      deptName: department.name,
      load,
      completed,
    })
    .from(serviceStaff)
    .innerJoin(admin, and(eq(admin.tenantId, serviceStaff.tenantId), eq(admin.id, serviceStaff.adminId)))
    .leftJoin(department, and(eq(department.tenantId, admin.tenantId), eq(department.id, admin.deptId)));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectRows>['execute']>>[number];

const toRow = ({ row, name, account, phone, deptName, load: open, completed: done }: Selected): ServiceStaffRow => ({
  id: row.id,
  adminId: row.adminId,
  name,
  account,
  phone: phone ?? '',
  deptName,
  skills: row.skills,
  areas: row.areas,
  enabled: row.enabled,
  remark: row.remark,
  load: Number(open),
  completed: Number(done),
  createdAt: row.createdAt.toISOString(),
});

export async function listServiceStaff(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(listSpec, query, [eq(serviceStaff.tenantId, ctx.tenantId)]);
  const page = await runPage(
    parsed,
    selectRows(ctx).$dynamic(),
    ctx.tx.select(countAll()).from(serviceStaff).innerJoin(admin, and(eq(admin.tenantId, serviceStaff.tenantId), eq(admin.id, serviceStaff.adminId))).$dynamic(),
  );
  return { data: (page.data as Selected[]).map(toRow), pagination: page.pagination };
}

export async function getServiceStaff(ctx: ServiceContext, id: number): Promise<ServiceStaffRow> {
  const [found] = await selectRows(ctx).where(and(eq(serviceStaff.tenantId, ctx.tenantId), eq(serviceStaff.id, id)));
  if (!found) throw new BizError('ServiceStaffNotExist', { additional: id });
  return toRow(found);
}

/** The account must be an enabled staff member of the tenant, and not yet service staff. */
async function assertAccount(ctx: ServiceContext, adminId: number, exceptId?: number) {
  const [account] = await ctx.tx.select({ id: admin.id }).from(admin).where(and(eq(admin.tenantId, ctx.tenantId), eq(admin.id, adminId), eq(admin.enabled, true)));
  if (!account) throw new BizError('StaffNotAvailable', { additional: adminId });
  const [taken] = await ctx.tx
    .select({ id: serviceStaff.id })
    .from(serviceStaff)
    .where(and(eq(serviceStaff.tenantId, ctx.tenantId), eq(serviceStaff.adminId, adminId), exceptId === undefined ? undefined : ne(serviceStaff.id, exceptId)));
  if (taken) throw new BizError('ServiceStaffRepeat', { additional: adminId });
}

const tags = (values: readonly string[]) => distinct(values.map((v) => v.trim()).filter(Boolean));

export async function createServiceStaff(ctx: ServiceContext, body: ServiceStaffCreate): Promise<{ id: number }> {
  await assertAccount(ctx, body.adminId);
  const [created] = await ctx.tx
    .insert(serviceStaff)
    .values({ tenantId: ctx.tenantId, adminId: body.adminId, skills: tags(body.skills), areas: tags(body.areas), enabled: body.enabled, remark: body.remark ?? null })
    .returning({ id: serviceStaff.id });
  return created;
}

export async function updateServiceStaff(ctx: ServiceContext, body: ServiceStaffUpdate): Promise<{ id: number }> {
  await getServiceStaff(ctx, body.id);
  await assertAccount(ctx, body.adminId, body.id);
  const values = { adminId: body.adminId, skills: tags(body.skills), areas: tags(body.areas), enabled: body.enabled, remark: body.remark ?? null };
  await ctx.tx
    .update(serviceStaff)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(serviceStaff.tenantId, ctx.tenantId), eq(serviceStaff.id, body.id)));
  return { id: body.id };
}

/** Removing someone from service staff leaves their orders as they are (they stay the assignee). */
export async function deleteServiceStaff(ctx: ServiceContext, ids: number[]) {
  await assertIdsExist(ctx.tx, serviceStaff, ctx.tenantId, ids, 'ServiceStaffNotExist');
  await ctx.tx.delete(serviceStaff).where(and(eq(serviceStaff.tenantId, ctx.tenantId), inArray(serviceStaff.id, distinct(ids))));
}

export async function enableServiceStaff(ctx: ServiceContext, ids: number[], enabled: boolean) {
  await assertIdsExist(ctx.tx, serviceStaff, ctx.tenantId, ids, 'ServiceStaffNotExist');
  await ctx.tx
    .update(serviceStaff)
    .set({ enabled, updatedAt: new Date() })
    .where(and(eq(serviceStaff.tenantId, ctx.tenantId), inArray(serviceStaff.id, distinct(ids))));
}
