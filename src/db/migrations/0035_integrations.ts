// Point-of-sale connectors (D26): the chain's connections to its tills' providers, their log (which is also the queue
// of provider work still to do), what each connection has handled (so a replayed event or a remapped location never
// applies a payment twice), and where a check came from.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table integrations (
    chain_id uuid not null references chains (chain_id),
    id uuid not null,
    venue_id uuid,
    livemode boolean not null,
    provider text not null check (provider in ('square', 'toast')),
    name text not null,
    status text not null default 'active' check (status in ('active', 'paused')),
    locations jsonb not null default '{}',
    rules jsonb not null,
    settings jsonb not null default '{}',
    secrets jsonb not null default '{}',
    secret_key_id text,
    failing_since timestamptz,
    reconciled_until jsonb not null default '{}',
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    primary key (chain_id, id)
  )`.execute(db);
  // A provider calls with the connection's id alone (its URL); ids are UUIDv7, unique across chains without a
  // constraint (Citus allows a unique index only with the chain_id it distributes by).
  await sql`create index integrations_by_id on integrations (id)`.execute(db);

  await sql`create table integration_log (
    chain_id uuid not null,
    integration_id uuid not null,
    id uuid not null,
    kind text not null,
    outcome text not null,
    message text,
    provider_ids jsonb not null default '{}',
    dedup_key text,
    subject text,
    payload jsonb,
    answer jsonb,
    attempts integer not null default 0,
    next_attempt_at timestamptz,
    transaction_id uuid,
    venue_id uuid,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    primary key (chain_id, integration_id, id),
    foreign key (chain_id, integration_id) references integrations (chain_id, id) on delete cascade
  )`.execute(db);
  await sql`create unique index integration_log_dedup on integration_log (chain_id, integration_id, dedup_key)`.execute(db);
  await sql`create index integration_log_subject on integration_log (chain_id, integration_id, subject)`.execute(db);
  await sql`create index integration_log_due on integration_log (next_attempt_at) where next_attempt_at is not null`.execute(db);

  await sql`create table integration_handled (
    chain_id uuid not null,
    integration_id uuid not null,
    provider_key text not null,
    venue_id uuid not null,
    external_id text not null,
    created_at timestamptz not null default now(),
    primary key (chain_id, integration_id, provider_key),
    foreign key (chain_id, integration_id) references integrations (chain_id, id) on delete cascade
  )`.execute(db);

  await sql`alter table transactions add column source text not null default 'api'`.execute(db);
  await sql`alter table transactions add column metadata jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table transactions drop column metadata`.execute(db);
  await sql`alter table transactions drop column source`.execute(db);
  await sql`drop table integration_handled`.execute(db);
  await sql`drop table integration_log`.execute(db);
  await sql`drop table integrations`.execute(db);
}
