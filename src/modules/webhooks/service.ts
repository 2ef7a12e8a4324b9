// Webhook endpoints: registration with URL checks and a sealed signing secret, listing, changes, removal.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { WebhookDeliveryConfig } from '../../config.js';
import { ConfigError } from '../../shared/config-error.js';
import type { Db } from '../../db/database.js';
import type { Caller } from '../accounts/schemas.js';
import * as audit from '../audit/service.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { formatNullableTimestamp, formatTimestamp } from '../../shared/time.js';
import * as deliveryRepo from './delivery-repo.js';
import { recordUnqueuedEvent, type EventRequest } from './events.js';
import * as repo from './repo.js';
import { endpointSecret, secretContext, type WebhookSender } from './sender.js';
import { retryPolicy } from './worker.js';
import {
  EVENT_TYPES,
  type CreateWebhookEndpoint,
  type DeliveryAttempt,
  type UpdateWebhookEndpoint,
  type WebhookEndpoint,
  type WebhookTest,
} from './schemas.js';
import { checkWebhookUrl, type WebhookUrlPolicy } from './url-guard.js';

export const ALL_EVENTS = '*';
const LIST_URL = '/v1/webhook_endpoints';

function present(row: repo.EndpointRow): WebhookEndpoint {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    venue_id: row.venue_id,
    url: row.url,
    description: row.description,
    events: row.events,
    status: row.status,
    disabled_reason: row.disabled_reason,
    livemode: row.livemode,
    created_at: formatTimestamp(row.created_at),
  };
}

function checkEvents(events: string[]): string[] {
  const unknown = events.filter((e) => e !== ALL_EVENTS && !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length) {
    throw new ApiError('parameter_invalid', {
      param: 'events',
      message: `Unknown event type(s): ${unknown.join(', ')}. Known: ${EVENT_TYPES.join(', ')}, or "*" for all.`,
    });
  }
  return events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)];
}

const notFound = () => new ApiError('webhook_endpoint_not_found');

async function findOwned(db: Db, caller: Caller, id: string): Promise<repo.EndpointRow> {
  const row = isUuid(id) ? await repo.findEndpoint(db, caller, id) : undefined;
  if (!row) throw notFound();
  return row;
}

export async function createEndpoint(
  db: Db,
  caller: Caller,
  input: CreateWebhookEndpoint,
  policy: WebhookUrlPolicy,
  secrets: SecretBox,
): Promise<WebhookEndpoint & { secret: string }> {
  const { url } = await checkWebhookUrl(input.url, policy);
  const events = checkEvents(input.events ?? [ALL_EVENTS]);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const id = newId();
  // Stored sealed; the plaintext is in this answer only.
  const owner = { chain_id: caller.chainId, venue_id: caller.venueId, id };
  const sealed = secrets.seal(secret, secretContext(owner));
  const row = await repo.insertEndpoint(db, {
    ...owner,
    url,
    description: input.description ?? null,
    events,
    status: 'enabled',
    disabled_reason: null,
    secret: sealed.text,
    secret_key_id: sealed.keyId,
    livemode: caller.livemode,
  });
  await audit.recordAudit(db, audit.placeOf(caller), { action: 'webhook_endpoint.created', target: { type: 'webhook_endpoint', id }, changes: audited(null, row) });
  return { ...present(row), secret };
}

/**
 * A URL as the audit log keeps it: its origin, and for the rest (where receivers put their tokens: Slack's path, a
 * query) only a short fingerprint, so a change of it shows and the token does not.
 */
function auditedUrl(url: string): string {
  const u = new URL(url);
  if (u.pathname === '/' && !u.search && !u.hash) return u.origin;
  return `${u.origin}/… (${createHash('sha256').update(url).digest('hex').slice(0, 8)})`;
}

/** An endpoint's audited fields, before and after: its URL (auditedUrl), events, description and status; never its signing secret. */
function audited(before: repo.EndpointRow | null, after: repo.EndpointRow | null) {
  const fields = (row: repo.EndpointRow | null) => row && { url: auditedUrl(row.url), events: row.events, description: row.description, status: row.status };
  return audit.changedFields(fields(before), fields(after), ['url', 'events', 'description', 'status']);
}

const RESEAL_BATCH = 100;

/**
 * Run at every start, before serving: refuses to start (ConfigError) when a stored secret was sealed by a key
 * SECRET_ENCRYPTION_KEY does not hold or does not open, rather than failing at the first delivery; then seals again
 * (sealAgainWithFirstKey). How many it sealed again.
 */
export async function sealStoredSecrets(db: Db, secrets: SecretBox): Promise<number> {
  for (const stored of await repo.secretOfEachKey(db)) {
    try {
      secrets.open(endpointSecret(stored));
    } catch (err) {
      throw new ConfigError(
        `SECRET_ENCRYPTION_KEY cannot open the stored webhook signing secrets (${(err as Error).message}). Keep the key ` +
          'that sealed them in the list (the new key first, the old one after it) until every process has restarted.',
      );
    }
  }
  return sealAgainWithFirstKey(db, secrets);
}

/**
 * Seals again with the first key, in batches, every secret that another key held here sealed or that is still
 * plaintext (written before sealing existed); how many. Housekeeping runs it too, for what a process on an older
 * key list wrote after this one started. A secret sealed by a key not held here is left as it is.
 */
export async function sealAgainWithFirstKey(db: Db, secrets: SecretBox): Promise<number> {
  let total = 0;
  for (let done = RESEAL_BATCH; done === RESEAL_BATCH; total += done) {
    done = await db.transaction().execute(async (trx) => {
      const rows = await repo.secretsNotSealedBy(trx, secrets.keyId, secrets.keyIds, RESEAL_BATCH);
      for (const row of rows) {
        const sealed = secrets.seal(secrets.open(endpointSecret(row)), secretContext(row));
        await repo.storeSecret(trx, row.chain_id, row.id, sealed.text, secrets.keyId);
      }
      return rows.length;
    });
  }
  return total;
}

export async function getEndpoint(db: Db, caller: Caller, id: string): Promise<WebhookEndpoint> {
  return present(await findOwned(db, caller, id));
}

export async function listEndpoints(
  db: Db,
  caller: Caller,
  page: Page,
  filter: { livemode?: boolean },
): Promise<List<WebhookEndpoint>> {
  await checkCursor(page, (cursor) => repo.findEndpoint(db, caller, cursor));
  return toList(LIST_URL, page, await repo.listEndpoints(db, caller, page, filter.livemode), present);
}

export async function updateEndpoint(
  db: Db,
  caller: Caller,
  id: string,
  input: UpdateWebhookEndpoint,
  policy: WebhookUrlPolicy,
): Promise<WebhookEndpoint> {
  const before = await findOwned(db, caller, id);
  const changes: Parameters<typeof repo.updateEndpoint>[3] = { updated_at: new Date() };
  if (input.url !== undefined) changes.url = (await checkWebhookUrl(input.url, policy)).url;
  if (input.events !== undefined) changes.events = checkEvents(input.events);
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled === true) Object.assign(changes, { status: 'enabled', disabled_reason: null });
  if (input.enabled === false) Object.assign(changes, { status: 'disabled', disabled_reason: 'disabled_by_api' });
  const row = await repo.updateEndpoint(db, caller, id, changes);
  if (!row) throw notFound();
  if (input.enabled === true && before.status === 'disabled') await deliveryRepo.resumeEndpoint(db, caller.chainId, id);
  await audit.recordAudit(db, audit.placeOf(caller), { action: 'webhook_endpoint.updated', target: { type: 'webhook_endpoint', id }, changes: audited(before, row) });
  return present(row);
}

export async function deleteEndpoint(db: Db, caller: Caller, id: string) {
  const before = isUuid(id) ? await repo.findEndpoint(db, caller, id) : undefined;
  if (!before || !(await repo.deleteEndpoint(db, caller, id))) throw notFound();
  await audit.recordAudit(db, audit.placeOf(caller), { action: 'webhook_endpoint.deleted', target: { type: 'webhook_endpoint', id }, changes: audited(before, null) });
  return { object: 'webhook_endpoint' as const, id, deleted: true as const };
}

/**
 * Sends a signed test.ping to the endpoint now, whatever its status, and says how it went. It owns its two short
 * transactions itself, because no transaction may stay open while an outbound request runs.
 */
export async function testEndpoint(
  db: Db,
  caller: Caller,
  id: string,
  delivery: { sender: WebhookSender; config: WebhookDeliveryConfig; request: EventRequest },
): Promise<WebhookTest> {
  const endpoint = await findOwned(db, caller, id);
  const deliveryId = randomUUID();
  const event = await db.transaction().execute(async (trx) => {
    const ping = await recordUnqueuedEvent(trx, {
      chainId: caller.chainId,
      venueId: endpoint.venue_id,
      type: 'test.ping',
      livemode: caller.livemode,
      object: present(endpoint),
      request: delivery.request,
    });
    await deliveryRepo.insertDelivery(trx, endpoint, deliveryId, ping.id, 'direct');
    return ping;
  });
  const result = await delivery.sender.send(endpoint.url, endpointSecret(endpoint), {
    id: event.id,
    timestamp: new Date(),
    body: JSON.stringify(event),
  });
  await db.transaction().execute((trx) =>
    deliveryRepo.recordOutcome(
      trx,
      {
        chainId: caller.chainId,
        venueId: caller.venueId,
        deliveryId,
        endpointId: endpoint.id,
        eventId: event.id,
        attempt: 1,
        attemptId: newId(),
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        retryAfterMs: null,
        gone: false,
        final: true,
      },
      retryPolicy(delivery.config),
      false,
    ),
  );
  return { object: 'webhook_test', delivered: result.error === null, status_code: result.statusCode, error: result.error };
}

/**
 * Sends an event to the endpoint again (the dashboard's "Resend"): a new delivery, due now, with retries of its own,
 * whatever became of the first. Only an event the endpoint was sent before; recorded in the audit log.
 */
export async function resendEvent(db: Db, caller: Caller, id: string, eventId: string): Promise<{ delivery_id: string; event_id: string }> {
  const endpoint = await findOwned(db, caller, id);
  if (!isUuid(eventId) || !(await deliveryRepo.wasQueuedFor(db, caller.chainId, id, eventId))) throw new ApiError('event_not_found');
  const deliveryId = newId();
  await deliveryRepo.insertDelivery(db, endpoint, deliveryId, eventId, 'due');
  await audit.recordAudit(db, audit.placeOf(caller), { action: 'webhook_endpoint.event_resent', target: { type: 'webhook_endpoint', id }, changes: { event_id: [null, eventId] } });
  return { delivery_id: deliveryId, event_id: eventId };
}

export async function listDeliveryAttempts(db: Db, caller: Caller, id: string, page: Page): Promise<List<DeliveryAttempt>> {
  await findOwned(db, caller, id);
  await checkCursor(page, (cursor) => deliveryRepo.attemptExists(db, caller.chainId, id, cursor));
  const rows = await deliveryRepo.listAttempts(db, caller.chainId, id, page);
  return toList(`/v1/webhook_endpoints/${id}/deliveries`, page, rows, (r) => ({
    object: 'webhook_delivery_attempt' as const,
    id: r.id,
    event_id: r.event_id,
    event_type: r.event_type,
    attempt: r.attempt,
    status_code: r.status_code,
    duration_ms: r.duration_ms,
    error: r.error,
    next_attempt_at: formatNullableTimestamp(r.next_attempt_at),
    created_at: formatTimestamp(r.created_at),
  }));
}
