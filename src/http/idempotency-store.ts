// SQL for remembered Idempotency-Key responses.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface StoredResponse {
  fingerprint: string;
  status_code: number;
  response_body: Record<string, unknown>;
}

/** Holds the key for the rest of the transaction; false when another transaction holds it. */
export async function tryLockKey(trx: Db, venueId: string, key: string): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`
    select pg_try_advisory_xact_lock(hashtextextended(${venueId + ':' + key}, 0)) as locked`.execute(trx);
  return rows[0]?.locked === true;
}

export async function findResponse(trx: Db, venueId: string, key: string, notBefore: Date): Promise<StoredResponse | undefined> {
  return trx
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status_code', 'response_body'])
    .where('venue_id', '=', venueId)
    .where('key', '=', key)
    .where('created_at', '>=', notBefore)
    .executeTakeFirst();
}

/** Stores the response; replaces only a record that has already expired. */
export async function saveResponse(
  trx: Db,
  row: { venueId: string; key: string; fingerprint: string; status: number; body: unknown; at: Date; notBefore: Date },
): Promise<void> {
  const values = {
    venue_id: row.venueId,
    key: row.key,
    fingerprint: row.fingerprint,
    status_code: row.status,
    response_body: JSON.stringify(row.body),
    created_at: row.at,
  };
  await trx
    .insertInto('idempotency_keys')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['venue_id', 'key'])
        .doUpdateSet({ ...values })
        .where('idempotency_keys.created_at', '<', row.notBefore),
    )
    .execute();
}

/** Stored answers of the venue whose body contains `text` (a member's id, for their erasure), by key after `afterKey`. */
export async function answersContaining(db: Db, venueId: string, text: string, afterKey: string | undefined, limit: number) {
  return db
    .selectFrom('idempotency_keys')
    .select(['key', 'response_body'])
    .where('venue_id', '=', venueId)
    .where(sql<boolean>`position(${text} in response_body::text) > 0`)
    .$if(afterKey !== undefined, (q) => q.where('key', '>', afterKey!))
    .orderBy('key')
    .limit(limit)
    .execute();
}

/** Replaces a stored answer's body (a member's erasure); a replay answers the new one. */
export async function replaceResponse(db: Db, venueId: string, key: string, body: Record<string, unknown>): Promise<void> {
  await db.updateTable('idempotency_keys').set({ response_body: JSON.stringify(body) }).where('venue_id', '=', venueId).where('key', '=', key).execute();
}

/** Deletes at most `limit` records made before `before`; how many it deleted. */
export async function forgetBefore(db: Db, before: Date, limit: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with gone as (
      delete from idempotency_keys where (venue_id, key) in (
        select venue_id, key from idempotency_keys where created_at < ${before} limit ${limit})
      returning 1)
    select count(*)::int as n from gone`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
