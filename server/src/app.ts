import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/connection.ts';
import { AccessCache } from './core/access-cache.ts';
import { authPlugin } from './core/auth.ts';
import { createSmsSender, type SmsSender } from './core/captcha.ts';
import { clientErrorHandler, frameworkErrorHandler, registerEnvelopeHandlers } from './core/envelope.ts';
import { importJobKind, importJobsPlugin } from './core/import-job.ts';
import { lifecyclePlugin } from './core/lifecycle.ts';
import { JobRunner } from './core/background-jobs.ts';
import { exportJobKind } from './core/export-jobs.ts';
import { ReplayableRoutes } from './core/replayed-routes.ts';
import { permissionPlugin } from './core/permissions.ts';
import { registriesPlugin } from './core/registries.ts';
import { openSharedState, type SharedState } from './core/shared-state.ts';
import { authModule } from './modules/auth/routes.ts';
import { personModule } from './modules/person/routes.ts';
import { tenantModule } from './modules/tenant/routes.ts';
import { platformModule } from './modules/platform/routes.ts';
import { multipartPlugin } from './core/uploads.ts';
import { uploadModule } from './modules/upload/routes.ts';
import { officeModule } from './modules/office/routes.ts';
import { systemModule } from './modules/system/routes.ts';
import { registerModules, type ModuleDeps } from './core/route.ts';
import { basicModule } from './modules/basic/routes.ts';
import { installRichTextSanitiser } from '@p8/contract/rich-text';
import { sanitizeRichText } from './core/rich-text.ts';
import { mallModule } from './modules/mall/routes.ts';
import { pictureModule } from './modules/picture/routes.ts';
import { deliveredBlocker } from './bills/delivery.ts';
import { allBillRoutes, registerBillTemplates } from './bills/routes.ts';
import { registerBillUsage } from './bills/usage.ts';
import { assetDashboard, billDateDashboard } from './bills/dashboard.ts';
import { baseModule } from './modules/base/routes.ts';
import { chatPlugin } from './modules/service/chat-hub.ts';
import { serviceModule } from './modules/service/routes.ts';
import { financeModule } from './modules/finance/routes.ts';
import { productionModule } from './modules/production/routes.ts';
import { qualityModule } from './modules/quality/routes.ts';
import { outsourcingModule } from './modules/outsourcing/routes.ts';
import { peopleModule } from './modules/people/routes.ts';
import { tasksModule } from './modules/tasks/routes.ts';
import { homeModule } from './modules/home/routes.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  sms?: SmsSender;
  /** Counters, codes and cache invalidation; default: Redis when REDIS_URL is set, else in-process. */
  shared?: SharedState;
  /** Pino options; tests pass false. */
  logger?: boolean | object;
  /** Told of every route as it is added (Fastify's onRoute hook, before any route): the tests list them. */
  onRoute?: (route: RouteOptions) => void;
}

const hopsTrusted = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Where the web app's content-hashed (immutable) files are served. */
const ASSETS_PREFIX = '/assets/';

/** The largest JSON body accepted (files go through multipart, with their own limits). */
export const JSON_BODY_LIMIT = 10 * 1024 * 1024;
/** Request line plus headers: Node's default is 16 KB, which a long list query could reach. */
export const MAX_HEADER_BYTES = 64 * 1024;

/** Builds the Fastify app: used by main.ts and by the tests (through `app.inject`). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: 'x-request-id',
    // Only configured proxies may tell us the client's address (X-Forwarded-For); see TRUST_PROXY.
    // A hop count becomes the function proxy-addr builds from one (Fastify's types leave numbers out).
    trustProxy: typeof config.trustProxy === 'number' ? hopsTrusted(config.trustProxy) : config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    // A long list query (many filters, a big notIn list) still reaches the route and its validation;
    // beyond this, Node refuses the request and clientErrorHandler answers the envelope (431).
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler,
    // Refusals of the router itself (an over-long path parameter: 414, a malformed escape) are envelopes too.
    frameworkErrors: frameworkErrorHandler,
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  // Contract fields declared richText() are sanitised while a request is validated.
  installRichTextSanitiser(sanitizeRichText);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const serveWeb = Boolean(config.webDist && existsSync(path.join(config.webDist, 'index.html')));
  registerEnvelopeHandlers(app, { spaFallback: serveWeb });
  app.addHook('onSend', async (request, reply) => {
    // Not on the web app's hashed files: nothing is logged for them, and the first page fetches ~30.
    if (!request.url.startsWith(ASSETS_PREFIX)) reply.header('x-request-id', request.id);
  });
  // The built web app, with the SPA's client-side routes falling back to index.html. Each file is sent
  // as its build-time brotli or gzip copy (`x.js.br`, `x.js.gz`) when the request accepts that encoding.
  if (serveWeb && config.webDist) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, file) => {
        // Hashed assets are immutable (never revalidated, so no validators: ~80 bytes less per file on the
        // first page); index.html and version.json must always be revalidated.
        if (file.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
          res.removeHeader('etag');
          res.removeHeader('last-modified');
        } else res.header('cache-control', 'no-cache');
      },
    });
  }
  // Dynamic answers of 1 KB or more — JSON, and any other type mime-db calls compressible — are compressed
  // for clients that accept it (brotli at a fast setting, or gzip). The web app's files are not: they are
  // compressed once at build time (scripts/precompress.mjs), and the static routes are registered above,
  // before this plugin's onRoute hook. Exports (xlsx) are compressed already. Request bodies are never
  // decompressed. Before the API routes (onRoute).
  await app.register(fastifyCompress, {
    customTypes: /^application\/json(;|$)/,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'P8 ERP back-office API', version: '0.1.0', description: 'Every response is the envelope { status, message, remark, additional, data }.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });

  const sms = deps.sms ?? createSmsSender(config, app.log);
  const shared = deps.shared ?? (await openSharedState(config));
  app.decorate('shared', shared);
  // A state the app opened is the app's to close; one passed in belongs to the caller.
  if (!deps.shared) app.addHook('onClose', () => shared.close());
  const access = new AccessCache(database, config, shared, app.log);
  app.decorate('access', access);
  // Pending session touches are written before the database closes (main.ts closes it after the app).
  app.addHook('onClose', () => access.close());
  // This start may have added template menus to every tenant (seed/sync.ts): no process keeps old permissions.
  await access.everythingChanged();
  await app.register(authPlugin, { access });
  await app.register(permissionPlugin, { database, platformTenantId: config.platform.tenantId });
  // Before any route plugin: content-type parsers are copied into a plugin's context when it is registered.
  await app.register(multipartPlugin, { config });
  // Before the modules: they fill the app's registries (usage checkers, import templates, printer providers).
  await app.register(registriesPlugin);
  await app.register(importJobsPlugin, { config });
  await app.register(lifecyclePlugin);
  // The live chat channel (WebSocket /api/ws) before the service routes that publish to it.
  await app.register(chatPlugin, { database, config });
  const modules: ModuleDeps = { database, config, sms, shared, registries: app.registries, access };
  // The background jobs' runner of this process (core/background-jobs.ts): main.ts starts it once the app
  // listens; it stops before the in-flight requests are awaited (its jobs go back to the queue).
  const jobs = new JobRunner({ database, config, registries: app.registries, access, log: app.log }, app.registries.jobKinds, { concurrency: config.jobs.concurrency, perTenant: config.jobs.perTenant, pollMs: config.jobs.pollMs });
  app.decorate('jobs', jobs);
  app.addHook('preClose', () => jobs.stop());
  // Exports and imports as background jobs (core/export-jobs.ts, core/import-job.ts): every export and import
  // route, noted as the modules add it, can be replayed by a job.
  const exportRoutes = new ReplayableRoutes('/export');
  const importRoutes = new ReplayableRoutes('/import');
  app.addHook('onRoute', exportRoutes.onRoute);
  app.addHook('onRoute', importRoutes.onRoute);
  app.decorate('exportRoutes', exportRoutes);
  app.decorate('importRoutes', importRoutes);
  app.registries.jobKinds.register(exportJobKind(app, database, config));
  app.registries.jobKinds.register(importJobKind(app, database, config));
  registerModules(app, modules, [
    authModule,
    personModule,
    officeModule,
    systemModule,
    tenantModule,
    platformModule,
    uploadModule,
    basicModule,
    mallModule,
    pictureModule,
    // The bill engine: every bill type of the registry, the stock reports, the records bills keep in use.
    {
      name: 'bills',
      routes: allBillRoutes,
      register(registries) {
        registerBillUsage(registries.recordUsage);
        registerBillTemplates(registries);
        registries.dashboard.register(assetDashboard);
        registries.dashboard.register(billDateDashboard);
        registries.abandonAuditBlockers.register('delivery', deliveredBlocker);
      },
    },
    // Production: its bill types' own rules.
    productionModule,
    // Outsourcing: its bill types' own rules (before finance, whose stock-value posting follows its valuation).
    outsourcingModule,
    // Quality: its inspections' own rules and its templates.
    qualityModule,
    peopleModule,
    tasksModule,
    // Finance: after the bills, whose audits it posts to the ledger.
    financeModule,
    baseModule,
    serviceModule(modules),
    homeModule,
  ]);

  return app;
}
