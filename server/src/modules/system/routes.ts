import { z } from 'zod';
import { BILL_SCREENS, screensNaming } from '../../core/screens.ts';
import { enableSchema, idParamsSchema, idsSchema } from '@p8/contract/common';
import {
  deptCreateSchema,
  exportJobSchema,
  importJobQuerySchema,
  jobFileSchema,
  deptUpdateSchema,
  menuCreateSchema,
  menuUpdateSchema,
  roleCopyBatchSchema,
  roleCopySchema,
  roleCreateSchema,
  rolePermissionSchema,
  roleScopeSchema,
  roleUpdateSchema,
  staffCreateSchema,
  staffLockSchema,
  staffNotifySchema,
  staffResetPasswordSchema,
  staffUpdateSchema,
} from '@p8/contract/system';
import { storableText } from '@p8/contract/text';
import { recordRoutes } from '../../core/record-routes.ts';
import { listQuerySchema } from '../../core/list-query.ts';
import { assertAccountFree } from '../../core/accounts.ts';
import { hashPassword } from '../../core/passwords.ts';
import { route, untransactedRoute, type ServerModule } from '../../core/route.ts';
import { listAudit } from './audit-service.ts';
import { queueExport } from '../../core/export-jobs.ts';
import { queueImport } from '../../core/import-job.ts';
import { langOf, sendXlsx } from '../../core/excel.ts';
import { JOB_SCREEN, jobDetail, jobFile, listJobs } from './job-service.ts';
import { createDept, deleteDepts, deptTree, enableDepts, getDept, listDepts, updateDept } from './dept-service.ts';
import { createMenu, deleteMenus, enableMenus, getMenu, listMenus, menuTree, updateMenu } from './menu-service.ts';
import { copyRole, copyRolesBatch, createRole, deleteRoles, getRole, getRolePermission, listRoles, setRolePermission, setRoleScope, updateRole } from './role-service.ts';
import {
  createStaff,
  deleteStaff,
  getStaff,
  listStaff,
  listStaffOptions,
  resetStaffPassword,
  revokeSessionsOf,
  setStaffNotify,
  setStaffState,
  updateStaff,
} from './staff-service.ts';

/** System administration, security area, under /api/admin/security: departments, menus, roles, staff and the audit log. */

/** Screens that assign records to departments and staff (the assignment dialog picks both). */
const ASSIGNING_SCREENS = ['basic_material', 'basic_supplier', 'basic_customer', 'basic_stock'];
/** Who picks departments: staff, role scopes, the audit log's labels, assignments, every bill's header and every form naming one. */
const DEPT_TREE_READERS = ['system_staff', 'system_role', 'system_audit', ...ASSIGNING_SCREENS, ...BILL_SCREENS, ...screensNaming('department')];
/**
 * Who picks colleagues: message receivers, reviewers, department leaders, assignments, the partner's and
 * the warehouse's person in charge, every bill's handler, every form naming a colleague (a work team's leader).
 */
const COLLEAGUE_READERS = ['system_message', 'system_verify', 'system_department', ...ASSIGNING_SCREENS, ...BILL_SCREENS, ...screensNaming('staff')];

const deptRoutes = recordRoutes({
  area: 'system', record: 'department', path: 'security/dept', entity: 'dept', readers: { tree: DEPT_TREE_READERS },
  createSchema: deptCreateSchema, updateSchema: deptUpdateSchema,
  list: listDepts, detail: getDept, create: createDept, update: updateDept, remove: deleteDepts, enable: enableDepts, tree: deptTree,
});

// Menus and their buttons; the tree includes the buttons.
const menuRoutes = recordRoutes({
  area: 'system', record: 'menu', path: 'security/menu', entity: 'menu',
  // The role screen's permission dialog and the audit log's labels.
  readers: { tree: ['system_role', 'system_audit'] },
  createSchema: menuCreateSchema, updateSchema: menuUpdateSchema,
  list: listMenus, detail: getMenu, create: createMenu, update: updateMenu, remove: deleteMenus, enable: enableMenus, tree: menuTree,
});

// Roles have no enable switch: their routes are declared one by one.
const ROLE = '/api/admin/security/role';
const roleTags = ['system: roles'];
const roleRoutes = [
  route({ method: 'GET', url: ROLE, picker: ['system_role', 'system_staff', 'system_audit'], tags: roleTags, summary: 'Roles, paged, with how many staff hold each', query: listQuerySchema, page: true, handler: (ctx, { query }) => listRoles(ctx, query) }),
  route({ method: 'GET', url: `${ROLE}/:id`, permission: 'system_role', tags: roleTags, summary: 'One role', params: idParamsSchema, handler: (ctx, { params }) => getRole(ctx, params.id) }),
  route({
    method: 'GET', url: `${ROLE}/:id/permission`, permission: 'system_role', tags: roleTags, summary: 'Menu and button ids the role grants', params: idParamsSchema,
    handler: (ctx, { params }) => getRolePermission(ctx, params.id),
  }),
  route({ method: 'POST', url: ROLE, tags: roleTags, summary: 'Create a role', permission: 'system_role_add', body: roleCreateSchema, handler: (ctx, { body }) => createRole(ctx, body) }),
  route({ method: 'PUT', url: ROLE, tags: roleTags, summary: 'Update a role', permission: 'system_role_update', body: roleUpdateSchema, handler: (ctx, { body }) => updateRole(ctx, body) }),
  route({ method: 'DELETE', url: ROLE, tags: roleTags, summary: 'Delete roles', permission: 'system_role_delete', body: idsSchema, handler: (ctx, { body }) => deleteRoles(ctx, body.ids) }),
  route({
    method: 'PUT', url: `${ROLE}/copy`, tags: roleTags, summary: 'Copy a role under a new key and name', permission: 'system_role_copy', body: roleCopySchema,
    handler: (ctx, { body }) => copyRole(ctx, body),
  }),
  route({
    method: 'PUT', url: `${ROLE}/copy/batch`, tags: roleTags, summary: 'Copy roles as "<name> (copy)"', permission: 'system_role_copy_batch', body: roleCopyBatchSchema,
    handler: (ctx, { body }) => copyRolesBatch(ctx, body.ids),
  }),
  route({
    method: 'PUT', url: `${ROLE}/scope`, tags: roleTags, summary: "Set a role's data scope", permission: 'system_role_update_scope', body: roleScopeSchema,
    handler: (ctx, { body }) => setRoleScope(ctx, body),
  }),
  route({
    method: 'PUT', url: `${ROLE}/permission`, tags: roleTags, summary: "Set a role's menus and buttons", permission: 'system_role_update', body: rolePermissionSchema,
    handler: (ctx, { body }) => setRolePermission(ctx, body),
  }),
];

/*
 * Staff accounts. List and detail follow the caller's data scope. Checks across tenants (name, phone) and
 * sign-outs (sessions) run on the owner connection, outside the tenant transaction (PGlite serves one
 * connection), hence the untransacted routes.
 */
const STAFF = '/api/admin/security/admin';
const staffTags = ['system: staff'];
const staffOptionsQuery = z.object({ keyword: storableText().max(50).optional(), notInId: storableText().max(2000).optional(), limit: z.coerce.number().int().min(1).max(200).optional() });
const staffRoutes = [
  route({
    method: 'GET', url: STAFF, permission: 'system_staff', tags: staffTags, summary: 'Staff within the data scope, paged, with their roles', query: listQuerySchema, page: true,
    handler: (ctx, { query }) => listStaff(ctx, query),
  }),
  route({
    method: 'GET', url: `${STAFF}/options`, picker: COLLEAGUE_READERS, tags: staffTags, summary: 'Colleagues for pickers (receivers, reviewers): enabled staff, name and department only', query: staffOptionsQuery,
    handler: (ctx, { query }) => listStaffOptions(ctx, query),
  }),
  route({ method: 'GET', url: `${STAFF}/:id`, permission: 'system_staff', tags: staffTags, summary: 'One staff member within the data scope', params: idParamsSchema, handler: (ctx, { params }) => getStaff(ctx, params.id) }),
  untransactedRoute({
    method: 'POST', url: STAFF, tags: staffTags, summary: 'Create a staff account', permission: 'system_staff_add', body: staffCreateSchema,
    handler: async (caller, { body }) => {
      await assertAccountFree(caller.database.db, { name: body.name, phone: body.phone });
      const passwordHash = await hashPassword(body.password);
      return caller.transaction((ctx) => createStaff(ctx, body, passwordHash));
    },
  }),
  untransactedRoute({
    method: 'PUT', url: STAFF, tags: staffTags, summary: 'Update a staff account', permission: 'system_staff_update', body: staffUpdateSchema,
    handler: async (caller, { body }) => {
      await assertAccountFree(caller.database.db, { name: body.name, phone: body.phone, self: { tenantId: caller.tenantId, id: body.id } });
      return caller.transaction((ctx) => updateStaff(ctx, body));
    },
  }),
  untransactedRoute({
    method: 'DELETE', url: STAFF, tags: staffTags, summary: 'Delete staff accounts', permission: 'system_staff_delete', body: idsSchema,
    handler: async (caller, { body }) => {
      const removed = await caller.transaction((ctx) => deleteStaff(ctx, body.ids));
      await revokeSessionsOf(caller, removed);
    },
  }),
  untransactedRoute({
    method: 'PUT', url: `${STAFF}/enable`, tags: staffTags, summary: 'Enable or disable staff accounts', permission: 'system_staff_enable', body: enableSchema,
    handler: async (caller, { body }) => {
      const shutOut = await caller.transaction((ctx) => setStaffState(ctx, body.ids, { enabled: body.enabled }));
      await revokeSessionsOf(caller, shutOut);
    },
  }),
  untransactedRoute({
    method: 'PUT', url: `${STAFF}/lock`, tags: staffTags, summary: 'Lock or unlock staff accounts', permission: 'system_staff_enable', body: staffLockSchema,
    handler: async (caller, { body }) => {
      const shutOut = await caller.transaction((ctx) => setStaffState(ctx, body.ids, { locked: body.locked }));
      await revokeSessionsOf(caller, shutOut);
    },
  }),
  route({
    method: 'PUT', url: `${STAFF}/newOrderNotify`, tags: staffTags, summary: 'Switch new-order notifications', permission: 'system_staff_notify', body: staffNotifySchema,
    handler: (ctx, { body }) => setStaffNotify(ctx, body.id, 'newOrderNotify', body.enabled),
  }),
  route({
    method: 'PUT', url: `${STAFF}/updateSmsNotify`, tags: staffTags, summary: 'Switch SMS notifications', permission: 'system_staff_notify', body: staffNotifySchema,
    handler: (ctx, { body }) => setStaffNotify(ctx, body.id, 'smsNotify', body.enabled),
  }),
  untransactedRoute({
    method: 'PUT', url: `${STAFF}/reset`, tags: staffTags, summary: "Reset an account's password and sign it out", permission: 'system_staff_reset_password', body: staffResetPasswordSchema,
    handler: async (caller, { body }) => {
      const passwordHash = await hashPassword(body.password);
      await caller.transaction((ctx) => resetStaffPassword(ctx, body.id, passwordHash));
      await revokeSessionsOf(caller, [body.id]);
    },
  }),
];

// The audit log viewer (who changed what, when): read-only.
const auditRoutes = [
  route({
    method: 'GET', url: '/api/admin/security/audit', tags: ['system: audit log'], summary: 'Administrative changes, newest first', permission: 'system_audit_view', query: listQuerySchema, page: true,
    handler: (ctx, { query }) => listAudit(ctx, query),
  }),
];

// Background jobs (imports, exports…): the tenant's list on its screen; one job for whoever started it, to follow it.
const jobRoutes = [
  route({
    method: 'GET', url: '/api/admin/system/jobs', tags: ['system: background jobs'], summary: "The tenant's background jobs, newest first", permission: JOB_SCREEN, query: listQuerySchema, page: true,
    handler: (ctx, { query }) => listJobs(ctx, query),
  }),
  route({
    method: 'GET', url: '/api/admin/system/jobs/:id', tags: ['system: background jobs'], summary: 'One background job: its state, progress and result (its creator, or the job screen)', openRead: 'upload', params: idParamsSchema,
    handler: (ctx, { params }) => jobDetail(ctx, params.id),
  }),
  // Exports run as jobs: the export route's own permission is checked when the job is queued, and again when it is replayed.
  route({
    method: 'POST', url: '/api/admin/system/jobs/export', tags: ['system: background jobs'], summary: 'Queue an export (any `POST …/export` route with the list query) as a background job', body: exportJobSchema,
    handler: (ctx, { body }, { request }) => queueExport(ctx, request.server.exportRoutes, body, langOf(request)),
  }),
  // Imports run as jobs: the import route's own permission is checked when the job is queued, and again when it is replayed with the kept workbook.
  untransactedRoute({
    method: 'POST', url: '/api/admin/system/jobs/import', tags: ['system: background jobs'], summary: 'Queue an Excel import (any `POST …/import` workbook route, multipart "file") as a background job',
    query: importJobQuerySchema, consumes: ['multipart/form-data'],
    handler: (caller, { query }, { request }) => queueImport(caller, request, query.path),
  }),
  route({
    method: 'POST', url: '/api/admin/system/jobs/file', tags: ['system: background jobs'], summary: "Download the file a background job made (an export's workbook): its creator, or the job screen", body: jobFileSchema,
    handler: async (ctx, { body }, { reply }) => {
      const file = await jobFile(ctx, body.id);
      return sendXlsx(reply, file.bytes, file.name);
    },
  }),
];

export const systemRoutes = [...deptRoutes, ...menuRoutes, ...roleRoutes, ...staffRoutes, ...auditRoutes, ...jobRoutes];

export const systemModule: ServerModule = { name: 'system', routes: systemRoutes };
