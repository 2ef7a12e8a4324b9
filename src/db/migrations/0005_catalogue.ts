// The catalogue by SKU: products and the categories whose money rules the owner sets.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalog_categories')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('earns_cashback', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('payable_with_cashback', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('cashback_percent_bp', 'integer', (c) => c.check(sql`cashback_percent_bp between 0 and 10000`))
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('catalog_categories_pkey', ['venue_id', 'id'])
    .addUniqueConstraint('catalog_categories_external_id_key', ['venue_id', 'external_id'])
    .execute();

  await db.schema
    .createTable('catalog_products')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('price', 'bigint', (c) => c.check(sql`price >= 0`))
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('catalog_products_pkey', ['venue_id', 'id'])
    .addUniqueConstraint('catalog_products_sku_key', ['venue_id', 'sku'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('catalog_products').execute();
  await db.schema.dropTable('catalog_categories').execute();
}
