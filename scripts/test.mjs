#!/usr/bin/env node
/**
 * `npm test`: every check the project has, in order, stopping at the first failure.
 *   1. typecheck (tsc per workspace)   2. lint
 *   3. unit + server integration on PGlite
 *   4. the same server integration suite on PostgreSQL (only when DATABASE_URL is set)
 *   5. end-to-end in Chromium against the real server
 * The last line is always `N passed, N failed`: tests summed over the vitest runs (a test file that
 * fails before any of its tests run, or a run that fails outside any test, counts as one failed test,
 * so a failing test stage is never reported as 0 failed).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const reportDir = mkdtempSync(path.join(tmpdir(), 'p8-test-'));
const totals = { passed: 0, failed: 0 };
/** The failed tests, named again at the very end: CI keeps only the tail of the output. */
const failures = [];
const timings = [];
let child;

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (child && child.exitCode === null) child.kill(signal);
    finish(1, `interrupted by ${signal}`);
  });
}

function run(command, args, env = {}) {
  return new Promise((resolve) => {
    child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (error) => {
      console.error(error);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Adds a vitest JSON report to the totals; returns false when the report is missing. A test file that
 * failed before its tests ran counts as one failed test, and so does a failed run whose tests all
 * passed (an unhandled error), so that a failing stage never reports 0 failed.
 */
function count(reportFile, exitCode) {
  if (!existsSync(reportFile)) {
    if (exitCode !== 0) totals.failed += 1;
    return false;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const crashedFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name ?? '');
    const tests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (file.status === 'failed' && !tests.length) failures.push(`${where}: ${firstLine(file.message)}`);
    for (const test of tests) failures.push(`${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
  }
  const failed = (report.numFailedTests ?? 0) + crashedFiles;
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += failed === 0 && exitCode !== 0 ? 1 : failed;
  return true;
}

/** The first line of an error, without terminal colours, short enough for a summary. */
function firstLine(message) {
  // eslint-disable-next-line no-control-regex -- terminal colour codes are what it removes
  const line = String(message ?? 'no message').replace(/\x1b\[[0-9;]*m/g, '').split('\n').find((l) => l.trim()) ?? '';
  return line.trim().slice(0, 300);
}

function heading(text) {
  const line = '='.repeat(Math.max(60, text.length + 8));
  console.log(`\n${line}\n=== ${text}\n${line}`);
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function finish(code, reason) {
  if (timings.length) {
    console.log('\nStages:');
    for (const t of timings) console.log(`  ${t.ok ? 'ok  ' : 'FAIL'}  ${t.name.padEnd(48)} ${seconds(t.ms)}`);
  }
  if (failures.length) {
    console.log(`\nFailed tests${failures.length > 20 ? ` (first 20 of ${failures.length})` : ''}:`);
    for (const failure of failures.slice(0, 20)) console.log(`  - ${failure}`);
  }
  if (reason) console.log(`\nnpm test: ${reason}`);
  rmSync(reportDir, { recursive: true, force: true });
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  process.exit(code);
}

const stages = [
  { name: 'typecheck (tsc per workspace)', command: 'npm', args: ['run', '--silent', 'typecheck'] },
  { name: 'lint (eslint)', command: 'npm', args: ['run', '--silent', 'lint'] },
  {
    name: 'unit + server integration on PGlite',
    vitest: 'pglite',
    command: 'npx',
    args: ['vitest', 'run'],
    env: { TEST_DB: 'pglite' },
  },
  ...(process.env.DATABASE_URL
    ? [
        {
          name: 'server integration on PostgreSQL',
          vitest: 'postgres',
          command: 'npx',
          args: ['vitest', 'run', '--project', 'server'],
          env: { TEST_DB: 'postgres' },
        },
      ]
    : []),
  // The e2e config adds its own JSON reporter when E2E_JSON_REPORT is set (npm would swallow flags).
  { name: 'end-to-end (Chromium, real server)', vitest: 'e2e', command: 'npm', args: ['run', '--silent', 'test:e2e'], jsonEnv: 'E2E_JSON_REPORT' },
];

if (!process.env.DATABASE_URL) console.log('DATABASE_URL is not set: the PostgreSQL run of the server suite is skipped.');

for (const [index, stage] of stages.entries()) {
  heading(`[${index + 1}/${stages.length}] ${stage.name}`);
  const started = Date.now();
  let args = stage.args;
  const env = { ...stage.env };
  let reportFile;
  if (stage.vitest) {
    reportFile = path.join(reportDir, `${stage.vitest}.json`);
    if (stage.jsonEnv) env[stage.jsonEnv] = reportFile;
    else args = [...args, '--reporter=default', '--reporter=json', `--outputFile=${reportFile}`];
  }
  const code = await run(stage.command, args, env);
  const counted = reportFile ? count(reportFile, code) : true;
  const ms = Date.now() - started;
  const ok = code === 0 && counted;
  timings.push({ name: stage.name, ms, ok });
  if (!ok) {
    const why = code !== 0 ? `exit code ${code}` : 'no test report was written';
    finish(1, `stage "${stage.name}" failed (${why}) after ${seconds(ms)}; later stages were not run`);
  }
}
finish(0, 'all stages passed');
