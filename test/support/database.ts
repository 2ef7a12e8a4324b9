// One database per test file, copied from the migrated template: PGlite from its dump, PostgreSQL by CREATE DATABASE … TEMPLATE.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';

export interface TestDatabase {
  database: Database;
  /** The SQL of every statement the app sent through Kysely, in order, BEGIN and COMMIT included. */
  sent: string[];
  /** The same statements with their parameters, to be explained again by a test. */
  statements: { sql: string; parameters: readonly unknown[] }[];
  /** PostgreSQL: what each round trip to the server carried ("begin; …" when BEGIN went out with a statement); PGlite: none. */
  roundTrips: string[];
  /** Set on PostgreSQL, so spawned server processes can share the database. */
  url?: string;
  close(): Promise<void>;
}

export const onPostgres = (): boolean => inject('postgresTemplateUrl') !== '';

async function admin<T>(templateUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(templateUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A database with no table at all, for a test of a migration (the suite's template is at the latest one). */
export async function openEmptyDatabase(): Promise<Database> {
  const templateUrl = inject('postgresTemplateUrl');
  if (!templateUrl) return openDatabase({ kind: 'pglite' });
  // Named with the run's prefix, so the global teardown drops it with the others.
  const name = `${inject('postgresDatabasePrefix')}${randomBytes(6).toString('hex')}`;
  await admin(templateUrl, (c) => c.query(`create database ${name} template template0 encoding 'UTF8'`));
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  return openDatabase({ kind: 'postgres', url: url.href });
}

/** `poolSize` (PostgreSQL): the app's connections, e.g. one so a test can read what the server keeps per connection. */
export async function openTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const templateUrl = inject('postgresTemplateUrl');
  const sent: string[] = [];
  const statements: TestDatabase['statements'] = [];
  const roundTrips: string[] = [];
  const onQuery = (sql: string, parameters: readonly unknown[]) => {
    sent.push(sql);
    statements.push({ sql, parameters });
  };
  if (!templateUrl) {
    const loadDataDir = new Blob([readFileSync(inject('pgliteTemplate'))]);
    const database = await openDatabase({ kind: 'pglite', loadDataDir }, { onQuery });
    return { database, sent, statements, roundTrips, close: () => database.close() };
  }
  const template = decodeURIComponent(new URL(templateUrl).pathname.slice(1));
  const name = `${inject('postgresDatabasePrefix')}${randomBytes(6).toString('hex')}`;
  await admin(templateUrl, (c) => c.query(`create database ${name} template ${c.escapeIdentifier(template)}`));
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.href, poolSize: options.poolSize }, { onQuery, onRoundTrip: (sql) => roundTrips.push(sql) });
  // The database itself is dropped by the global teardown, once no worker holds a connection to it.
  return { database, url: url.href, sent, statements, roundTrips, close: () => database.close() };
}
