// SQL for the owner's view of past transactions: the filtered list (venue days, register, mode, status), one by id, the registers seen.
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { Place } from '../accounts/schemas.js';
import type { Page } from '../../shared/pagination.js';
import type { TransactionRow } from './repo.js';

export interface HistoryFilter {
  /** Venue days 'YYYY-MM-DD', both ends included: the day a check was closed in the venue's time zone. */
  fromDay?: string;
  toDay?: string;
  registerId?: string;
  livemode?: boolean;
  status?: 'completed' | 'voided';
}

/** Newest first, `limit + 1` rows so the caller can tell whether more exist. */
export async function listFiltered(db: Db, place: Place, page: Page, f: HistoryFilter): Promise<TransactionRow[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('chain_id', '=', place.chainId)
    .where('venue_id', '=', place.venueId)
    .$if(f.fromDay !== undefined, (q) => q.where('venue_day', '>=', f.fromDay!))
    .$if(f.toDay !== undefined, (q) => q.where('venue_day', '<=', f.toDay!))
    .$if(f.registerId !== undefined, (q) => q.where('register_id', '=', f.registerId!))
    .$if(f.livemode !== undefined, (q) => q.where('livemode', '=', f.livemode!))
    .$if(f.status !== undefined, (q) => q.where('status', '=', f.status!))
    .$call(keysetPage(page))
    .execute();
}

export async function findById(db: Db, place: Place, id: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('chain_id', '=', place.chainId).where('venue_id', '=', place.venueId).where('id', '=', id).executeTakeFirst();
}

/** The register ids the venue's checks named, for the filter's choices. */
export async function registerIds(db: Db, place: Place): Promise<string[]> {
  const rows = await db
    .selectFrom('transactions')
    .select('register_id')
    .distinct()
    .where('chain_id', '=', place.chainId)
    .where('venue_id', '=', place.venueId)
    .where('register_id', 'is not', null)
    .orderBy('register_id')
    .limit(200)
    .execute();
  return rows.map((r) => r.register_id!);
}
