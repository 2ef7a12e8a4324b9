// SQL for campaigns: a chain's rows, by id, newest first.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { CampaignsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';

export type CampaignRow = Selectable<CampaignsTable>;

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
