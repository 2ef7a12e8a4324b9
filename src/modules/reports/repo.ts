// SQL of the venue liability report: a chain's ledger in a period summed by venue and kind, and the chain's venues.
import type { Db } from '../../db/database.js';

export interface KindSum {
  venue_id: string | null;
  kind: string;
  cashback: number;
}

/**
 * Σ cashback of the chain's ledger entries with `from` ≤ created_at < `to`, by the venue they belong to and their
 * kind; entries that move no cashback are left out. One statement, over the period only (ledger_entries_by_time).
 */
export async function cashbackByVenueAndKind(db: Db, chainId: string, period: { from: Date; to: Date }, livemode?: boolean): Promise<KindSum[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select((eb) => ['venue_id', 'kind', eb.fn.sum<string>('cashback').as('cashback')])
    .where('chain_id', '=', chainId)
    .where('created_at', '>=', period.from)
    .where('created_at', '<', period.to)
    .where('cashback', '<>', 0)
    .$if(livemode !== undefined, (q) => q.where('livemode', '=', livemode!))
    .groupBy(['venue_id', 'kind'])
    .execute();
  return rows.map((r) => ({ venue_id: r.venue_id, kind: r.kind, cashback: Number(r.cashback) }));
}

/** The chain's venues, oldest first (as GET /v1/account lists them). */
export async function venueIdsOfChain(db: Db, chainId: string): Promise<string[]> {
  const rows = await db.selectFrom('venues').select('venue_id').where('chain_id', '=', chainId).orderBy('created_at').orderBy('venue_id').execute();
  return rows.map((r) => r.venue_id);
}
