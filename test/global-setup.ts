// Migrates one template database per run; every test file then gets its own copy (test/support/database.ts).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { TestProject } from 'vitest/node';
import { createPglite, openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { failOnSecretsInLogs, openRunLogDir } from './support/log-grep.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplateUrl: string;
    /** Prefix of the databases this run creates on PostgreSQL, dropped together at the end. */
    postgresDatabasePrefix: string;
    /** Where every test app and spawned process of this run writes its log lines (test/support/log-grep.ts). */
    testLogDir: string;
  }
}

export default async function setup(project: TestProject) {
  // The dashboard's pages are served from web/dist: bundled once before any file runs (nothing to do when up to
  // date, as npm start's prestart), so every test that fetches a page finds it and no two files build it at once.
  execFileSync(process.execPath, [path.join(import.meta.dirname, '../web/build.mjs'), '--if-stale'], { stdio: 'inherit' });
  const logDir = openRunLogDir();
  project.provide('testLogDir', logDir);
  // For test/support/processes.ts, which stays free of vitest (scripts import it): the test workers inherit it.
  process.env.VL_TEST_LOG_DIR = logDir;
  const teardown = await setUpDatabases(project).catch((err: unknown) => {
    rmSync(logDir, { recursive: true, force: true });
    throw err;
  });
  // At the run's end: a secret in any log line fails the run. Vitest reports the throw but keeps an exit code
  // something else already set to 0, so the code is set here too.
  return async () => {
    try {
      await teardown();
    } finally {
      try {
        failOnSecretsInLogs(logDir);
      } catch (err) {
        process.exitCode = 1;
        throw err;
      }
    }
  };
}

async function setUpDatabases(project: TestProject): Promise<() => unknown> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const database = await openDatabase({ kind: 'postgres', url });
    await migrateToLatest(database.db);
    await database.close();
    const prefix = `vl_test_${randomBytes(3).toString('hex')}_`;
    project.provide('postgresTemplateUrl', url);
    project.provide('postgresDatabasePrefix', prefix);
    project.provide('pgliteTemplate', '');
    // Dropped once every test worker has exited, so no pool is still closing its connections.
    return () => dropDatabases(url, prefix);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-template-'));
  const pglite = await createPglite();
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
  await migrateToLatest(db);
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await db.destroy();
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplateUrl', '');
  project.provide('postgresDatabasePrefix', '');
  return () => rmSync(dir, { recursive: true, force: true });
}

async function dropDatabases(templateUrl: string, prefix: string): Promise<void> {
  const url = new URL(templateUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await client.query(`drop database if exists ${client.escapeIdentifier(datname)} with (force)`);
  } finally {
    await client.end();
  }
}
