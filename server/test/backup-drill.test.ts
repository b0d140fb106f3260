import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase, type Database } from '../src/db/connection.ts';
import { auditOneOfEachKind, createBillRecords } from './bill-fixtures.ts';
import { createTestDatabase, seedTenant, TEST_DB } from './harness.ts';
import { httpCaller, signInHttp } from './http-caller.ts';
import { startServer, type Server } from './server-process.ts';

/*
 * The backup and restore drill (scripts/backup-drill.mjs) on a running installation: a server process on
 * its own PostgreSQL database holds a tenant with records and an audited bill of each kind (money bills among them);
 * the drill dumps that database while the server runs, restores it into a fresh one, starts a server there,
 * finds the session signed in before the dump still signed in, both verifies empty for every tenant and
 * every table as full as the source. PostgreSQL stage only (it needs pg_dump and a server to restore into).
 */
const enabled = TEST_DB === 'postgres' && Boolean(process.env.DATABASE_URL);
const ROOT = path.resolve(import.meta.dirname, '../..');

describe.skipIf(!enabled)('backup and restore drill', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let databaseUrl: string;
  let server: Server;

  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    databaseUrl = created.databaseUrl!;
    database = await openDatabase({ databaseUrl, poolSize: 2 });
    await migrateDatabase(database);
    server = await startServer(databaseUrl);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await database?.close();
    await drop?.();
  }, 60_000);

  it('restores a dump of the running installation into a server that serves it whole', async () => {
    const t = await seedTenant(database, 'Drill');
    const api = httpCaller(server.url, await signInHttp(server.url, t.name, t.password), t.adminId);
    const records = await createBillRecords(api);
    // One audited bill of each kind of lines and stock effect (money bills among them).
    expect((await auditOneOfEachKind(api, records)).length).toBeGreaterThan(4);

    const drill = spawn(process.execPath, [path.join(ROOT, 'scripts/backup-drill.mjs'), '--token', api.token, '--same-counts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    drill.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    drill.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => drill.once('exit', resolve));
    console.log(output); // each step's time, for the CI log
    expect(output, output).toContain('backup-drill: passed');
    expect(code).toBe(0);
    expect(output).toMatch(/verify: \d+ tenants, 0 with differences/);
    expect(output).toContain(`signed in as ${t.name}`);
  }, 150_000);
});
