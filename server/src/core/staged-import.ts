import { and, eq, sql, type SQL } from 'drizzle-orm';
import { rows as rowsOf, type Database, type Tx } from '../db/connection.ts';
import { importJob } from '../db/schema/index.ts';
import type { ServiceContext, TransactingCaller } from './service-context.ts';

/*
 * A bulk import in several transactions that readers still see as one (docs/decisions.md, "Big imports on
 * the embedded database"). PGlite has one connection: an import written in one transaction would hold it,
 * and every tenant's requests would wait, for the whole write. Here each batch commits on its own, so other
 * requests take the connection between batches, while the batch's rows stay hidden:
 *
 *  - the import opens a job (`import_job`, unpublished) and writes its rows with `import_job` = the job's
 *    id, in transactions that set `app.import_job` to it; a restrictive RLS policy on each such table
 *    (migration 0013) shows a marked row to that import only, until its job is
 *    published. Lists, details, pickers and every lookup run as the app role, so none sees a partial
 *    import; unique indexes do see the hidden rows, so a concurrent create of an imported code or barcode
 *    is refused (and a batch meeting a code created meanwhile is redone row by row, as before);
 *  - publishing is one short transaction (the job turns published, plus what the caller adds: assignment,
 *    audit entry): all rows appear at once. The markers are cleared afterwards in batches, a cosmetic step
 *    (a published job's rows are visible anyway);
 *  - on failure or cancellation (shutdown) the job's rows are deleted, batch by batch, and the job with
 *    them; after a crash, `removeUnpublishedImports` does it at the next start.
 *
 * PostgreSQL keeps its one transaction per import (a pool serves other requests meanwhile), so it never has
 * unpublished jobs; the start-up cleanup finds none there.
 */

/**
 * Rows deleted or unmarked per transaction when a job is discarded or its markers cleared. Each update
 * rewrites the row in every index (the trigram ones too): 2,000 held the one connection of PGlite for
 * 0.5–3 s after a 100,000-row import (bench/README.md); 500, like a write batch, keeps each wait short.
 */
const CLEANUP_BATCH = 500;

/** One step of an import's writes: a transaction of its own (staged) or the import's one transaction. */
export type ImportBatches = (fn: (tx: Tx) => Promise<void>) => Promise<void>;

/** Makes the transaction see (and write as) the rows of `jobId`. */
const actAsImport = (tx: Tx, jobId: number) => tx.execute(sql`select set_config('app.import_job', ${String(jobId)}, true)`);

/**
 * Runs a staged import: `write` gets the batches to write in (each its own transaction acting as the job;
 * rows it inserts must set `import_job` to `jobId`), then `publish` runs in the transaction that makes them
 * visible. Any failure, cancellation included, removes what the batches wrote and rethrows.
 */
export async function stagedImport<T>(
  caller: TransactingCaller,
  entity: string,
  tables: readonly string[],
  write: (batches: ImportBatches, jobId: number) => Promise<void>,
  publish: (ctx: ServiceContext, jobId: number) => Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  const jobId = await caller.transaction(async ({ tx, tenantId }) => {
    const [job] = await tx.insert(importJob).values({ tenantId, entity }).returning({ id: importJob.id });
    return Number(job.id);
  });
  let result: T;
  try {
    await write(
      (fn) =>
        caller.transaction(async (ctx) => {
          await actAsImport(ctx.tx, jobId);
          await fn(ctx.tx);
        }),
      jobId,
    );
    result = await caller.transaction(async (ctx) => {
      await actAsImport(ctx.tx, jobId);
      await ctx.tx.update(importJob).set({ published: true }).where(and(eq(importJob.tenantId, ctx.tenantId), eq(importJob.id, jobId)));
      return publish(ctx, jobId);
    });
  } catch (error) {
    await discardImport(caller, tables, jobId);
    throw error;
  }
  // Published: the rows are visible whatever happens now. Clearing the markers spares every later read the
  // job lookup; a shutdown leaves the rest to the next start.
  await inBatches(caller, tables, jobId, signal, (table, ids) => sql`update ${sql.identifier(table)} set import_job = null where tenant_id = ${caller.tenantId} and id = any(${ids}::bigint[])`);
  return result;
}

/** Deletes a job's rows (the first table first: list dependent tables before the ones they reference) and then the job. */
async function discardImport(caller: TransactingCaller, tables: readonly string[], jobId: number) {
  await inBatches(caller, tables, jobId, undefined, (table, ids) => sql`delete from ${sql.identifier(table)} where tenant_id = ${caller.tenantId} and id = any(${ids}::bigint[])`);
}

/**
 * Runs `step` over the job's rows of each table, `CLEANUP_BATCH` ids at a time, one transaction per step
 * (the ids are read first: an `id in (select … limit n)` form was planned badly on PGlite), then drops the job.
 */
async function inBatches(caller: TransactingCaller, tables: readonly string[], jobId: number, signal: AbortSignal | undefined, step: (table: string, ids: string) => SQL) {
  for (const table of tables) {
    for (;;) {
      if (signal?.aborted) return;
      const changed = await caller.transaction(async ({ tx, tenantId }) => {
        await actAsImport(tx, jobId);
        // Newest first: a tree's children (categories) go before the parents they reference.
        const ids = await rowsOf<{ id: string }>(tx, sql`select id::text from ${sql.identifier(table)} where tenant_id = ${tenantId} and import_job = ${jobId} order by id desc limit ${CLEANUP_BATCH}`);
        if (ids.length) await tx.execute(step(table, `{${ids.map((r) => r.id).join(',')}}`));
        return ids.length;
      });
      if (changed < CLEANUP_BATCH) break;
    }
  }
  await caller.transaction(({ tx, tenantId }) => tx.delete(importJob).where(and(eq(importJob.tenantId, tenantId), eq(importJob.id, jobId))));
}

/**
 * At start (before serving), on the owner connection: removes the rows of every unpublished job — left
 * by a crash or a kill during an import — and clears the markers of published ones, then the jobs.
 * Answers how many jobs it found.
 */
export async function removeUnpublishedImports(database: Database): Promise<number> {
  const jobs = await rowsOf<{ n: number }>(database, sql`select count(*)::int as n from import_job`);
  if (!jobs[0]?.n) return 0;
  // The tables with a marker column, dependent ones first (a foreign key to another marked table).
  const tables = await rowsOf<{ table_name: string; depends: boolean }>(
    database,
    sql`select c.table_name, exists (
          select 1 from pg_constraint k join pg_class r on r.oid = k.confrelid
          join information_schema.columns o on o.table_schema = 'public' and o.table_name = r.relname and o.column_name = 'import_job'
          where k.contype = 'f' and k.conrelid = (quote_ident(c.table_name))::regclass and r.relname <> c.table_name) as depends
        from information_schema.columns c where c.table_schema = 'public' and c.column_name = 'import_job' and c.table_name <> 'import_job'`,
  );
  tables.sort((a, b) => Number(b.depends) - Number(a.depends));
  await database.withSystem(async (tx) => {
    for (const { table_name } of tables) {
      const t = sql.identifier(table_name);
      await tx.execute(sql`delete from ${t} x using import_job j where j.tenant_id = x.tenant_id and j.id = x.import_job and not j.published`);
      await tx.execute(sql`update ${t} set import_job = null where import_job is not null`);
    }
    await tx.execute(sql`delete from import_job`);
  });
  return Number(jobs[0].n);
}
