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
          // P8_TEST_TIME_SCALE stretches both on a machine shared with other work (a project's own limits win over CLI flags).
          testTimeout: 30_000 * TIME_SCALE,
          hookTimeout: 60_000 * TIME_SCALE,
          // PGlite (WASM) and @node-rs/argon2 hold large native state: processes, not threads.
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
