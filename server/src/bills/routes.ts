import { billDeliverySchema, billIdSchema, billMergeSchema, billPushDownSchema, billRefuseSchema, billSourcesQuerySchema } from '@p8/contract/bills/api';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billApiPath, billButtonCode, billMenuName, billCreateSchema, billUpdateSchema, type BillPayload, type BillTypeDecl } from '@p8/contract/bills/registry';
import { idParamsSchema, idsSchema } from '@p8/contract/common';
import { listQuerySchema } from '../core/list-query.ts';
import { inArea, route, untransactedRoute, type RouteDeclaration } from '../core/route.ts';
import { exportQuery, exportXlsx, langOf, sendXlsx, withImportUpload } from '../core/excel.ts';
import { reportedImport } from '../core/import-job.ts';
import type { Registries } from '../core/registries.ts';
import { billColumns, billExportRows, billTemplateKey, importBills } from './excel.ts';
import { billStatistics, billTabs, listBills } from './list.ts';
import {
  abandonAudit,
  auditBill,
  billTimeline,
  completeManually,
  createBill,
  deleteBills,
  getBill,
  mergeBills,
  openSourceLines,
  pushDown,
  refuseBill,
  submitBill,
  updateBill,
} from './service.ts';
import { confirmDelivery } from './delivery.ts';
import { stockRoutes } from './stock-routes.ts';

/**
 * The routes of every bill type, generated from the registry: `/api/admin/<area>/<route>` with the list,
 * its statistics and status tabs, one bill, its timeline, add / update / delete, submit, audit, refuse,
 * abandon audit, and — where the declaration has them — merge, manual completion and push down with its
 * picker of open source lines. Each write checks the type's button code (`<area>_<route>_<action>`), each
 * read the type's screen (its menu, `<area>_<route>`): every bill type inherits both from its declaration.
 */
export function billRoutes(decl: BillTypeDecl): RouteDeclaration[] {
  const url = billApiPath(decl);
  const tags = [decl.area];
  const code = (action: Parameters<typeof billButtonCode>[1]) => billButtonCode(decl, action);
  const screen = billMenuName(decl);
  const noun = decl.label.en.toLowerCase();
  const has = (action: Parameters<typeof billButtonCode>[1]) => decl.actions.includes(action);
  const createSchema = billCreateSchema(decl);
  const updateSchema = billUpdateSchema(decl);
  return [
    route({ method: 'GET', url, tags, permission: screen, summary: `${decl.label.en} list, paged (status tabs by billStatus)`, query: listQuerySchema, page: true, handler: (ctx, { query }) => listBills(ctx, decl, query) }),
    route({ method: 'GET', url: `${url}/statistics`, tags, permission: screen, summary: `${decl.label.en} list sums`, query: listQuerySchema, handler: (ctx, { query }) => billStatistics(ctx, decl, query) }),
    route({ method: 'GET', url: `${url}/tabs`, tags, permission: screen, summary: `${decl.label.en} count per status under the list's filters (all but the status)`, query: listQuerySchema, handler: (ctx, { query }) => billTabs(ctx, decl, query) }),
    route({ method: 'GET', url: `${url}/:id`, tags, permission: screen, summary: `One ${noun} with its lines`, params: idParamsSchema, handler: (ctx, { params }) => getBill(ctx, decl, params.id) }),
    route({ method: 'GET', url: `${url}/:id/timeline`, tags, permission: screen, summary: `The ${noun}'s transitions`, params: idParamsSchema, handler: (ctx, { params }) => billTimeline(ctx, decl, params.id) }),
    route({ method: 'POST', url, tags, summary: `Create a ${noun}`, permission: code('add'), body: createSchema, handler: (ctx, { body }) => createBill(ctx, decl, body as BillPayload) }),
    route({
      method: 'PUT', url, tags, summary: `Update a ${noun} (its lines replaced)`, permission: code('update'), body: updateSchema,
      handler: (ctx, { body }) => updateBill(ctx, decl, body as BillPayload & { id: number }),
    }),
    route({ method: 'DELETE', url, tags, summary: `Delete ${noun} drafts`, permission: code('delete'), body: idsSchema, handler: (ctx, { body }) => deleteBills(ctx, decl, body.ids) }),
    route({ method: 'POST', url: `${url}/submit`, tags, summary: `Submit a ${noun} for audit`, permission: code('submit'), body: billIdSchema, handler: (ctx, { body }) => submitBill(ctx, decl, body.id) }),
    route({ method: 'POST', url: `${url}/audit`, tags, summary: `Audit (approve) a ${noun}`, permission: code('audit'), body: billIdSchema, handler: (ctx, { body }) => auditBill(ctx, decl, body.id) }),
    route({ method: 'POST', url: `${url}/refuse`, tags, summary: `Refuse a ${noun} with a reason`, permission: code('audit'), body: billRefuseSchema, handler: (ctx, { body }) => refuseBill(ctx, decl, body.id, body.reason) }),
    route({
      method: 'POST', url: `${url}/abandonAudit`, tags, summary: `Withdraw a ${noun}'s audit`, permission: code('abandonAudit'), body: billIdSchema,
      handler: (ctx, { body }) => abandonAudit(ctx, decl, body.id),
    }),
    ...(has('manualCompletion')
      ? [route({
          method: 'POST', url: `${url}/manualCompletion`, tags, summary: `Close what is open on a ${noun}`, permission: code('manualCompletion'), body: billIdSchema,
          handler: (ctx, { body }) => completeManually(ctx, decl, body.id),
        })]
      : []),
    ...(has('delivery')
      ? [route({
          method: 'POST', url: `${url}/delivery`, tags, summary: `Confirm a ${noun} sent, then arrived`, permission: code('delivery'), body: billDeliverySchema,
          handler: (ctx, { body }) => confirmDelivery(ctx, decl, body.id, body.operation),
        })]
      : []),
    ...(has('merge')
      ? [route({ method: 'POST', url: `${url}/merge`, tags, summary: `Merge ${noun} drafts into one`, permission: code('merge'), body: billMergeSchema, handler: (ctx, { body }) => mergeBills(ctx, decl, body.ids) })]
      : []),
    ...(has('export')
      ? [
          // The rows are read in a short transaction; the workbook is built after it, holding no connection.
          untransactedRoute({
            method: 'POST', url: `${url}/export`, tags, summary: `Export the ${noun} list of the current query as .xlsx (one row per line)`, permission: code('export'),
            query: listQuerySchema.partial(),
            async handler(caller, _input, { request, reply }) {
              const lang = langOf(request);
              const { columns, rows } = await caller.transaction((ctx) => billExportRows(ctx, decl, exportQuery(request), lang));
              return sendXlsx(reply, await exportXlsx(columns, rows, lang), decl.label[lang]);
            },
          }),
        ]
      : []),
    ...(has('import')
      ? [
          untransactedRoute({
            method: 'POST', url: `${url}/import`, tags, summary: `Import ${noun} drafts from an .xlsx (multipart "file"; template ${billTemplateKey(decl)}); all or nothing`, permission: code('import'),
            consumes: ['multipart/form-data'],
            handler: (caller, _input, { request }) => {
              const job = request.server.importJobs.begin(request);
              return reportedImport(job, () => withImportUpload(request, caller.config, billColumns(decl, false), job, (upload) => importBills(caller.transaction, decl, upload, job)));
            },
          }),
        ]
      : []),
    ...(decl.sources.length
      ? [
          route({
            // Read by this type's form (push down), so by its screen.
            method: 'GET', url: `${url}/sources`, tags, summary: `Open source lines a ${noun} can be pushed down from`, permission: screen, query: billSourcesQuerySchema, page: true,
            handler: (ctx, { query }) => openSourceLines(ctx, decl, query),
          }),
          route({
            method: 'POST', url: `${url}/pushDown`, tags, summary: `A new ${noun} draft from open source lines`, permission: code('add'), body: billPushDownSchema,
            handler: (ctx, { body }) => pushDown(ctx, decl, body.sourceType, body.sourceLineIds, body.numbers),
          }),
        ]
      : []),
  ];
}

/** The import template of every type that imports (`/api/base/template/bill_<area>_<route>.xlsx`). */
export function registerBillTemplates(registries: Pick<Registries, 'importTemplates'>) {
  for (const decl of BILL_TYPES) if (decl.actions.includes('import')) registries.importTemplates.register(billTemplateKey(decl), billColumns(decl, false));
}

/** Every bill type's routes and the stock routes. */
// Each type's routes belong to its area (finance bills close with an expired finance module).
export const allBillRoutes: RouteDeclaration[] = [...BILL_TYPES.flatMap((decl) => inArea(decl.area, billRoutes(decl))), ...inArea('stock', stockRoutes)];

