// SQL for remembered Idempotency-Key responses, kept per chain in a namespace (the calling key's venue; D21).
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { writeTogether, type WriteStep } from '../db/statement.js';

export interface StoredResponse {
  fingerprint: string;
  status_code: number;
  response_body: Record<string, unknown>;
}

/** Where a key's answer is kept: the chain, whose keys (the namespace) and the key as stored. */
export interface KeyPlace {
  chainId: string;
  namespace: string;
  key: string;
}

/** What claiming a key found: whether this transaction holds it, and the answer already kept for it. */
export interface KeyClaimed {
  locked: boolean;
  prior: StoredResponse | null;
}

/**
 * The steps (CTEs) that claim a key inside a statement that may do more: an advisory lock held to the end of the
 * transaction (a request with the same key still running holds it: this one fails to take it), then a row for the
 * key, inserted, or returned as kept. ON CONFLICT sees the latest committed row, not the statement's snapshot, so
 * an answer committed by a request that released the lock a moment before is found, never overwritten. An answer
 * kept from before `notBefore` is forgotten: its row is claimed anew. A claimed row (status 0) gets its answer from
 * `recordStep` in the same transaction, or rolls back with it; no one else ever sees it.
 */
export function claimSteps(place: KeyPlace, fingerprint: string, at: Date, notBefore: Date): WriteStep[] {
  const renewed = (column: string) =>
    sql`${sql.id(column)} = case when idempotency_keys.created_at < ${notBefore} then excluded.${sql.id(column)} else idempotency_keys.${sql.id(column)} end`;
  const lockKey = `${place.chainId}:${place.namespace}:${place.key}`;
  return [
    { name: 'key_lock', query: sql`select pg_try_advisory_xact_lock(hashtextextended(${lockKey}, 0)) as locked` },
    {
      name: 'key_claim',
      query: sql`insert into idempotency_keys (chain_id, namespace, key, fingerprint, status_code, response_body, created_at)
        select ${place.chainId}, ${place.namespace}, ${place.key}, ${fingerprint}, 0, '{}'::jsonb, ${at} from key_lock where locked
        on conflict (chain_id, namespace, key) do update set ${sql.join(['fingerprint', 'status_code', 'response_body', 'created_at'].map(renewed))}
        returning fingerprint, status_code, response_body`,
    },
  ];
}

/** What the claim steps found, as one value of the statement they are part of (read by `claimedOf`). */
export const claimOutcome = sql<unknown>`json_build_object('locked', (select locked from key_lock),
  'prior', (select row_to_json(c) from key_claim c where c.status_code <> 0))`;

export function claimedOf(value: unknown): KeyClaimed {
  const outcome = (typeof value === 'string' ? JSON.parse(value) : value) as KeyClaimed;
  return { locked: outcome.locked === true, prior: outcome.prior ?? null };
}

/** Claims a key in a statement of its own. */
export async function claimKey(trx: Db, place: KeyPlace, fingerprint: string, at: Date, notBefore: Date): Promise<KeyClaimed> {
  const outcome = { name: 'key_outcome', query: sql`select ${claimOutcome} as claimed` };
  const [row] = await writeTogether<{ claimed: unknown }>(trx, [...claimSteps(place, fingerprint, at, notBefore), outcome], 'key_outcome');
  return claimedOf(row!.claimed);
}

/** The step that gives the claimed key its answer, for a write statement that does more. */
export function recordStep(trx: Db, place: KeyPlace, status: number, body: unknown): WriteStep {
  return {
    name: 'key_answer',
    query: trx
      .updateTable('idempotency_keys')
      .set({ status_code: status, response_body: JSON.stringify(body) })
      .where('chain_id', '=', place.chainId)
      .where('namespace', '=', place.namespace)
      .where('key', '=', place.key),
  };
}

/** Gives the claimed key its answer in a statement of its own. */
export async function recordAnswer(trx: Db, place: KeyPlace, status: number, body: unknown): Promise<void> {
  await writeTogether(trx, [recordStep(trx, place, status, body)]);
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
