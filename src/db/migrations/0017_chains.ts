// Chains (D21): the chain becomes the tenant root. Every venue joins a chain of one whose id is the venue's own, so
// every existing row keeps its ids and the backfill is `chain_id = venue_id`. Tables a chain shares (programs,
// members and their money, categories, imports, erasure) are keyed by the chain: their `venue_id` column, which held
// exactly that id, is renamed `chain_id`, and `venue_id` returns where it means the place something happened.
// Tables of a place (checks, holds, menu, keys, webhooks…) gain `chain_id`, and every key among them leads with it.
import { sql, type Kysely } from 'kysely';
import { rewriteStoredAnswers, withAddedFields } from '../stored-answers.js';

/** Tables keyed by the chain: their venue_id column becomes chain_id. */
const CHAIN_TABLES = [
  'programs',
  'members',
  'member_cards',
  'ledger_entries',
  'cashback_lots',
  'member_imports',
  'member_import_chunks',
  'member_import_errors',
  'member_erasure_keys',
  'erased_cards',
  'catalog_categories',
  'catalog_products',
] as const;

/** Tables of a place: they gain chain_id beside venue_id. */
const PLACE_TABLES = [
  'owners',
  'dashboard_sessions',
  'api_keys',
  'idempotency_keys',
  'webhook_endpoints',
  'events',
  'webhook_deliveries',
  'webhook_attempts',
  'dishes',
  'venue_tables',
  'orders',
  'transactions',
  'refunds',
  'holds',
  'scans',
] as const;

const run = (db: Kysely<any>, statements: string[]) => statements.reduce((p, s) => p.then(() => sql.raw(s).execute(db).then(() => undefined)), Promise.resolve());

export async function up(db: Kysely<any>): Promise<void> {
  await run(db, [
    `create table chains (
      chain_id uuid primary key,
      slug text not null unique,
      name text not null,
      currency char(3) not null,
      created_at timestamptz(3) not null default now(),
      unique (chain_id, currency)
    )`,
    `insert into chains (chain_id, slug, name, currency, created_at) select venue_id, slug, name, currency, created_at from venues`,
    `alter table venues add column chain_id uuid`,
    `update venues set chain_id = venue_id`,
    `alter table venues alter column chain_id set not null`,
    `alter table venues add constraint venues_chain_fkey foreign key (chain_id) references chains (chain_id)`,
    // One currency per chain, held by the database: a venue's currency is its chain's, and follows it.
    `alter table venues add constraint venues_chain_currency_fkey foreign key (chain_id, currency) references chains (chain_id, currency) on update cascade`,
    `alter table venues add constraint venues_chain_venue_key unique (chain_id, venue_id)`,
  ]);

  // Chain-wide tables: foreign keys to venues become keys to chains.
  for (const table of CHAIN_TABLES) {
    await sql.raw(`alter table ${table} rename column venue_id to chain_id`).execute(db);
  }
  await run(db, [
    'alter table programs drop constraint programs_venue_id_fkey',
    'alter table programs add constraint programs_chain_fkey foreign key (chain_id) references chains (chain_id)',
    'alter table catalog_categories drop constraint catalog_categories_venue_id_fkey',
    'alter table catalog_categories add constraint catalog_categories_chain_fkey foreign key (chain_id) references chains (chain_id)',
    'alter table catalog_products drop constraint catalog_products_venue_id_fkey',
    'alter table catalog_products add constraint catalog_products_chain_fkey foreign key (chain_id) references chains (chain_id)',
    // Where a member enrolled (null: imported without a venue) and where a ledger entry happened (null: at none).
    'alter table members add column home_venue_id uuid',
    'update members set home_venue_id = chain_id',
    'alter table members add constraint members_home_venue_fkey foreign key (chain_id, home_venue_id) references venues (chain_id, venue_id)',
    'alter table ledger_entries add column venue_id uuid',
    'update ledger_entries set venue_id = chain_id',
    'alter table ledger_entries add constraint ledger_entries_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    // A visit's external_id is the venue's number: two venues of a chain may both send "V1".
    'drop index ledger_visits_by_external_id',
    `create unique index ledger_visits_by_external_id on ledger_entries (chain_id, venue_id, reference) where kind = 'visit' and reference is not null`,
  ]);

  for (const table of PLACE_TABLES) {
    await run(db, [`alter table ${table} add column chain_id uuid`, `update ${table} set chain_id = venue_id`, `alter table ${table} alter column chain_id set not null`]);
  }
  await run(db, [
    // Global look-ups (reference tables): they carry chain_id, their keys stay as they were.
    'alter table owners add constraint owners_chain_fkey foreign key (chain_id) references chains (chain_id)',
    'alter table dashboard_sessions add constraint dashboard_sessions_chain_fkey foreign key (chain_id) references chains (chain_id)',
    // A chain key has no venue.
    'alter table api_keys drop constraint api_keys_pkey',
    'alter table api_keys add constraint api_keys_pkey primary key (chain_id, id)',
    'alter table api_keys alter column venue_id drop not null',
    'alter table api_keys drop constraint api_keys_venue_id_fkey',
    'alter table api_keys add constraint api_keys_chain_fkey foreign key (chain_id) references chains (chain_id)',
    'alter table api_keys add constraint api_keys_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',

    // Idempotency-Keys live in a namespace: the venue's for its keys, a chain key's own id for a chain key (D21).
    'alter table idempotency_keys rename column venue_id to namespace',
    'alter table idempotency_keys drop constraint idempotency_keys_venue_id_fkey',
    'alter table idempotency_keys drop constraint idempotency_keys_pkey',
    'alter table idempotency_keys add constraint idempotency_keys_pkey primary key (chain_id, namespace, key)',
    'alter table idempotency_keys add constraint idempotency_keys_chain_fkey foreign key (chain_id) references chains (chain_id)',

    // Webhooks: chain endpoints have no venue, nor do events of no place (expiry, imports).
    'alter table webhook_attempts drop constraint webhook_attempts_delivery_fkey',
    'alter table webhook_deliveries drop constraint webhook_deliveries_endpoint_fkey',
    'alter table webhook_deliveries drop constraint webhook_deliveries_event_fkey',
    'alter table webhook_endpoints drop constraint webhook_endpoints_pkey',
    'alter table webhook_endpoints add constraint webhook_endpoints_pkey primary key (chain_id, id)',
    'alter table webhook_endpoints alter column venue_id drop not null',
    'alter table webhook_endpoints drop constraint webhook_endpoints_venue_id_fkey',
    'alter table webhook_endpoints add constraint webhook_endpoints_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    'alter table events drop constraint events_pkey',
    'alter table events add constraint events_pkey primary key (chain_id, id)',
    'alter table events alter column venue_id drop not null',
    'alter table events drop constraint events_venue_id_fkey',
    'alter table events add constraint events_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    'alter table webhook_deliveries drop constraint webhook_deliveries_pkey',
    'alter table webhook_deliveries add constraint webhook_deliveries_pkey primary key (chain_id, id)',
    'alter table webhook_deliveries alter column venue_id drop not null',
    'alter table webhook_deliveries add constraint webhook_deliveries_endpoint_fkey foreign key (chain_id, endpoint_id) references webhook_endpoints (chain_id, id) on delete cascade',
    'alter table webhook_deliveries add constraint webhook_deliveries_event_fkey foreign key (chain_id, event_id) references events (chain_id, id)',
    'alter table webhook_attempts drop constraint webhook_attempts_pkey',
    'alter table webhook_attempts add constraint webhook_attempts_pkey primary key (chain_id, id)',
    'alter table webhook_attempts alter column venue_id drop not null',
    'alter table webhook_attempts add constraint webhook_attempts_delivery_fkey foreign key (chain_id, delivery_id) references webhook_deliveries (chain_id, id) on delete cascade',
    'drop index webhook_attempts_by_endpoint',
    'create index webhook_attempts_by_endpoint on webhook_attempts (chain_id, endpoint_id, id)',
    'drop index webhook_attempts_once',
    'create unique index webhook_attempts_once on webhook_attempts (chain_id, delivery_id, attempt)',

    // Menu, tables and orders: a venue's own, numbered per venue.
    'alter table dishes drop constraint dishes_pkey',
    'alter table dishes add constraint dishes_pkey primary key (chain_id, id)',
    'alter table dishes drop constraint dishes_external_id_key',
    'alter table dishes add constraint dishes_external_id_key unique (chain_id, venue_id, external_id)',
    'alter table dishes drop constraint dishes_venue_id_fkey',
    'alter table dishes add constraint dishes_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    'alter table venue_tables drop constraint venue_tables_pkey',
    'alter table venue_tables add constraint venue_tables_pkey primary key (chain_id, id)',
    'alter table venue_tables drop constraint venue_tables_code_key',
    'alter table venue_tables add constraint venue_tables_code_key unique (chain_id, venue_id, table_code)',
    'alter table venue_tables drop constraint venue_tables_venue_id_fkey',
    'alter table venue_tables add constraint venue_tables_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    'alter table orders drop constraint orders_pkey',
    'alter table orders add constraint orders_pkey primary key (chain_id, id)',
    'alter table orders drop constraint orders_venue_id_fkey',
    'alter table orders add constraint orders_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    'drop index orders_by_status',
    'create index orders_by_status on orders (chain_id, venue_id, status, id)',

    // Checks, refunds, holds and scans happen at a venue to a member of the chain.
    'alter table refunds drop constraint refunds_transaction_fkey',
    'alter table transactions drop constraint transactions_pkey',
    'alter table transactions add constraint transactions_pkey primary key (chain_id, id)',
    'alter table transactions drop constraint transactions_external_id_key',
    'alter table transactions add constraint transactions_external_id_key unique (chain_id, venue_id, register_key, external_id)',
    'drop index transactions_register_external_id_key',
    'create unique index transactions_register_external_id_key on transactions (chain_id, venue_id, register_id, external_id) where register_id is not null and not numbered_twice',
    'alter table transactions drop constraint transactions_venue_id_fkey',
    'alter table transactions add constraint transactions_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    'alter table transactions drop constraint transactions_member_fkey',
    'alter table transactions add constraint transactions_member_fkey foreign key (chain_id, member_id) references members (chain_id, id)',
    // Per-day caps count a member's checks across the chain (D21).
    'drop index transactions_member_day_idx',
    'create index transactions_member_day_idx on transactions (chain_id, member_id, venue_day) where member_id is not null',
    'alter table refunds drop constraint refunds_pkey',
    'alter table refunds add constraint refunds_pkey primary key (chain_id, id)',
    'alter table refunds drop constraint refunds_external_id_key',
    'alter table refunds add constraint refunds_external_id_key unique (chain_id, transaction_id, external_id)',
    'alter table refunds add constraint refunds_transaction_fkey foreign key (chain_id, transaction_id) references transactions (chain_id, id)',
    'alter table holds drop constraint holds_pkey',
    'alter table holds add constraint holds_pkey primary key (chain_id, id)',
    'alter table holds drop constraint holds_member_fkey',
    'alter table holds add constraint holds_member_fkey foreign key (chain_id, member_id) references members (chain_id, id)',
    'alter table holds add constraint holds_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    'drop index holds_active_by_member',
    `create index holds_active_by_member on holds (chain_id, member_id, expires_at) where status = 'active'`,
    'alter table scans drop constraint scans_pkey',
    'alter table scans add constraint scans_pkey primary key (chain_id, id)',
    'alter table scans drop constraint scans_member_fkey',
    'alter table scans add constraint scans_member_fkey foreign key (chain_id, member_id) references members (chain_id, id)',
    'alter table scans add constraint scans_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    'drop index scans_by_key_member',
    'create index scans_by_key_member on scans (chain_id, key_id, member_id, created_at)',

    // Cashback lots by the venue where they were earned: a check's earning forms the lot of its venue's day, and
    // expiry is charged to that venue (the venue liability report). Every lot so far is its chain's one venue's.
    'alter table cashback_lots add column venue_id uuid',
    'update cashback_lots set venue_id = chain_id',
    'alter table cashback_lots alter column venue_id set not null',
    'alter table cashback_lots add constraint cashback_lots_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    'alter table cashback_lots drop constraint cashback_lots_pkey',
    'alter table cashback_lots add constraint cashback_lots_pkey primary key (chain_id, member_id, venue_id, day)',
    // A member import remembers the venue that sent it (null: a chain key naming none): its members' home venue and
    // where their `import` entries belong. One already there was sent by its chain's one venue.
    'alter table member_imports add column venue_id uuid',
    'update member_imports set venue_id = chain_id',
    'alter table member_imports add constraint member_imports_venue_fkey foreign key (chain_id, venue_id) references venues (chain_id, venue_id)',
    // The liability report reads a chain's ledger over a period: a BRIN index on the time the append-only ledger is
    // written in order of, next to nothing to keep up on the hot path.
    'create index ledger_entries_by_time on ledger_entries using brin (created_at)',
  ]);
  await placeStoredAnswers(db);
}

/** Objects that gained a field naming their place: `object` → the field (D21). */
const PLACED: Record<string, string> = {
  member: 'home_venue_id',
  history_entry: 'venue_id',
  transaction: 'venue_id',
  hold: 'venue_id',
  visit: 'venue_id',
  order: 'venue_id',
  event: 'venue_id',
};

/**
 * Stored answers are replayed through today's schemas, which require the new fields: each gets the venue the answer
 * was given at, since everything before 0017 happened at the venue that is the record's namespace. Answers live for a
 * day, so this is a day's worth of rows at most.
 */
async function placeStoredAnswers(db: Kysely<any>): Promise<void> {
  await rewriteStoredAnswers(db, (body, venueId) => withAddedFields(body, (object) => (PLACED[object] ? { [PLACED[object]]: venueId } : undefined)));
}

export async function down(): Promise<void> {
  // Undoing would fold chains back into venues; with a chain of several venues sharing members there is no venue to
  // give a shared member to. Restore the backup taken before upgrading instead (docs/deploy.md).
  throw new Error('Migration 0017_chains cannot be undone: restore the backup taken before the upgrade (docs/deploy.md, "Upgrades").');
}
