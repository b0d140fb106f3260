import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { enableSchema, idParamsSchema, idsSchema, menuCreateSchema, menuUpdateSchema } from '@p8/contract/system';
import { ok, paged } from '../../core/envelope.ts';
import { listQuerySchema } from '../../core/list-query.ts';
import { createMenu, deleteMenus, enableMenus, getMenu, listMenus, menuTree, updateMenu } from './menu-service.ts';

const tags = ['system: menus'];
const treeQuery = z.object({ enabled: z.enum(['true', 'false', '1', '0']).optional() });

/** Menus and their buttons (system/menu, /admin/security/menu). */
export async function menuRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/admin/security/menu';

  r.get(base, { schema: { tags, summary: 'Menus (buttons included), paged', querystring: listQuerySchema } }, async (req) => {
    const page = await req.tenant((tx) => listMenus(tx, req.auth.tenantId, req.query));
    return paged(page.data, page.pagination);
  });

  r.get(`${base}/tree`, { schema: { tags, summary: 'The whole menu tree, buttons included', querystring: treeQuery } }, async (req) => {
    const enabled = req.query.enabled === undefined ? undefined : req.query.enabled === 'true' || req.query.enabled === '1';
    return ok(await req.tenant((tx) => menuTree(tx, req.auth.tenantId, enabled)));
  });

  r.get(`${base}/:id`, { schema: { tags, summary: 'One menu item', params: idParamsSchema } }, async (req) =>
    ok(await req.tenant((tx) => getMenu(tx, req.auth.tenantId, req.params.id))),
  );

  r.post(base, { config: { permission: 'system_menu_add' }, schema: { tags, summary: 'Create a menu item', body: menuCreateSchema } }, async (req) =>
    ok(await req.tenant((tx) => createMenu(tx, req, req.body))),
  );

  r.put(base, { config: { permission: 'system_menu_update' }, schema: { tags, summary: 'Update a menu item', body: menuUpdateSchema } }, async (req) =>
    ok(await req.tenant((tx) => updateMenu(tx, req, req.body))),
  );

  r.delete(base, { config: { permission: 'system_menu_delete' }, schema: { tags, summary: 'Delete menu items', body: idsSchema } }, async (req) => {
    await req.tenant((tx) => deleteMenus(tx, req, req.body.ids));
    return ok(null);
  });

  r.put(`${base}/enable`, { config: { permission: 'system_menu_enable' }, schema: { tags, summary: 'Enable or disable menu items', body: enableSchema } }, async (req) => {
    await req.tenant((tx) => enableMenus(tx, req, req.body.ids, req.body.enabled));
    return ok(null);
  });
}
