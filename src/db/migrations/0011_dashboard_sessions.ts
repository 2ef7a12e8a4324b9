// The owner's dashboard sessions (D16): server-side, found by the hash of the cookie's token, revocable one by one.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('owner_id', 'uuid', (c) => c.notNull())
    // SHA-256 of the cookie's random token: a stolen table signs nobody in.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz(3)', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz(3)')
    .addPrimaryKeyConstraint('dashboard_sessions_pkey', ['venue_id', 'id'])
    .addForeignKeyConstraint('dashboard_sessions_owner_fkey', ['venue_id', 'owner_id'], 'owners', ['venue_id', 'id'])
    .execute();
  await sql`create index dashboard_sessions_owner_idx on dashboard_sessions (venue_id, owner_id, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dashboard_sessions').execute();
}
