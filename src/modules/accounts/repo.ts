// SQL for venues, owners and API keys.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ApiKeysTable, VenuesTable } from '../../db/schema.js';

export type VenueRow = Selectable<VenuesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export const AUTH_CHANNEL = 'venue_loyalty_auth';

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

export async function insertOwner(db: Db, owner: { venue_id: string; id: string; email: string; password_hash: string }) {
  return db.insertInto('owners').values(owner).returning(['venue_id', 'id', 'email', 'created_at']).executeTakeFirstOrThrow();
}

export async function insertApiKey(db: Db, key: Insertable<ApiKeysTable>): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(key).returningAll().executeTakeFirstOrThrow();
}

export async function findApiKeyWithVenue(db: Db, secretHash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('venues', 'venues.venue_id', 'api_keys.venue_id')
    .select([
      'api_keys.venue_id',
      'api_keys.id',
      'api_keys.name',
      'api_keys.display_prefix',
      'api_keys.livemode',
      'api_keys.scopes',
      'api_keys.rules',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'venues.settings as venue_settings',
      'venues.name as venue_name',
      'venues.country',
      'venues.currency',
      'venues.locale',
      'venues.timezone',
    ])
    .where('api_keys.secret_hash', '=', secretHash)
    .executeTakeFirst();
}

export async function listApiKeys(db: Db, venueId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('venue_id', '=', venueId).orderBy('id', 'desc').execute();
}

/** Marks the key revoked (idempotently) and returns it; undefined when the venue has no such key. */
export async function revokeApiKey(db: Db, venueId: string, keyId: string, at: Date): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, ${at})` })
    .where('venue_id', '=', venueId)
    .where('id', '=', keyId)
    .returningAll()
    .executeTakeFirst();
}

export async function touchApiKey(db: Db, venueId: string, keyId: string, at: Date): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('venue_id', '=', venueId).where('id', '=', keyId).execute();
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
  changes: Partial<Pick<VenueRow, 'name' | 'currency' | 'locale' | 'timezone' | 'country'>> & { settings?: string },
): Promise<VenueRow | undefined> {
  return db.updateTable('venues').set(changes).where('venue_id', '=', venueId).returningAll().executeTakeFirst();
}

export async function setApiKeyRules(db: Db, venueId: string, keyId: string, rules: string): Promise<ApiKeyRow | undefined> {
  return db.updateTable('api_keys').set({ rules }).where('venue_id', '=', venueId).where('id', '=', keyId).returningAll().executeTakeFirst();
}

export async function keyHashesOfVenue(db: Db, venueId: string): Promise<string[]> {
  const rows = await db.selectFrom('api_keys').select('secret_hash').where('venue_id', '=', venueId).execute();
  return rows.map((r) => r.secret_hash);
}
