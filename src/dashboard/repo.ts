// SQL for the dashboard's sessions; owners, venues and keys stay with accounts.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { DashboardSessionsTable } from '../db/schema.js';

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

/** The session's chain and id: what every statement on a session row filters by (the current venue may change). */
export interface SessionRef {
  chainId: string;
  id: string;
}

export async function touchSession(db: Db, ref: SessionRef, at: Date): Promise<void> {
  await db.updateTable('dashboard_sessions').set({ last_seen_at: at }).where('chain_id', '=', ref.chainId).where('id', '=', ref.id).execute();
}

/** Moves the session to another venue of its chain (the venue switcher); the caller checked the venue is the chain's. */
export async function setSessionVenue(db: Db, ref: SessionRef, venueId: string): Promise<void> {
  await db.updateTable('dashboard_sessions').set({ venue_id: venueId }).where('chain_id', '=', ref.chainId).where('id', '=', ref.id).execute();
}

/** The owner's live sessions at any venue of the chain (each session is at the venue it last switched to). */
export async function listLiveSessions(db: Db, chainId: string, ownerId: string, now: Date): Promise<SessionRow[]> {
  return db
    .selectFrom('dashboard_sessions')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}

/** Revokes one of the owner's sessions; undefined when the owner has no such live session. */
export async function revokeSession(db: Db, chainId: string, ownerId: string, id: string, at: Date): Promise<SessionRow | undefined> {
  return db
    .updateTable('dashboard_sessions')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, ${at})` })
    .where('chain_id', '=', chainId)
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes every session of a user (removed, or given a lesser role): they are signed out at their next call. */
export async function deleteSessionsOf(db: Db, chainId: string, ownerId: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('chain_id', '=', chainId).where('owner_id', '=', ownerId).execute();
}

/** Revokes every other live session of the owner (after a password change). */
export async function revokeOtherSessions(db: Db, chainId: string, ownerId: string, keepId: string, at: Date): Promise<void> {
  await db
    .updateTable('dashboard_sessions')
    .set({ revoked_at: at })
    .where('chain_id', '=', chainId)
    .where('owner_id', '=', ownerId)
    .where('id', '!=', keepId)
    .where('revoked_at', 'is', null)
    .execute();
}
