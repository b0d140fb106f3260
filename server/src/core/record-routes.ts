import type { z } from 'zod';
import { assignSchema, enableSchema, idParamsSchema, idsSchema, pickerQuerySchema, type AssignableRecord, type PickerQuery } from '@p8/contract/basic';
import { treeEnabledFilter, treeQuerySchema } from '@p8/contract/common';
import type { Pagination } from '@p8/contract/envelope';
import type { ImportResult } from '@p8/contract/upload';
import { assignRecords, assignToCreator } from './assignment-range.ts';
import { changes } from './audit.ts';
import { exportQuery, exportXlsx, langOf, runImport, runImportInBatches, sendXlsx, withImportUpload, withSpilledImport, type ExcelColumn, type ImportRow, type ImportRows, type ImportUpload, type Lang, type PreparedImport } from './excel.ts';
import { distinct } from './ids.ts';
import { stagedImport, type ImportBatches } from './staged-import.ts';
import { reportedImport, type ImportJob } from './import-job.ts';
import { listQuerySchema } from './list-query.ts';
import { loggableError } from './errors.ts';
import type { Registries } from './registries.ts';
import { route, untransactedRoute, type RequestCaller, type RouteDeclaration } from './route.ts';
import type { ServiceContext, TransactingCaller } from './service-context.ts';
import { analyze, type RowHandler } from './excel-cells.ts';

type Query = Record<string, unknown>;
type Page<T> = { data: T[]; pagination: Pagination };

/**
 * What one administered record offers: its services, each taking a ServiceContext. `recordRoutes` turns it
 * into the usual record routes (list, detail, add, update, delete, enable, and where offered tree, picker,
 * statistics, assign, import, export) under /api/admin/<area>/<record>, each write guarded by its button
 * code `<area>_<record>_<action>`, run in one transaction and audited here, in one place (a create names
 * what it set, an update only the fields it changed, both as the detail shows them). The services
 * therefore write no audit entry of their own for these actions. It is the one route kit of every record:
 * basic records, declared kinds, and the system, office, base, mall and service records.
 */
export interface RecordDefinition<C, U extends { id: number }> {
  /** Routes under /api/admin/<area>/<record>, screen (menu name) `<area>_<record>`; area default 'basic'. */
  area?: string;
  record: string;
  /**
   * The route path after /api/admin/ where it is not `<area>/<record>`: the security screens' routes are
   * `security/dept` and `security/menu`, the service staff's `service/technician` (the screen stays
   * `<area>_<record>`).
   */
  path?: string;
  /**
   * Who reads the record beyond its own screen (which reads all of its routes), by route: the screens whose
   * forms use its picker, the few other screens that show its list or one record, and what the picker
   * answers (only what a picker shows). A record with a picker must name its picker's readers.
   */
  readers?: RecordReaders;
  /** Business name in the audit log. */
  entity: string;
  /** The bodies of create and update: the routes validate them, and the services' types come from them. */
  createSchema: z.ZodType<C>;
  updateSchema: z.ZodType<U>;
  list(ctx: ServiceContext, query: Query): Promise<Page<unknown>>;
  /** Sums of the list's summable columns over the same query. */
  statistics?(ctx: ServiceContext, query: Query): Promise<Record<string, string>>;
  detail(ctx: ServiceContext, id: number): Promise<object>;
  create(ctx: ServiceContext, body: C): Promise<{ id: number }>;
  /** The route answers the detail read after it (whatever the service returns). */
  update(ctx: ServiceContext, body: U): Promise<unknown>;
  remove(ctx: ServiceContext, ids: number[]): Promise<unknown>;
  enable(ctx: ServiceContext, ids: number[], enabled: boolean): Promise<unknown>;
  picker?(ctx: ServiceContext, query: PickerQuery): Promise<Page<unknown>>;
  /** A parent_id tree (departments, menus, categories): GET /tree, `enabled=true|false` filtering the nodes. */
  tree?(ctx: ServiceContext, enabled: boolean | undefined): Promise<unknown>;
  /** Records that can be assigned to departments and staff. */
  assignable?: AssignableRecord;
  /** Excel import and export (every basic record; the other areas' records export through `listExportRoute`). */
  excel?: {
    /** Template key of the record's import (`/api/base/template/<key>.xlsx`). */
    template: string;
    importColumns: ExcelColumn[];
    /**
     * Builds the row handler once per import (lookups loaded once, not per row); `runImport` runs it.
     * `staged`: its rows are written in batches hidden until published (core/staged-import.ts).
     */
    importer?(ctx: ServiceContext, staged: boolean): Promise<RowHandler>;
    /**
     * Tables to ANALYZE before and after an import. A bulk load changes a table's size by orders of
     * magnitude; fresh statistics also make PostgreSQL re-plan its cached foreign-key checks (on PGlite,
     * which runs no autovacuum, nothing else would).
     */
    analyze?: string[];
    /**
     * For assignable records: the ids this import created, assigned like a create's (`importedRows`: those
     * of the staged import `importJob`, or of this one transaction).
     */
    importedIds?(ctx: ServiceContext, importJob: number | null): Promise<number[]>;
    /**
     * Instead of `importer`, where volume needs it (materials): streams the uploaded file, checks its rows
     * outside any transaction (reading its lookups through `caller.transaction`) keeping only what later
     * rows are checked against, then writes them in batches. On PostgreSQL the batches share the route's
     * one transaction; on PGlite, whose one connection that would hold for the whole write, each batch is a
     * transaction of its own whose rows stay hidden until the import is published (core/staged-import.ts).
     * Same result, same row semantics, memory bounded by the batch rather than the file.
     */
    bulkImport?(caller: TransactingCaller, upload: ImportUpload, onUnexpected: (error: unknown, row: ImportRow) => void, job: ImportJob): Promise<PreparedImport>;
    /**
     * The tables an import of the record writes, each with an `import_job` marker and its hiding policy
     * (db/schema/tenancy.ts), dependent tables first. With them, a PGlite import commits batch by batch with
     * its rows hidden until published (core/staged-import.ts); without them it runs in one transaction.
     * A staged import changes no existing row before it is published (a discarded one could not undo it):
     * such changes wait for `publishStaged`.
     */
    stagedTables?: readonly string[];
    /**
     * What publishing a staged import of the record adds, in the publishing transaction: the changes to
     * existing rows its batches left pending (the BOM import: the defaults it sets).
     */
    publishStaged?(ctx: ServiceContext, importJob: number): Promise<void>;
    exportColumns: ExcelColumn[];
    exportRows(ctx: ServiceContext, query: Query, lang: Lang): Promise<Array<Record<string, unknown>>>;
    /** Download name without extension, per language. */
    filename: { zh: string; en: string };
  };
}

export interface RecordReaders {
  picker?: readonly string[];
  /** The screens whose forms pick from its tree. */
  tree?: readonly string[];
  list?: readonly string[];
  detail?: readonly string[];
  pickerFields?: readonly string[];
}

/** A definition of any record, as a list of them is held (each keeps its own types through `recordRoutes`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schemas differ per record; each definition is checked where it is written
export type AnyRecordDefinition = RecordDefinition<any, any>;

/** A value as an audit entry compares it: row ids inside lists left out (rewritten child rows get new ones). */
const shown = (value: unknown): unknown =>
  Array.isArray(value) ? value.map((item) => (item && typeof item === 'object' && !Array.isArray(item) ? { ...item, id: undefined } : item)) : value;

/**
 * What an update changed: the fields it sent, each compared as the detail shows it before and after (so
 * a partner's contacts rewritten with the same content, or a material's units sent unchanged, are no
 * change). Row ids inside lists are left out of the comparison: rewritten child rows get new ones.
 */
export function updateChanges(before: object, after: object, sent: object) {
  const pick = (from: object) => Object.fromEntries(Object.keys(sent).map((key) => [key, shown((from as Record<string, unknown>)[key])]));
  return changes(pick(before), pick(after));
}

/** What a create set: the fields it sent, as the detail shows them (a secret masked, child row ids left out). */
export function createdValues(created: object, sent: object) {
  return Object.fromEntries(Object.keys(sent).filter((key) => key in created).map((key) => [key, shown((created as Record<string, unknown>)[key])]));
}

/** The audit entry of an import: its counts (never its rows). */
export const auditImport = (ctx: ServiceContext, entity: string, outcome: ImportResult) =>
  ctx.audit({ action: 'import', entity, detail: { total: outcome.total, successCount: outcome.successCount, errorCount: outcome.errorCount } });

/** Runs a service of the record for an import row inside its savepoint (the row's own all-or-nothing). */
export const inSavepoint = (ctx: ServiceContext, savepoint: ServiceContext['tx']): ServiceContext => ({ ...ctx, tx: savepoint });

/**
 * Writes an import's checked-later rows one by one (`runImportInBatches`, each row in a savepoint), then
 * `finish` adds the audit entry and whatever else the import's last transaction must hold. On PGlite, when
 * the tables it writes are known (`stagedTables`), the batches commit one by one with their rows hidden
 * until `finish` publishes them (core/staged-import.ts), so other tenants are served between batches; else
 * everything runs in one transaction.
 */
export async function rowByRowImport(
  caller: RequestCaller,
  args: {
    entity: string;
    stagedTables: readonly string[] | undefined;
    rows: ImportRows;
    importer: (ctx: ServiceContext, staged: boolean) => Promise<RowHandler>;
    onUnexpected: (error: unknown, row: ImportRow) => void;
    job: ImportJob;
    finish: (ctx: ServiceContext, outcome: ImportResult, importJob: number | null) => Promise<ImportResult>;
  },
): Promise<ImportResult> {
  const { entity, stagedTables, rows, importer, onUnexpected, job, finish } = args;
  if (caller.database.kind === 'pglite' && stagedTables) {
    // The row handler's lookups are read once, in a short transaction of their own; each row then runs in
    // a savepoint of its batch's transaction.
    const handleRow = await caller.transaction((ctx) => importer(ctx, true));
    let outcome: ImportResult | undefined;
    const write = async (batches: ImportBatches) => {
      outcome = await runImportInBatches(batches, rows, handleRow, onUnexpected, job);
    };
    return stagedImport(caller, entity, stagedTables, write, (ctx, importJob) => finish(ctx, outcome!, importJob), job.signal);
  }
  return caller.transaction(async (ctx) => finish(ctx, await runImport(ctx.tx, rows, await importer(ctx, false), onUnexpected, job), null));
}

/** The import templates of a list of records. */
export function registerRecordTemplates(registries: Registries, definitions: readonly AnyRecordDefinition[]) {
  for (const def of definitions) if (def.excel) registries.importTemplates.register(def.excel.template, def.excel.importColumns);
}

/** Logs an import row that failed for an unexpected reason (its key is ImportFailed). */
export const logUnexpectedRow = (caller: Pick<ServiceContext, 'log'>) => (error: unknown, row: ImportRow) =>
  caller.log.error({ err: loggableError(error), rowNum: row.rowNum }, 'import row failed unexpectedly');

/** Keeps only `fields` of each row of a page (a picker answers what it shows). */
function pickFields(page: Page<unknown>, fields: readonly string[] | undefined): Page<unknown> {
  if (!fields) return page;
  return { ...page, data: page.data.map((row) => Object.fromEntries(fields.map((f) => [f, (row as Record<string, unknown>)[f]]))) };
}

export function recordRoutes<C, U extends { id: number }>(def: RecordDefinition<C, U>): RouteDeclaration[] {
  const area = def.area ?? 'basic';
  const url = `/api/admin/${def.path ?? `${area}/${def.record}`}`;
  const tags = [`${area}: ${def.record}`];
  const screen = `${area}_${def.record}`;
  const code = (action: string) => `${screen}_${action}`;
  const readers = def.readers ?? {};
  const readBy = (others: readonly string[] | undefined) => [screen, ...(others ?? [])].join('|');
  if (def.picker && !readers.picker) throw new Error(`${screen}: name the screens that use its picker (readers.picker)`);
  const { statistics, picker, tree, assignable, excel } = def;
  const audited = (ctx: ServiceContext, action: string, entityId: number | number[], detail?: unknown) => ctx.audit({ action, entity: def.entity, entityId, detail });

  return [
    ...(tree
      ? [route({ method: 'GET', url: `${url}/tree`, tags, summary: `The ${def.entity} tree`, picker: [screen, ...(readers.tree ?? [])], query: treeQuerySchema, handler: (ctx, { query }) => tree(ctx, treeEnabledFilter(query)) })]
      : []),
    route({ method: 'GET', url, tags, summary: `${def.entity} list, paged`, permission: readBy(readers.list), query: listQuerySchema, page: true, handler: (ctx, { query }) => def.list(ctx, query) }),
    ...(statistics
      ? [route({ method: 'GET', url: `${url}/statistics`, tags, summary: `${def.entity} list sums`, permission: screen, query: listQuerySchema, handler: (ctx, { query }) => statistics(ctx, query) })]
      : []),
    ...(picker
      ? [
          route({
            method: 'GET', url: `${url}/picker`, tags, summary: `${def.entity} picker: enabled, within the assignment range`, picker: [screen, ...(readers.picker ?? [])], query: pickerQuerySchema, page: true,
            handler: async (ctx, { query }) => pickFields(await picker(ctx, query), readers.pickerFields),
          }),
        ]
      : []),
    route({ method: 'GET', url: `${url}/:id`, tags, summary: `One ${def.entity}`, permission: readBy(readers.detail), params: idParamsSchema, handler: (ctx, { params }) => def.detail(ctx, params.id) }),
    route({
      method: 'POST', url, tags, summary: `Create a ${def.entity}`, permission: code('add'), body: def.createSchema,
      async handler(ctx, { body }) {
        const created = await def.create(ctx, body);
        if (assignable) await assignToCreator(ctx.tx, ctx.account, assignable, [created.id]);
        const detail = await def.detail(ctx, created.id);
        audited(ctx, 'create', created.id, createdValues(detail, body as object));
        return detail;
      },
    }),
    route({
      method: 'PUT', url, tags, summary: `Update a ${def.entity}`, permission: code('update'), body: def.updateSchema,
      async handler(ctx, { body }) {
        const before = await def.detail(ctx, body.id);
        await def.update(ctx, body);
        const after = await def.detail(ctx, body.id);
        const changed = updateChanges(before, after, body);
        // A save that changes nothing leaves no entry.
        if (Object.keys(changed).length) audited(ctx, 'update', body.id, changed);
        return after;
      },
    }),
    route({
      method: 'DELETE', url, tags, summary: `Delete ${def.entity} records`, permission: code('delete'), body: idsSchema,
      async handler(ctx, { body }) {
        const ids = distinct(body.ids);
        await def.remove(ctx, ids);
        audited(ctx, 'delete', ids);
      },
    }),
    route({
      method: 'PUT', url: `${url}/enable`, tags, summary: `Enable or disable ${def.entity} records`, permission: code('enable'), body: enableSchema,
      async handler(ctx, { body }) {
        const ids = distinct(body.ids);
        await def.enable(ctx, ids, body.enabled);
        audited(ctx, body.enabled ? 'enable' : 'disable', ids);
      },
    }),
    ...(assignable
      ? [
          route({
            method: 'PUT', url: `${url}/assign`, tags, summary: `Assign ${def.entity} records to departments and staff`, permission: code('assign'), body: assignSchema,
            async handler(ctx, { body }) {
              const ids = distinct(body.ids);
              // Every record must exist (and be the tenant's): the detail answers DataNotExist otherwise.
              for (const id of ids) await def.detail(ctx, id);
              await assignRecords(ctx.tx, ctx.tenantId, assignable, ids, body);
              audited(ctx, 'assign', ids, { deptIds: body.deptIds, adminIds: body.adminIds });
            },
          }),
        ]
      : []),
    ...(excel
      ? [
        untransactedRoute({
          method: 'POST', url: `${url}/import`, tags, summary: `Import ${def.entity} records from an .xlsx (multipart "file")`, permission: code('import'),
          consumes: ['multipart/form-data'],
          handler: (caller, _input, { request }) => {
            const job = request.server.importJobs.begin(request);
            const onUnexpected = logUnexpectedRow(caller);
            const { bulkImport, importer, importedIds, analyze: tables, stagedTables, publishStaged } = excel;
            /** What an import's last transaction adds to its rows: the pending changes, the creator's assignment, the audit entry, its job's success. */
            const finish = async (ctx: ServiceContext, outcome: ImportResult, importJob: number | null) => {
              if (publishStaged && importJob !== null) await publishStaged(ctx, importJob);
              if (assignable && importedIds && outcome.successCount) await assignToCreator(ctx.tx, ctx.account, assignable, () => importedIds(ctx, importJob));
              auditImport(ctx, def.entity, outcome);
              await job.complete(ctx.tx, outcome);
              return outcome;
            };
            return reportedImport(job, async () => {
              // ANALYZE runs on the owner connection, outside any transaction (PGlite has one connection).
              const outcome = bulkImport
                ? await withImportUpload(request, caller.config, excel.importColumns, job, async (upload) => {
                    const prepared = await bulkImport(caller, upload, onUnexpected, job);
                    if (tables) await analyze(caller.database, tables);
                    if (caller.database.kind === 'pglite' && stagedTables) {
                      return stagedImport(caller, def.entity, stagedTables, (batches, importJob) => prepared.write(batches, importJob), (ctx, importJob) => finish(ctx, prepared.outcome.finish(), importJob), job.signal);
                    }
                    return caller.transaction(async (ctx) => {
                      await prepared.write((fn) => fn(ctx.tx), null);
                      return finish(ctx, prepared.outcome.finish(), null);
                    });
                  })
                : await withSpilledImport(request, caller.config, excel.importColumns, job, async (rows) => {
                    if (tables) await analyze(caller.database, tables);
                    return rowByRowImport(caller, { entity: def.entity, stagedTables, rows, importer: importer!, onUnexpected, job, finish });
                  });
              if (tables && outcome.successCount) await analyze(caller.database, tables);
              return outcome;
            });
          },
        }),
        // The rows are read in a short transaction; the workbook is built after it, holding no connection.
        untransactedRoute({
          method: 'POST', url: `${url}/export`, tags, summary: `Export the ${def.entity} list of the current query as .xlsx`, permission: code('export'), query: listQuerySchema.partial(),
          async handler(caller, _input, { request, reply }) {
            const lang = langOf(request);
            const rows = await caller.transaction((ctx) => excel.exportRows(ctx, exportQuery(request), lang));
            return sendXlsx(reply, await exportXlsx(excel.exportColumns, rows, lang), excel.filename[lang]);
          },
        }),
        ]
      : []),
  ];
}
