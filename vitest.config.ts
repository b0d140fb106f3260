import { defineConfig } from 'vitest/config';

/**
 * The root test run (`npx vitest run`): pure unit tests, and the server integration suite through
 * `app.inject` on PGlite (default) or PostgreSQL (`TEST_DB=postgres` with `DATABASE_URL`).
 * The browser suite has its own config in `e2e/` and never runs from here.
 *
 * The machines have 2 cores. Projects that run side by side must share `maxWorkers` (vitest groups
 * them by `sequence.groupOrder`), so the quick unit project runs first in its own group.
 */
/** How much longer than usual tests may take (P8_TEST_TIME_SCALE, default 1). */
const TIME_SCALE = Math.max(1, Number(process.env.P8_TEST_TIME_SCALE) || 1);

/**
 * What both server projects share. `server` runs its files in workers that keep the modules they loaded
 * (isolate: false); `server-isolated` runs the files that replace a module (`vi.mock`) in a fresh module
 * graph each, so that their replacement neither leaks into nor misses the other files' modules.
 */
const server = {
  environment: 'node',
  // Builds the migrated PGlite image (db/image.ts) once, or on PostgreSQL the migrated template database
  // every file's database is copied from, before the workers start.
  globalSetup: ['server/test/global-setup.ts'],
  // argon2 hashing and a database per file are slow on a small machine. P8_TEST_TIME_SCALE stretches both on
  // a machine shared with other work (a project's own limits win over CLI flags).
  testTimeout: 30_000 * TIME_SCALE,
  hookTimeout: 60_000 * TIME_SCALE,
  // PGlite (WASM) and @node-rs/argon2 hold large native state: processes, not threads.
  pool: 'forks',
  maxWorkers: 2,
} as const;
/** Server test files that replace a module with `vi.mock`: each runs in a module graph of its own. */
const SERVER_ISOLATED = ['server/test/finance-postings.test.ts'];
/**
 * The server files that exercise what the embedded database does its own way: its migrated image, the demo
 * seed `npm start` runs on it, background jobs and imports on its one connection (progress only after the
 * commit, staged imports between batches), the regions' `COPY`. With `P8_SERVER_SUITE=embedded` the server
 * project runs only these: `npm test` does so on PGlite when the whole suite also runs on PostgreSQL
 * (docs/testing.md, "The server suite on two engines"). Add a file here when it tests such a path.
 */
const EMBEDDED_ENGINE_FILES = [
  'server/test/db-image.test.ts',
  'server/test/demo-seed.test.ts',
  'server/test/background-jobs.test.ts',
  'server/test/mrp-run.test.ts',
  'server/test/cost-run.test.ts',
  'server/test/excel-import.test.ts',
  'server/test/basic-excel.test.ts',
  'server/test/import-attacks.test.ts',
  'server/test/list-exports.test.ts',
  'server/test/basic-regions.test.ts',
];
const EMBEDDED_ONLY = process.env.P8_SERVER_SUITE === 'embedded';
const SERVER_FILES = EMBEDDED_ONLY ? EMBEDDED_ENGINE_FILES : ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['packages/contract/src/**/*.test.ts', 'web/src/**/*.test.ts'],
          setupFiles: ['web/src/test-setup.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'server',
          ...server,
          include: SERVER_FILES,
          exclude: SERVER_ISOLATED,
          // One module graph per worker, not per file: importing the app's sources took ≈ 6 s of every file's
          // set-up (docs/testing.md). Each file still builds its own app on its own database.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'server-isolated',
          ...server,
          include: EMBEDDED_ONLY ? [] : SERVER_ISOLATED,
          isolate: true,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
