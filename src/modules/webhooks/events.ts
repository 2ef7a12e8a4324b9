// Events: recorded in the caller's transaction with the change they report (outbox), read back through the API.
import type { Db } from '../../db/database.js';
import type { WriteStep } from '../../db/statement.js';
import type { Caller } from '../accounts/schemas.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import * as repo from './delivery-repo.js';
import type { Event, EventType } from './schemas.js';

/** The API request behind an event; null for events the service raises by itself. */
export type EventRequest = { id: string; idempotencyKey: string | null } | null;

export interface NewEvent {
  chainId: string;
  /** The venue where it happened; null for what happens at no venue (expiry, imports). */
  venueId: string | null;
  /** For an event of no venue about a member: their home venue, whose endpoints hear of it too (D21). */
  homeVenueId?: string | null;
  type: EventType;
  livemode: boolean;
  /** The API object the event is about, exactly as the API shows it. */
  object: Record<string, unknown>;
  request: EventRequest;
}

/**
 * Records an event and queues it for every subscribed endpoint. Call it with the transaction that makes the
 * change the event reports: both commit, or neither does.
 */
export async function recordEvent(trx: Db, input: NewEvent): Promise<Event> {
  return presentEvent(await repo.insertQueuedEvent(trx, eventRow(input), input.homeVenueId ?? null));
}

/**
 * recordEvent as steps of a larger write (see writeTogether): the change and its event in one statement. A second
 * event of the same write names its steps differently (`as`).
 */
export function eventSteps(trx: Db, input: NewEvent, as = 'event'): WriteStep[] {
  return repo.queuedEventSteps(trx, eventRow(input), input.homeVenueId ?? null, as);
}

/** Records an event without queueing it anywhere (the test call delivers its ping itself). */
export async function recordUnqueuedEvent(trx: Db, input: NewEvent): Promise<Event> {
  return presentEvent(await repo.insertEvent(trx, eventRow(input)));
}

function eventRow(input: NewEvent) {
  return {
    chain_id: input.chainId,
    venue_id: input.venueId,
    id: newId(),
    type: input.type,
    livemode: input.livemode,
    data: JSON.stringify({ object: input.object }),
    request_id: input.request?.id ?? null,
    idempotency_key: input.request?.idempotencyKey ?? null,
  };
}

export function presentEvent(row: {
  id: string;
  venue_id: string | null;
  type: string;
  livemode: boolean;
  data: Record<string, unknown>;
  request_id: string | null;
  idempotency_key: string | null;
  created_at: Date;
}): Event {
  return {
    object: 'event',
    id: row.id,
    type: row.type,
    venue_id: row.venue_id,
    api_version: 'v1',
    created_at: formatTimestamp(row.created_at),
    livemode: row.livemode,
    data: row.data as Event['data'],
    request: row.request_id === null ? null : { id: row.request_id, idempotency_key: row.idempotency_key },
  };
}

export async function getEvent(db: Db, caller: Caller, id: string): Promise<Event> {
  const row = isUuid(id) ? await repo.findEvent(db, caller, id) : undefined;
  if (!row) throw new ApiError('event_not_found');
  return presentEvent(row);
}

/** The chain's events whose payload names the member (their export and erasure), at every venue, newest first. */
export async function listEventsNaming(db: Db, chainId: string, memberId: string, page: Page): Promise<List<Event>> {
  return toList('/v1/events', page, await repo.listEventsContaining(db, chainId, memberId, page), presentEvent);
}

/**
 * Replaces an event's payload (a member's erasure). Deliveries read the payload when they are sent, so those still
 * to come send the new one.
 */
export async function replaceEventData(trx: Db, chainId: string, id: string, data: Event['data']): Promise<void> {
  await repo.replaceEventData(trx, chainId, id, data);
}

export async function listEvents(db: Db, caller: Caller, page: Page, filter: { type?: string }): Promise<List<Event>> {
  await checkCursor(page, (cursor) => repo.findEvent(db, caller, cursor));
  return toList('/v1/events', page, await repo.listEvents(db, caller, page, filter.type), presentEvent);
}
