// Webhook endpoints: registration with URL checks, listing, changes, removal.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Caller } from '../accounts/schemas.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import * as repo from './repo.js';
import {
  EVENT_TYPES,
  type CreateWebhookEndpoint,
  type UpdateWebhookEndpoint,
  type WebhookEndpoint,
} from './schemas.js';
import { checkWebhookUrl, type WebhookUrlPolicy } from './url-guard.js';

export const ALL_EVENTS = '*';
const LIST_URL = '/v1/webhook_endpoints';

function present(row: repo.EndpointRow): WebhookEndpoint {
  return {
    object: 'webhook_endpoint',
    id: row.id,
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
  const row = isUuid(id) ? await repo.findEndpoint(db, caller.venueId, id) : undefined;
  if (!row) throw notFound();
  return row;
}

export async function createEndpoint(
  db: Db,
  caller: Caller,
  input: CreateWebhookEndpoint,
  policy: WebhookUrlPolicy,
): Promise<WebhookEndpoint & { secret: string }> {
  const { url } = await checkWebhookUrl(input.url, policy);
  const events = checkEvents(input.events ?? [ALL_EVENTS]);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const row = await repo.insertEndpoint(db, {
    venue_id: caller.venueId,
    id: newId(),
    url,
    description: input.description ?? null,
    events,
    status: 'enabled',
    disabled_reason: null,
    secret,
    livemode: caller.livemode,
  });
  return { ...present(row), secret };
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
  if (page.startingAfter !== undefined) {
    const cursor = isUuid(page.startingAfter) && (await repo.findEndpoint(db, caller.venueId, page.startingAfter));
    if (!cursor) {
      throw new ApiError('parameter_invalid', { param: 'starting_after', message: 'starting_after is not an id from this list.' });
    }
  }
  return toList(LIST_URL, page, await repo.listEndpoints(db, caller.venueId, page, filter.livemode), present);
}

export async function updateEndpoint(
  db: Db,
  caller: Caller,
  id: string,
  input: UpdateWebhookEndpoint,
  policy: WebhookUrlPolicy,
): Promise<WebhookEndpoint> {
  await findOwned(db, caller, id);
  const changes: Parameters<typeof repo.updateEndpoint>[3] = { updated_at: new Date() };
  if (input.url !== undefined) changes.url = (await checkWebhookUrl(input.url, policy)).url;
  if (input.events !== undefined) changes.events = checkEvents(input.events);
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled === true) Object.assign(changes, { status: 'enabled', disabled_reason: null });
  if (input.enabled === false) Object.assign(changes, { status: 'disabled', disabled_reason: 'disabled_by_api' });
  const row = await repo.updateEndpoint(db, caller.venueId, id, changes);
  if (!row) throw notFound();
  return present(row);
}

export async function deleteEndpoint(db: Db, caller: Caller, id: string) {
  if (!isUuid(id) || !(await repo.deleteEndpoint(db, caller.venueId, id))) throw notFound();
  return { object: 'webhook_endpoint' as const, id, deleted: true as const };
}
