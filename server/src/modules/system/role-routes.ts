import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  idParamsSchema,
  idsSchema,
  roleCopyBatchSchema,
  roleCopySchema,
  roleCreateSchema,
  rolePermissionSchema,
  roleScopeSchema,
  roleUpdateSchema,
} from '@p8/contract/system';
import { ok, paged } from '../../core/envelope.ts';
import { listQuerySchema } from '../../core/list-query.ts';
import {
  copyRole,
  copyRolesBatch,
  createRole,
  deleteRoles,
  getRole,
  getRolePermission,
  listRoles,
  setRolePermission,
  setRoleScope,
  updateRole,
} from './role-service.ts';

const tags = ['system: roles'];

/** Roles, their data scope and permissions (system/role, /admin/security/role). */
export async function roleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/admin/security/role';

  r.get(base, { schema: { tags, summary: 'Roles, paged, with how many staff hold each', querystring: listQuerySchema } }, async (req) => {
    const page = await req.tenant((tx) => listRoles(tx, req.auth.tenantId, req.query));
    return paged(page.data, page.pagination);
  });

  r.get(`${base}/:id`, { schema: { tags, summary: 'One role', params: idParamsSchema } }, async (req) =>
    ok(await req.tenant((tx) => getRole(tx, req.auth.tenantId, req.params.id))),
  );

  r.get(`${base}/:id/permission`, { schema: { tags, summary: 'Menu and button ids the role grants', params: idParamsSchema } }, async (req) =>
    ok(await req.tenant((tx) => getRolePermission(tx, req.auth.tenantId, req.params.id))),
  );

  r.post(base, { config: { permission: 'system_role_add' }, schema: { tags, summary: 'Create a role', body: roleCreateSchema } }, async (req) =>
    ok(await req.tenant((tx) => createRole(tx, req, req.body))),
  );

  r.put(base, { config: { permission: 'system_role_update' }, schema: { tags, summary: 'Update a role', body: roleUpdateSchema } }, async (req) =>
    ok(await req.tenant((tx) => updateRole(tx, req, req.body))),
  );

  r.delete(base, { config: { permission: 'system_role_delete' }, schema: { tags, summary: 'Delete roles', body: idsSchema } }, async (req) => {
    await req.tenant((tx) => deleteRoles(tx, req, req.body.ids));
    return ok(null);
  });

  r.put(`${base}/copy`, { config: { permission: 'system_role_copy' }, schema: { tags, summary: 'Copy a role under a new key and name', body: roleCopySchema } }, async (req) =>
    ok(await req.tenant((tx) => copyRole(tx, req, req.body))),
  );

  r.put(
    `${base}/copy/batch`,
    { config: { permission: 'system_role_copy_batch' }, schema: { tags, summary: 'Copy roles as "<name> (copy)"', body: roleCopyBatchSchema } },
    async (req) => ok(await req.tenant((tx) => copyRolesBatch(tx, req, req.body.ids))),
  );

  r.put(`${base}/scope`, { config: { permission: 'system_role_update_scope' }, schema: { tags, summary: "Set a role's data scope", body: roleScopeSchema } }, async (req) =>
    ok(await req.tenant((tx) => setRoleScope(tx, req, req.body))),
  );

  r.put(
    `${base}/permission`,
    { config: { permission: 'system_role_update' }, schema: { tags, summary: "Set a role's menus and buttons", body: rolePermissionSchema } },
    async (req) => ok(await req.tenant((tx) => setRolePermission(tx, req, req.body))),
  );
}
