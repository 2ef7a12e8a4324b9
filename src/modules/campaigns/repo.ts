// SQL for campaigns: a chain's rows, by id, newest first.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { CampaignsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';

export type CampaignRow = Selectable<CampaignsTable>;

/** Where and when a credit happens. */
export interface CreditPlace {
  chainId: string;
  venueId: string | null;
  livemode: boolean;
  now: Date;
}

export async function insertCampaign(db: Db, row: Insertable<CampaignsTable>): Promise<CampaignRow> {
  return db.insertInto('campaigns').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The campaign, locked to the end of the transaction with `forUpdate` (an update reads what it changes). */
export async function findCampaign(db: Db, chainId: string, id: string, forUpdate = false): Promise<CampaignRow | undefined> {
  return db
    .selectFrom('campaigns')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('id', '=', id)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** `limit + 1` rows, newest first; `status` as stored (a campaign past its end is still stored as it was set). */
export async function listCampaigns(db: Db, chainId: string, page: Page, type?: string): Promise<CampaignRow[]> {
  return db
    .selectFrom('campaigns')
    .selectAll()
    .where('chain_id', '=', chainId)
    .$if(type !== undefined, (q) => q.where('type', '=', type as CampaignRow['type']))
    .$call(keysetPage(page))
    .execute();
}

export async function updateCampaign(db: Db, chainId: string, id: string, changes: Updateable<CampaignsTable>): Promise<CampaignRow> {
  return db.updateTable('campaigns').set(changes).where('chain_id', '=', chainId).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * The chain's campaigns of `type` and the mode that may credit at `venueId` now in `unit` (a `welcome`'s amount or stamps),
 * budget left, locked in id order until the transaction ends: two enrolments take from one budget one after the other.
 */
export async function lockCrediting(db: Db, where: CreditPlace, type: CampaignRow['type'], unit: 'amount' | 'stamps'): Promise<CampaignRow[]> {
  const { chainId, venueId, livemode, now: at } = where;
  return db
    .selectFrom('campaigns')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('livemode', '=', livemode)
    .where('type', '=', type)
    .where('status', '=', 'active')
    .where(unit, 'is not', null)
    .where((eb) => eb.or([eb('venue_ids', 'is', null), ...(venueId === null ? [] : [eb(eb.val(venueId), '=', eb.fn.any('venue_ids'))])]))
    .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', at)]))
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', at)]))
    .where((eb) => eb.or([eb('budget', 'is', null), eb('spent', '<', eb.ref('budget'))]))
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Adds what a credit took to `spent` (the row is locked): the check constraint refuses passing the budget. */
export async function addSpent(db: Db, chainId: string, id: string, taken: number, at: Date): Promise<CampaignRow> {
  return db
    .updateTable('campaigns')
    .set((eb) => ({ spent: eb('spent', '+', taken), updated_at: at }))
    .where('chain_id', '=', chainId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
