// Events outbox, per-endpoint deliveries with their attempts, and endpoint health for auto-disable.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.venue_id'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('livemode', 'boolean', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('idempotency_key', 'text')
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('events_pkey', ['venue_id', 'id'])
    .execute();

  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failing_since', 'timestamptz(3)')
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('endpoint_id', 'uuid', (c) => c.notNull())
    .addColumn('event_id', 'uuid', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz(3)')
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('webhook_deliveries_pkey', ['venue_id', 'id'])
    .addForeignKeyConstraint('webhook_deliveries_endpoint_fkey', ['venue_id', 'endpoint_id'], 'webhook_endpoints', ['venue_id', 'id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('webhook_deliveries_event_fkey', ['venue_id', 'event_id'], 'events', ['venue_id', 'id'])
    .execute();
  // The worker reads only due rows: keep the index to those.
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db);

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('delivery_id', 'uuid', (c) => c.notNull())
    .addColumn('endpoint_id', 'uuid', (c) => c.notNull())
    .addColumn('event_id', 'uuid', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('next_attempt_at', 'timestamptz(3)')
    .addColumn('created_at', 'timestamptz(3)', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('webhook_attempts_pkey', ['venue_id', 'id'])
    .addForeignKeyConstraint('webhook_attempts_delivery_fkey', ['venue_id', 'delivery_id'], 'webhook_deliveries', ['venue_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('webhook_attempts_by_endpoint').on('webhook_attempts').columns(['venue_id', 'endpoint_id', 'id']).execute();
  // One attempt number per delivery: a second worker can never record the same attempt again.
  await db.schema.createIndex('webhook_attempts_once').unique().on('webhook_attempts').columns(['venue_id', 'delivery_id', 'attempt']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('consecutive_failures').dropColumn('failing_since').execute();
  await db.schema.dropTable('events').execute();
}
