import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildServerIfNeeded, buildWebIfNeeded, prepareTemplateDataDir } from './harness.ts';

/**
 * Runs once before all spec files: builds the web app and the server bundle, as `npm start` does, and
 * migrates and seeds one embedded database that every spec file's server then starts from a copy of
 * (seconds saved per file). That first start gets an empty image cache, so it does what `npm start` does on
 * a fresh clone — initdb, every migration with the region table, the demo seed — in the bundle.
 */
export default async function setup(project: TestProject) {
  buildWebIfNeeded();
  await buildServerIfNeeded();
  // Running one spec again and again by hand: a DATA_DIR this code seeded before (kept, never changed).
  const kept = process.env.P8_E2E_TEMPLATE_DIR;
  if (kept && !process.env.CI) {
    if (!existsSync(path.join(kept, 'pglite', 'PG_VERSION'))) await prepareTemplateDataDir(kept);
    project.provide('e2eTemplateDataDir', kept);
    return;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'p8-e2e-template-'));
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'p8-e2e-cache-'));
  try {
    await prepareTemplateDataDir(dataDir, { CACHE_DIR: cacheDir });
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  project.provide('e2eTemplateDataDir', dataDir);
  return () => rmSync(dataDir, { recursive: true, force: true });
}
