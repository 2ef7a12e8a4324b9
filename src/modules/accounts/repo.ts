// SQL for venues, owners and API keys.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ApiKeysTable, ChainsTable, VenuesTable } from '../../db/schema.js';

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

export async function insertOwner(db: Db, owner: { chain_id: string; venue_id: string; id: string; email: string; password_hash: string }) {
  return db.insertInto('owners').values(owner).returning(['chain_id', 'venue_id', 'id', 'email', 'created_at']).executeTakeFirstOrThrow();
}

export async function insertApiKey(db: Db, key: Insertable<ApiKeysTable>): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(key).returningAll().executeTakeFirstOrThrow();
}

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

export async function findOwner(db: Db, venueId: string, ownerId: string) {
  return db.selectFrom('owners').selectAll().where('venue_id', '=', venueId).where('id', '=', ownerId).executeTakeFirst();
}

export async function setOwnerPasswordHash(db: Db, venueId: string, ownerId: string, passwordHash: string): Promise<void> {
  await db.updateTable('owners').set({ password_hash: passwordHash }).where('venue_id', '=', venueId).where('id', '=', ownerId).execute();
}

export async function updateVenue(
  db: Db,
  venueId: string,
  changes: Partial<Pick<VenueRow, 'name' | 'locale' | 'timezone' | 'country'>> & { settings?: string },
): Promise<VenueRow | undefined> {
  return db.updateTable('venues').set(changes).where('venue_id', '=', venueId).returningAll().executeTakeFirst();
}

export async function setApiKeyRules(db: Db, chainId: string, keyId: string, rules: string): Promise<ApiKeyRow | undefined> {
  return db.updateTable('api_keys').set({ rules }).where('chain_id', '=', chainId).where('id', '=', keyId).returningAll().executeTakeFirst();
}

/** Every key of the chain: a venue's change reaches its own keys and the chain's keys that may act there. */
export async function keyHashesOfChain(db: Db, chainId: string): Promise<string[]> {
  const rows = await db.selectFrom('api_keys').select('secret_hash').where('chain_id', '=', chainId).execute();
  return rows.map((r) => r.secret_hash);
}
