import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  columnSettingsQuerySchema,
  columnSettingsSaveSchema,
  INCREASE_ONLY_KEYS,
  SYSTEM_SETTING_KEYS,
  systemSettingsSchema,
  systemSettingsUpdateSchema,
  tenantConfigSchema,
  tenantConfigUpdateSchema,
  type ColumnSetting,
  type SystemSettings,
  type TenantConfig,
} from '@p8/contract/tenant-config';
import type { Tx } from '../../db/connection.ts';
import { systemSetting, tableColumnSetting, tenant } from '../../db/schema/index.ts';
import { audit, changes } from '../../core/audit.ts';
import { ok } from '../../core/envelope.ts';
import { BizError } from '../../core/errors.ts';
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

async function readSystemSettings(tx: Tx, tenantId: number): Promise<SystemSettings> {
  const rows = await tx.select({ key: systemSetting.key, value: systemSetting.value }).from(systemSetting).where(eq(systemSetting.tenantId, tenantId));
  const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  const defaults = systemSettingsSchema.parse({});
  // A stored value an older release wrote in another shape falls back to its default instead of failing the screen.
  const entries = SYSTEM_SETTING_KEYS.map((key) => {
    const parsed = systemSettingsSchema.shape[key].safeParse(stored[key]);
    return [key, parsed.success ? parsed.data : defaults[key]];
  });
  return Object.fromEntries(entries) as SystemSettings;
}

export async function tenantSettingsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put(
    '/api/admin/admin/tenant',
    {
      config: { permission: 'system_tenant_config_update' },
      schema: { tags: ['tenant'], summary: 'Update the tenant configuration (decimal places only increase, at most 6)', body: tenantConfigUpdateSchema },
    },
    async (req) =>
      ok(
        await req.tenant(async (tx) => {
          const tenantId = req.auth.tenantId;
          const [row] = await tx.select({ config: tenant.config }).from(tenant).where(eq(tenant.id, tenantId)).for('update');
          if (!row) throw new BizError('DataNotExist');
          const current = tenantConfigSchema.parse(row.config ?? {});
          const next = applyConfigUpdate(current, req.body);
          const changed = changes(current, next);
          // A save that changes nothing writes nothing, not even an audit entry.
          if (Object.keys(changed).length) {
            await tx.update(tenant).set({ config: next, updatedAt: new Date() }).where(eq(tenant.id, tenantId));
            await audit(tx, req, { action: 'update', entity: 'tenant-config', entityId: tenantId, detail: changed });
          }
          return tenantConfigView(tx, tenantId);
        }),
      ),
  );

  r.get(
    '/api/admin/tenant/table/column/type',
    { schema: { tags: ['tenant'], summary: 'Column settings of a list type (empty when none saved)', querystring: columnSettingsQuerySchema } },
    async (req) => {
      const [row] = await req.tenant((tx) =>
        tx
          .select({ columns: tableColumnSetting.columns })
          .from(tableColumnSetting)
          .where(and(eq(tableColumnSetting.tenantId, req.auth.tenantId), eq(tableColumnSetting.type, req.query.type)))
          .limit(1),
      );
      return ok<ColumnSetting[]>(row?.columns ?? []);
    },
  );

  r.put(
    '/api/admin/tenant/table/column/type',
    // Column settings apply to everyone in the tenant, so saving them is a tenant-configuration right.
    { config: { permission: 'system_tenant_config_update' }, schema: { tags: ['tenant'], summary: 'Save the column settings of a list type (tenant-wide)', body: columnSettingsSaveSchema } },
    async (req) => {
      const { type, columns } = req.body;
      await req.tenant((tx) =>
        tx
          .insert(tableColumnSetting)
          .values({ tenantId: req.auth.tenantId, type, columns })
          .onConflictDoUpdate({ target: [tableColumnSetting.tenantId, tableColumnSetting.type], set: { columns, updatedAt: new Date() } }),
      );
      return ok(columns);
    },
  );

  r.get('/api/admin/system/setting', { schema: { tags: ['tenant'], summary: 'System settings of the tenant, with defaults' } }, async (req) =>
    ok(await req.tenant((tx) => readSystemSettings(tx, req.auth.tenantId))),
  );

  r.put(
    '/api/admin/system/setting',
    { config: { permission: 'system_setting_update' }, schema: { tags: ['tenant'], summary: 'Update system settings (a key that is sent is replaced whole)', body: systemSettingsUpdateSchema } },
    async (req) =>
      ok(
        await req.tenant(async (tx) => {
          const tenantId = req.auth.tenantId;
          const before = await readSystemSettings(tx, tenantId);
          const sent = req.body;
          const changed = changes(before, sent);
          // Only the keys whose value moved are written; a save that changes nothing writes no audit entry.
          const keys = SYSTEM_SETTING_KEYS.filter((k) => sent[k] !== undefined && Object.keys(changed).some((field) => field === k || field.startsWith(`${k}.`)));
          for (const key of keys) {
            const value = sent[key];
            await tx
              .insert(systemSetting)
              .values({ tenantId, key, value })
              .onConflictDoUpdate({ target: [systemSetting.tenantId, systemSetting.key], set: { value: sql`excluded.value`, updatedAt: new Date() } });
          }
          if (keys.length) await audit(tx, req, { action: 'update', entity: 'system-setting', entityId: keys, detail: changed });
          return readSystemSettings(tx, tenantId);
        }),
      ),
  );
}
