import { and, eq } from 'drizzle-orm';
import { PASSWORD_REGEX, PHONE_REGEX, type Register } from '@p8/contract/auth';
import { moduleClosesAt } from '@p8/contract/platform';
import { TEMPLATE_KEYS, type ModuleEntry, type SystemConfig, type TemplateKey, type TenantConfig, type TenantConfigView } from '@p8/contract/tenant-config';
import type { Config } from '../../config.ts';
import type { Tx } from '../../db/connection.ts';
import { admin, adminRole, department, role, tenant } from '../../db/schema/index.ts';
import { syncMenuTemplate } from '../../db/seed/menus.ts';
import { assertAccountFree } from '../../core/accounts.ts';
import { revokeAllSessions } from '../../core/auth.ts';
import { withSmsCode } from '../../core/captcha.ts';
import { BizError, forbidden } from '../../core/errors.ts';
import { hashPassword, verifyPassword } from '../../core/passwords.ts';
import type { ModuleDeps, RequestCaller } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { parseTenantConfig } from '../../core/tenant-config.ts';
import type { PlatformConfig } from '@p8/contract/base';
import { platformDefaults, readPlatformConfig } from '../../core/platform-config.ts';
import { clearTenantData } from './data-categories.ts';

export interface NewTenant {
  tenantName: string;
  adminName: string;
  password: string;
  phone?: string;
  realName?: string;
  config?: Partial<TenantConfig>;
}

/**
 * Creates a tenant with what every tenant starts with: the default department, the default super
 * administrator role, the initial administrator (default, undeletable) and the menu tree.
 * Runs in the caller's system transaction (registration, seeding).
 */
export async function createTenant(tx: Tx, input: NewTenant) {
  await assertAccountFree(tx, { name: input.adminName, phone: input.phone });
  const config = parseTenantConfig({ title: input.tenantName, ...input.config });
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
  const config = parseTenantConfig(row.config);
  const now = Date.now();
  const moduleList = ((row.moduleList as StoredModule[]) ?? []).map((m) => ({
    type: m.type,
    needCheck: m.needCheck ?? false,
    expiresAt: m.expiresAt ?? null,
    isExpired: (moduleClosesAt(m.expiresAt) ?? Infinity) <= now,
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

/**
 * Self-registration of a tenant from the login page, when the public config's open-register switch allows
 * it (SMS code checked first).
 */
export async function registerTenant({ config, database, shared }: ModuleDeps, body: Register) {
  if (!(await readPlatformConfig(database, config)).openRegister) throw new BizError('RegisterClosed');
  const created = await withSmsCode(shared, config, { phone: body.phone, purpose: 'register', code: body.code }, () =>
    database.withSystem((tx) => createTenant(tx, { tenantName: body.tenantName, adminName: body.name, password: body.password, phone: body.phone, realName: body.realName })),
  );
  return { tenantId: created.tenantId, name: body.name };
}

/** The two destructive operations belong to the tenant's initial administrator alone. */
async function assertInitialAdmin({ tx, tenantId, account }: ServiceContext) {
  const [row] = await tx.select({ initialAdminId: tenant.initialAdminId }).from(tenant).where(eq(tenant.id, tenantId));
  if (!row || row.initialAdminId !== account.adminId) throw forbidden('OnlyInitialAdminCanOperate');
}

/** Empties the tenant's business or basic data; answers how many rows went. */
export async function clearData(ctx: ServiceContext, type: 'business' | 'basic'): Promise<{ cleared: number }> {
  await assertInitialAdmin(ctx);
  const cleared = await clearTenantData(ctx.tx, ctx.tenantId, type);
  ctx.audit({ action: 'clear', entity: 'tenant', entityId: ctx.tenantId, detail: { type, cleared } });
  ctx.log.info({ tenantId: ctx.tenantId, type, cleared }, 'tenant data cleared');
  return { cleared };
}

/** Logs the tenant off (the initial administrator's password confirms it) and ends every session of it. */
export async function logOffTenant(caller: RequestCaller, password: string) {
  await caller.transaction(async (ctx) => {
    await assertInitialAdmin(ctx);
    const [me] = await ctx.tx
      .select({ passwordHash: admin.passwordHash })
      .from(admin)
      .where(and(eq(admin.tenantId, ctx.tenantId), eq(admin.id, ctx.account.adminId)));
    if (!me || !(await verifyPassword(me.passwordHash, password))) throw new BizError('PasswordError');
    await ctx.tx.update(tenant).set({ isLogoff: true, enabled: false, updatedAt: new Date() }).where(eq(tenant.id, ctx.tenantId));
    ctx.audit({ action: 'logoff', entity: 'tenant', entityId: ctx.tenantId });
  });
  // Sessions live outside the tenant (owner connection).
  await caller.database.withSystem((tx) => revokeAllSessions(tx, caller.access, caller.tenantId));
}

/**
 * Public configuration of the installation (no sign-in needed: title, logo, formats, upload type): the
 * platform administrator's values (base → config, `platform_config`) over the installation's defaults.
 */
export function systemConfig(config: Config, platform: PlatformConfig = platformDefaults(config)): SystemConfig {
  return {
    system_title: platform.system_title,
    system_icon: platform.system_icon,
    system_upload_type: config.upload.type,
    icon: platform.system_icon,
    icp: platform.icp,
    logo: platform.logo,
    name: platform.system_title,
    shortName: platform.shortName,
    title: platform.system_title,
    passwordRegex: PASSWORD_REGEX,
    passwordRegexTip: { zh: '6-20位，须同时包含字母和数字', en: '6-20 characters with both letters and digits' },
    phoneRegex: PHONE_REGEX,
    uploadDomain: config.upload.domain,
    openRegister: platform.openRegister,
    openAppointment: platform.openAppointment,
    customerServiceQrCode: platform.customerServiceQrCode,
    translateUrl: platform.translateUrl,
    templates: Object.fromEntries(TEMPLATE_KEYS.map((k) => [k, `/api/base/template/${k}.xlsx`])) as Record<TemplateKey, string>,
  };
}
