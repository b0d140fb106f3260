import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { assignSchema, enableSchema, idParamsSchema, idsSchema, pickerQuerySchema, type AssignableRecord, type PickerQuery } from '@p8/contract/basic';
import type { Pagination } from '@p8/contract/envelope';
import type { ImportResult } from '@p8/contract/upload';
import type { Config } from '../../config.ts';
import type { Database, Tx } from '../../db/connection.ts';
import { assignRecords, assignToCreator } from '../../core/assignment-range.ts';
import { audit } from '../../core/audit.ts';
import { ok, paged } from '../../core/envelope.ts';
import { exportXlsx, langOf, receiveImportFile, runImport, sendXlsx, type ExcelColumn, type ImportRow, type Lang, type PreparedImport } from '../../core/excel.ts';
import { reportedImport, type ImportJob } from '../../core/import-job.ts';
import { listQuerySchema } from '../../core/list-query.ts';
import { loggableError } from '../../core/errors.ts';
import { analyze, distinct, exportQuery, type RowHandler } from './kit.ts';

type Query = Record<string, unknown>;
type Page<T> = { data: T[]; pagination: Pagination };

/**
 * What one basic record offers; `registerRecordRoutes` turns it into the usual record routes (list, detail, add, update, delete, enable, import, export) under
 * /api/admin/basic/<record>, each write guarded by its button code `basic_<record>_<action>`, run in one
 * transaction and recorded in the audit log.
 */
export interface RecordDefinition<C, U> {
  record: string;
  /** Business name in the audit log. */
  entity: string;
  createSchema: z.ZodType<C>;
  updateSchema: z.ZodType<U & { id: number }>;
  list(tx: Tx, req: FastifyRequest, query: Query): Promise<Page<unknown>>;
  /** Sums of the list's summable columns over the same query. */
  statistics?(tx: Tx, req: FastifyRequest, query: Query): Promise<Record<string, string>>;
  detail(tx: Tx, req: FastifyRequest, id: number): Promise<unknown>;
  create(tx: Tx, req: FastifyRequest, body: C): Promise<{ id: number }>;
  update(tx: Tx, req: FastifyRequest, body: U & { id: number }): Promise<unknown>;
  remove(tx: Tx, req: FastifyRequest, ids: number[]): Promise<void>;
  enable(tx: Tx, req: FastifyRequest, ids: number[], enabled: boolean): Promise<void>;
  picker?(tx: Tx, req: FastifyRequest, query: PickerQuery): Promise<Page<unknown>>;
  /** Records that can be assigned to departments and staff. */
  assignable?: AssignableRecord;
  excel: {
    /** Template key of the record's import (`/api/base/template/<key>.xlsx`). */
    template: string;
    importColumns: ExcelColumn[];
    /** Builds the row handler once per import (lookups loaded once, not per row); `runImport` runs it. */
    importer?(tx: Tx, req: FastifyRequest): Promise<RowHandler>;
    /**
     * Tables to ANALYZE before and after an import. A bulk load changes a table's size by orders of
     * magnitude; fresh statistics also make PostgreSQL re-plan its cached foreign-key checks (on PGlite,
     * which runs no autovacuum, nothing else would).
     */
    analyze?: string[];
    /** For assignable records: the ids this import created (see `createdInThisTransaction`), assigned like a create's. */
    importedIds?(tx: Tx, req: FastifyRequest): Promise<number[]>;
    /**
     * Instead of `importer`, where volume needs it (materials): checks the rows outside any transaction
     * and leaves only the writing to the route's transaction. Same result, same row semantics.
     */
    bulkImport?(req: FastifyRequest, rows: ImportRow[], onUnexpected: (error: unknown, row: ImportRow) => void, job: ImportJob): Promise<PreparedImport>;
    exportColumns: ExcelColumn[];
    exportRows(tx: Tx, req: FastifyRequest, query: Query, lang: Lang): Promise<Array<Record<string, unknown>>>;
    /** Download name without extension, per language. */
    filename: { zh: string; en: string };
  };
}

export function registerRecordRoutes<C, U>(app: FastifyInstance, deps: { config: Config; database: Database }, def: RecordDefinition<C, U>) {
  const { config, database } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = `/api/admin/basic/${def.record}`;
  const tags = [`basic: ${def.record}`];
  const code = (action: string) => `basic_${def.record}_${action}`;
  app.importTemplates.register(def.excel.template, def.excel.importColumns);

  r.get(base, { schema: { tags, summary: `${def.entity} list, paged`, querystring: listQuerySchema } }, async (req) => {
    const page = await req.tenant((tx) => def.list(tx, req, req.query));
    return paged(page.data, page.pagination);
  });

  if (def.statistics) {
    const statistics = def.statistics;
    r.get(`${base}/statistics`, { schema: { tags, summary: `${def.entity} list sums`, querystring: listQuerySchema } }, async (req) =>
      ok(await req.tenant((tx) => statistics(tx, req, req.query))),
    );
  }

  if (def.picker) {
    const picker = def.picker;
    r.get(`${base}/picker`, { schema: { tags, summary: `${def.entity} picker: enabled, within the assignment range`, querystring: pickerQuerySchema } }, async (req) => {
      const page = await req.tenant((tx) => picker(tx, req, req.query));
      return paged(page.data, page.pagination);
    });
  }

  r.get(`${base}/:id`, { schema: { tags, summary: `One ${def.entity}`, params: idParamsSchema } }, async (req) =>
    ok(await req.tenant((tx) => def.detail(tx, req, req.params.id))),
  );

  r.post(base, { config: { permission: code('add') }, schema: { tags, summary: `Create a ${def.entity}`, body: def.createSchema } }, async (req) =>
    ok(
      await req.tenant(async (tx) => {
        const created = await def.create(tx, req, req.body as C);
        if (def.assignable) await assignToCreator(tx, req.auth, def.assignable, [created.id]);
        await audit(tx, req, { action: 'create', entity: def.entity, entityId: created.id, detail: req.body });
        return def.detail(tx, req, created.id);
      }),
    ),
  );

  r.put(base, { config: { permission: code('update') }, schema: { tags, summary: `Update a ${def.entity}`, body: def.updateSchema } }, async (req) =>
    ok(
      await req.tenant(async (tx) => {
        const body = req.body as U & { id: number };
        await def.update(tx, req, body);
        await audit(tx, req, { action: 'update', entity: def.entity, entityId: body.id, detail: body });
        return def.detail(tx, req, body.id);
      }),
    ),
  );

  r.delete(base, { config: { permission: code('delete') }, schema: { tags, summary: `Delete ${def.entity} records`, body: idsSchema } }, async (req) => {
    const ids = distinct(req.body.ids);
    await req.tenant(async (tx) => {
      await def.remove(tx, req, ids);
      await audit(tx, req, { action: 'delete', entity: def.entity, entityId: ids });
    });
    return ok(null);
  });

  r.put(`${base}/enable`, { config: { permission: code('enable') }, schema: { tags, summary: `Enable or disable ${def.entity} records`, body: enableSchema } }, async (req) => {
    const ids = distinct(req.body.ids);
    await req.tenant(async (tx) => {
      await def.enable(tx, req, ids, req.body.enabled);
      await audit(tx, req, { action: req.body.enabled ? 'enable' : 'disable', entity: def.entity, entityId: ids });
    });
    return ok(null);
  });

  if (def.assignable) {
    const recordType = def.assignable;
    r.put(`${base}/assign`, { config: { permission: code('assign') }, schema: { tags, summary: `Assign ${def.entity} records to departments and staff`, body: assignSchema } }, async (req) => {
      const ids = distinct(req.body.ids);
      await req.tenant(async (tx) => {
        // Every record must exist (and be the tenant's): the detail answers DataNotExist otherwise.
        for (const id of ids) await def.detail(tx, req, id);
        await assignRecords(tx, req.auth.tenantId, recordType, ids, req.body);
        await audit(tx, req, { action: 'assign', entity: def.entity, entityId: ids, detail: { deptIds: req.body.deptIds, adminIds: req.body.adminIds } });
      });
      return ok(null);
    });
  }

  r.post(`${base}/import`, { config: { permission: code('import') }, schema: { tags, summary: `Import ${def.entity} records from an .xlsx (multipart "file")`, consumes: ['multipart/form-data'] } }, async (req) => {
    const job = req.server.importJobs.begin(req);
    const onUnexpected = (error: unknown, row: ImportRow) => req.log.error({ err: loggableError(error), rowNum: row.rowNum }, 'import row failed unexpectedly');
    const result = await reportedImport(job, async () => {
      const rows = await receiveImportFile(req, config, def.excel.importColumns, job);
      // On the owner connection, outside the request's transaction (PGlite has one connection).
      if (def.excel.analyze) await analyze(database, def.excel.analyze);
      const prepared = def.excel.bulkImport ? await def.excel.bulkImport(req, rows, onUnexpected, job) : undefined;
      const outcome = await req.tenant(async (tx) => {
        let outcome: ImportResult;
        if (prepared) {
          await prepared.write(tx);
          outcome = prepared.outcome.finish();
        } else {
          outcome = await runImport(tx, rows, await def.excel.importer!(tx, req), onUnexpected, job);
        }
        if (def.assignable && def.excel.importedIds && outcome.successCount) await assignToCreator(tx, req.auth, def.assignable, () => def.excel.importedIds!(tx, req));
        await audit(tx, req, { action: 'import', entity: def.entity, detail: { total: outcome.total, successCount: outcome.successCount, errorCount: outcome.errorCount } });
        return outcome;
      });
      if (def.excel.analyze && outcome.successCount) await analyze(database, def.excel.analyze);
      return outcome;
    });
    return ok(result);
  });

  r.post(`${base}/export`, { config: { permission: code('export') }, schema: { tags, summary: `Export the ${def.entity} list of the current query as .xlsx`, querystring: listQuerySchema.partial() } }, async (req, reply) => {
    const lang = langOf(req);
    const rows = await req.tenant((tx) => def.excel.exportRows(tx, req, exportQuery(req), lang));
    return sendXlsx(reply, await exportXlsx(def.excel.exportColumns, rows, lang), def.excel.filename[lang]);
  });
}
