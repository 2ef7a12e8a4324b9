// SQL for dashboard users' single-use links (invitations, password resets); owners stay in repo.ts.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { UserLinksTable } from '../../db/schema.js';

export type LinkRow = Selectable<UserLinksTable>;

export async function insertLink(db: Db, row: Insertable<UserLinksTable>): Promise<LinkRow> {
  return db.insertInto('user_links').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The link with this token's hash; `lock` to use it: two uses at once are then one use and one refusal. */
export async function linkByToken(db: Db, tokenHash: string, lock: 'lock' | 'read'): Promise<LinkRow | undefined> {
  return db.selectFrom('user_links').selectAll().where('token_hash', '=', tokenHash).$if(lock === 'lock', (q) => q.forUpdate()).executeTakeFirst();
}

export async function markLinkUsed(db: Db, chainId: string, id: string, at: Date): Promise<void> {
  await db.updateTable('user_links').set({ used_at: at }).where('chain_id', '=', chainId).where('id', '=', id).execute();
}

/** Ends the unused links of this purpose for this address in the chain (a newer one replaces them). */
export async function deletePendingLinks(db: Db, chainId: string, purpose: LinkRow['purpose'], email: string): Promise<void> {
  await db.deleteFrom('user_links').where('chain_id', '=', chainId).where('purpose', '=', purpose).where('email', '=', email).where('used_at', 'is', null).execute();
}

export async function deleteLink(db: Db, chainId: string, purpose: LinkRow['purpose'], id: string): Promise<LinkRow | undefined> {
  return db.deleteFrom('user_links').where('chain_id', '=', chainId).where('purpose', '=', purpose).where('id', '=', id).where('used_at', 'is', null).returningAll().executeTakeFirst();
}

/** The chain's invitations not yet used nor expired at `now`, newest first. */
export async function listPendingInvitations(db: Db, chainId: string, now: Date): Promise<LinkRow[]> {
  return db
    .selectFrom('user_links')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('purpose', '=', 'invitation')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(200)
    .execute();
}

/** Ends the unused links a user made (an owner removed or made manager or staff): what they sent stops working. */
export async function deletePendingLinksBy(db: Db, chainId: string, createdBy: string): Promise<void> {
  await db.deleteFrom('user_links').where('chain_id', '=', chainId).where('created_by', '=', createdBy).where('used_at', 'is', null).execute();
}

/** Every link of a chain (a merged-away chain's: they spoke for it, not for the chain it joined). */
export async function deleteLinksOfChain(db: Db, chainId: string): Promise<void> {
  await db.deleteFrom('user_links').where('chain_id', '=', chainId).execute();
}
