// Scans remembered per key (for the scan_required rule), and a look-up of visits by their external_id.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scans')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull())
    .addPrimaryKeyConstraint('scans_pkey', ['venue_id', 'id'])
    .addForeignKeyConstraint('scans_member_fkey', ['venue_id', 'member_id'], 'members', ['venue_id', 'id'])
    .execute();
  await db.schema.createIndex('scans_by_key_member').on('scans').columns(['venue_id', 'key_id', 'member_id', 'created_at']).execute();
  // A visit sent again with its external_id is found, not recorded twice.
  await sql`create unique index ledger_visits_by_external_id on ledger_entries (venue_id, reference) where kind = 'visit' and reference is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index ledger_visits_by_external_id`.execute(db);
  await db.schema.dropTable('scans').execute();
}
