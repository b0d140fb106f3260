import { clearDataSchema, registerSchema, tenantLogoffSchema } from '@p8/contract/auth';
import { columnSettingsQuerySchema, columnSettingsSaveSchema, systemSettingsUpdateSchema, tenantConfigUpdateSchema } from '@p8/contract/tenant-config';
import { Status } from '@p8/contract/envelope';
import { fail } from '../../core/envelope.ts';
import { readPlatformConfig } from '../../core/platform-config.ts';
import { publicRoute, route, untransactedRoute, type ServerModule } from '../../core/route.ts';
import { clearData, logOffTenant, registerTenant, systemConfig, tenantConfigView } from './service.ts';
import { columnSettings, saveColumnSettings, systemSettings, updateSystemSettings, updateTenantConfig } from './settings.ts';

const tags = ['tenant'];

/**
 * The tenant itself: public configuration and self-registration, the tenant configuration, list column
 * settings and system settings, and the two destructive operations of the initial administrator.
 */
export const tenantModule: ServerModule = {
  name: 'tenant',
  routes: [
    publicRoute({ method: 'GET', url: '/api/base/system/config', tags, summary: 'Public system configuration', handler: async ({ config, database }) => systemConfig(config, await readPlatformConfig(database, config)) }),
    // The balancer's health check: 503 while the process drains before an orderly stop (core/lifecycle.ts).
    publicRoute({
      method: 'GET', url: '/api/base/system/health', tags, summary: 'Health check of this server process (503 while it drains before a stop)',
      handler: async (_deps, _input, { request, reply }) => (request.server.lifecycle.healthCheck() ? { serving: true } : reply.code(503).send(fail(Status.Error, 'ServerStopping'))),
    }),
    publicRoute({ method: 'POST', url: '/api/base/tenant/register', tags, summary: 'Register a tenant', body: registerSchema, handler: (deps, { body }) => registerTenant(deps, body) }),
    route({ method: 'GET', url: '/api/admin/admin/tenant', openRead: 'tenant', tags, summary: 'The tenant configuration', handler: (ctx) => tenantConfigView(ctx.tx, ctx.tenantId) }),
    route({
      method: 'PUT', url: '/api/admin/admin/tenant', tags, summary: 'Update the tenant configuration (decimal places only increase, at most 6)',
      permission: 'system_tenant_config_update', body: tenantConfigUpdateSchema,
      handler: (ctx, { body }) => updateTenantConfig(ctx, body),
    }),
    route({ method: 'PUT', url: '/api/admin/admin/tenant/clearData', tags, summary: 'Clear business or basic data', body: clearDataSchema, handler: (ctx, { body }) => clearData(ctx, body.type) }),
    untransactedRoute({
      method: 'PUT', url: '/api/admin/admin/tenant/logout', tags, summary: 'Log the tenant off', body: tenantLogoffSchema,
      handler: (caller, { body }) => logOffTenant(caller, body.password),
    }),
    route({
      method: 'GET', url: '/api/admin/tenant/table/column/type', openRead: 'tenant', tags, summary: 'Column settings of a list type (empty when none saved)', query: columnSettingsQuerySchema,
      handler: (ctx, { query }) => columnSettings(ctx, query.type),
    }),
    // Column settings apply to everyone in the tenant, so saving them is a tenant-configuration right.
    route({
      method: 'PUT', url: '/api/admin/tenant/table/column/type', tags, summary: 'Save the column settings of a list type (tenant-wide)',
      permission: 'system_tenant_config_update', body: columnSettingsSaveSchema,
      handler: (ctx, { body }) => saveColumnSettings(ctx, body.type, body.columns),
    }),
    route({ method: 'GET', url: '/api/admin/system/setting', permission: 'system_setting', tags, summary: 'System settings of the tenant, with defaults', handler: (ctx) => systemSettings(ctx) }),
    route({
      method: 'PUT', url: '/api/admin/system/setting', tags, summary: 'Update system settings (a key that is sent is replaced whole)',
      permission: 'system_setting_update', body: systemSettingsUpdateSchema,
      handler: (ctx, { body }) => updateSystemSettings(ctx, body),
    }),
  ],
};
