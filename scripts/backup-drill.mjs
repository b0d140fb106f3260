#!/usr/bin/env node
/**
 * Backup and restore drill (docs/operations.md, "Backup and restore drill"):
 *
 *   DATABASE_URL=postgres://…/p8 node scripts/backup-drill.mjs [--token <bearer>] [--same-counts] [--keep]
 *
 * 1. dumps the installation's database with pg_dump (custom format; a consistent snapshot, the server may
 *    keep running), 2. restores it into a fresh database on the same server (`<name>_drill_<time>`; or
 *    RESTORE_URL's server and name) with pg_restore, 3. starts a server process on the restore and waits
 *    until it answers, 4. checks that the bearer token given with --token (a session signed in before the
 *    dump) is still signed in there, 5. runs the stock verify and the finance verify for every tenant of
 *    the restore (server/src/tools/verify-all.ts) — both must be empty, 6. with --same-counts, checks that
 *    every table holds as many rows as in the source (only meaningful while nothing writes to the source),
 *    7. stops the server and drops the restore (kept with --keep). Prints each step's time; exits 1 on any
 *    failure. Needs pg_dump, pg_restore and psql of the server's major version or later on the PATH.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);

const source = process.env.DATABASE_URL;
if (!source) {
  console.error('backup-drill: DATABASE_URL (the database to back up) is not set');
  process.exit(2);
}
const target = new URL(process.env.RESTORE_URL ?? source);
if (!process.env.RESTORE_URL) target.pathname = `${new URL(source).pathname}_drill_${Date.now()}`;
const targetName = decodeURIComponent(target.pathname.slice(1));
const maintenance = new URL(target);
maintenance.pathname = '/postgres';

const started = Date.now();
const timings = [];
async function step(name, fn) {
  const at = Date.now();
  process.stdout.write(`backup-drill: ${name} … `);
  const result = await fn();
  const ms = Date.now() - at;
  timings.push([name, ms]);
  console.log(`${(ms / 1000).toFixed(1)} s${typeof result === 'string' && result ? ` (${result})` : ''}`);
  return result;
}

function run(command, commandArgs, env = {}) {
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', env: { ...process.env, ...env } });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} failed (${result.status}):\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

const psql = (url, statement) => run('psql', ['-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', statement]).trim();

/** Rows per table of the public schema, as `table count` lines (exact counts, in one statement). */
function counts(url) {
  const tables = psql(url, "select string_agg(format('select %L as t, count(*) as n from %I', relname, relname), ' union all ' order by relname) from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'");
  return psql(url, `select t || ' ' || n from (${tables}) c order by t`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'p8-drill-'));
const dumpFile = path.join(dir, 'p8.dump');
let server;
let created = false;
let failed = false;
try {
  await step('pg_dump', () => {
    run('pg_dump', ['--format=custom', '--file', dumpFile, '--dbname', source]);
    return `${(statSync(dumpFile).size / 1e6).toFixed(1)} MB`;
  });
  await step(`create ${targetName}`, () => {
    psql(maintenance.toString(), `create database "${targetName.replace(/"/g, '""')}"`);
    created = true;
    // The grants in the dump name the app role, which lives in the cluster, not in the dump.
    psql(target.toString(), "do $$ begin if not exists (select 1 from pg_roles where rolname = 'p8_app') then create role p8_app nologin; end if; end $$");
  });
  await step('pg_restore', () => run('pg_restore', ['--exit-on-error', '--dbname', target.toString(), dumpFile]));

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  await step('start a server on the restore', async () => {
    const env = { ...process.env, DATABASE_URL: target.toString(), PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: '0', LOG_LEVEL: 'warn', WEB_DIST: path.join(ROOT, 'no-web-build') };
    delete env.REDIS_URL; // its own shared state: the drill must not touch the installation's Redis
    let log = '';
    server = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout.on('data', (chunk) => (log += chunk));
    server.stderr.on('data', (chunk) => (log += chunk));
    for (const deadline = Date.now() + 60_000; ; ) {
      if (server.exitCode !== null) throw new Error(`the server exited:\n${log}`);
      const ready = await fetch(`${url}/api/base/system/config`).then((res) => res.ok, () => false);
      if (ready) return;
      if (Date.now() > deadline) throw new Error(`the server did not answer within 60 s:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  const token = option('--token');
  if (token) {
    await step('a session signed in before the dump', async () => {
      const res = await fetch(`${url}/api/admin/current/detail`, { headers: { authorization: `Bearer ${token}` } });
      const body = await res.json();
      if (body.status !== 0) throw new Error(`the session was refused: ${JSON.stringify(body)}`);
      return `signed in as ${body.data.name}`;
    });
  }
  await step('stock and finance verify of every tenant', () => {
    const out = run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/tools/verify-all.ts')], { DATABASE_URL: target.toString(), SEED_DEMO: '0', LOG_LEVEL: 'warn', REDIS_URL: '' });
    return out.trim().split('\n').at(-1);
  });
  if (flag('--same-counts')) {
    await step('rows per table against the source', () => {
      const [before, after] = [counts(source), counts(target.toString())];
      if (before !== after) throw new Error(`row counts differ:\nsource:\n${before}\nrestore:\n${after}`);
      return `${before.split('\n').length} tables`;
    });
  }
} catch (error) {
  failed = true;
  console.log('FAILED');
  console.error(error instanceof Error ? error.message : error);
} finally {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  if (created && !flag('--keep')) {
    try {
      psql(maintenance.toString(), `drop database if exists "${targetName.replace(/"/g, '""')}" with (force)`);
    } catch (error) {
      console.error(`backup-drill: could not drop ${targetName}: ${error.message}`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
}
console.log(`backup-drill: ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s${flag('--keep') && created ? ` (restore kept: ${targetName})` : ''}`);
process.exit(failed ? 1 : 0);
