import type { z } from 'zod';
import { enableSchema, idParamsSchema, idsSchema, treeEnabledFilter, treeQuerySchema } from '@p8/contract/common';
import type { Pagination } from '@p8/contract/envelope';
import { listQuerySchema } from './list-query.ts';
import { route, type Out, type RouteDeclaration } from './route.ts';
import type { ServiceContext } from './service-context.ts';

/** The services behind the usual six routes of an administered record. */
export interface CrudService<C, U> {
  list(ctx: ServiceContext, query: Record<string, unknown>): Promise<{ data: unknown[]; pagination: Pagination }>;
  get(ctx: ServiceContext, id: number): Promise<unknown>;
  create(ctx: ServiceContext, body: C): Promise<unknown>;
  update(ctx: ServiceContext, body: U): Promise<unknown>;
  remove(ctx: ServiceContext, ids: number[]): Promise<unknown>;
  enable(ctx: ServiceContext, ids: number[], enabled: boolean): Promise<unknown>;
  /** A parent_id tree (departments, menus, categories): adds GET /tree, `enabled=true|false` filtering the nodes. */
  tree?(ctx: ServiceContext, enabled: boolean | undefined): Promise<unknown>;
}

export interface CrudSpec<C extends z.ZodType, U extends z.ZodType> {
  /** e.g. '/api/admin/system/printer' */
  url: string;
  tags: string[];
  /** What one row is, for the summaries ('printer'). */
  noun: string;
  /**
   * The screen's code (its menu name): the list and the detail need it, and the writes its buttons
   * `<prefix>_add`, `_update`, `_delete`, `_enable`.
   */
  permissionPrefix: string;
  /** With a tree: the other screens whose forms pick from it (their holders may read the tree too). */
  treeReaders?: readonly string[];
  createSchema: C;
  updateSchema: U;
  service: CrudService<Out<C>, Out<U>>;
}

/**
 * The usual routes of an administered record, all at `url`: GET (paged list, the common list query),
 * GET /:id, POST (create), PUT (update), DELETE `{ ids }` and PUT /enable `{ ids, enabled }`. A module
 * adds its other routes (picker, copy…) beside these. With `service.tree`, GET /tree too.
 */
export function crudRoutes<C extends z.ZodType, U extends z.ZodType>(spec: CrudSpec<C, U>): RouteDeclaration[] {
  const { url, tags, noun, service } = spec;
  const code = (action: string) => `${spec.permissionPrefix}_${action}`;
  const { tree } = service;
  return [
    ...(tree
      ? [route({ method: 'GET', url: `${url}/tree`, tags, summary: `The ${noun} tree`, picker: [spec.permissionPrefix, ...(spec.treeReaders ?? [])], query: treeQuerySchema, handler: (ctx, { query }) => tree(ctx, treeEnabledFilter(query)) })]
      : []),
    route({ method: 'GET', url, tags, summary: `${noun} list, paged`, permission: spec.permissionPrefix, query: listQuerySchema, page: true, handler: (ctx, { query }) => service.list(ctx, query) }),
    route({ method: 'GET', url: `${url}/:id`, tags, summary: `One ${noun}`, permission: spec.permissionPrefix, params: idParamsSchema, handler: (ctx, { params }) => service.get(ctx, params.id) }),
    route({ method: 'POST', url, tags, summary: `Create a ${noun}`, permission: code('add'), body: spec.createSchema, handler: (ctx, { body }) => service.create(ctx, body) }),
    route({ method: 'PUT', url, tags, summary: `Update a ${noun}`, permission: code('update'), body: spec.updateSchema, handler: (ctx, { body }) => service.update(ctx, body) }),
    route({ method: 'DELETE', url, tags, summary: `Delete ${noun} rows`, permission: code('delete'), body: idsSchema, handler: (ctx, { body }) => service.remove(ctx, body.ids) }),
    route({
      method: 'PUT', url: `${url}/enable`, tags, summary: `Enable or disable ${noun} rows`, permission: code('enable'), body: enableSchema,
      handler: (ctx, { body }) => service.enable(ctx, body.ids, body.enabled),
    }),
  ];
}
