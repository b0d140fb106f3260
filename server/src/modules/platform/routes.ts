import { enableSchema } from '@p8/contract/common';
import { platformTenantQuerySchema, tenantModulesSchema } from '@p8/contract/platform';
import { untransactedRoute, type ServerModule } from '../../core/route.ts';
import { listTenants, setTenantModules, setTenantsEnabled } from './service.ts';

/**
 * The platform administrator's tenants (base → tenants): list, enable / disable, licensed modules. The
 * button codes are held only by the platform tenant's super administrators (core/permissions.ts), and each
 * service checks that the caller is one.
 */
const URL = '/api/admin/platform/tenant';
const tags = ['platform: tenants'];

export const platformModule: ServerModule = {
  name: 'platform',
  routes: [
    untransactedRoute({
      method: 'GET', url: URL, tags, summary: 'Every tenant with its administrator, users and modules (platform administrator)', permission: 'base_tenant_view',
      query: platformTenantQuerySchema, page: true,
      handler: (caller, { query }) => listTenants(caller, query),
    }),
    untransactedRoute({
      method: 'PUT', url: `${URL}/enable`, tags, summary: 'Enable or disable tenants; disabling ends their sessions', permission: 'base_tenant_enable', body: enableSchema,
      handler: (caller, { body }) => setTenantsEnabled(caller, body.ids, body.enabled),
    }),
    untransactedRoute({
      method: 'PUT', url: `${URL}/modules`, tags, summary: "Set a tenant's licensed modules and their expiry", permission: 'base_tenant_module', body: tenantModulesSchema,
      handler: (caller, { body }) => setTenantModules(caller, body),
    }),
  ],
};
