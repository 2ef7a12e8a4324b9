// Each chain's programs, cached in this process and forgotten in every process when one changes (NOTIFY).
import { sql } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import type { ProgramInfo } from './schemas.js';

const CHANNEL = 'venue_loyalty_programs';
/** A bound on staleness should a notification ever be lost; changes normally reach every process at once. */
const TTL_MS = 60_000;

const cached = new Map<string, { programs: ProgramInfo[]; loadedAt: number }>();
/** Chains whose programs a still-open transaction changed: that transaction reads them fresh, and caches nothing. */
const changedIn = new WeakMap<Db, Set<string>>();

/** Chain ids are UUIDs, unique across databases, so one map serves every database this process opens. */
export async function cachedPrograms(db: Db, chainId: string, load: () => Promise<ProgramInfo[]>): Promise<ProgramInfo[]> {
  if (changedIn.get(db)?.has(chainId)) return load();
  const entry = cached.get(chainId);
  if (entry && Date.now() - entry.loadedAt < TTL_MS) return entry.programs;
  const programs = await load();
  cached.set(chainId, { programs, loadedAt: Date.now() });
  return programs;
}

/** Call after changing a chain's programs, with the same db or transaction: every process forgets them. */
export async function programsChanged(db: Db, chainId: string): Promise<void> {
  if (db.isTransaction) changedIn.set(db, (changedIn.get(db) ?? new Set()).add(chainId));
  cached.delete(chainId);
  // Delivered when the transaction commits, to this process too.
  await sql`select pg_notify(${CHANNEL}, ${chainId})`.execute(db);
}

export async function listenForProgramChanges(database: Database): Promise<void> {
  await database.listen(CHANNEL, (chainId) => cached.delete(chainId), () => cached.clear());
}
