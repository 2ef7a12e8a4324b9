// Helpers for delivery tests: raise events the way domain code does, and run a delivery worker in-process.
import type { Config } from '../../src/config.js';
import type { Venue } from '../../src/modules/accounts/service.js';
import { recordEvent } from '../../src/modules/webhooks/events.js';
import type { EventType } from '../../src/modules/webhooks/schemas.js';
import { createWebhookWorker } from '../../src/server.js';
import type { TestApp } from './app.js';

export async function raiseEvent(t: TestApp, venue: Venue, type: EventType, object: Record<string, unknown> = { object: 'test', n: 1 }) {
  return t.db.transaction().execute((trx) =>
    recordEvent(trx, { chainId: venue.chainId, venueId: venue.id, type, livemode: false, object, request: null }),
  );
}

export const quietLog = { error: (obj: object, msg: string) => console.error(msg, obj) };

/** A running worker over the test's database and DNS table; stop it at the end of the test. */
export function startWorker(t: TestApp, config: Config = t.config) {
  const delivery = createWebhookWorker(config, t.testDatabase.database, quietLog, t.resolveHost);
  delivery.worker.start();
  return delivery;
}

/** Fast delivery settings for tests (D15's numbers, shortened). */
export function fastDelivery(overrides: Partial<Config['webhooks']> = {}): Config['webhooks'] {
  return {
    retryScheduleMs: [300, 600, 1000],
    retryJitter: 0.1,
    timeoutMs: 1000,
    disableAfterFailures: 100,
    disableAfterMs: 0,
    pollIntervalMs: 20,
    ...overrides,
  };
}
