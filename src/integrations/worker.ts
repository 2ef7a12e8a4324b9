// The connectors' worker (D26), run by the worker role: the queue of provider work every poll, and each provider's
// reconciliation pass on its own interval.
import type { Db } from '../db/database.js';
import type { Config } from '../config.js';
import type { Clock } from '../shared/clock.js';
import type { SecretBox } from '../shared/secret-box.js';
import { CredentialsRefused, markFailing, onQueued, runDue, type Providers, type WorkContext } from './core/queue.js';
import { activeIntegrations } from './core/repo.js';
import { square } from './square/index.js';

export const PROVIDERS: Providers = { square };

const POLL_MS = 1000;
/** Entries one round claims; a full round is followed by another at once. */
const ROUND = 20;
/** A provider that does not answer in this long is unavailable for now: the entry is tried again later. */
const PROVIDER_TIMEOUT_MS = 10_000;

export function workContext(db: Db, secrets: SecretBox, clock: Clock, config: Config, providerTimeoutMs = PROVIDER_TIMEOUT_MS): WorkContext {
  return { db, secrets, clock, publicBaseUrl: config.publicBaseUrl, squareApiUrl: config.square.apiUrl, providerTimeoutMs };
}

/** Each active connection's reconciliation pass, one after another; a connection that fails leaves the rest to run. */
export async function reconcileAll(ctx: WorkContext, log: { error(obj: object, msg: string): void }): Promise<void> {
  for (const [provider, work] of Object.entries(PROVIDERS)) {
    if (!work?.reconcile) continue;
    for (const integration of await activeIntegrations(ctx.db, provider as keyof Providers)) {
      await work.reconcile(ctx, integration).catch(async (err: unknown) => {
        if (err instanceof CredentialsRefused) return markFailing(ctx, integration);
        log.error({ err, integration: integration.id }, 'reconciliation pass failed; the next pass covers its window');
      });
    }
  }
}

export function startIntegrationWorker(ctx: WorkContext, reconcileEveryMs: number, log: { error(obj: object, msg: string): void }): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  let again = false;
  let stopped = false;
  const round = () => {
    if (stopped) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    again = false;
    running = runDue(ctx, PROVIDERS, ROUND)
      .then((claimed) => (again ||= claimed === ROUND))
      .catch((err: unknown) => log.error({ err }, 'connector queue round failed; it runs again'))
      .finally(() => {
        busy = false;
        if (again) round();
      });
  };
  const poll = setInterval(round, POLL_MS);
  const forget = onQueued(round);
  let reconciling: Promise<unknown> | undefined;
  const pass = setInterval(() => {
    reconciling ??= reconcileAll(ctx, log).finally(() => (reconciling = undefined));
  }, reconcileEveryMs);
  poll.unref();
  pass.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearInterval(pass);
      forget();
      await Promise.all([running, reconciling]);
    },
  };
}
