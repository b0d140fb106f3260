import { defineConfig } from 'vitest/config';

/**
 * The browser suite (`npm run test:e2e`): each spec file starts its own server and Chromium, and the
 * files run one after another (two cores: a server plus a browser per file is already the machine).
 * `E2E_JSON_REPORT=<file>` adds a JSON report, used by `npm test` to add up the counts.
 */
const jsonReport = process.env.E2E_JSON_REPORT;
/** How much longer than usual tests may take on a busy machine (P8_TEST_TIME_SCALE, default 1). */
const TIME_SCALE = Math.max(1, Number(process.env.P8_TEST_TIME_SCALE) || 1);

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['specs/*.spec.ts'],
    environment: 'node',
    globalSetup: ['./global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 60_000 * TIME_SCALE,
    hookTimeout: 120_000 * TIME_SCALE,
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
  },
});
