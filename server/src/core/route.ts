import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Pagination } from '@p8/contract/envelope';
import type { PermissionCode } from '@p8/contract/permission';
import type { Config } from '../config.ts';
import type { AccessInvalidator } from './access-cache.ts';
import type { Database } from '../db/connection.ts';
import type { SmsSender } from './captcha.ts';
import type { Registries } from './registries.ts';
import type { SharedState } from './shared-state.ts';
import { ok, paged } from './envelope.ts';
import { withServiceContext, type Caller, type ServiceContext, type TransactingCaller } from './service-context.ts';

/**
 * Declared routes: every module's routes.ts is a list of `route(...)` declarations, gathered in its
 * `ServerModule` and registered by `registerModules`. One place therefore does for every route what each
 * handler used to repeat:
 *   - validation and types: body, query and params are zod schemas (fastify-type-provider-zod); the
 *     handler's `input` is typed from them, and the OpenAPI document is generated from them;
 *   - who may call: signed-in by default (core/auth.ts), the button code `permission` checked before the
 *     handler (core/permissions.ts, the contract's rule);
 *   - the tenant transaction: the handler receives a ServiceContext whose `tx` runs under the caller's
 *     tenant (RLS), and the audit entries its services recorded are written before the commit;
 *   - the envelope: what the handler returns is sent as `ok(data)` (or `paged` for `page: true`).
 */

export type Schema = z.ZodType | undefined;
/** What a route schema yields after validation (undefined for a part the route does not declare). */
export type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives from the request, typed by the route's schemas. */
export interface RouteInput<B extends Schema, Q extends Schema, P extends Schema> {
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
}

/** The HTTP side, for the few handlers that need it (file uploads, downloads, headers). */
export interface Http {
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What the app gives its modules at registration. */
export interface ModuleDeps {
  database: Database;
  config: Config;
  sms: SmsSender;
  /** Counters, codes and cache invalidation shared by the app's processes (core/shared-state.ts). */
  shared: SharedState;
  /** The app's registries, for the public routes (a signed-in route has them in its context). */
  registries: Registries;
  /** Told of changes to sessions and permissions (core/access-cache.ts); a signed-in route has it in its context. */
  access: AccessInvalidator;
}

interface RouteSpec<B extends Schema, Q extends Schema, P extends Schema> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** OpenAPI grouping (the screen's area) and one line saying what the route does. */
  tags: string[];
  summary: string;
  /**
   * Code(s) the caller must hold (the contract's rule: array = all, 'a|b' = any): a button code for a
   * write; for a read, the code of the screen it serves — the menu entry's own name (`mall_order`) or a
   * declared `…_view` button.
   */
  permission?: PermissionCode;
  body?: B;
  query?: Q;
  params?: P;
  /** e.g. ['multipart/form-data'] for file uploads (documentation only; the parser is app-wide). */
  consumes?: string[];
  /** More words for the OpenAPI document (what a multipart body holds). */
  description?: string;
  /** Left out of the OpenAPI document (a catch-all that only answers not-found). */
  hide?: boolean;
  /** The handler returns `{ data, pagination }`, sent as the paged envelope. */
  page?: boolean;
  /**
   * The area the route belongs to, when it is not its server module's name (the bill engine's routes take
   * their bill type's area). A licensed module of that type that has expired closes the route (core/permissions.ts).
   */
  area?: string;
}

/**
 * The signed-in reads open to every signed-in user, each named with what it serves. Everything else a
 * signed-in GET answers belongs to a screen, and the route names that screen's code (or, for a picker,
 * the screens that use it). Keep this list short: a new entry is a decision (docs/decisions.md).
 */
export const OPEN_READS = {
  self: "the caller's own account, roles, menus and live sessions",
  messages: "the caller's own messages: the bell's count, the inbox and outbox",
  dashboard: 'the home dashboard: each section and figure is shown by the screen code it declares (core/dashboard.ts)',
  tenant: "the caller's own tenant's settings every screen formats by (digits, switches, list column settings, system settings)",
  upload: "a cloud upload token and the progress of the caller's own import or other background job",
} as const;
export type OpenRead = keyof typeof OPEN_READS;

/**
 * Who may call a route, one declaration per route. A signed-in GET names exactly one of: `permission`
 * (the screen it serves), `picker` (the screens whose forms use it: holding any one suffices) or
 * `openRead` (one of OPEN_READS). The types refuse a GET that names none, and registration refuses it too.
 */
export type RouteAccess =
  | { method: 'GET'; permission: PermissionCode; picker?: never; openRead?: never }
  | { method: 'GET'; picker: readonly string[]; permission?: never; openRead?: never }
  | { method: 'GET'; openRead: OpenRead; permission?: never; picker?: never }
  | { method: 'POST' | 'PUT' | 'DELETE'; picker?: never; openRead?: never };

/** How a signed-in route's access was declared, kept in its route config for the checks and the walker tests. */
export type ReadKind = 'screen' | 'picker' | 'open';

/** The default route: signed-in, its handler runs in one tenant transaction. */
export type TenantRouteSpec<B extends Schema, Q extends Schema, P extends Schema> = RouteSpec<B, Q, P> &
  RouteAccess & {
    handler(ctx: ServiceContext, input: RouteInput<B, Q, P>, http: Http): Promise<unknown>;
  };

/** The caller of a signed-in route that opens its transaction(s) itself. */
export interface RequestCaller extends TransactingCaller {
  /** The owner connection too, for the few steps outside the tenant (sessions). */
  database: Database;
}

/**
 * A signed-in route that must do work outside the tenant transaction: receive a file before it, refresh
 * statistics after it, call an outside service without holding a connection, or use the owner connection
 * (sessions).
 */
export type UntransactedRouteSpec<B extends Schema, Q extends Schema, P extends Schema> = RouteSpec<B, Q, P> &
  RouteAccess & {
    handler(caller: RequestCaller, input: RouteInput<B, Q, P>, http: Http): Promise<unknown>;
  };

/** A route anyone may call (sign-in, captchas, public configuration): no account, no tenant. */
export interface PublicRouteSpec<B extends Schema, Q extends Schema, P extends Schema> extends Omit<RouteSpec<B, Q, P>, 'permission'> {
  handler(deps: ModuleDeps, input: RouteInput<B, Q, P>, http: Http): Promise<unknown>;
}

/** A declared route, ready for `registerModules`. */
export interface RouteDeclaration {
  readonly method: string;
  readonly url: string;
  /** `area`: the registering module's name, which the route inherits unless it declares its own. */
  register(app: FastifyInstance, deps: ModuleDeps, area?: string): void;
}

/** The caller of a signed-in request, before any transaction. */
export function callerOf(request: FastifyRequest, config: Config): Caller {
  return { tenantId: request.auth.tenantId, account: request.auth, config, registries: request.server.registries, log: request.log, ip: request.ip, access: request.server.access };
}

/** The route config of a signed-in route: the codes checked before its handler, and how a read declared them. */
function accessConfig(spec: RouteSpec<Schema, Schema, Schema> & { picker?: readonly string[]; openRead?: OpenRead }): FastifyContextConfig {
  const { permission, picker, openRead } = spec;
  if (spec.method !== 'GET') return { permission };
  const declared = [permission !== undefined, picker !== undefined, openRead !== undefined].filter(Boolean).length;
  // The types already ask for this; a cast or a generated spec must not slip past it.
  if (declared !== 1) throw new Error(`GET ${spec.url} must declare exactly one of permission, picker or openRead`);
  if (picker) {
    if (!picker.length) throw new Error(`GET ${spec.url}: a picker names the screens that use it`);
    return { permission: picker.join('|'), read: 'picker' as const };
  }
  if (openRead) {
    if (!(openRead in OPEN_READS)) throw new Error(`GET ${spec.url}: unknown open read ${openRead}`);
    return { read: 'open' as const, openRead };
  }
  return { permission, read: 'screen' as const };
}

function declare<B extends Schema, Q extends Schema, P extends Schema>(
  spec: RouteSpec<B, Q, P> & { picker?: readonly string[]; openRead?: OpenRead },
  access: { public: boolean },
  run: (deps: ModuleDeps, input: RouteInput<B, Q, P>, http: Http) => Promise<unknown>,
): RouteDeclaration {
  const config: FastifyContextConfig = access.public ? { auth: false } : accessConfig(spec);
  return {
    method: spec.method,
    url: spec.url,
    register(app, deps, area) {
      app.withTypeProvider<ZodTypeProvider>().route({
        method: spec.method,
        url: spec.url,
        config: access.public ? config : { ...config, area: spec.area ?? area },
        schema: {
          tags: spec.tags,
          summary: spec.summary,
          // Only the parts a route has: Fastify warns about a schema key given as undefined.
          ...(spec.body && { body: spec.body }),
          ...(spec.query && { querystring: spec.query }),
          ...(spec.params && { params: spec.params }),
          ...(spec.consumes && { consumes: spec.consumes }),
          ...(spec.description && { description: spec.description }),
          ...(spec.hide && { hide: true }),
        },
        handler: async (request, reply) => {
          // The schemas above validated these; the handler's types come from the same schemas.
          const input = { body: request.body, query: request.query, params: request.params } as RouteInput<B, Q, P>;
          const result = await run(deps, input, { request, reply });
          // The handler sent the answer itself (a download, a stored file). It returns the reply, but a
          // Fastify reply is a thenable: awaiting it resolves to undefined once the answer is written, so
          // the reply's own state says so — sending an envelope after it would be a second send ("Reply
          // was already sent").
          if (result === reply || reply.sent || reply.raw.headersSent) return reply;
          if (spec.page) {
            const page = result as { data: unknown[]; pagination: Pagination };
            return paged(page.data, page.pagination);
          }
          return ok(result ?? null);
        },
      });
    },
  };
}

/** A signed-in route whose handler runs in one tenant transaction (the usual case). */
export function route<B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(spec: TenantRouteSpec<B, Q, P>): RouteDeclaration {
  return declare(spec, { public: false }, (deps, input, http) =>
    withServiceContext(deps.database, callerOf(http.request, deps.config), (ctx) => spec.handler(ctx, input, http)),
  );
}

/** A signed-in route that opens its transaction(s) itself, through `caller.transaction`. */
export function untransactedRoute<B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(
  spec: UntransactedRouteSpec<B, Q, P>,
): RouteDeclaration {
  return declare(spec, { public: false }, (deps, input, http) => {
    const caller = callerOf(http.request, deps.config);
    const requestCaller: RequestCaller = { ...caller, database: deps.database, transaction: (fn) => withServiceContext(deps.database, caller, fn) };
    return spec.handler(requestCaller, input, http);
  });
}

/** Declarations that belong to `area` whatever module registers them (a bill type's routes: its area). */
export function inArea(area: string, declarations: readonly RouteDeclaration[]): RouteDeclaration[] {
  return declarations.map((d) => ({ method: d.method, url: d.url, register: (app, deps) => d.register(app, deps, area) }));
}

/** A route open to anyone. */
export function publicRoute<B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(spec: PublicRouteSpec<B, Q, P>): RouteDeclaration {
  return declare(spec, { public: true }, (deps, input, http) => spec.handler(deps, input, http));
}

/**
 * A server module as app.ts registers it: its declared routes, and what it plugs into the app's
 * registries at start (the "in use" checkers of the records it refers to, its import templates, printer
 * providers). Registries are filled before any route runs; a module never imports another module.
 */
export interface ServerModule {
  name: string;
  routes: readonly RouteDeclaration[];
  register?(registries: Registries, deps: ModuleDeps): void;
}

/** Registers the modules: every module's registry entries first (a route may ask any of them), then the routes. */
export function registerModules(app: FastifyInstance, deps: ModuleDeps, modules: readonly ServerModule[]): void {
  for (const module of modules) module.register?.(app.registries, deps);
  for (const module of modules) for (const declaration of module.routes) declaration.register(app, deps, module.name);
}
