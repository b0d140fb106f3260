import { and, eq, sql } from 'drizzle-orm';
import { tenantConfigSchema, type TenantConfig, type TenantConfigView, type ModuleEntry } from '@p8/contract/tenant-config';
import type { Tx } from '../../db/connection.ts';
import { admin, adminRole, department, role, tenant } from '../../db/schema/index.ts';
import { syncMenuTemplate } from '../../db/seed/menus.ts';
import { hashPassword } from '../../core/passwords.ts';
import { BizError } from '../../core/errors.ts';

export interface NewTenant {
  tenantName: string;
  adminName: string;
  password: string;
  phone?: string;
  realName?: string;
  config?: Partial<TenantConfig>;
}

/** Account names are unique across tenants: sign-in by name happens before the tenant is known. */
export async function assertAccountFree(tx: Tx, name: string, phone?: string | null) {
  const [byName] = await tx.select({ id: admin.id }).from(admin).where(sql`lower(${admin.name}) = lower(${name})`).limit(1);
  if (byName) throw new BizError('AdminExist', { additional: name });
  if (phone) {
    const [byPhone] = await tx.select({ id: admin.id }).from(admin).where(eq(admin.phone, phone)).limit(1);
    if (byPhone) throw new BizError('PhoneIsRegistered', { additional: phone });
  }
}

/**
 * Creates a tenant with what every tenant starts with: the default department, the default super
 * administrator role, the initial administrator (default, undeletable) and the menu tree.
 * Runs in the caller's system transaction (registration, seeding).
 */
export async function createTenant(tx: Tx, input: NewTenant) {
  await assertAccountFree(tx, input.adminName, input.phone);
  const config = tenantConfigSchema.parse({ title: input.tenantName, ...input.config });
  const [t] = await tx.insert(tenant).values({ name: input.tenantName, config }).returning({ id: tenant.id });
  const tenantId = t.id;
  const [dept] = await tx
    .insert(department)
    .values({ tenantId, name: input.tenantName, isDefault: true })
    .returning({ id: department.id });
  const [superRole] = await tx
    .insert(role)
    .values({ tenantId, roleKey: 'admin', roleName: '超级管理员', isSuper: true, isDefault: true, dataScope: 'All' })
    .returning({ id: role.id });
  const [initial] = await tx
    .insert(admin)
    .values({
      tenantId,
      name: input.adminName,
      passwordHash: await hashPassword(input.password),
      realName: input.realName ?? input.adminName,
      nickName: input.realName ?? input.adminName,
      phone: input.phone ?? null,
      deptId: dept.id,
      isDefault: true,
    })
    .returning({ id: admin.id });
  await tx.insert(adminRole).values({ tenantId, adminId: initial.id, roleId: superRole.id });
  await tx.update(department).set({ leaderId: initial.id }).where(and(eq(department.tenantId, tenantId), eq(department.id, dept.id)));
  await tx.update(tenant).set({ initialAdminId: initial.id }).where(eq(tenant.id, tenantId));
  await syncMenuTemplate(tx, tenantId);
  return { tenantId, adminId: initial.id, deptId: dept.id, roleId: superRole.id };
}

interface StoredModule extends ModuleEntry {}

/** The tenant config as GET /admin/admin/tenant serves it. */
export async function tenantConfigView(tx: Tx, tenantId: number): Promise<TenantConfigView> {
  const [row] = await tx.select().from(tenant).where(eq(tenant.id, tenantId)).limit(1);
  if (!row) throw new BizError('DataNotExist');
  const config = tenantConfigSchema.parse(row.config ?? {});
  const now = Date.now();
  const moduleList = ((row.moduleList as StoredModule[]) ?? []).map((m) => ({
    type: m.type,
    needCheck: m.needCheck ?? false,
    expiresAt: m.expiresAt ?? null,
    isExpired: m.expiresAt ? new Date(m.expiresAt).getTime() < now : false,
  }));
  return {
    ...config,
    id: row.id,
    name: row.name,
    isLogoff: row.isLogoff,
    openVerifyBill: config.openVerifyBill.join(','),
    openVerifyBillList: config.openVerifyBill,
    moduleList,
    moduleListStr: moduleList.filter((m) => !m.isExpired).map((m) => m.type).join(','),
  };
}
