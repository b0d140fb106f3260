import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, openDatabase } from '../src/db/connection.ts';
import { ensureMigratedImage } from '../src/db/image.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** With TEST_DB=postgres: the migrated database on DATABASE_URL's server that each file's database copies. */
    serverTemplateDatabase?: string;
  }
}

/**
 * Runs once per `vitest run` before the server test files. On PGlite: makes sure the migrated image of the
 * embedded database exists (db/image.ts; kept between runs until a migration or the PGlite version
 * changes), so that the test workers load it rather than each building it at the same time. On
 * PostgreSQL: creates one database and migrates it, and every test file's database is created as a copy
 * of it (`create database … template`, a fraction of a second) instead of running the migrations again
 * (5–10 s a file); dropped at the end of the run.
 */
let template: Promise<string> | undefined;
let users = 0;

async function createTemplate(base: string): Promise<string> {
  const name = `p8_test_template_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await adminQuery(base, `create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  return name;
}

async function adminQuery(base: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DB !== 'postgres') {
    await ensureMigratedImage();
    return;
  }
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  // Both server projects (server, server-isolated) run this set-up: one template serves them.
  template ??= createTemplate(base);
  users += 1;
  project.provide('serverTemplateDatabase', await template);
  return async () => {
    users -= 1;
    if (users > 0 || !template) return;
    const name = await template;
    template = undefined;
    await adminQuery(base, `drop database if exists ${name} with (force)`);
  };
}
