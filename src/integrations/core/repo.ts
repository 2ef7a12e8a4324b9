// SQL for connections, their log (which is also their queue of provider work) and what each has handled.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { IntegrationLogTable, IntegrationsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';

export type IntegrationRow = Selectable<IntegrationsTable>;
export type LogRow = Selectable<IntegrationLogTable>;

const json = (value: unknown) => JSON.stringify(value);

export async function insertIntegration(db: Db, row: Insertable<IntegrationsTable>): Promise<IntegrationRow> {
  return db.insertInto('integrations').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findIntegration(db: Db, chainId: string, id: string, lock = false): Promise<IntegrationRow | undefined> {
  return db
    .selectFrom('integrations')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('id', '=', id)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** A connection by its id alone: a provider's call names nothing else (ids are unique across chains). */
export async function findIntegrationById(db: Db, id: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The chain's connections, or with `venueId` those made for that venue (a venue key's). */
export async function listIntegrations(db: Db, chainId: string, venueId: string | null, page: Page): Promise<IntegrationRow[]> {
  return db
    .selectFrom('integrations')
    .selectAll()
    .where('chain_id', '=', chainId)
    .$if(venueId !== null, (q) => q.where('venue_id', '=', venueId!))
    .$call(keysetPage(page))
    .execute();
}

/** Every active connection of a provider, across chains: the reconciliation pass's round. */
export async function activeIntegrations(db: Db, provider: IntegrationRow['provider']): Promise<IntegrationRow[]> {
  return db.selectFrom('integrations').selectAll().where('provider', '=', provider).where('status', '=', 'active').orderBy('id').execute();
}

export async function updateIntegration(db: Db, chainId: string, id: string, changes: Updateable<IntegrationsTable>): Promise<IntegrationRow | undefined> {
  return db.updateTable('integrations').set(changes).where('chain_id', '=', chainId).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteIntegration(db: Db, chainId: string, id: string): Promise<IntegrationRow | undefined> {
  return db.deleteFrom('integrations').where('chain_id', '=', chainId).where('id', '=', id).returningAll().executeTakeFirst();
}

export interface NewLogEntry {
  chain_id: string;
  integration_id: string;
  id: string;
  kind: string;
  outcome: string;
  message: string | null;
  provider_ids: Record<string, string>;
  dedup_key: string | null;
  subject: string | null;
  payload: Record<string, unknown> | null;
  next_attempt_at: Date | null;
  venue_id?: string | null;
  transaction_id?: string | null;
  created_at: Date;
}

/** Adds an entry; one whose dedup_key the connection's log already has is not added (undefined): a replay. */
export async function insertLogEntry(db: Db, entry: NewLogEntry): Promise<LogRow | undefined> {
  return db
    .insertInto('integration_log')
    .values({ ...entry, provider_ids: json(entry.provider_ids), payload: entry.payload && json(entry.payload), updated_at: entry.created_at })
    .onConflict((oc) => oc.columns(['chain_id', 'integration_id', 'dedup_key']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findLogEntry(db: Db, chainId: string, integrationId: string, id: string): Promise<LogRow | undefined> {
  return db
    .selectFrom('integration_log')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('integration_id', '=', integrationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listLog(db: Db, chainId: string, integrationId: string, page: Page): Promise<LogRow[]> {
  return db
    .selectFrom('integration_log')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('integration_id', '=', integrationId)
    .$call(keysetPage(page))
    .execute();
}

export interface Settled {
  outcome: string;
  message: string | null;
  next_attempt_at: Date | null;
  attempts?: number;
  venue_id?: string | null;
  transaction_id?: string | null;
  provider_ids?: Record<string, string>;
  updated_at: Date;
}

export async function settleLogEntry(db: Db, row: Pick<LogRow, 'chain_id' | 'integration_id' | 'id'>, settled: Settled): Promise<void> {
  const { provider_ids, ...rest } = settled;
  await db
    .updateTable('integration_log')
    .set({ ...rest, ...(provider_ids ? { provider_ids: json(provider_ids) } : {}) })
    .where('chain_id', '=', row.chain_id)
    .where('integration_id', '=', row.integration_id)
    .where('id', '=', row.id)
    .execute();
}

/**
 * Claims up to `limit` queued entries that are due, moving each one's next attempt `leaseMs` on: a worker that dies
 * holding one leaves it to be claimed again then, and two workers never claim the same one (SKIP LOCKED).
 */
export async function claimDue(db: Db, now: Date, limit: number, leaseMs: number): Promise<LogRow[]> {
  const result = await sql<LogRow>`
    update integration_log l set next_attempt_at = ${new Date(now.getTime() + leaseMs)}, attempts = l.attempts + 1
    from (select chain_id, integration_id, id from integration_log
          where next_attempt_at <= ${now} order by next_attempt_at limit ${limit} for update skip locked) due
    where l.chain_id = due.chain_id and l.integration_id = due.integration_id and l.id = due.id
    returning l.*`.execute(db);
  return result.rows;
}

/** Whether the connection's log already has an entry about `subject`: a reconciliation pass leaves it alone. */
export async function hasSubject(db: Db, chainId: string, integrationId: string, subject: string): Promise<boolean> {
  const row = await db
    .selectFrom('integration_log')
    .select('id')
    .where('chain_id', '=', chainId)
    .where('integration_id', '=', integrationId)
    .where('subject', '=', subject)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Another connection of the chain to `provider` mapping one of `locations`, and which. */
export async function locationsMappedElsewhere(db: Db, chainId: string, provider: IntegrationRow['provider'], id: string, locations: string[]) {
  if (locations.length === 0) return undefined;
  const others = await db.selectFrom('integrations').select(['id', 'locations']).where('chain_id', '=', chainId).where('provider', '=', provider).where('id', '!=', id).execute();
  for (const other of others) {
    const location = locations.find((l) => Object.hasOwn(other.locations, l));
    if (location) return { id: other.id, location };
  }
  return undefined;
}

/** Queues again, due now, the connection's entries that failed or wait for the provider (its credentials were replaced). */
export async function requeueFailed(db: Db, integration: Pick<IntegrationRow, 'chain_id' | 'id'>, now: Date): Promise<void> {
  await db
    .updateTable('integration_log')
    .set({ outcome: 'queued', next_attempt_at: now, attempts: 0, updated_at: now })
    .where('chain_id', '=', integration.chain_id)
    .where('integration_id', '=', integration.id)
    .where('outcome', 'in', ['failed', 'provider_error'])
    .where('payload', 'is not', null)
    .execute();
}

/** Queues again the connection's entries of `kind` waiting for one of `paymentIds` (a refund that came before its payment's check). */
export async function requeueWaiting(db: Db, integration: Pick<IntegrationRow, 'chain_id' | 'id'>, kind: string, paymentIds: string[], now: Date): Promise<number> {
  const result = await db
    .updateTable('integration_log')
    .set({ outcome: 'queued', next_attempt_at: now, updated_at: now })
    .where('chain_id', '=', integration.chain_id)
    .where('integration_id', '=', integration.id)
    .where('kind', '=', kind)
    .where('outcome', '=', 'waiting')
    .where(sql<string>`provider_ids ->> 'payment_id'`, 'in', paymentIds)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Keeps what a provider that calls us was answered, with the entry that claimed its transaction. */
export async function keepAnswer(db: Db, row: Pick<LogRow, 'chain_id' | 'integration_id' | 'id'>, answer: { status: number; body: Record<string, unknown> }): Promise<void> {
  await db
    .updateTable('integration_log')
    .set({ answer: json(answer) })
    .where('chain_id', '=', row.chain_id)
    .where('integration_id', '=', row.integration_id)
    .where('id', '=', row.id)
    .execute();
}

/** The answer kept under a dedup key, if any. */
export async function keptAnswer(db: Db, integration: Pick<IntegrationRow, 'chain_id' | 'id'>, dedupKey: string) {
  const row = await db
    .selectFrom('integration_log')
    .select('answer')
    .where('chain_id', '=', integration.chain_id)
    .where('integration_id', '=', integration.id)
    .where('dedup_key', '=', dedupKey)
    .executeTakeFirst();
  return row?.answer ?? undefined;
}

/**
 * Holds a provider's object (a Toast check) for the rest of the transaction: two calls about it take turns, the
 * second reading what the first wrote.
 */
export async function lockProviderObject(db: Db, integration: Pick<IntegrationRow, 'chain_id' | 'id'>, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`integration:${integration.chain_id}:${integration.id}:${key}`}, 0))`.execute(db);
}

/** Records, or moves, what a provider's object stands for now (a Toast check applied again under a new number), and its state. */
export async function pointHandled(
  db: Db,
  row: { chain_id: string; integration_id: string; provider_key: string; venue_id: string; external_id: string; state: Record<string, unknown> | null },
): Promise<void> {
  const state = row.state ? json(row.state) : null;
  await db
    .insertInto('integration_handled')
    .values({ ...row, state })
    .onConflict((oc) => oc.columns(['chain_id', 'integration_id', 'provider_key']).doUpdateSet({ external_id: row.external_id, venue_id: row.venue_id, state }))
    .execute();
}

/** The connection's entry about `subject` (a Toast transaction by its GUID), the newest. */
export async function findLogEntryBySubject(db: Db, integration: Pick<IntegrationRow, 'chain_id' | 'id'>, subject: string): Promise<LogRow | undefined> {
  return db
    .selectFrom('integration_log')
    .selectAll()
    .where('chain_id', '=', integration.chain_id)
    .where('integration_id', '=', integration.id)
    .where('subject', '=', subject)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** What a connection handled under `providerKey` (an order, a payment, a refund), or undefined. */
export async function findHandled(db: Db, chainId: string, integrationId: string, providerKey: string) {
  return db
    .selectFrom('integration_handled')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('integration_id', '=', integrationId)
    .where('provider_key', '=', providerKey)
    .executeTakeFirst();
}

/**
 * Records what was handled, in the transaction that handles it; false when another handling got there first (the
 * caller rolls back: the provider's object is applied once, whatever the replays, remappings and racing workers).
 */
export async function recordHandled(
  db: Db,
  row: { chain_id: string; integration_id: string; provider_key: string; venue_id: string; external_id: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('integration_handled')
    .values(row)
    .onConflict((oc) => oc.columns(['chain_id', 'integration_id', 'provider_key']).doNothing())
    .returning('provider_key')
    .executeTakeFirst();
  return inserted !== undefined;
}
