// Holds: cashback reserved for a coming check, captured by it, released, or expired at expires_at.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('holds')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('member_id', 'uuid', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    // 'active' past expires_at is expired: expiry needs no sweeper to be exact.
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'captured', 'released')`))
    .addColumn('expires_at', 'timestamptz(3)', (c) => c.notNull())
    .addColumn('captured_amount', 'bigint')
    .addColumn('captured_by', 'text')
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz(3)')
    .addPrimaryKeyConstraint('holds_pkey', ['venue_id', 'id'])
    .addForeignKeyConstraint('holds_member_fkey', ['venue_id', 'member_id'], 'members', ['venue_id', 'id'])
    .execute();
  await sql`create index holds_active_by_member on holds (venue_id, member_id, expires_at) where status = 'active'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('holds').execute();
}
