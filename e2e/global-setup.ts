import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWebIfNeeded, prepareTemplateDataDir } from './harness.ts';

/**
 * Runs once before all spec files: builds the web app the server serves, and migrates and seeds one
 * embedded database that every spec file's server then starts from a copy of (seconds saved per file).
 */
export default async function setup(project: TestProject) {
  buildWebIfNeeded();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'p8-e2e-template-'));
  await prepareTemplateDataDir(dataDir);
  project.provide('e2eTemplateDataDir', dataDir);
  return () => rmSync(dataDir, { recursive: true, force: true });
}
