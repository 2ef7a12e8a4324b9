// SQL for the wallet's update queue (migration 0034): rows queued by triggers, claimed by workers with SKIP LOCKED,
// deleted once sent or dropped, rescheduled or marked failed otherwise.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export type Channel = 'apple' | 'google' | 'google_erased';

export interface ClaimedUpdate {
  chain_id: string;
  id: string;
  member_id: string;
  channel: Channel;
  device_library_id: string | null;
  push_token: string | null;
  /** This attempt's number, from 1. */
  attempts: number;
}

/**
 * Claims up to `limit` due updates of the channels given (those this worker can send: another's rows wait for a
 * worker that can) for `leaseMs` (another worker takes them over only after that), counting the attempt. Oldest first.
 */
export async function claimDue(db: Db, channels: Channel[], limit: number, leaseMs: number): Promise<ClaimedUpdate[]> {
  if (channels.length === 0) return [];
  const { rows } = await sql<ClaimedUpdate>`update wallet_updates u set attempts = u.attempts + 1, next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
    from (select chain_id, id from wallet_updates where status = 'pending' and next_attempt_at <= now() and channel in (${sql.join(channels)})
          order by next_attempt_at limit ${limit} for update skip locked) due
    where u.chain_id = due.chain_id and u.id = due.id
    returning u.chain_id, u.id, u.member_id, u.channel, u.device_library_id, u.push_token, u.attempts`.execute(db);
  return rows;
}

// Each outcome is written only while the row is still this attempt's: a worker whose lease ran out (another
// claimed the row since) changes nothing.
const ours = (u: ClaimedUpdate) => sql`chain_id = ${u.chain_id} and id = ${u.id} and attempts = ${u.attempts} and status = 'pending'`;

/** Sent, or no longer wanted: gone from the queue. */
export async function remove(db: Db, u: ClaimedUpdate): Promise<void> {
  await sql`delete from wallet_updates where ${ours(u)}`.execute(db);
}

export async function retryLater(db: Db, u: ClaimedUpdate, delayMs: number, error: string): Promise<void> {
  await sql`update wallet_updates set next_attempt_at = now() + ${delayMs} * interval '1 millisecond', last_error = ${error} where ${ours(u)}`.execute(db);
}

/** Given up on: kept, with why, for a look (housekeeping deletes it later). */
export async function markFailed(db: Db, u: ClaimedUpdate, error: string): Promise<void> {
  await sql`update wallet_updates set status = 'failed', last_error = ${error} where ${ours(u)}`.execute(db);
}

/** APNs said the token is no longer the device's: its registration goes, unless the device registered a new token since. */
export async function unregisterToken(db: Db, update: ClaimedUpdate): Promise<void> {
  await db
    .deleteFrom('apple_pass_registrations')
    .where('chain_id', '=', update.chain_id)
    .where('member_id', '=', update.member_id)
    .where('device_library_id', '=', update.device_library_id!)
    .where('push_token', '=', update.push_token!)
    .execute();
}

/** Records that the member's Google object was made (its save link given), so changes are sent to it. */
export async function rememberGoogleObject(db: Db, chainId: string, memberId: string): Promise<void> {
  await db.insertInto('google_wallet_objects').values({ chain_id: chainId, member_id: memberId }).onConflict((oc) => oc.columns(['chain_id', 'member_id']).doNothing()).execute();
}

/** Failed updates older than `before`: deleted, a bounded batch at a time. */
export async function deleteFailed(db: Db, before: Date, batch: number): Promise<number> {
  const result = await sql`delete from wallet_updates where (chain_id, id) in (
    select chain_id, id from wallet_updates where status = 'failed' and created_at < ${before} limit ${batch})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
