import { ensureMigratedImage } from '../src/db/image.ts';

/**
 * Runs once per `vitest run` before the server test files: makes sure the migrated image of the embedded
 * database exists (db/image.ts; kept between runs until a migration or the PGlite version changes), so
 * that the test workers load it rather than each building it at the same time. PostgreSQL runs create
 * and migrate a database per file and need no image.
 */
export default async function setup() {
  if (process.env.TEST_DB !== 'postgres') await ensureMigratedImage();
}
