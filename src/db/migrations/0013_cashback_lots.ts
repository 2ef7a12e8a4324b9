// Cashback lots (D20): what a member earned on one venue day that has not yet been spent, taken back or expired,
// with the moment it expires; only lots with something remaining are ever read. A check records which lots its
// redemption took from, so that a void or refund gives it back where it came from.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cashback_lots')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('member_id', 'uuid', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('expires_on', 'date', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz(3)', (c) => c.notNull())
    .addColumn('remaining', 'bigint', (c) => c.notNull().check(sql`remaining >= 0`))
    .addColumn('warn_at', 'timestamptz(3)')
    .addColumn('warned_at', 'timestamptz(3)')
    .addPrimaryKeyConstraint('cashback_lots_pkey', ['venue_id', 'member_id', 'day'])
    .addForeignKeyConstraint('cashback_lots_member_fkey', ['venue_id', 'member_id'], 'members', ['venue_id', 'id'])
    .execute();
  // A member's open lots (every read of a member whose program expires cashback), and the worker's due and
  // warning look-ups across venues: each only over lots that still hold something.
  await db.schema.createIndex('cashback_lots_open').on('cashback_lots').columns(['venue_id', 'member_id', 'expires_at']).where(sql.ref('remaining'), '>', 0).execute();
  await db.schema.createIndex('cashback_lots_due').on('cashback_lots').columns(['expires_at']).where(sql.ref('remaining'), '>', 0).execute();
  // What the check's redemption took from each lot (venue day → amount) and its voids and refunds have not yet given
  // back; the rest of what it redeemed came from no lot. Null: it took from no lot.
  await db.schema.alterTable('transactions').addColumn('redeemed_lots', 'jsonb').execute();
  await sql`create index cashback_lots_to_warn on cashback_lots (warn_at) where remaining > 0 and warned_at is null and warn_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('transactions').dropColumn('redeemed_lots').execute();
  await db.schema.dropTable('cashback_lots').execute();
}
