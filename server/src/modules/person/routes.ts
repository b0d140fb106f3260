import { commonMenusSchema, updatePasswordSchema } from '@p8/contract/auth';
import { route, untransactedRoute, type ServerModule } from '../../core/route.ts';
import { currentRole, currentUser, personalInfoSchema, saveCommonMenus, updatePassword, updatePersonalInfo } from './service.ts';

/** The signed-in user: detail, personal data, password, common menus and menu/permission tree. */
const tags = ['person'];

export const personRoutes = [
  route({ method: 'GET', url: '/api/admin/current/detail', openRead: 'self', tags, summary: 'The signed-in user', handler: (ctx) => currentUser(ctx) }),
  untransactedRoute({
    method: 'PUT', url: '/api/admin/current/info', tags, summary: 'Update personal data', body: personalInfoSchema,
    handler: (caller, { body }) => updatePersonalInfo(caller, body),
  }),
  untransactedRoute({
    method: 'PUT', url: '/api/admin/current/updatePassword', tags, summary: 'Change the password', body: updatePasswordSchema,
    handler: (caller, { body }) => updatePassword(caller, body),
  }),
  route({
    method: 'PUT', url: '/api/admin/current/commonMenus', tags, summary: 'Save the home page common menus', body: commonMenusSchema,
    handler: (ctx, { body }) => saveCommonMenus(ctx, body.menuIds),
  }),
  route({ method: 'GET', url: '/api/admin/current/role', openRead: 'self', tags, summary: 'Menu tree with buttons, and authorized button codes', handler: (ctx) => currentRole(ctx) }),
];

export const personModule: ServerModule = { name: 'person', routes: personRoutes };
