import { z } from 'zod';
import type { PictureTarget } from '@p8/contract/picture-search';
import { route, untransactedRoute, type ServerModule } from '../../core/route.ts';
import { MATERIAL_BILL_SCREENS } from '../../core/screens.ts';
import { indexStatus, pictureIndexJobKind, reindex, searchByPicture } from './service.ts';

/**
 * Picture search (docs/picture-search.md) under /api/admin/picture/{material|product}: search with a photo,
 * the index's state, re-index. A material search serves the material list and every bill form that picks
 * materials; a product search the mall's product list. The module is the area the `picture` licence closes.
 */
const tags = ['picture search'];
const SCREENS: Record<PictureTarget, { read: string; write: string }> = {
  material: { read: ['basic_material', ...MATERIAL_BILL_SCREENS].join('|'), write: 'basic_material_update' },
  product: { read: 'mall_product', write: 'mall_product_update' },
};
const searchQuerySchema = z.object({ enabledOnly: z.enum(['true', 'false']).optional() });

const routesOf = (target: PictureTarget) => [
  untransactedRoute({
    method: 'POST', url: `/api/admin/picture/${target}/search`, tags, permission: SCREENS[target].read, consumes: ['multipart/form-data'], query: searchQuerySchema,
    summary: `Search the ${target === 'material' ? 'materials' : 'mall products'} by a picture (multipart "file"): best first, with calibrated similarity and whether each reaches the tenant's threshold; enabledOnly=true leaves out disabled materials`,
    handler: (caller, { query }, http) => searchByPicture(caller, target, http, query.enabledOnly === 'true'),
  }),
  route({
    method: 'GET', url: `/api/admin/picture/${target}/status`, tags, permission: SCREENS[target].read,
    summary: `The ${target} picture index: pictures indexed, pictures the records name, the count a search needs, the index job under way`,
    handler: (ctx) => indexStatus(ctx, target),
  }),
  route({
    method: 'POST', url: `/api/admin/picture/${target}/reindex`, tags, permission: SCREENS[target].write,
    summary: `Re-index every ${target} picture as a background job (missing ones embedded, stale ones removed); answers the job's id`,
    handler: (ctx) => reindex(ctx, target),
  }),
];

export const pictureModule: ServerModule = {
  name: 'picture',
  routes: [...routesOf('material'), ...routesOf('product')],
  register(registries) {
    registries.jobKinds.register(pictureIndexJobKind());
  },
};
