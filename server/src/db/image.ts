import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { hashFiles, migrateDatabase, migrationsKey, openDatabase, type Database } from './connection.ts';
import { SERVER_DIR } from '../paths.ts';

/**
 * The migrated image: an embedded (PGlite) database with every committed migration applied and nothing
 * else, kept as a data-directory tarball. Creating a PGlite database runs initdb (≈ 5 s on a 2-core
 * machine) and the migrations (≈ 1 s); loading the tarball takes a fraction of that. It is built once per
 * set of migrations and PGlite version — by `npm run build`, or by the first start that needs it — and
 * kept in `node_modules/.cache/p8/` beside the PGlite package (like other build caches: a fresh
 * `npm ci` starts without it, `git clean` never leaves a stale one), or in `CACHE_DIR` when set.
 *
 * Used by `npm start` on a fresh DATA_DIR (db/open.ts) and by anything that wants a migrated in-memory
 * database quickly (`openMigratedPglite()` without a directory: tests, benchmarks).
 */

function pgliteVersion(): { dir: string; version: string } {
  // Resolves to …/node_modules/@electric-sql/pglite/dist/index.cjs; the package.json is not exported.
  // Not import.meta.resolve: vite's module runner (vitest's global setup) does not support it.
  const dir = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..');
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
  return { dir, version };
}

function imageCache(): { cache: string; version: string } {
  const { dir, version } = pgliteVersion();
  // node_modules/@electric-sql/pglite → node_modules/.cache/p8, unless CACHE_DIR says where (an empty one
  // makes a start build everything as on a fresh clone: the E2E template does).
  return { cache: process.env.CACHE_DIR ? path.resolve(process.env.CACHE_DIR) : path.resolve(dir, '../../.cache/p8'), version };
}

/** The tarball of the current migrations and PGlite version (it may not exist yet). */
export function migratedImagePath(): string {
  const { cache, version } = imageCache();
  return path.join(cache, `pglite-${version}-migrations-${migrationsKey()}.tar`);
}

let cachedSourceKey: string | undefined;
/**
 * Identifies the code that seeds the demo: a hash of every file of the server's and the contract's
 * sources (≈ 2 MB read once at start). Any edit makes the next fresh start seed anew, so the demo image
 * never holds what older code seeded.
 */
export function sourceKey(): string {
  if (cachedSourceKey) return cachedSourceKey;
  cachedSourceKey = hashFiles([path.join(SERVER_DIR, 'src'), path.join(SERVER_DIR, '../packages/contract/src')], SERVER_DIR);
  return cachedSourceKey;
}

/**
 * The demo image: a fresh DATA_DIR's database right after its first start seeded the demo tenants and
 * the demo company's records through the services (and analyzed them). The next fresh start of the same
 * code copies it instead of seeding again (≈ 5 s of a first start). Keyed by migrations, PGlite and
 * source version; it may not exist yet.
 */
export function demoImagePath(): string {
  const { cache, version } = imageCache();
  return path.join(cache, `pglite-${version}-demo-${migrationsKey()}-${sourceKey()}.tar`);
}

/** Writes the database's data directory as a tarball to `file` (temporary file renamed into place). */
export async function saveImage(database: Database, file: string): Promise<void> {
  const client = database.db.$client as { dumpDataDir(compression: 'none'): Promise<Blob> };
  const tarball = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, tarball);
  renameSync(temporary, file);
}

/** True when `dir` holds no embedded database yet. */
export function isFreshPgliteDir(dir: string): boolean {
  return !existsSync(path.join(dir, 'PG_VERSION'));
}

/**
 * Builds the image when it is missing and returns its path. Concurrent builders (test workers) each
 * write a temporary file and rename it into place, so a reader never sees half an image.
 */
export async function ensureMigratedImage(): Promise<string> {
  const file = migratedImagePath();
  if (existsSync(file)) return file;
  const database = await openDatabase({});
  try {
    await migrateDatabase(database);
    await saveImage(database, file);
  } finally {
    await database.close();
  }
  return file;
}

/**
 * A migrated embedded database: in `dir` (kept across restarts) or in memory when `dir` is undefined.
 * A directory that holds no database yet starts as a copy of `image` (default: the migrated image); one
 * that does is opened as it is. Either way `migrateDatabase` runs — a no-op past its app-role check when
 * the database is current.
 */
export async function openMigratedPglite(dir?: string, image?: string): Promise<Database> {
  const fresh = !dir || isFreshPgliteDir(dir);
  const loadDataDir = fresh ? new Blob([readFileSync(image ?? (await ensureMigratedImage()))]) : undefined;
  const database = await openDatabase({ pgliteDir: dir, loadDataDir });
  try {
    await migrateDatabase(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
