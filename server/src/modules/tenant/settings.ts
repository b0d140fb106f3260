import { and, eq, sql } from 'drizzle-orm';
import {
  INCREASE_ONLY_KEYS,
  SYSTEM_SETTING_KEYS,
  tenantConfigSchema,
  type ColumnSetting,
  type SystemSettings,
  type SystemSettingsUpdate,
  type TenantConfig,
  type TenantConfigUpdate,
  type TenantConfigView,
} from '@p8/contract/tenant-config';
import { rows } from '../../db/connection.ts';
import { systemSetting, tableColumnSetting, tenant } from '../../db/schema/index.ts';
import { changes } from '../../core/audit.ts';
import { BizError } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { parseTenantConfig } from '../../core/tenant-config.ts';
import { readSystemSettings } from '../../core/system-settings.ts';
import { billCodePrefixes } from '@p8/contract/bills/code-prefixes';
import { checkedBillCodePrefixes } from '../../bills/code-prefixes.ts';
import { tenantConfigView } from './service.ts';

/*
 * What a tenant administrator sets for the whole tenant: the tenant config,
 * the column settings of each list, and the system settings of /admin/system/setting.
 */

/** Applies an update to the stored config: decimal places only grow (max 6 is the schema's), the rest by the schema. */
export function applyConfigUpdate(current: TenantConfig, update: Partial<TenantConfig>): TenantConfig {
  for (const key of INCREASE_ONLY_KEYS) {
    const wanted = update[key];
    if (wanted !== undefined && wanted < current[key]) throw new BizError('DecimalPlacesOnlyIncrease', { additional: key });
  }
  // openVerifyBill follows the joint review rules, never the form.
  return tenantConfigSchema.parse({ ...current, ...update, openVerifyBill: current.openVerifyBill });
}

/** Updates the tenant configuration; a save that changes nothing writes nothing, not even an audit entry. */
export async function updateTenantConfig(ctx: ServiceContext, update: TenantConfigUpdate): Promise<TenantConfigView> {
  const { tx, tenantId } = ctx;
  const [row] = await tx.select({ config: tenant.config }).from(tenant).where(eq(tenant.id, tenantId)).for('update');
  if (!row) throw new BizError('DataNotExist');
  const current = parseTenantConfig(row.config);
  const next = applyConfigUpdate(current, update);
  if (current.openNegativeInventory && !next.openNegativeInventory) await refuseWhileNegative(ctx);
  if (current.openShelves && !next.openShelves) await refuseWhileOnLocations(ctx);
  const changed = changes(current, next);
  if (Object.keys(changed).length) {
    await tx.update(tenant).set({ config: next, updatedAt: new Date() }).where(eq(tenant.id, tenantId));
    ctx.audit({ action: 'update', entity: 'tenant-config', entityId: tenantId, detail: changed });
  }
  return tenantConfigView(tx, tenantId);
}

/**
 * Negative stock may be turned off only once nothing is below zero: the switch promises no balance goes
 * negative, which balances already there would break. (An out-stock audited at the same moment reads the
 * switch before this update commits, as any setting changed while a bill is audited.)
 */
async function refuseWhileNegative({ tx, tenantId }: ServiceContext) {
  const [found] = await rows<{ material_id: string }>(
    tx,
    sql`select material_id from stock_balance where tenant_id = ${tenantId} and quantity < 0
        union all select material_id from stock_valuation where tenant_id = ${tenantId} and quantity < 0
        limit 1`,
  );
  if (found) throw new BizError('ExistNegativeInventoryProhibitClose');
}

/**
 * Storage locations may be turned off only while no stock sits on one: the balances would stay on locations
 * no screen shows. The tenant row is locked (above) before the look: a posting onto a location reads the
 * switch under a share lock of that row (bills/stock.ts), so it either committed before this look and is seen,
 * or waits and then finds the switch off.
 */
async function refuseWhileOnLocations({ tx, tenantId }: ServiceContext) {
  const [found] = await rows<{ id: string }>(tx, sql`select id from stock_balance where tenant_id = ${tenantId} and location_id is not null and quantity <> 0 limit 1`);
  if (found) throw new BizError('LocationExistInventoryProhibitClose');
}

/** The column settings of a list type (empty when none saved). */
export async function columnSettings({ tx, tenantId }: ServiceContext, type: string): Promise<ColumnSetting[]> {
  const [row] = await tx
    .select({ columns: tableColumnSetting.columns })
    .from(tableColumnSetting)
    .where(and(eq(tableColumnSetting.tenantId, tenantId), eq(tableColumnSetting.type, type)))
    .limit(1);
  return row?.columns ?? [];
}

export async function saveColumnSettings({ tx, tenantId }: ServiceContext, type: string, columns: ColumnSetting[]): Promise<ColumnSetting[]> {
  await tx
    .insert(tableColumnSetting)
    .values({ tenantId, type, columns })
    .onConflictDoUpdate({ target: [tableColumnSetting.tenantId, tableColumnSetting.type], set: { columns, updatedAt: new Date() } });
  return columns;
}

export const systemSettings = ({ tx, tenantId }: ServiceContext) => readSystemSettings(tx, tenantId);

/** Updates system settings: a key that is sent is replaced whole; only the keys whose value moved are written and audited. */
export async function updateSystemSettings(ctx: ServiceContext, body: SystemSettingsUpdate): Promise<SystemSettings> {
  const { tx, tenantId } = ctx;
  // Bill-code prefixes are compared as the full map the screen shows, and stored as the tenant's own ones.
  const ownPrefixes = body.billCodePrefixes && checkedBillCodePrefixes(body.billCodePrefixes);
  const sent = ownPrefixes ? { ...body, billCodePrefixes: billCodePrefixes(ownPrefixes) } : body;
  const before = await readSystemSettings(tx, tenantId);
  const changed = changes(before, sent);
  const keys = SYSTEM_SETTING_KEYS.filter((k) => sent[k] !== undefined && Object.keys(changed).some((field) => field === k || field.startsWith(`${k}.`)));
  for (const key of keys) {
    const value = key === 'billCodePrefixes' ? ownPrefixes : sent[key];
    await tx
      .insert(systemSetting)
      .values({ tenantId, key, value })
      .onConflictDoUpdate({ target: [systemSetting.tenantId, systemSetting.key], set: { value: sql`excluded.value`, updatedAt: new Date() } });
  }
  if (keys.length) ctx.audit({ action: 'update', entity: 'system-setting', entityId: keys, detail: changed });
  return readSystemSettings(tx, tenantId);
}
