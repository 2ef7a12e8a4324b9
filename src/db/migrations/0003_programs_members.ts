// Programs, members with their cards, and the ledger every balance is summed from.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('programs')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('cashback', 'stamps', 'visit_discount', 'vip')`))
    .addColumn('settings', 'jsonb', (c) => c.notNull())
    .addColumn('barcode_format', 'text', (c) =>
      c.notNull().check(sql`barcode_format in ('qr_card_number', 'code128_card_number', 'qr_serial')`),
    )
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('programs_pkey', ['venue_id', 'id'])
    .execute();
  await sql`create unique index programs_one_default on programs (venue_id) where is_default`.execute(db);

  await db.schema
    .createTable('members')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('program_id', 'uuid', (c) => c.notNull())
    .addColumn('serial', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('name', 'text')
    .addColumn('consented_at', 'timestamptz(3)', (c) => c.notNull())
    .addColumn('vip_level', 'text')
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('members_pkey', ['venue_id', 'id'])
    .addUniqueConstraint('members_serial_key', ['venue_id', 'serial'])
    .addForeignKeyConstraint('members_program_fkey', ['venue_id', 'program_id'], 'programs', ['venue_id', 'id'])
    .execute();
  await db.schema.createIndex('members_phone').on('members').columns(['venue_id', 'phone']).execute();

  // The primary key makes a card number unique within the venue.
  await db.schema
    .createTable('member_cards')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('card_number', 'text', (c) => c.notNull())
    .addColumn('member_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('member_cards_pkey', ['venue_id', 'card_number'])
    .addForeignKeyConstraint('member_cards_member_fkey', ['venue_id', 'member_id'], 'members', ['venue_id', 'id'])
    .execute();
  await db.schema.createIndex('member_cards_by_member').on('member_cards').columns(['venue_id', 'member_id']).execute();

  // Every change to a member's balance, spend, visits or stamps is one immutable row here.
  await db.schema
    .createTable('ledger_entries')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('member_id', 'uuid', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('cashback', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('spend', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('visits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stamps', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'text')
    .addColumn('reference', 'text')
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('ledger_entries_pkey', ['venue_id', 'id'])
    .addForeignKeyConstraint('ledger_entries_member_fkey', ['venue_id', 'member_id'], 'members', ['venue_id', 'id'])
    .execute();
  await db.schema.createIndex('ledger_entries_by_member').on('ledger_entries').columns(['venue_id', 'member_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['ledger_entries', 'member_cards', 'members', 'programs']) await db.schema.dropTable(table).execute();
}
