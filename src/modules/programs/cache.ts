// Each venue's programs, cached in this process and forgotten in every process when one changes (NOTIFY).
import { sql } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import type { ProgramInfo } from './schemas.js';

const CHANNEL = 'venue_loyalty_programs';
/** A bound on staleness should a notification ever be lost; changes normally reach every process at once. */
const TTL_MS = 60_000;

const cached = new Map<string, { programs: ProgramInfo[]; loadedAt: number }>();
/** Venues whose programs a still-open transaction changed: that transaction reads them fresh, and caches nothing. */
const changedIn = new WeakMap<Db, Set<string>>();

/** Venue ids are UUIDs, unique across databases, so one map serves every database this process opens. */
export async function cachedPrograms(db: Db, venueId: string, load: () => Promise<ProgramInfo[]>): Promise<ProgramInfo[]> {
  if (changedIn.get(db)?.has(venueId)) return load();
  const entry = cached.get(venueId);
  if (entry && Date.now() - entry.loadedAt < TTL_MS) return entry.programs;
  const programs = await load();
  cached.set(venueId, { programs, loadedAt: Date.now() });
  return programs;
}

/** Call after changing a venue's programs, with the same db or transaction: every process forgets them. */
export async function programsChanged(db: Db, venueId: string): Promise<void> {
  if (db.isTransaction) changedIn.set(db, (changedIn.get(db) ?? new Set()).add(venueId));
  cached.delete(venueId);
  // Delivered when the transaction commits, to this process too.
  await sql`select pg_notify(${CHANNEL}, ${venueId})`.execute(db);
}

export async function listenForProgramChanges(database: Database): Promise<void> {
  await database.listen(CHANNEL, (venueId) => cached.delete(venueId), () => cached.clear());
}
