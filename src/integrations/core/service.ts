// Connections (D26): create, list, get, change, remove, with sealed write-only secrets and audit entries; their log.
import type { Db } from '../../db/database.js';
import * as accounts from '../../modules/accounts/service.js';
import type { Caller } from '../../modules/accounts/schemas.js';
import * as audit from '../../modules/audit/service.js';
import { ConfigError } from '../../shared/config-error.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { formatNullableTimestamp, formatTimestamp } from '../../shared/time.js';
import * as repo from './repo.js';
import {
  PROVIDER_SETTINGS,
  type CreateIntegration,
  type Integration,
  type IntegrationSettings,
  type LogEntry,
  type LogOutcome,
  type Provider,
  type UpdateIntegration,
} from './schemas.js';

const LIST_URL = '/v1/integrations';

/**
 * A connection's own register rules by default (D12): no card scan and no check-age limit, which would refuse every
 * check a connector or its reconciliation sends; no holds or per-register numbers, which a provider does not speak.
 */
export const CONNECTION_RULES = {
  card_scan_required: false,
  max_check_age_seconds: null,
  redeem_only_via_holds: false,
  checks_numbered_per_register: false,
} as const;

/** Where the provider calls us for this connection: the URL to paste into its dashboard. */
export const endpointUrlOf = (publicBaseUrl: string, provider: Provider, id: string): string => `${publicBaseUrl}/integrations/${provider}/${id}`;

/** What a sealed secret is bound to: this connection's setting of this name, so it opens nowhere else. */
const secretContext = (row: { chain_id: string; id: string }, name: string) => `integration:${row.chain_id}:${row.id}:${name}`;

/** Seals each secret setting given; the plain ones are kept as they are. */
function sealSettings(row: { chain_id: string; id: string; provider: Provider }, settings: IntegrationSettings, box: SecretBox) {
  const { secret, plain } = PROVIDER_SETTINGS[row.provider];
  const given = settings as Record<string, string | undefined>;
  const unknown = Object.keys(given).filter((k) => given[k] !== undefined && !(secret as readonly string[]).includes(k) && !(plain as readonly string[]).includes(k));
  if (unknown.length) throw new ApiError('parameter_invalid', { param: `settings.${unknown[0]}`, message: `${row.provider} connections have no setting ${unknown[0]}.` });
  const sealed = Object.fromEntries(secret.filter((k) => given[k] !== undefined).map((k) => [k, box.seal(given[k]!, secretContext(row, k)).text]));
  const shown = Object.fromEntries(plain.filter((k) => given[k] !== undefined).map((k) => [k, given[k]!]));
  return { sealed, shown };
}

/** The server's SECRET_ENCRYPTION_KEY cannot open a connection's secrets (a key dropped from the list too early). */
export class SecretsUnreadable extends Error {}

/** The connection's settings, secrets opened: for its provider's calls, never for an answer. */
export function openSettings(row: repo.IntegrationRow, box: SecretBox): Record<string, string> {
  try {
    const opened = Object.fromEntries(Object.entries(row.secrets).map(([k, text]) => [k, box.open({ text, keyId: row.secret_key_id, context: secretContext(row, k) })]));
    return { ...plainSettings(row), ...opened };
  } catch (err) {
    throw new SecretsUnreadable(`This server's SECRET_ENCRYPTION_KEY cannot open the connection's secrets (${(err as Error).message}).`);
  }
}

function checkComplete(provider: Provider, settings: Record<string, unknown>, secrets: Record<string, unknown>): void {
  const missing = PROVIDER_SETTINGS[provider].required.find((k) => settings[k] === undefined && secrets[k] === undefined);
  if (missing) throw new ApiError('parameter_invalid', { param: `settings.${missing}`, message: `A ${provider} connection needs settings.${missing}.` });
  if (provider === 'toast' && secrets.api_key === undefined && settings.public_key === undefined) {
    throw new ApiError('parameter_invalid', { param: 'settings.api_key', message: 'A Toast connection needs settings.api_key (or the deprecated settings.public_key).' });
  }
}

/**
 * Each location's venue must be one of the chain's, and a venue key's own (D21): else as missing, 404. A location
 * another connection of the chain to the same provider maps is refused: both would apply its payments.
 */
async function checkLocations(db: Db, caller: Caller, provider: Provider, id: string, locations: Record<string, string>): Promise<void> {
  for (const [location, venueId] of Object.entries(locations)) {
    const venue = isUuid(venueId) ? await accounts.findVenue(db, venueId) : undefined;
    if (!venue || venue.chainId !== caller.chainId || (caller.keyVenueId !== null && caller.keyVenueId !== venueId)) {
      throw new ApiError('venue_not_found', { param: `locations.${location}` });
    }
  }
  const taken = await repo.locationsMappedElsewhere(db, caller.chainId, provider, id, Object.keys(locations));
  if (taken) {
    throw new ApiError('parameter_invalid', { param: `locations.${taken.location}`, message: `${provider} location ${taken.location} is already mapped by connection ${taken.id}.` });
  }
}

/**
 * Seals again with the server's first key the secrets of every connection another key it holds sealed (a key
 * rotation: run at start and by housekeeping, as webhook secrets are); how many connections. A connection sealed by
 * a key the server does not hold refuses the start (ConfigError), rather than its provider's first call.
 */
export async function sealConnectionsAgain(db: Db, box: SecretBox): Promise<number> {
  const stale = await db.selectFrom('integrations').selectAll().where('secret_key_id', '!=', box.keyId).execute();
  const unknown = stale.find((row) => row.secret_key_id !== null && !box.holds(row.secret_key_id));
  if (unknown) {
    throw new ConfigError(
      `SECRET_ENCRYPTION_KEY cannot open the secrets of point-of-sale connection ${unknown.id} (sealed by key ${unknown.secret_key_id}). ` +
        'Keep the key that sealed them in the list (the new key first, the old one after it) until every process has restarted.',
    );
  }
  for (const row of stale) {
    const opened = openSettings(row, box);
    const sealed = Object.fromEntries(Object.keys(row.secrets).map((k) => [k, box.seal(opened[k]!, secretContext(row, k)).text]));
    await repo.updateIntegration(db, row.chain_id, row.id, { secrets: JSON.stringify(sealed), secret_key_id: box.keyId });
  }
  return stale.length;
}

export function presentIntegration(row: repo.IntegrationRow, publicBaseUrl: string): Integration {
  const masked = Object.fromEntries(Object.keys(row.secrets).map((k) => [k, '…' + lastFour(row, k)]));
  return {
    object: 'integration',
    id: row.id,
    livemode: row.livemode,
    created_at: formatTimestamp(row.created_at),
    provider: row.provider,
    name: row.name,
    status: row.status,
    locations: row.locations,
    rules: row.rules,
    settings: { ...plainSettings(row), ...masked },
    endpoint_url: endpointUrlOf(publicBaseUrl, row.provider, row.id),
    failing_since: formatNullableTimestamp(row.failing_since),
  };
}

const plainSettings = (row: repo.IntegrationRow) =>
  Object.fromEntries(Object.entries(row.settings as Record<string, string>).filter(([k]) => !k.endsWith('_last4')));

// The last four characters of each secret are kept beside it at creation (settings_last4), so showing them opens nothing.
const lastFour = (row: repo.IntegrationRow, name: string) => (row.settings as Record<string, string>)[`${name}_last4`] ?? '';
// A secret too short to spare four characters shows none.
const lastFours = (settings: IntegrationSettings, secret: readonly string[]) =>
  Object.fromEntries(
    secret
      .filter((k) => (settings as Record<string, string | undefined>)[k] !== undefined)
      .map((k) => [`${k}_last4`, (settings as Record<string, string>)[k]!.length >= 12 ? (settings as Record<string, string>)[k]!.slice(-4) : '']),
  );

/** The audited fields: never a secret, only which secrets changed. */
function audited(before: repo.IntegrationRow | null, after: repo.IntegrationRow | null, secretsChanged: string[] = []) {
  const fields = (row: repo.IntegrationRow | null) => row && { name: row.name, status: row.status, locations: row.locations, rules: row.rules };
  const changes = audit.changedFields(fields(before), fields(after), ['name', 'status', 'locations', 'rules']);
  for (const name of secretsChanged) changes[`settings.${name}`] = ['…', '… (replaced)'];
  return changes;
}

const notFound = () => new ApiError('integration_not_found');

/** A venue key sees only the connections made for its venue (D21); a chain key every connection of the chain. */
const sees = (caller: Caller, row: repo.IntegrationRow) => caller.keyVenueId === null || row.venue_id === caller.keyVenueId;

async function findOwned(db: Db, caller: Caller, id: string, lock = false): Promise<repo.IntegrationRow> {
  const row = isUuid(id) ? await repo.findIntegration(db, caller.chainId, id, lock) : undefined;
  if (!row || !sees(caller, row)) throw notFound();
  return row;
}

export async function createIntegration(db: Db, caller: Caller, input: CreateIntegration, box: SecretBox, publicBaseUrl: string): Promise<Integration> {
  const locations = input.locations ?? {};
  const id = newId();
  await checkLocations(db, caller, input.provider, id, locations);
  const { sealed, shown } = sealSettings({ chain_id: caller.chainId, id, provider: input.provider }, input.settings, box);
  checkComplete(input.provider, shown, sealed);
  const row = await repo.insertIntegration(db, {
    chain_id: caller.chainId,
    id,
    venue_id: caller.keyVenueId,
    livemode: caller.livemode,
    provider: input.provider,
    name: input.name ?? (input.provider === 'square' ? 'Square' : 'Toast'),
    locations: JSON.stringify(locations),
    rules: JSON.stringify({ ...CONNECTION_RULES, ...input.rules }),
    settings: JSON.stringify({ ...shown, ...lastFours(input.settings, PROVIDER_SETTINGS[input.provider].secret) }),
    secrets: JSON.stringify(sealed),
    secret_key_id: box.keyId,
    created_at: caller.now,
    updated_at: caller.now,
  });
  await audit.recordAudit(db, audit.placeOf(caller), {
    action: 'integration.created',
    target: { type: 'integration', id },
    changes: audited(null, row, Object.keys(sealed)),
  });
  return presentIntegration(row, publicBaseUrl);
}

export async function getIntegration(db: Db, caller: Caller, id: string, publicBaseUrl: string): Promise<Integration> {
  return presentIntegration(await findOwned(db, caller, id), publicBaseUrl);
}

export async function listIntegrations(db: Db, caller: Caller, page: Page, publicBaseUrl: string): Promise<List<Integration>> {
  await checkCursor(page, (id) => repo.findIntegration(db, caller.chainId, id));
  const rows = await repo.listIntegrations(db, caller.chainId, caller.keyVenueId, page);
  return toList(LIST_URL, page, rows, (row) => presentIntegration(row, publicBaseUrl));
}

export async function updateIntegration(db: Db, caller: Caller, id: string, input: UpdateIntegration, box: SecretBox, publicBaseUrl: string): Promise<Integration> {
  const before = await findOwned(db, caller, id, true);
  if (input.locations) await checkLocations(db, caller, before.provider, id, input.locations);
  // Secrets sealed under an older key are sealed again with the current one, so the row keeps one key id.
  const kept = openSettings(before, box);
  const merged = { ...kept, ...input.settings } as IntegrationSettings;
  const { sealed, shown } = sealSettings(before, merged, box);
  const resumed = before.status === 'paused' && input.status === 'active';
  const secretsChanged = Object.keys(input.settings ?? {}).filter((k) => (PROVIDER_SETTINGS[before.provider].secret as readonly string[]).includes(k));
  const after = await repo.updateIntegration(db, caller.chainId, id, {
    name: input.name ?? before.name,
    status: input.status ?? before.status,
    locations: JSON.stringify(input.locations ?? before.locations),
    rules: JSON.stringify(input.rules ? { ...before.rules, ...input.rules } : before.rules),
    settings: JSON.stringify({ ...shown, ...lastFours(merged, PROVIDER_SETTINGS[before.provider].secret) }),
    secrets: JSON.stringify(sealed),
    secret_key_id: box.keyId,
    // New credentials are a fresh start: the next failure is counted from then.
    ...(secretsChanged.length ? { failing_since: null } : {}),
    // Resumed: the reconciliation pass starts from now, as the webhooks of the pause were not applied either.
    ...(resumed ? { reconciled_until: JSON.stringify(Object.fromEntries(Object.keys(input.locations ?? before.locations).map((l) => [l, caller.now.toISOString()]))) } : {}),
    updated_at: caller.now,
  });
  // What failed for want of working credentials is tried again with the new ones.
  if (secretsChanged.length) await repo.requeueFailed(db, before, caller.now);
  await audit.recordAudit(db, audit.placeOf(caller), {
    action: 'integration.updated',
    target: { type: 'integration', id },
    changes: audited(before, after!, secretsChanged),
  });
  return presentIntegration(after!, publicBaseUrl);
}

export async function deleteIntegration(db: Db, caller: Caller, id: string): Promise<{ object: 'integration'; id: string; deleted: true }> {
  const before = await findOwned(db, caller, id, true);
  await repo.deleteIntegration(db, caller.chainId, id);
  await audit.recordAudit(db, audit.placeOf(caller), { action: 'integration.deleted', target: { type: 'integration', id }, changes: audited(before, null) });
  return { object: 'integration', id, deleted: true };
}

/** Outcomes "try again" may queue once more: a failure, what found no guest or venue, what waits, what a pause ignored. */
const RETRYABLE: readonly LogOutcome[] = ['failed', 'provider_error', 'waiting', 'unknown_location', 'unmatched_guest', 'ambiguous_guest', 'ignored'];

export function presentLogEntry(row: repo.LogRow): LogEntry {
  return {
    object: 'integration_log_entry',
    id: row.id,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
    kind: row.kind,
    outcome: row.outcome as LogOutcome,
    message: row.message,
    provider_ids: row.provider_ids,
    attempts: row.attempts,
    next_attempt_at: formatNullableTimestamp(row.next_attempt_at),
    venue_id: row.venue_id,
    transaction_id: row.transaction_id,
    retryable: row.payload !== null && RETRYABLE.includes(row.outcome as LogOutcome),
  };
}

export async function listLog(db: Db, caller: Caller, id: string, page: Page): Promise<List<LogEntry>> {
  await findOwned(db, caller, id);
  await checkCursor(page, (entryId) => repo.findLogEntry(db, caller.chainId, id, entryId));
  return toList(`${LIST_URL}/${id}/log`, page, await repo.listLog(db, caller.chainId, id, page), presentLogEntry);
}

/** "Try again": queues a failed or waiting entry once more, due now, its attempts counted afresh. */
export async function retryLogEntry(db: Db, caller: Caller, id: string, entryId: string): Promise<LogEntry> {
  await findOwned(db, caller, id);
  const row = isUuid(entryId) ? await repo.findLogEntry(db, caller.chainId, id, entryId) : undefined;
  if (!row) throw new ApiError('integration_log_entry_not_found');
  if (!presentLogEntry(row).retryable) throw new ApiError('integration_entry_not_retryable');
  const settled = { outcome: 'queued', message: 'Queued again by hand.', next_attempt_at: caller.now, attempts: 0, updated_at: caller.now };
  await repo.settleLogEntry(db, row, settled);
  return presentLogEntry({ ...row, ...settled });
}
