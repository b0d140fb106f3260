import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deptCreateSchema, deptUpdateSchema, enableSchema, idParamsSchema, idsSchema } from '@p8/contract/system';
import { ok, paged } from '../../core/envelope.ts';
import { listQuerySchema } from '../../core/list-query.ts';
import { createDept, deleteDepts, deptTree, enableDepts, getDept, listDepts, updateDept } from './dept-service.ts';

const tags = ['system: departments'];
const treeQuery = z.object({ enabled: z.enum(['true', 'false', '1', '0']).optional() });

/** Departments (system/department, /admin/security/dept). */
export async function deptRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/admin/security/dept';

  r.get(base, { schema: { tags, summary: 'Departments, paged', querystring: listQuerySchema } }, async (req) => {
    const page = await req.tenant((tx) => listDepts(tx, req.auth.tenantId, req.query));
    return paged(page.data, page.pagination);
  });

  r.get(`${base}/tree`, { schema: { tags, summary: 'The department tree', querystring: treeQuery } }, async (req) => {
    const enabled = req.query.enabled === undefined ? undefined : req.query.enabled === 'true' || req.query.enabled === '1';
    return ok(await req.tenant((tx) => deptTree(tx, req.auth.tenantId, enabled)));
  });

  r.get(`${base}/:id`, { schema: { tags, summary: 'One department', params: idParamsSchema } }, async (req) =>
    ok(await req.tenant((tx) => getDept(tx, req.auth.tenantId, req.params.id))),
  );

  r.post(base, { config: { permission: 'system_department_add' }, schema: { tags, summary: 'Create a department', body: deptCreateSchema } }, async (req) =>
    ok(await req.tenant((tx) => createDept(tx, req, req.body))),
  );

  r.put(base, { config: { permission: 'system_department_update' }, schema: { tags, summary: 'Update a department', body: deptUpdateSchema } }, async (req) =>
    ok(await req.tenant((tx) => updateDept(tx, req, req.body))),
  );

  r.delete(base, { config: { permission: 'system_department_delete' }, schema: { tags, summary: 'Delete departments', body: idsSchema } }, async (req) => {
    await req.tenant((tx) => deleteDepts(tx, req, req.body.ids));
    return ok(null);
  });

  r.put(`${base}/enable`, { config: { permission: 'system_department_enable' }, schema: { tags, summary: 'Enable or disable departments', body: enableSchema } }, async (req) => {
    await req.tenant((tx) => enableDepts(tx, req, req.body.ids, req.body.enabled));
    return ok(null);
  });
}
