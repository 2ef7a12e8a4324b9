// Applied checks (transactions) and their partial refunds; external ids make both idempotent.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('transactions')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    // The register_id when the venue numbers checks per register, else '': external_id is unique within it.
    .addColumn('register_key', 'text', (c) => c.notNull())
    .addColumn('register_id', 'text')
    .addColumn('member_id', 'uuid')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('completed', 'voided')`))
    .addColumn('line_items', 'jsonb', (c) => c.notNull())
    .addColumn('subtotal', 'bigint', (c) => c.notNull())
    .addColumn('discount_amount', 'bigint', (c) => c.notNull())
    .addColumn('redeemed', 'bigint', (c) => c.notNull())
    .addColumn('earned', 'bigint', (c) => c.notNull())
    .addColumn('earn_capped', 'boolean', (c) => c.notNull())
    .addColumn('stamps_earned', 'integer', (c) => c.notNull())
    .addColumn('paid', 'bigint', (c) => c.notNull())
    .addColumn('refunded_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('closed_at', 'timestamptz(3)')
    .addColumn('hold_id', 'uuid')
    .addColumn('display', 'jsonb', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('voided_at', 'timestamptz(3)')
    .addPrimaryKeyConstraint('transactions_pkey', ['venue_id', 'id'])
    .addUniqueConstraint('transactions_external_id_key', ['venue_id', 'register_key', 'external_id'])
    .addForeignKeyConstraint('transactions_member_fkey', ['venue_id', 'member_id'], 'members', ['venue_id', 'id'])
    .execute();

  await db.schema
    .createTable('refunds')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('transaction_id', 'uuid', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('earned_reversed', 'bigint', (c) => c.notNull())
    .addColumn('redeemed_returned', 'bigint', (c) => c.notNull())
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('refunds_pkey', ['venue_id', 'id'])
    .addUniqueConstraint('refunds_external_id_key', ['venue_id', 'transaction_id', 'external_id'])
    .addForeignKeyConstraint('refunds_transaction_fkey', ['venue_id', 'transaction_id'], 'transactions', ['venue_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('refunds').execute();
  await db.schema.dropTable('transactions').execute();
}
