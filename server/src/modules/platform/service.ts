import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { moduleClosesAt, type PlatformTenant, type PlatformTenantQuery, type TenantModules } from '@p8/contract/platform';
import type { ModuleEntry } from '@p8/contract/tenant-config';
import { afterCommit } from '../../db/connection.ts';
import { admin, tenant } from '../../db/schema/index.ts';
import { writeAudit } from '../../core/audit.ts';
import { revokeAllSessions } from '../../core/auth.ts';
import { iso } from '../../core/envelope.ts';
import { BizError, forbidden } from '../../core/errors.ts';
import { assertAllFound, distinct } from '../../core/ids.ts';
import { isPlatformAdmin } from '../../core/platform-config.ts';
import type { RequestCaller } from '../../core/route.ts';

/*
 * The platform administrator's view of every tenant. Tenants are outside any one tenant, so everything
 * here runs on the owner connection (`withSystem`), after checking the caller is the platform
 * administrator (a super administrator of the platform tenant); the audit entries go to that
 * administrator's own tenant log, in the same transaction as the change.
 */

async function assertPlatformAdmin(caller: RequestCaller) {
  if (!(await isPlatformAdmin(caller))) throw forbidden('OnlyPlatformAdmin');
}

function modulesOf(stored: unknown, now: number): PlatformTenant['modules'] {
  return ((stored as ModuleEntry[] | null) ?? []).map((m) => ({
    type: m.type,
    needCheck: m.needCheck ?? false,
    expiresAt: m.expiresAt ?? null,
    isExpired: (moduleClosesAt(m.expiresAt) ?? Infinity) <= now,
  }));
}

/** Tenants, newest first, with their initial administrator, how many accounts they hold and their modules. */
export async function listTenants(caller: RequestCaller, query: PlatformTenantQuery) {
  await assertPlatformAdmin(caller);
  const where: Array<SQL | undefined> = [];
  const keyword = query.name?.trim();
  if (keyword) {
    const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(or(ilike(tenant.name, pattern), ilike(admin.name, pattern), ilike(admin.phone, pattern)));
  }
  if (query.enabled) where.push(eq(tenant.enabled, query.enabled === 'true'));
  return caller.database.withSystem(async (tx) => {
    const initial = and(eq(admin.tenantId, tenant.id), eq(admin.id, tenant.initialAdminId));
    const [{ total }] = await tx
      .select({ total: count() })
      .from(tenant)
      .leftJoin(admin, initial)
      .where(and(...where));
    const found = await tx
      .select({
        id: tenant.id,
        name: tenant.name,
        enabled: tenant.enabled,
        isLogoff: tenant.isLogoff,
        moduleList: tenant.moduleList,
        createdAt: tenant.createdAt,
        adminId: admin.id,
        adminName: admin.name,
        adminRealName: admin.realName,
        adminPhone: admin.phone,
      })
      .from(tenant)
      .leftJoin(admin, initial)
      .where(and(...where))
      .orderBy(desc(tenant.id))
      .limit(query.pageSize)
      .offset((query.current - 1) * query.pageSize);
    const users = found.length
      ? await tx
          .select({ tenantId: admin.tenantId, n: count() })
          .from(admin)
          .where(inArray(admin.tenantId, found.map((t) => t.id)))
          .groupBy(admin.tenantId)
      : [];
    const now = Date.now();
    const data: PlatformTenant[] = found.map((t) => ({
      id: t.id,
      name: t.name,
      enabled: t.enabled,
      isLogoff: t.isLogoff,
      isPlatform: t.id === caller.config.platform.tenantId,
      admin: t.adminId == null ? null : { id: t.adminId, name: t.adminName ?? '', realName: t.adminRealName ?? '', phone: t.adminPhone ?? '' },
      users: Number(users.find((u) => u.tenantId === t.id)?.n ?? 0),
      modules: modulesOf(t.moduleList, now),
      createdAt: iso(t.createdAt)!,
    }));
    return { data, pagination: { current: query.current, pageSize: query.pageSize, total: Number(total) } };
  });
}

/**
 * Enables or disables tenants. Disabling ends every session of the tenant at once — on every server
 * process, through the access cache's tenant version — and its accounts cannot sign in
 * (`TenantIsDisabled`) until it is enabled again. The platform tenant itself is never disabled.
 */
export async function setTenantsEnabled(caller: RequestCaller, requested: number[], enabled: boolean) {
  await assertPlatformAdmin(caller);
  const ids = distinct(requested);
  if (!enabled && ids.includes(caller.config.platform.tenantId)) throw new BizError('PlatformTenantProhibitDisable');
  await caller.database.withSystem(async (tx) => {
    const found = await tx.select({ id: tenant.id, name: tenant.name, enabled: tenant.enabled }).from(tenant).where(inArray(tenant.id, ids));
    assertAllFound(ids, found, 'TenantNotExist');
    const moving = found.filter((t) => t.enabled !== enabled);
    if (!moving.length) return;
    await tx
      .update(tenant)
      .set({ enabled, updatedAt: new Date() })
      .where(inArray(tenant.id, moving.map((t) => t.id)));
    for (const t of moving) {
      if (!enabled) await revokeAllSessions(tx, caller.access, t.id);
      else afterCommit(tx, () => caller.access.changed([{ tenantId: t.id }]));
    }
    await writeAudit(tx, caller.account, caller.ip, [
      { action: enabled ? 'enable' : 'disable', entity: 'tenant', entityId: moving.map((t) => t.id), detail: { names: moving.map((t) => t.name) } },
    ]);
  });
}

/**
 * Sets a tenant's licensed modules (the whole list, one entry per type). A module past its expiry closes
 * for the tenant at once: its menus go from every account's menu tree and its routes answer
 * `ModuleExpired` (core/permissions.ts); the tenant's access version is renewed so no process keeps the old list.
 */
export async function setTenantModules(caller: RequestCaller, body: TenantModules) {
  await assertPlatformAdmin(caller);
  const types = body.modules.map((m) => m.type);
  const repeated = types.find((type, i) => types.indexOf(type) !== i);
  if (repeated) throw new BizError('ModuleRepeat', { additional: repeated });
  await caller.database.withSystem(async (tx) => {
    const [row] = await tx.select({ name: tenant.name, moduleList: tenant.moduleList }).from(tenant).where(eq(tenant.id, body.id));
    if (!row) throw new BizError('TenantNotExist', { additional: body.id });
    const before = (row.moduleList as ModuleEntry[] | null) ?? [];
    const after: ModuleEntry[] = body.modules.map((m) => ({ type: m.type, needCheck: m.needCheck, expiresAt: m.expiresAt }));
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    await tx.update(tenant).set({ moduleList: after, updatedAt: new Date() }).where(eq(tenant.id, body.id));
    afterCommit(tx, () => caller.access.changed([{ tenantId: body.id }]));
    await writeAudit(tx, caller.account, caller.ip, [{ action: 'modules', entity: 'tenant', entityId: body.id, detail: { name: row.name, before, after } }]);
  });
}
