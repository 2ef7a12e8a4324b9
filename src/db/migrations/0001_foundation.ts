// Venues, owners, API keys, idempotency records and webhook endpoints.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('venues')
    .addColumn('venue_id', 'uuid', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency', 'char(3)', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('country', 'char(2)', (c) => c.notNull())
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('owners')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('owners_pkey', ['venue_id', 'id'])
    .execute();
  // Owners sign in by e-mail alone, so the address is unique across venues.
  await sql`create unique index owners_email_key on owners (lower(email))`.execute(db);

  await db.schema
    .createTable('api_keys')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('display_prefix', 'text', (c) => c.notNull())
    .addColumn('scopes', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('rules', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz(3)')
    .addColumn('last_used_at', 'timestamptz(3)')
    .addPrimaryKeyConstraint('api_keys_pkey', ['venue_id', 'id'])
    .execute();
  // Authentication looks a key up by its hash before the venue is known.
  await db.schema.createIndex('api_keys_secret_hash_key').unique().on('api_keys').column('secret_hash').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['venue_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('events', sql`text[]`, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('enabled', 'disabled')`))
    .addColumn('disabled_reason', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('webhook_endpoints_pkey', ['venue_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_endpoints', 'idempotency_keys', 'api_keys', 'owners', 'venues']) {
    await db.schema.dropTable(table).execute();
  }
}
