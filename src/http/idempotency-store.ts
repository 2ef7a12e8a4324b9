// SQL for remembered Idempotency-Key responses, kept per chain in a namespace (the calling key's venue; D21).
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface StoredResponse {
  fingerprint: string;
  status_code: number;
  response_body: Record<string, unknown>;
}

/** Holds the key for the rest of the transaction; false when another transaction holds it. */
export async function tryLockKey(trx: Db, chainId: string, namespace: string, key: string): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`
    select pg_try_advisory_xact_lock(hashtextextended(${`${chainId}:${namespace}:${key}`}, 0)) as locked`.execute(trx);
  return rows[0]?.locked === true;
}

export async function findResponse(trx: Db, chainId: string, namespace: string, key: string, notBefore: Date): Promise<StoredResponse | undefined> {
  return trx
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status_code', 'response_body'])
    .where('chain_id', '=', chainId)
    .where('namespace', '=', namespace)
    .where('key', '=', key)
    .where('created_at', '>=', notBefore)
    .executeTakeFirst();
}

/** Stores the response; replaces only a record that has already expired. */
export async function saveResponse(
  trx: Db,
  row: { chainId: string; namespace: string; key: string; fingerprint: string; status: number; body: unknown; at: Date; notBefore: Date },
): Promise<void> {
  const values = {
    chain_id: row.chainId,
    namespace: row.namespace,
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
        .columns(['chain_id', 'namespace', 'key'])
        .doUpdateSet({ ...values })
        .where('idempotency_keys.created_at', '<', row.notBefore),
    )
    .execute();
}

export interface StoredKey {
  namespace: string;
  key: string;
}

/**
 * Stored answers anywhere in the chain whose body contains `text` (a member's id, for their erasure: a chain's member
 * is answered about at every venue), by namespace and key after `after`.
 */
export async function answersContaining(db: Db, chainId: string, text: string, after: StoredKey | undefined, limit: number) {
  return db
    .selectFrom('idempotency_keys')
    .select(['namespace', 'key', 'response_body'])
    .where('chain_id', '=', chainId)
    .where(sql<boolean>`position(${text} in response_body::text) > 0`)
    .$if(after !== undefined, (q) => q.where((eb) => eb(eb.refTuple('namespace', 'key'), '>', eb.tuple(after!.namespace, after!.key))))
    .orderBy('namespace')
    .orderBy('key')
    .limit(limit)
    .execute();
}

/** Replaces a stored answer's body (a member's erasure); a replay answers the new one. */
export async function replaceResponse(db: Db, chainId: string, stored: StoredKey, body: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ response_body: JSON.stringify(body) })
    .where('chain_id', '=', chainId)
    .where('namespace', '=', stored.namespace)
    .where('key', '=', stored.key)
    .execute();
}

/** Deletes at most `limit` records made before `before`, whatever their chain; how many it deleted. */
export async function forgetBefore(db: Db, before: Date, limit: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with gone as (
      delete from idempotency_keys where (chain_id, namespace, key) in (
        select chain_id, namespace, key from idempotency_keys where created_at < ${before} limit ${limit})
      returning 1)
    select count(*)::int as n from gone`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
