#!/usr/bin/env node
/**
 * `npm test`: every check the project has, in order, stopping at the first failure.
 *   1. typecheck (tsc per workspace)   2. lint
 *   3. unit + server integration on PGlite (with DATABASE_URL set: only the embedded engine's own files)
 *   4. the whole server integration suite on PostgreSQL (only when DATABASE_URL is set)
 *   5. end-to-end in Chromium against the real server
 * The last line is always `N passed, N failed`: tests summed over the vitest runs (a test file that
 * fails before any of its tests run, or a run that fails outside any test, counts as one failed test,
 * so a failing test stage is never reported as 0 failed).
 *
 * A test stage whose failures sit in at most MAX_RERUN_FILES files runs those files once more on their
 * own. When they pass there, the stage passes, and the tests that failed are listed at the end as
 * "Flaky": a test that fails only under the load of the whole suite is a defect to find, but it must not
 * throw away everything else a run proved (docs/testing.md). A failure that repeats fails the stage.
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
/** Tests that failed in their stage and passed when their files ran again alone. */
const flaky = [];
const MAX_RERUN_FILES = 3;
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
function readReport(reportFile) {
  return existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined;
}

/** The failures of a report, one line each, and the files they are in. */
function failuresOf(report) {
  const lines = [];
  const files = new Set();
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name ?? '');
    const tests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (file.status === 'failed' && !tests.length) lines.push(`${where}: ${firstLine(file.message)}`);
    for (const test of tests) lines.push(`${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (file.status === 'failed' || tests.length) files.add(file.name);
  }
  return { lines, files: [...files] };
}

function count(reportFile, exitCode) {
  const report = readReport(reportFile);
  if (!report) {
    if (exitCode !== 0) totals.failed += 1;
    return false;
  }
  const crashedFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  failures.push(...failuresOf(report).lines);
  const failed = (report.numFailedTests ?? 0) + crashedFiles;
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += failed === 0 && exitCode !== 0 ? 1 : failed;
  return true;
}

/** How many passed tests of a report are in `files`. */
function passedIn(report, files) {
  return (report.testResults ?? []).filter((file) => files.includes(file.name)).reduce((sum, file) => sum + (file.assertionResults ?? []).filter((test) => test.status === 'passed').length, 0);
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
  if (flaky.length) {
    console.log(`\nFlaky: failed in the whole suite, passed when their files ran again alone (${flaky.length}):`);
    for (const line of flaky.slice(0, 20)) console.log(`  - ${line}`);
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
  // With PostgreSQL at hand the server suite runs whole there (what production runs on), and on PGlite
  // only the files of the embedded engine's own paths (vitest.config.ts, EMBEDDED_ENGINE_FILES) — the
  // end-to-end stage runs the product itself on PGlite. Without it, everything runs on PGlite.
  {
    name: process.env.DATABASE_URL ? "unit + the embedded engine's server files on PGlite" : 'unit + server integration on PGlite',
    vitest: 'pglite',
    command: 'npx',
    args: ['vitest', 'run'],
    env: { TEST_DB: 'pglite', ...(process.env.DATABASE_URL ? { P8_SERVER_SUITE: 'embedded' } : {}) },
  },
  ...(process.env.DATABASE_URL
    ? [
        {
          name: 'server integration on PostgreSQL',
          vitest: 'postgres',
          command: 'npx',
          args: ['vitest', 'run', '--project', 'server', '--project', 'server-isolated'],
          env: { TEST_DB: 'postgres' },
        },
      ]
    : []),
  // The e2e config adds its own JSON reporter when E2E_JSON_REPORT is set (npm would swallow flags).
  { name: 'end-to-end (Chromium, real server)', vitest: 'e2e', command: 'npm', args: ['run', '--silent', 'test:e2e'], jsonEnv: 'E2E_JSON_REPORT', rerun: ['vitest', 'run', '--config', 'e2e/vitest.config.ts'] },
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
  let code = await run(stage.command, args, env);
  if (code !== 0 && reportFile) {
    const report = readReport(reportFile);
    const failed = report && failuresOf(report);
    if (failed && failed.files.length && failed.files.length <= MAX_RERUN_FILES) {
      console.log(`\n${stage.name}: ${failed.lines.length} failure(s) in ${failed.files.length} file(s); running those files again alone:`);
      for (const line of failed.lines) console.log(`  - ${line}`);
      // The passing part of the first run still counts; the rerun's report replaces the failed files'.
      totals.passed += (report.numPassedTests ?? 0) - passedIn(report, failed.files);
      const rerunFiles = failed.files.map((file) => path.relative(ROOT, file));
      code = stage.rerun ? await run('npx', [...stage.rerun, ...rerunFiles], env) : await run(stage.command, [...args, ...rerunFiles], env);
      if (code === 0) flaky.push(...failed.lines.map((line) => `${stage.vitest}: ${line}`));
    } else if (report) {
      count(reportFile, code);
      reportFile = undefined;
    }
  }
  const counted = reportFile ? count(reportFile, code) : code === 0;
  const ms = Date.now() - started;
  const ok = code === 0 && counted;
  timings.push({ name: stage.name, ms, ok });
  if (!ok) {
    const why = code !== 0 ? `exit code ${code}` : 'no test report was written';
    finish(1, `stage "${stage.name}" failed (${why}) after ${seconds(ms)}; later stages were not run`);
  }
}
finish(0, 'all stages passed');
