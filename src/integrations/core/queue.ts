// The connections' durable queue (D26): provider work waits in the log, is claimed with a lease, retried with backoff
// while the provider is unavailable, and settled with its outcome; a connection whose credentials are refused fails.
import type { Db } from '../../db/database.js';
import { recordEvent } from '../../modules/webhooks/events.js';
import type { Clock } from '../../shared/clock.js';
import { newId } from '../../shared/ids.js';
import type { SecretBox } from '../../shared/secret-box.js';
import * as repo from './repo.js';
import type { LogOutcome, Provider } from './schemas.js';
import { presentIntegration, SecretsUnreadable } from './service.js';

/** What the provider's work needs besides the connection: the database, the keys, the clock and where providers are. */
export interface WorkContext {
  db: Db;
  secrets: SecretBox;
  clock: Clock;
  publicBaseUrl: string;
  squareApiUrl: string;
  /** How long a call to a provider may take before it counts as unavailable. */
  providerTimeoutMs: number;
}

/** How an entry ended: settled in the log with its words, and where it applied. */
export interface Outcome {
  outcome: LogOutcome;
  message: string;
  venueId?: string | null;
  transactionId?: string | null;
  providerIds?: Record<string, string>;
}

/** The provider could not answer (a timeout, 429, 5xx): the entry is tried again later. */
export class ProviderUnavailable extends Error {}

/** The provider refused the connection's credentials (401, 403): tried again later, and the connection is failing. */
export class CredentialsRefused extends Error {}

/** What a provider folder gives the queue: how to do one entry, and optionally a periodic pass of its own. */
export interface ProviderWork {
  handle(ctx: WorkContext, integration: repo.IntegrationRow, entry: repo.LogRow): Promise<Outcome>;
  reconcile?(ctx: WorkContext, integration: repo.IntegrationRow): Promise<void>;
}

/** The providers with queued work (Toast calls us and waits for its answer: it has none). */
export type Providers = Partial<Record<Provider, ProviderWork>>;

/** After this many attempts an entry is failed: the owner's "try again", or the reconciliation pass, picks it up. */
export const MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60_000;
/** A claimed entry comes back this long after its claim if its worker died with it. */
const LEASE_MS = 5 * 60_000;

/** The wait before attempt n + 1: 30 s, doubling, at most an hour (about 4 h of trying in all). */
export const retryDelayMs = (attempts: number): number => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);

export interface NewEntry {
  kind: string;
  providerIds: Record<string, string>;
  dedupKey: string | null;
  subject: string | null;
  payload: Record<string, unknown> | null;
  /** Queued to be done (now), or only recorded with its outcome. */
  queued: boolean;
  outcome?: LogOutcome;
  message?: string;
}

/** Adds an entry to the connection's log; undefined when its dedup key was already there (a replay). */
export async function addEntry(db: Db, integration: repo.IntegrationRow, entry: NewEntry, now: Date): Promise<repo.LogRow | undefined> {
  return repo.insertLogEntry(db, {
    chain_id: integration.chain_id,
    integration_id: integration.id,
    id: newId(),
    kind: entry.kind,
    outcome: entry.outcome ?? 'queued',
    message: entry.message ?? null,
    provider_ids: entry.providerIds,
    dedup_key: entry.dedupKey,
    subject: entry.subject,
    payload: entry.payload,
    next_attempt_at: entry.queued ? now : null,
    created_at: now,
  });
}

// The workers of this process, woken when an entry is queued here: in one process (npm start) a webhook's payment is
// applied at once; a worker of its own (ROLE=worker) finds it at its next poll.
const wakers = new Set<() => void>();

/** Registers a worker to wake; the returned function unregisters it. */
export function onQueued(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

export const announceQueued = (): void => wakers.forEach((wake) => wake());

/** Does what is due, up to `limit` entries; how many were claimed (the worker's loop, tests). */
export async function runDue(ctx: WorkContext, providers: Providers, limit = 20): Promise<number> {
  const claimed = await repo.claimDue(ctx.db, ctx.clock.now(), limit, LEASE_MS);
  for (const entry of claimed) await runEntry(ctx, providers, entry);
  return claimed.length;
}

async function runEntry(ctx: WorkContext, providers: Providers, entry: repo.LogRow): Promise<void> {
  const integration = await repo.findIntegration(ctx.db, entry.chain_id, entry.integration_id);
  if (!integration) return;
  const now = () => ctx.clock.now();
  try {
    const provider = providers[integration.provider];
    const done: Outcome =
      integration.status === 'paused' || !provider
        ? { outcome: 'ignored', message: 'The connection is paused: nothing was applied.' }
        : await provider.handle(ctx, integration, entry);
    await repo.settleLogEntry(ctx.db, entry, settledAs(done, now()));
    // Only an applied payment proves the provider answered with these credentials (a refund or an unmapped location calls nobody).
    if (integration.failing_since && done.outcome === 'applied') await repo.updateIntegration(ctx.db, integration.chain_id, integration.id, { failing_since: null });
  } catch (err) {
    if (!(err instanceof ProviderUnavailable || err instanceof CredentialsRefused || err instanceof SecretsUnreadable)) {
      // A defect on our side, not the provider's: the entry stops here, in words, and the rest of the round goes on.
      await repo.settleLogEntry(ctx.db, entry, { outcome: 'failed', message: `Failed on our side: ${(err as Error).message}`, next_attempt_at: null, updated_at: now() });
      return;
    }
    const givingUp = entry.attempts >= MAX_ATTEMPTS;
    await repo.settleLogEntry(ctx.db, entry, {
      outcome: givingUp ? 'failed' : 'provider_error',
      message: givingUp ? `${err.message} Gave up after ${entry.attempts} attempts.` : `${err.message} Trying again later.`,
      next_attempt_at: givingUp ? null : new Date(now().getTime() + retryDelayMs(entry.attempts)),
      updated_at: now(),
    });
    if (!(err instanceof ProviderUnavailable) || givingUp) await markFailing(ctx, integration);
  }
}

const settledAs = (done: Outcome, at: Date): repo.Settled => ({
  outcome: done.outcome,
  message: done.message,
  next_attempt_at: null,
  venue_id: done.venueId ?? null,
  transaction_id: done.transactionId ?? null,
  ...(done.providerIds ? { provider_ids: done.providerIds } : {}),
  updated_at: at,
});

/**
 * Marks the connection failing and announces it once (`integration.failing`, and the dashboard's banner): until a
 * call succeeds again or its credentials are replaced, further failures say nothing new.
 */
export async function markFailing(ctx: WorkContext, integration: repo.IntegrationRow): Promise<void> {
  if (integration.failing_since) return;
  const at = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findIntegration(trx, integration.chain_id, integration.id, true);
    if (!row || row.failing_since) return;
    const failing = await repo.updateIntegration(trx, row.chain_id, row.id, { failing_since: at });
    await recordEvent(trx, {
      chainId: row.chain_id,
      venueId: null,
      type: 'integration.failing',
      livemode: row.livemode,
      object: presentIntegration(failing!, ctx.publicBaseUrl),
      request: null,
    });
  });
}
