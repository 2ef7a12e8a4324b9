// SQL for venues, owners and API keys.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WriteStep } from '../../db/statement.js';
import type { ApiKeysTable, ChainsTable, OwnersTable, VenuesTable } from '../../db/schema.js';
import type { Role } from './schemas.js';

export type ChainRow = Selectable<ChainsTable>;
export type VenueRow = Selectable<VenuesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export const AUTH_CHANNEL = 'venue_loyalty_auth';

export async function insertChain(db: Db, chain: Insertable<ChainsTable>): Promise<ChainRow> {
  return db.insertInto('chains').values(chain).returningAll().executeTakeFirstOrThrow();
}

export async function findChain(db: Db, chainId: string): Promise<ChainRow | undefined> {
  return db.selectFrom('chains').selectAll().where('chain_id', '=', chainId).executeTakeFirst();
}

export async function findChainBySlug(db: Db, slug: string): Promise<ChainRow | undefined> {
  return db.selectFrom('chains').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function listChains(db: Db): Promise<ChainRow[]> {
  return db.selectFrom('chains').selectAll().orderBy('created_at').orderBy('chain_id').execute();
}

export async function venuesOfChain(db: Db, chainId: string): Promise<VenueRow[]> {
  return db.selectFrom('venues').selectAll().where('chain_id', '=', chainId).orderBy('created_at').orderBy('venue_id').execute();
}

/** Changes the chain's currency; the database carries it to every venue of the chain (venues_chain_currency_fkey). */
export async function setChainCurrency(db: Db, chainId: string, currency: string): Promise<void> {
  await db.updateTable('chains').set({ currency }).where('chain_id', '=', chainId).execute();
}

export async function chainHasLedgerEntries(db: Db, chainId: string): Promise<boolean> {
  const row = await db.selectFrom('ledger_entries').select('id').where('chain_id', '=', chainId).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function insertVenue(db: Db, venue: Insertable<VenuesTable>): Promise<VenueRow> {
  return db.insertInto('venues').values(venue).returningAll().executeTakeFirstOrThrow();
}

export async function findVenue(db: Db, venueId: string): Promise<VenueRow | undefined> {
  return db.selectFrom('venues').selectAll().where('venue_id', '=', venueId).executeTakeFirst();
}

export async function findVenueBySlug(db: Db, slug: string): Promise<VenueRow | undefined> {
  return db.selectFrom('venues').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function listVenues(db: Db): Promise<VenueRow[]> {
  return db.selectFrom('venues').selectAll().orderBy('created_at').execute();
}

export async function insertOwner(db: Db, owner: Insertable<OwnersTable>) {
  return db.insertInto('owners').values(owner).returning(['chain_id', 'venue_id', 'id', 'email', 'role', 'created_at']).executeTakeFirstOrThrow();
}

/** The key's insert as a step of a write (see writeTogether), its row returned as `key`. */
export const insertApiKeyStep = (db: Db, key: Insertable<ApiKeysTable>): WriteStep => ({ name: 'key', query: db.insertInto('api_keys').values(key).returningAll() });

/** The key with this hash and the venues it may act at (its own, or all of a chain key's chain), in one statement. */
export async function findApiKeyWithVenues(db: Db, secretHash: string) {
  return db
    .selectFrom('api_keys as k')
    .selectAll('k')
    .select((eb) =>
      eb
        .selectFrom('venues as v')
        .select(sql<VenueRow[]>`coalesce(jsonb_agg(to_jsonb(v) order by v.created_at, v.venue_id), '[]')`.as('venues'))
        .where('v.chain_id', '=', eb.ref('k.chain_id'))
        .where((w) => w.or([w('k.venue_id', 'is', null), w('v.venue_id', '=', w.ref('k.venue_id'))]))
        .as('venues'),
    )
    .where('k.secret_hash', '=', secretHash)
    .executeTakeFirst();
}

/** A venue's keys, or with `venueId` null a chain's own keys (chain keys). */
export async function listApiKeys(db: Db, chainId: string, venueId: string | null): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where((eb) => (venueId === null ? eb('venue_id', 'is', null) : eb('venue_id', '=', venueId)))
    .orderBy('id', 'desc')
    .execute();
}

/** Marks the key revoked (idempotently) and returns it; undefined when the chain has no such key. */
export async function revokeApiKey(db: Db, chainId: string, keyId: string, at: Date): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, ${at})` })
    .where('chain_id', '=', chainId)
    .where('id', '=', keyId)
    .returningAll()
    .executeTakeFirst();
}

export async function touchApiKey(db: Db, chainId: string, keyId: string, at: Date): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('chain_id', '=', chainId).where('id', '=', keyId).execute();
}

/** Tells every process (after commit) that cached authentication for this key hash is stale. */
export async function notifyAuthChanged(db: Db, secretHash: string): Promise<void> {
  await sql`select pg_notify(${AUTH_CHANNEL}, ${secretHash})`.execute(db);
}

export async function findOwnerByEmail(db: Db, email: string) {
  return db.selectFrom('owners').selectAll().where(sql<string>`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
}

/** Every dashboard user of the chain, locked in id order: a change of roles counts the owners that stay. */
export async function lockOwners(db: Db, chainId: string) {
  return db.selectFrom('owners').selectAll().where('chain_id', '=', chainId).orderBy('id').forUpdate().execute();
}

/** A new role; an owner runs every venue, so making someone owner lifts their venue limits. */
export async function setOwnerRole(db: Db, chainId: string, id: string, role: Role): Promise<void> {
  await db.updateTable('owners').set(role === 'owner' ? { role, venue_ids: null } : { role }).where('chain_id', '=', chainId).where('id', '=', id).execute();
}

export async function setOwnerVenues(db: Db, chainId: string, id: string, venueIds: string[] | null): Promise<void> {
  await db.updateTable('owners').set({ venue_ids: venueIds }).where('chain_id', '=', chainId).where('id', '=', id).execute();
}

export async function deleteOwner(db: Db, chainId: string, id: string): Promise<void> {
  await db.deleteFrom('owners').where('chain_id', '=', chainId).where('id', '=', id).execute();
}

export async function listOwners(db: Db, chainId: string) {
  return db.selectFrom('owners').selectAll().where('chain_id', '=', chainId).orderBy('created_at').orderBy('id').execute();
}

export async function findOwner(db: Db, chainId: string, ownerId: string) {
  return db.selectFrom('owners').selectAll().where('chain_id', '=', chainId).where('id', '=', ownerId).executeTakeFirst();
}

export async function setOwnerPasswordHash(db: Db, chainId: string, ownerId: string, passwordHash: string): Promise<void> {
  await db.updateTable('owners').set({ password_hash: passwordHash }).where('chain_id', '=', chainId).where('id', '=', ownerId).execute();
}

export async function updateVenue(
  db: Db,
  venueId: string,
  changes: Partial<Pick<VenueRow, 'name' | 'locale' | 'timezone' | 'country'>> & { settings?: string },
): Promise<VenueRow | undefined> {
  return db.updateTable('venues').set(changes).where('venue_id', '=', venueId).returningAll().executeTakeFirst();
}

export async function findApiKey(db: Db, chainId: string, keyId: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('chain_id', '=', chainId).where('id', '=', keyId).executeTakeFirst();
}

export async function setApiKeyRules(db: Db, chainId: string, keyId: string, rules: string): Promise<ApiKeyRow | undefined> {
  return db.updateTable('api_keys').set({ rules }).where('chain_id', '=', chainId).where('id', '=', keyId).returningAll().executeTakeFirst();
}

/** Every key of the chain: a venue's change reaches its own keys and the chain's keys that may act there. */
export async function keyHashesOfChain(db: Db, chainId: string): Promise<string[]> {
  const rows = await db.selectFrom('api_keys').select('secret_hash').where('chain_id', '=', chainId).execute();
  return rows.map((r) => r.secret_hash);
}

// Merging a venue, the only one of its chain, into another chain (flows/chain-merge.ts).

/**
 * Every table that holds a chain's rows, besides `chains` and `venues` and the audit log (whose entries stay under
 * the chain they were written in, D24): a merge gives each of its rows of the source chain the target's chain_id. A
 * new table with a chain_id column belongs here, with what its rows need to stay valid in the other chain
 * (test/modules/accounts/merge.test.ts fails until it is listed).
 */
export const MERGED_TABLES = [
  'programs',
  'members',
  'member_cards',
  'apple_pass_registrations',
  'google_wallet_objects',
  'wallet_updates',
  'ledger_entries',
  'cashback_lots',
  'member_imports',
  'member_import_chunks',
  'member_import_errors',
  'member_erasure_keys',
  'erased_cards',
  'catalog_categories',
  'category_venue_rules',
  'catalog_products',
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
  'campaigns',
  'integrations',
  'integration_log',
  'integration_handled',
] as const;
export type MergedTable = (typeof MERGED_TABLES)[number];

/** Locks the chains' rows, in id order (two merges never wait on each other in a circle); a venue joining either waits. */
export async function lockChains(db: Db, chainIds: string[]): Promise<void> {
  await db.selectFrom('chains').select('chain_id').where('chain_id', 'in', chainIds).orderBy('chain_id').forUpdate().execute();
}

/** The chain's own keys (no venue) that still work. */
export async function activeChainKeys(db: Db, chainId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('chain_id', '=', chainId).where('venue_id', 'is', null).where('revoked_at', 'is', null).orderBy('id').execute();
}

/** Member imports of the chain still being uploaded, waiting or running. */
export async function unfinishedImportIds(db: Db, chainId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('member_imports')
    .select('id')
    .where('chain_id', '=', chainId)
    .where('status', 'in', ['receiving', 'pending', 'running'])
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Whether the chain keeps erased members' card numbers (as hashes under its erasure key). */
export async function hasErasedCards(db: Db, chainId: string): Promise<boolean> {
  return (await db.selectFrom('erased_cards').select('card_hash').where('chain_id', '=', chainId).limit(1).executeTakeFirst()) !== undefined;
}

export async function deleteErasureKey(db: Db, chainId: string): Promise<void> {
  await db.deleteFrom('member_erasure_keys').where('chain_id', '=', chainId).execute();
}

export interface CodeClash {
  code: string;
  source_member: string;
  source_field: 'card_number' | 'serial';
  target_member: string;
  target_field: 'card_number' | 'serial';
}

/**
 * Codes a scan or a look-up would find in both chains: a card number or serial of a member of `source` that is a
 * card number or serial of a member of `target`.
 */
export async function codeClashes(db: Db, source: string, target: string): Promise<CodeClash[]> {
  const { rows } = await sql<CodeClash>`
    with s as (
      select card_number as code, member_id, 'card_number' as field from member_cards where chain_id = ${source}
      union all select serial, id, 'serial' from members where chain_id = ${source}
    ), t as (
      select card_number as code, member_id, 'card_number' as field from member_cards where chain_id = ${target}
      union all select serial, id, 'serial' from members where chain_id = ${target}
    )
    select s.code, s.member_id as source_member, s.field as source_field, t.member_id as target_member, t.field as target_field
    from s join t on t.code = s.code
    order by s.code, s.member_id, t.member_id`.execute(db);
  return rows;
}

/** Phones held by a member of each chain, neither erased: a look-up by phone would find two members. */
export async function phoneClashes(db: Db, source: string, target: string): Promise<{ phone: string; source_member: string; target_member: string }[]> {
  return db
    .selectFrom('members as s')
    .innerJoin('members as t', (j) => j.on('t.chain_id', '=', target).onRef('t.phone', '=', 's.phone').on('t.erased_at', 'is', null))
    .select(['s.phone as phone', 's.id as source_member', 't.id as target_member'])
    .where('s.chain_id', '=', source)
    .where('s.phone', 'is not', null)
    .where('s.erased_at', 'is', null)
    .orderBy('s.phone')
    .orderBy('s.id')
    .orderBy('t.id')
    .execute() as Promise<{ phone: string; source_member: string; target_member: string }[]>;
}

/** E-mails held by a member of each chain (an erased member holds none); each chain may hold one only once (migration 0038). */
export async function emailClashes(db: Db, source: string, target: string): Promise<{ email: string; source_member: string; target_member: string }[]> {
  return db
    .selectFrom('members as s')
    .innerJoin('members as t', (j) => j.on('t.chain_id', '=', target).onRef('t.email', '=', 's.email'))
    .select(['s.email as email', 's.id as source_member', 't.id as target_member'])
    .where('s.chain_id', '=', source)
    .where('s.email', 'is not', null)
    .orderBy('s.email')
    .orderBy('s.id')
    .execute() as Promise<{ email: string; source_member: string; target_member: string }[]>;
}

export interface SharedCategory {
  external_id: string;
  source_id: string;
  target_id: string;
  /** Name and money rules equal. */
  same: boolean;
  source_name: string;
  source_earns: boolean;
  source_payable: boolean;
  source_percent_bp: number | null;
  target_name: string;
  target_earns: boolean;
  target_payable: boolean;
  target_percent_bp: number | null;
}

/** Categories whose external_id both chains have. */
export async function sharedCategories(db: Db, source: string, target: string): Promise<SharedCategory[]> {
  const { rows } = await sql<SharedCategory>`
    select s.external_id, s.id as source_id, t.id as target_id,
      (s.name, s.earns_cashback, s.payable_with_cashback, s.cashback_percent_bp)
        is not distinct from (t.name, t.earns_cashback, t.payable_with_cashback, t.cashback_percent_bp) as same,
      s.name as source_name, s.earns_cashback as source_earns, s.payable_with_cashback as source_payable, s.cashback_percent_bp as source_percent_bp,
      t.name as target_name, t.earns_cashback as target_earns, t.payable_with_cashback as target_payable, t.cashback_percent_bp as target_percent_bp
    from catalog_categories s join catalog_categories t on t.chain_id = ${target} and t.external_id = s.external_id
    where s.chain_id = ${source}
    order by s.external_id`.execute(db);
  return rows;
}

export interface SharedProduct {
  sku: string;
  source_id: string;
  /** Name, category and price equal. */
  same: boolean;
  source_name: string;
  source_category: string | null;
  source_price: number | null;
  target_name: string;
  target_category: string | null;
  target_price: number | null;
}

/** Catalogue products whose SKU both chains have. */
export async function sharedProducts(db: Db, source: string, target: string): Promise<SharedProduct[]> {
  const { rows } = await sql<SharedProduct>`
    select s.sku, s.id as source_id,
      (s.name, s.category, s.price) is not distinct from (t.name, t.category, t.price) as same,
      s.name as source_name, s.category as source_category, s.price::float8 as source_price,
      t.name as target_name, t.category as target_category, t.price::float8 as target_price
    from catalog_products s join catalog_products t on t.chain_id = ${target} and t.sku = s.sku
    where s.chain_id = ${source}
    order by s.sku`.execute(db);
  return rows;
}

export async function deleteCategories(db: Db, chainId: string, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('catalog_categories').where('chain_id', '=', chainId).where('id', 'in', ids).execute();
}

export async function deleteProducts(db: Db, chainId: string, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('catalog_products').where('chain_id', '=', chainId).where('id', 'in', ids).execute();
}

export async function programsOfChain(db: Db, chainId: string): Promise<{ id: string; name: string; is_default: boolean }[]> {
  return db.selectFrom('programs').select(['id', 'name', 'is_default']).where('chain_id', '=', chainId).orderBy('created_at').orderBy('id').execute();
}

/** The chain's own webhook endpoints (no venue), with their sealed secrets. */
export async function chainEndpointSecrets(db: Db, chainId: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['chain_id', 'venue_id', 'id', 'secret', 'secret_key_id'])
    .where('chain_id', '=', chainId)
    .where('venue_id', 'is', null)
    .orderBy('id')
    .execute();
}

export interface ChainMove {
  from: string;
  into: string;
  /** The venue moving: the only one of `from`. */
  venueId: string;
  /** The target has a default program: the source's stops being one (programs_one_default). */
  dropDefault: boolean;
  /**
   * Categories of the source equal to one of the target (source id → target id): they stay behind, to be deleted, and
   * the venue's own rules for them (category_venue_rules) move to the target's category.
   */
  foldedCategories: Record<string, string>;
}

/**
 * Moves the venue and every row of chain `from` into chain `into`, in ONE statement: the foreign keys pair chain_id
 * with chain_id and are not deferrable, and PostgreSQL checks them at the end of the statement, when parents and
 * children have all moved. Rows of the chain's own (no venue) become the venue's: its chain keys (revoked by then)
 * and webhook endpoints with their deliveries and attempts; its campaigns of every venue become the venue's. How many rows of each table moved.
 */
export async function moveChainRows(db: Db, move: ChainMove): Promise<Record<MergedTable | 'venues', number>> {
  const toVenue = sql`, venue_id = coalesce(venue_id, ${move.venueId}::uuid)`;
  const folded = JSON.stringify(move.foldedCategories);
  const extra: Partial<Record<MergedTable, ReturnType<typeof sql.raw>>> = {
    programs: sql`, is_default = is_default and not ${move.dropDefault}::boolean`,
    // A referral code the target chain has already is drawn again (codes are random: no one chose it).
    members: sql`, referral_code = case when exists (select 1 from members t where t.chain_id = ${move.into}::uuid and t.referral_code = members.referral_code)
      then upper(substr(md5(random()::text || id::text), 1, 10)) else referral_code end`,
    category_venue_rules: sql`, category_id = coalesce((${folded}::jsonb ->> category_id::text)::uuid, category_id)`,
    // Its managers and staff keep to the venue they ran; its owners run the chain they join, as its owners do.
    owners: sql`, venue_ids = case when role = 'owner' then null else coalesce(venue_ids, array[${move.venueId}::uuid]) end`,
    api_keys: toVenue,
    webhook_endpoints: toVenue,
    webhook_deliveries: toVenue,
    webhook_attempts: toVenue,
    // A campaign of the whole chain merged in keeps to the venue it was the chain of (its budget pays for that venue).
    campaigns: sql`, venue_ids = coalesce(venue_ids, array[${move.venueId}::uuid])`,
    // A connection made for the whole chain merged in is the venue's, as its chain keys are.
    integrations: toVenue,
  };
  const only: Partial<Record<MergedTable, ReturnType<typeof sql.raw>>> = {
    catalog_categories: sql` and not (${folded}::jsonb ? id::text)`,
  };
  const moves = MERGED_TABLES.map(
    (table) =>
      sql`${sql.id(`moved_${table}`)} as (update ${sql.table(table)} set chain_id = ${move.into}::uuid${extra[table] ?? sql``}
        where chain_id = ${move.from}::uuid${only[table] ?? sql``} returning 1)`,
  );
  const counts = (['venues', ...MERGED_TABLES] as const).map((table) => sql`(select count(*) from ${sql.id(`moved_${table}`)})::int as ${sql.id(table)}`);
  const { rows } = await sql<Record<MergedTable | 'venues', number>>`
    with moved_venues as (update venues set chain_id = ${move.into}::uuid where chain_id = ${move.from}::uuid and venue_id = ${move.venueId}::uuid returning 1),
    ${sql.join(moves)}
    select ${sql.join(counts)}`.execute(db);
  return rows[0]!;
}

export async function deleteChain(db: Db, chainId: string): Promise<void> {
  await db.deleteFrom('chains').where('chain_id', '=', chainId).execute();
}
