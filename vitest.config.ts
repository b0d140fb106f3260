import { defineConfig } from 'vitest/config';

/**
 * The root test run (`npx vitest run`): pure unit tests, and the server integration suite through
 * `app.inject` on PGlite (default) or PostgreSQL (`TEST_DB=postgres` with `DATABASE_URL`).
 * The browser suite has its own config in `e2e/` and never runs from here.
 *
 * The machines have 2 cores. Projects that run side by side must share `maxWorkers` (vitest groups
 * them by `sequence.groupOrder`), so the quick unit project runs first in its own group.
 */
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
          environment: 'node',
          include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
          // Builds the migrated PGlite image (db/image.ts) once, before the workers start loading it.
          globalSetup: ['server/test/global-setup.ts'],
          // argon2 hashing and a database per file (on PostgreSQL: created and migrated) are slow on a small machine.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // PGlite (WASM) and @node-rs/argon2 hold large native state: processes, not threads.
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
