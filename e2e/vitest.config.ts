import { defineConfig } from 'vitest/config';

/**
 * The browser suite (`npm run test:e2e`): each spec file starts its own server and Chromium, two files at a time
 * (`E2E_WORKERS`, default 2). One file keeps about half a core busy — a test waits on the browser's frames, its
 * requests and the server's answers in turn — so two share the machine's two cores (docs/testing.md, "End-to-end");
 * the files share nothing but the seeded template they copy (the PostgreSQL specs make databases and Redis
 * prefixes of their own).
 * `E2E_JSON_REPORT=<file>` adds a JSON report, used by `npm test` to add up the counts.
 */
const jsonReport = process.env.E2E_JSON_REPORT;
/** How much longer than usual tests may take on a busy machine (P8_TEST_TIME_SCALE, default 1). */
const TIME_SCALE = Math.max(1, Number(process.env.P8_TEST_TIME_SCALE) || 1);
/** Spec files at once. */
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS) || 2);

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['specs/*.spec.ts'],
    environment: 'node',
    globalSetup: ['./global-setup.ts'],
    pool: 'forks',
    fileParallelism: WORKERS > 1,
    maxWorkers: WORKERS,
    testTimeout: 60_000 * TIME_SCALE,
    hookTimeout: 120_000 * TIME_SCALE,
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
  },
});
