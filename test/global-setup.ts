// Migrates one template database per run; every test file then gets its own copy (test/support/database.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplateUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const database = await openDatabase({ kind: 'postgres', url });
    await migrateToLatest(database.db);
    await database.close();
    project.provide('postgresTemplateUrl', url);
    project.provide('pgliteTemplate', '');
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-template-'));
  const pglite = await PGlite.create();
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
  await migrateToLatest(db);
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await db.destroy();
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplateUrl', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
