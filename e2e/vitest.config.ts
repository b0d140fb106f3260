import { defineConfig } from 'vitest/config';

/**
 * The browser suite (`npm run test:e2e`): each spec file starts its own server and Chromium, one file at a time
 * (`E2E_WORKERS`, default 1; 2 ran two at once, but in the first full CI run that way the suite was no faster —
 * 12 of 27 files in 22 minutes — and the MRP spec's runs timed out, so it stays opt-in). One file keeps less than one of the two cores busy on average — a
 * test waits on the browser's frames, its requests and the server's answers in turn (an estimated 950 s of CPU in
 * the 2,077 s the stage took one file at a time; docs/testing.md) — and the files share nothing but the
 * seeded template they copy.
 * `E2E_JSON_REPORT=<file>` adds a JSON report, used by `npm test` to add up the counts.
 */
const jsonReport = process.env.E2E_JSON_REPORT;
/** How much longer than usual tests may take on a busy machine (P8_TEST_TIME_SCALE, default 1). */
const TIME_SCALE = Math.max(1, Number(process.env.P8_TEST_TIME_SCALE) || 1);
/** Spec files at once. */
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS) || 1);

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
