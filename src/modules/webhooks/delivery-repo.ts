// SQL for the events outbox, deliveries and attempts: fan-out, claiming due work, recording outcomes.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import { writeTogether, type WriteStep } from '../../db/statement.js';
import type { EventsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';
import type { Reach } from '../accounts/schemas.js';

export type EventRow = Selectable<EventsTable>;

type NewEventRow = Omit<EventRow, 'created_at' | 'data'> & { data: string };

export async function insertEvent(db: Db, row: NewEventRow): Promise<EventRow> {
  return db.insertInto('events').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * The steps of a write that insert an event (`event_row`) and one pending delivery per enabled endpoint subscribed to
 * its type: the chain's endpoints (venue_id null, D21) and those of the event's venue; for an event of no venue (a
 * chain key's adjustment, an erasure), those of the member's home venue (`homeVenueId`) instead.
 */
export function queuedEventSteps(db: Db, row: NewEventRow, homeVenueId: string | null, as = 'event'): WriteStep[] {
  const heardAt = row.venue_id ?? homeVenueId;
  return [
    { name: `${as}_row`, query: db.insertInto('events').values(row).returningAll() },
    {
      name: `${as}_deliveries`,
      // SQL text, not the query builder: every check's write carries it, and the builder costs more CPU.
      query: sql`insert into webhook_deliveries (chain_id, venue_id, id, endpoint_id, event_id, status, next_attempt_at)
        select chain_id, venue_id, gen_random_uuid(), id, ${row.id}::uuid, 'pending', now() from webhook_endpoints
        where chain_id = ${row.chain_id} and (venue_id is null${heardAt === null ? sql`` : sql` or venue_id = ${heardAt}`})
          and status = 'enabled' and events && array[${row.type}, '*']::text[]`,
    },
  ];
}

/** Inserts an event and queues it, in one statement. */
export async function insertQueuedEvent(db: Db, row: NewEventRow, homeVenueId: string | null): Promise<EventRow> {
  const [inserted] = await writeTogether<EventRow>(db, queuedEventSteps(db, row, homeVenueId), 'event_row');
  return inserted!;
}

/**
 * A delivery of an event to one endpoint: `direct`, which nobody else picks up (the test call sends it itself), or
 * `due` now for the workers, with retries of its own (an event sent again).
 */
export async function insertDelivery(db: Db, endpoint: { chain_id: string; venue_id: string | null; id: string }, id: string, eventId: string, how: 'direct' | 'due') {
  await db
    .insertInto('webhook_deliveries')
    .values({
      chain_id: endpoint.chain_id,
      venue_id: endpoint.venue_id,
      id,
      endpoint_id: endpoint.id,
      event_id: eventId,
      status: 'pending',
      attempts: how === 'direct' ? 1 : 0,
      next_attempt_at: how === 'direct' ? null : sql<Date>`now()`,
    })
    .execute();
}

/** Whether the event was ever to be delivered to the endpoint (so it may be sent again). */
export async function wasQueuedFor(db: Db, chainId: string, endpointId: string, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('chain_id', '=', chainId)
    .where('endpoint_id', '=', endpointId)
    .where('event_id', '=', eventId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The events a venue sees: its own and its chain's events of no venue (its endpoints receive those about members
 * whose home venue it is; members are the chain's, so the list shows them all); with no venue named (a chain
 * key), every event of the chain.
 */
function eventsAt(db: Db, reach: Reach) {
  return db
    .selectFrom('events')
    .selectAll()
    .where('chain_id', '=', reach.chainId)
    .$if(reach.venueId !== null, (q) => q.where((eb) => eb.or([eb('venue_id', '=', reach.venueId), eb('venue_id', 'is', null)])));
}

export async function findEvent(db: Db, reach: Reach, id: string): Promise<EventRow | undefined> {
  return eventsAt(db, reach).where('id', '=', id).executeTakeFirst();
}

export async function listEvents(db: Db, reach: Reach, page: Page, type?: string): Promise<EventRow[]> {
  return eventsAt(db, reach)
    .$if(type !== undefined, (q) => q.where('type', '=', type!))
    .$call(keysetPage(page))
    .execute();
}

/**
 * The chain's events whose payload contains `text` (a member's id: their export and erasure), newest first: at every
 * venue, as the member is the chain's.
 */
export async function listEventsContaining(db: Db, chainId: string, text: string, page: Page): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where(sql<boolean>`position(${text} in data::text) > 0`)
    .$call(keysetPage(page))
    .execute();
}

export async function replaceEventData(db: Db, chainId: string, id: string, data: Record<string, unknown>): Promise<void> {
  await db.updateTable('events').set({ data: JSON.stringify(data) }).where('chain_id', '=', chainId).where('id', '=', id).execute();
}

export interface ClaimedDelivery {
  chain_id: string;
  /** The endpoint's venue; null for a chain's endpoint. */
  venue_id: string | null;
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret: string;
  secret_key_id: string | null;
  event_venue_id: string | null;
  event_type: string;
  event_livemode: boolean;
  event_data: Record<string, unknown>;
  event_request_id: string | null;
  event_idempotency_key: string | null;
  event_created_at: Date;
}

/**
 * Claims up to `limit` due deliveries of enabled endpoints, whatever their chain, at most `perEndpoint` of each and
 * none of the `busy` endpoints (those this worker has enough of under way), so one endpoint's backlog never keeps
 * another's waiting: locks them SKIP LOCKED, counts the attempt and pushes next_attempt_at out by `leaseMs`, so no
 * other worker takes them while this one tries. If this worker dies, the lease runs out and another worker tries
 * again (at least once).
 */
export async function claimDue(db: Db, limit: number, leaseMs: number, fair: { perEndpoint: number; busy?: string[] }): Promise<ClaimedDelivery[]> {
  const { rows } = await sql<ClaimedDelivery>`
    with due as (
      select p.chain_id, p.id
      from webhook_endpoints e
      cross join lateral (
        select d.chain_id, d.id, d.next_attempt_at from webhook_deliveries d
        where d.chain_id = e.chain_id and d.endpoint_id = e.id and d.status = 'pending' and d.next_attempt_at <= now()
        order by d.next_attempt_at
        limit ${fair.perEndpoint}
        for update of d skip locked
      ) p
      where e.status = 'enabled' and e.id <> all(${fair.busy ?? []}::uuid[])
      order by p.next_attempt_at
      limit ${limit}
    )
    update webhook_deliveries d
    set attempts = d.attempts + 1, next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
    from due, webhook_endpoints e, events ev
    where d.chain_id = due.chain_id and d.id = due.id
      and e.chain_id = d.chain_id and e.id = d.endpoint_id
      and ev.chain_id = d.chain_id and ev.id = d.event_id
    returning d.chain_id, e.venue_id, d.id, d.endpoint_id, d.event_id, d.attempts, e.url, e.secret, e.secret_key_id,
      ev.venue_id as event_venue_id, ev.type as event_type, ev.livemode as event_livemode, ev.data as event_data,
      ev.request_id as event_request_id, ev.idempotency_key as event_idempotency_key, ev.created_at as event_created_at`.execute(db);
  return rows;
}

export interface Outcome {
  chainId: string;
  /** The delivery's venue (its endpoint's), recorded on the attempt. */
  venueId: string | null;
  deliveryId: string;
  endpointId: string;
  eventId: string;
  attempt: number;
  attemptId: string;
  statusCode: number;
  durationMs: number;
  error: string | null;
  /** At least this long before a retry (a receiver's Retry-After). */
  retryAfterMs: number | null;
  /** The receiver said 410 Gone: disable the endpoint now. */
  gone: boolean;
  /** No retry whatever happens (the test call). */
  final: boolean;
}

export interface RetryPolicy {
  scheduleMs: number[];
  jitter: number;
  disableAfterFailures: number;
  disableAfterMs: number;
}

/**
 * Records an attempt's outcome, only while this worker still holds the delivery (its attempt number is current).
 * The next attempt time is computed here, in SQL, from the schedule. Returns false when the claim was lost.
 */
export async function recordOutcome(trx: Db, o: Outcome, policy: RetryPolicy, updateHealth: boolean): Promise<boolean> {
  const delivered = o.error === null;
  // Decided here, not in SQL: two untyped parameters compare as text there ('2' > '10').
  const givenUp = o.gone || o.final || o.attempt > policy.scheduleMs.length;
  const { rows } = await sql<{ next_attempt_at: Date | null }>`
    update webhook_deliveries
    set status = case
          when ${delivered} then 'delivered'
          when ${givenUp} then 'failed'
          else 'pending' end,
        next_attempt_at = case
          when ${delivered} or ${givenUp} then null
          else now() + greatest(
            (${sql.val(policy.scheduleMs)}::float8[])[${o.attempt}] * (1 + ${policy.jitter} * (2 * random() - 1)),
            coalesce(${o.retryAfterMs}::float8, 0)
          ) * interval '1 millisecond' end
    where chain_id = ${o.chainId} and id = ${o.deliveryId} and attempts = ${o.attempt} and status = 'pending'
    returning next_attempt_at`.execute(trx);
  if (rows.length === 0) return false;

  await trx
    .insertInto('webhook_attempts')
    .values({
      chain_id: o.chainId,
      venue_id: o.venueId,
      id: o.attemptId,
      delivery_id: o.deliveryId,
      endpoint_id: o.endpointId,
      event_id: o.eventId,
      attempt: o.attempt,
      status_code: o.statusCode,
      duration_ms: o.durationMs,
      error: o.error,
      next_attempt_at: rows[0]!.next_attempt_at,
    })
    .execute();

  if (updateHealth) await recordEndpointHealth(trx, o, policy);
  return true;
}

/** A claimed delivery that was not sent: its attempt is given back, and it is due again after `delayMs`. */
export async function postponeUnsent(db: Db, chainId: string, deliveryId: string, attempt: number, delayMs: number): Promise<void> {
  await sql`
    update webhook_deliveries set attempts = attempts - 1, next_attempt_at = now() + ${delayMs} * interval '1 millisecond'
    where chain_id = ${chainId} and id = ${deliveryId} and attempts = ${attempt} and status = 'pending'`.execute(db);
}

/** Success clears the failure streak; a failure extends it and disables the endpoint past the threshold (D15). */
async function recordEndpointHealth(trx: Db, o: Outcome, policy: RetryPolicy): Promise<void> {
  if (o.error === null) {
    await sql`
      update webhook_endpoints set consecutive_failures = 0, failing_since = null
      where chain_id = ${o.chainId} and id = ${o.endpointId}`.execute(trx);
    return;
  }
  await sql`
    update webhook_endpoints
    set consecutive_failures = consecutive_failures + 1,
        failing_since = coalesce(failing_since, now()),
        status = case when disable then 'disabled' else status end,
        disabled_reason = case when not disable then disabled_reason
          when ${o.gone} then 'The endpoint answered 410 Gone at ' || to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '.'
          else 'Failing since ' || to_char(coalesce(failing_since, now()) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            || ': ' || (consecutive_failures + 1) || ' consecutive failed deliveries and none succeeded.' end
    from (
      select ${o.gone}::boolean or (
        consecutive_failures + 1 >= ${policy.disableAfterFailures}
        and coalesce(failing_since, now()) <= now() - ${policy.disableAfterMs} * interval '1 millisecond'
      ) as disable
      from webhook_endpoints where chain_id = ${o.chainId} and id = ${o.endpointId}
    ) as verdict
    where chain_id = ${o.chainId} and id = ${o.endpointId} and status = 'enabled'`.execute(trx);
}

/** Pending deliveries of a re-enabled endpoint (found by its caller) are due again now, and its failure streak starts afresh. */
export async function resumeEndpoint(db: Db, chainId: string, endpointId: string): Promise<void> {
  await sql`
    update webhook_deliveries set next_attempt_at = now()
    where chain_id = ${chainId} and endpoint_id = ${endpointId} and status = 'pending' and next_attempt_at is not null`.execute(db);
  await sql`update webhook_endpoints set consecutive_failures = 0, failing_since = null where chain_id = ${chainId} and id = ${endpointId}`.execute(db);
}

/** The attempts of an endpoint its caller found, newest first. */
export async function listAttempts(db: Db, chainId: string, endpointId: string, page: Page) {
  return db
    .selectFrom('webhook_attempts as a')
    .innerJoin('events as ev', (j) => j.onRef('ev.chain_id', '=', 'a.chain_id').onRef('ev.id', '=', 'a.event_id'))
    .select(['a.id', 'a.event_id', 'ev.type as event_type', 'a.attempt', 'a.status_code', 'a.duration_ms', 'a.error', 'a.next_attempt_at', 'a.created_at'])
    .where('a.chain_id', '=', chainId)
    .where('a.endpoint_id', '=', endpointId)
    .$call(keysetPage(page, 'a.id'))
    .execute();
}

export async function attemptExists(db: Db, chainId: string, endpointId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_attempts')
    .select('id')
    .where('chain_id', '=', chainId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}
