import { platformConfigSchema, type PlatformConfig, type PlatformConfigView } from '@p8/contract/base';
import type { Config } from '../config.ts';
import type { Database } from '../db/connection.ts';
import { platformConfig } from '../db/schema/index.ts';
import { writeAudit } from './audit.ts';
import { forbidden } from './errors.ts';
import { loadRoles } from './permissions.ts';
import type { TransactingCaller } from './service-context.ts';

/*
 * The installation's public system config (GET /base/system/config) as the platform administrator set it.
 * The platform administrator is a super administrator of the platform tenant (PLATFORM_TENANT_ID, by
 * default the first tenant: the operator's own). A key never set takes the installation's default
 * (environment variables, see config.ts and the README). Stored outside any tenant, so it is read and written
 * on the owner connection — never inside a tenant transaction (PGlite serves one connection).
 */

/** The installation's defaults, before anything is stored. */
export function platformDefaults(config: Config): PlatformConfig {
  const p = config.platform;
  return {
    system_title: p.title,
    system_icon: p.icon,
    logo: p.logo,
    shortName: p.shortName,
    icp: p.icp,
    customerServiceQrCode: p.customerServiceQrCode,
    translateUrl: p.translateUrl,
    openRegister: config.openRegister,
    openAppointment: p.openAppointment,
  };
}

/** Defaults overlaid with the stored keys (a stored value the schema no longer accepts is ignored). */
export async function readPlatformConfig(database: Database, config: Config): Promise<PlatformConfig & { updatedAt: Date | null }> {
  const rows = await database.db.select().from(platformConfig);
  const merged: Record<string, unknown> = { ...platformDefaults(config) };
  const shape = platformConfigSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>;
  let updatedAt: Date | null = null;
  for (const row of rows) {
    const parsed = shape[row.key]?.safeParse(row.value);
    if (!parsed?.success) continue;
    merged[row.key] = parsed.data;
    if (!updatedAt || row.updatedAt > updatedAt) updatedAt = row.updatedAt;
  }
  return { ...(merged as PlatformConfig), updatedAt };
}

/** Whether the caller is the platform administrator: a super administrator of the platform tenant. */
export async function isPlatformAdmin(caller: TransactingCaller): Promise<boolean> {
  if (caller.tenantId !== caller.config.platform.tenantId) return false;
  const roles = await caller.transaction((ctx) => loadRoles(ctx.tx, ctx.tenantId, ctx.account.adminId));
  return roles.isSuper;
}

export async function getPlatformConfig(caller: TransactingCaller & { database: Database }): Promise<PlatformConfigView> {
  const editable = await isPlatformAdmin(caller);
  const { updatedAt, ...values } = await readPlatformConfig(caller.database, caller.config);
  return { ...values, editable, updatedAt: updatedAt?.toISOString() ?? null };
}

/**
 * Saves the whole config (platform administrator only). Only keys that differ from what is in effect are
 * written, with the audit entry naming them (before → after) in the same transaction.
 */
export async function savePlatformConfig(caller: TransactingCaller & { database: Database }, body: PlatformConfig): Promise<PlatformConfigView> {
  if (!(await isPlatformAdmin(caller))) throw forbidden('OnlyPlatformAdminCanOperate');
  const { updatedAt: _, ...before } = await readPlatformConfig(caller.database, caller.config);
  const changed = (Object.keys(body) as Array<keyof PlatformConfig>).filter((key) => JSON.stringify(body[key]) !== JSON.stringify(before[key]));
  if (changed.length) {
    const now = new Date();
    await caller.database.withSystem(async (tx) => {
      for (const key of changed) {
        await tx
          .insert(platformConfig)
          .values({ key, value: body[key], updatedBy: caller.account.adminId, updatedAt: now })
          .onConflictDoUpdate({ target: platformConfig.key, set: { value: body[key], updatedBy: caller.account.adminId, updatedAt: now } });
      }
      // The audit entry in the same transaction, in the administrator's own tenant log.
      await writeAudit(tx, caller.account, caller.ip, [
        {
          action: 'update',
          entity: 'platform-config',
          detail: { before: Object.fromEntries(changed.map((k) => [k, before[k]])), after: Object.fromEntries(changed.map((k) => [k, body[k]])) },
        },
      ]);
    });
  }
  return getPlatformConfig(caller);
}
