import { startPeriodic } from './periodic.ts';
import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { unlink } from 'node:fs/promises';
import type { Config } from '../config.ts';
import { rows, type Database, type Tx } from '../db/connection.ts';
import { uploadFile } from '../db/schema/index.ts';
import { monthOf, storedFilePath } from './uploads.ts';

/*
 * Uploads no saved record names. A file is uploaded when it is picked, before its form is saved: a form
 * closed without saving (a new product with its images) leaves the file behind. Two ways clear them:
 * the form's discard (`discardOwnUploads`, the caller's own recent uploads, told by the web when a dialog is
 * closed unsaved) and the sweep (`sweepOrphanUploads`, at start and daily: uploads older than
 * UPLOAD_ORPHAN_HOURS that nothing refers to).
 *
 * "Refers to" is read from the data itself, not from a list of columns: every text and JSON column of every
 * table (bills' attachments, products' images, rich text, settings, the audit log…) is searched for the
 * file's stored name, on the owner connection (every tenant's rows). A column added tomorrow is covered
 * the day it exists, and a file named anywhere — even in another tenant's row or an old audit entry —
 * stays: the search only ever keeps too much.
 */

/** A stored name as the server makes them (uploads.ts `storeFile`): `<uuid>.<ext>`. */
const STORED_NAME = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.[A-Za-z0-9]{1,10}';

/** The text and JSON columns of every table but the uploads' own, by table. */
async function textColumns(tx: Tx): Promise<Map<string, string[]>> {
  const found = await rows<{ table: string; column: string }>(
    tx,
    sql`select c.table_name as "table", c.column_name as "column"
        from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
        where c.table_schema = 'public' and c.table_name <> 'upload_file'
          and c.data_type in ('text', 'character varying', 'json', 'jsonb', 'ARRAY')
        order by 1, 2`,
  );
  const byTable = new Map<string, string[]>();
  for (const { table, column } of found) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  return byTable;
}

/**
 * Which stored names some row of some table names: of `names` only, or (none given) every one — one scan
 * of each table either way, so a sweep costs one pass over the data however many uploads it weighs.
 */
export async function referencedUploads(tx: Tx, names?: readonly string[]): Promise<Set<string>> {
  const referenced = new Set<string>();
  if (names && !names.length) return referenced;
  const only = names ? sql` where m[1] in (${sql.join(names.map((n) => sql`${n}`), sql`, `)})` : sql``;
  for (const [table, columns] of await textColumns(tx)) {
    const text = sql.join(columns.map((c) => sql`${sql.identifier(c)}::text`), sql`, `);
    const hits = await rows<{ name: string }>(tx, sql`select distinct m[1] as name from ${sql.identifier(table)}, regexp_matches(concat_ws(' ', ${text}), ${`(${STORED_NAME})`}, 'g') m${only}`);
    for (const hit of hits) referenced.add(hit.name);
  }
  return referenced;
}

type UploadRow = { tenantId: number; id: number; storedName: string; createdAt: Date };

/** Removes the rows, then their files (the month folder of the store, or the one before at a month's turn). */
async function removeUploads(tx: Tx, config: Config, found: readonly UploadRow[]): Promise<{ removed: number; unlinks: Array<() => Promise<void>> }> {
  const unlinks: Array<() => Promise<void>> = [];
  for (const row of found) {
    await tx.delete(uploadFile).where(and(eq(uploadFile.tenantId, row.tenantId), eq(uploadFile.id, row.id)));
    const months = new Set([monthOf(row.createdAt), monthOf(new Date(row.createdAt.getTime() - 60_000))]);
    for (const month of months) {
      const file = storedFilePath(config, { tenantId: String(row.tenantId), month, name: row.storedName });
      if (file) unlinks.push(() => unlink(file).catch(() => {}));
    }
  }
  return { removed: found.length, unlinks };
}

const columns = { tenantId: uploadFile.tenantId, id: uploadFile.id, storedName: uploadFile.storedName, createdAt: uploadFile.createdAt };

/**
 * Removes the uploads older than `olderThanHours` that no record names, across every tenant: one pass over
 * the data collects every stored name it holds (only when some upload is old enough to weigh), then the
 * old uploads are read and the unnamed ones removed `batch` at a time, each batch a short transaction —
 * each file from its own tenant's folder. A reference from anywhere keeps a file. Answers how many went.
 * (A record saved between the pass and the removal naming a file a day old would lose it: a form would
 * have to stay open for UPLOAD_ORPHAN_HOURS.)
 */
export async function sweepOrphanUploads(database: Database, config: Config, { olderThanHours, batch = 200, now = new Date() }: { olderThanHours: number; batch?: number; now?: Date }): Promise<number> {
  const before = new Date(now.getTime() - olderThanHours * 3600_000);
  const [anyOld] = await database.withSystem((tx) => tx.select({ id: uploadFile.id }).from(uploadFile).where(lt(uploadFile.createdAt, before)).limit(1));
  if (!anyOld) return 0;
  const referenced = await database.withSystem((tx) => referencedUploads(tx));
  let removed = 0;
  let afterId = 0;
  for (;;) {
    const { count, last, gone } = await database.withSystem(async (tx) => {
      const candidates = await tx.select(columns).from(uploadFile).where(and(lt(uploadFile.createdAt, before), gt(uploadFile.id, afterId))).orderBy(asc(uploadFile.id)).limit(batch);
      const orphans = candidates.filter((c) => !referenced.has(c.storedName));
      return { count: candidates.length, last: candidates.at(-1)?.id ?? afterId, gone: await removeUploads(tx, config, orphans) };
    });
    // The files go once their rows are gone for good (committed).
    for (const remove of gone.unlinks) await remove();
    removed += gone.removed;
    if (count < batch) break;
    afterId = last;
  }
  return removed;
}

/**
 * The caller's own uploads among `names` made within the last `withinHours` that no record names, removed
 * (a form closed without saving). Another account's files, older ones and any file a record names stay.
 */
export async function discardOwnUploads(database: Database, config: Config, who: { tenantId: number; adminId: number }, names: readonly string[], withinHours: number): Promise<number> {
  if (!names.length) return 0;
  const since = new Date(Date.now() - withinHours * 3600_000);
  const gone = await database.withSystem(async (tx) => {
    const own = await tx
      .select(columns)
      .from(uploadFile)
      .where(and(eq(uploadFile.tenantId, who.tenantId), eq(uploadFile.createdBy, who.adminId), inArray(uploadFile.storedName, [...names]), gt(uploadFile.createdAt, since)));
    const referenced = await referencedUploads(tx, own.map((r) => r.storedName));
    return removeUploads(tx, config, own.filter((r) => !referenced.has(r.storedName)));
  });
  for (const remove of gone.unlinks) await remove();
  return gone.removed;
}

/**
 * Sweeps at start (after `delayMs`, not competing with the first requests) and every `intervalMs` — daily:
 * a sweep reads all the data once, and an orphan waits at most a day more (a run still going skips the next
 * tick); answers the stop function (waits for a running sweep).
 */
export function startUploadSweep(deps: { database: Database; config: Config; log: { info(o: object, m: string): void; error(o: object, m: string): void } }, intervalMs = 24 * 3600_000, delayMs = 60_000): () => Promise<void> {
  const sweep = () =>
    sweepOrphanUploads(deps.database, deps.config, { olderThanHours: deps.config.upload.orphanHours }).then(
      (n) => void (n > 0 && deps.log.info({ removed: n }, 'uploads no record names removed')),
      (error: unknown) => deps.log.error({ err: error }, 'uploads: the orphan sweep failed'),
    );
  return startPeriodic(sweep, intervalMs, delayMs);
}
