// Member imports sent through the API (D20): the job, the uploaded file in chunks (so any worker can read it and a
// crashed one's successor resumes), and the bad lines it found.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('member_imports')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('program_id', 'uuid', (c) => c.notNull())
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('csv', 'jsonl')`))
    // 'receiving' while the upload streams in: no worker claims it and no one sees it.
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('receiving', 'pending', 'running', 'succeeded', 'failed')`))
    .addColumn('total_lines', 'integer')
    // Lines of the file (after a CSV's header) whose outcome is committed: where a resumed job starts.
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imported', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failure', 'text')
    // The worker that holds the job, until when; a batch commits only while its worker still holds it.
    .addColumn('claimed_by', 'uuid')
    .addColumn('claimed_until', 'timestamptz(3)')
    // Claims since the last one that committed a batch: past a few, the job fails with the error instead of looping.
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz(3)')
    .addPrimaryKeyConstraint('member_imports_pkey', ['venue_id', 'id'])
    .addForeignKeyConstraint('member_imports_program_fkey', ['venue_id', 'program_id'], 'programs', ['venue_id', 'id'])
    .execute();
  // What the worker looks for: the few jobs not finished.
  await sql`create index member_imports_open on member_imports (created_at) where status in ('pending', 'running')`.execute(db);
  // What housekeeping looks for: uploads an API process stopped receiving (it died midway).
  await sql`create index member_imports_receiving on member_imports (created_at) where status = 'receiving'`.execute(db);

  await db.schema
    .createTable('member_import_chunks')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('import_id', 'uuid', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_import_chunks_pkey', ['venue_id', 'import_id', 'seq'])
    .addForeignKeyConstraint('member_import_chunks_import_fkey', ['venue_id', 'import_id'], 'member_imports', ['venue_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('member_import_errors')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('import_id', 'uuid', (c) => c.notNull())
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_import_errors_pkey', ['venue_id', 'import_id', 'line'])
    .addForeignKeyConstraint('member_import_errors_import_fkey', ['venue_id', 'import_id'], 'member_imports', ['venue_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['member_import_errors', 'member_import_chunks', 'member_imports']) await db.schema.dropTable(table).execute();
}
