// Dishes keyed by the caller's SKU, tables with QR codes, and table orders.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dishes')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text')
    .addColumn('price', 'bigint', (c) => c.notNull().check(sql`price >= 0`))
    .addColumn('available', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('dishes_pkey', ['venue_id', 'id'])
    .addUniqueConstraint('dishes_external_id_key', ['venue_id', 'external_id'])
    .execute();

  await db.schema
    .createTable('venue_tables')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('table_code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('venue_tables_pkey', ['venue_id', 'id'])
    .addUniqueConstraint('venue_tables_code_key', ['venue_id', 'table_code'])
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('table_code', 'text', (c) => c.notNull())
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_reason', 'text')
    .addColumn('items', 'jsonb', (c) => c.notNull())
    .addColumn('subtotal', 'bigint', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('orders_pkey', ['venue_id', 'id'])
    .execute();
  await db.schema.createIndex('orders_by_status').on('orders').columns(['venue_id', 'status', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['orders', 'venue_tables', 'dishes']) await db.schema.dropTable(table).execute();
}
