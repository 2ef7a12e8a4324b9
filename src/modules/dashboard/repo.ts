// SQL for the dashboard's sessions; owners, venues and keys stay with accounts.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { DashboardSessionsTable } from '../../db/schema.js';
import type { Place } from '../accounts/schemas.js';

export type SessionRow = Selectable<DashboardSessionsTable>;

export async function insertSession(
  db: Db,
  row: { chain_id: string; venue_id: string; id: string; owner_id: string; token_hash: string; user_agent: string | null; ip: string | null; created_at: Date; last_seen_at: Date; expires_at: Date },
): Promise<SessionRow> {
  return db.insertInto('dashboard_sessions').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A live session by its token's hash: not revoked, not expired at `now`. */
export async function findLiveSession(db: Db, tokenHash: string, now: Date): Promise<SessionRow | undefined> {
  return db
    .selectFrom('dashboard_sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function touchSession(db: Db, place: Place, id: string, at: Date): Promise<void> {
  await db
    .updateTable('dashboard_sessions')
    .set({ last_seen_at: at })
    .where('chain_id', '=', place.chainId)
    .where('venue_id', '=', place.venueId)
    .where('id', '=', id)
    .execute();
}

export async function listLiveSessions(db: Db, place: Place, ownerId: string, now: Date): Promise<SessionRow[]> {
  return db
    .selectFrom('dashboard_sessions')
    .selectAll()
    .where('chain_id', '=', place.chainId)
    .where('venue_id', '=', place.venueId)
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}

/** Revokes one of the owner's sessions; undefined when the owner has no such live session. */
export async function revokeSession(db: Db, place: Place, ownerId: string, id: string, at: Date): Promise<SessionRow | undefined> {
  return db
    .updateTable('dashboard_sessions')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, ${at})` })
    .where('chain_id', '=', place.chainId)
    .where('venue_id', '=', place.venueId)
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Revokes every other live session of the owner (after a password change). */
export async function revokeOtherSessions(db: Db, place: Place, ownerId: string, keepId: string, at: Date): Promise<void> {
  await db
    .updateTable('dashboard_sessions')
    .set({ revoked_at: at })
    .where('chain_id', '=', place.chainId)
    .where('venue_id', '=', place.venueId)
    .where('owner_id', '=', ownerId)
    .where('id', '!=', keepId)
    .where('revoked_at', 'is', null)
    .execute();
}
