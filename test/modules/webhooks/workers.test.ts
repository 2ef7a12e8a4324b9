// Real worker processes: two on one PostgreSQL never make one attempt twice; a SIGKILLed worker loses nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { openStorage } from '../../../src/server.js';
import * as accounts from '../../../src/modules/accounts/service.js';
import * as webhooks from '../../../src/modules/webhooks/service.js';
import { recordEvent } from '../../../src/modules/webhooks/events.js';
import type { Db } from '../../../src/db/database.js';
import { openSecretBox } from '../../../src/shared/secret-box.js';
import { TEST_PEPPER, TEST_SECRET_KEY, useTestApp } from '../../support/app.js';
import { onPostgres } from '../../support/database.js';
import { startReceiver, type Receiver } from '../../support/receiver.js';
import { startWorkerProcess, type MainProcess } from '../../support/processes.js';
import { needs } from '../../support/services.js';

const t = useTestApp();
const postgresGate = await needs('postgres');
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const workerEnv = {
  ROLE: 'worker',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_POLL_INTERVAL: '20ms',
  WEBHOOK_TIMEOUT: '1s',
  WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms,200ms,200ms',
  API_KEY_PEPPER: TEST_PEPPER,
  // The key the seed seals the endpoint's secret with.
  SECRET_ENCRYPTION_KEY: TEST_SECRET_KEY,
};

/** A venue with one endpoint at the receiver and `count` queued events, written through the domain services. */
async function seed(db: Db, receiver: Receiver, count: number): Promise<string[]> {
  const suffix = Math.random().toString(36).slice(2, 8);
  const venue = await accounts.createVenue(db, { name: 'Workers', slug: `workers-${suffix}` });
  const caller = { ...accounts.placeOf(venue), livemode: false } as Parameters<typeof webhooks.createEndpoint>[1];
  await webhooks.createEndpoint(db, caller, { url: receiver.url }, { allowPrivate: true, resolve: async () => [] }, openSecretBox(t.config));
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const event = await db
      .transaction()
      .execute((trx) => recordEvent(trx, { ...accounts.placeOf(venue), type: 'order.created', livemode: false, object: { n: i }, request: null }));
    ids.push(event.id);
  }
  return ids;
}

async function receiverFor(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

function track(p: MainProcess): MainProcess {
  cleanups.push(() => p.stop('SIGKILL'));
  return p;
}

describe('worker processes', () => {
  postgresGate.it('two workers on one PostgreSQL deliver 200 events with no attempt made twice', async () => {
    const r = await receiverFor();
    const ids = await seed(t.db, r, 200);
    const env = { ...workerEnv, DATABASE_URL: t.testDatabase.url! };
    track(startWorkerProcess(env));
    track(startWorkerProcess(env));
    await vi.waitFor(() => expect(new Set(r.requests.map((q) => q.headers['webhook-id'])).size).toBe(200), {
      timeout: 30_000,
      interval: 100,
    });
    await new Promise((resolve) => setTimeout(resolve, 300)); // a duplicate would arrive within a poll or two
    expect(r.requests).toHaveLength(200);
    expect(new Set(r.requests.map((q) => q.headers['webhook-id']))).toEqual(new Set(ids));
    // An attempt's row is written after its answer arrives, so the last few may still be on their way.
    const attemptsOf = () => t.db.selectFrom('webhook_attempts').select(['event_id', 'attempt']).execute();
    await vi.waitFor(async () => expect((await attemptsOf()).filter((a) => ids.includes(a.event_id)).length).toBeGreaterThanOrEqual(200), {
      timeout: 10_000,
      interval: 100,
    });
    const attempts = await attemptsOf();
    expect(attempts.filter((a) => ids.includes(a.event_id))).toHaveLength(200);
    expect(attempts.every((a) => a.attempt === 1)).toBe(true);
  }, 60_000);

  it('a worker killed with SIGKILL mid-attempt and restarted delivers every event, the interrupted ones again', async () => {
    const r = await receiverFor();
    // Answers take 150 ms, so when the second batch arrives its attempts are certainly still in flight.
    r.respond((_req, res) => setTimeout(() => res.writeHead(200).end(), 150));
    let env: Record<string, string>;
    let ids: string[];
    if (onPostgres()) {
      env = { ...workerEnv, DATABASE_URL: t.testDatabase.url! };
      ids = await seed(t.db, r, 100);
    } else {
      // An embedded data directory admits one process: seed it, close it, then hand it to the worker.
      const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-worker-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const storage = await openStorage(loadConfig({ DATA_DIR: dataDir }), 'test');
      ids = await seed(storage.database.db, r, 100);
      await storage.close();
      env = { ...workerEnv, DATA_DIR: dataDir, DATABASE_URL: '' };
    }
    const first = track(startWorkerProcess(env));
    await vi.waitFor(() => expect(r.requests.length).toBeGreaterThan(20), { timeout: 30_000, interval: 5 });
    await first.stop('SIGKILL');
    const inFlightAtKill = r.requests.slice(20).map((q) => q.headers['webhook-id']);
    expect(new Set(r.requests.map((q) => q.headers['webhook-id'])).size).toBeLessThan(100);

    track(startWorkerProcess(env));
    const timesSeen = (id: unknown) => r.requests.filter((q) => q.headers['webhook-id'] === id).length;
    // Attempts cut off by the kill were never recorded: once their claim lapses, the new worker makes them again.
    await vi.waitFor(
      () => {
        expect(new Set(r.requests.map((q) => q.headers['webhook-id'])).size).toBe(100);
        for (const id of inFlightAtKill) expect(timesSeen(id)).toBeGreaterThanOrEqual(2);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(new Set(r.requests.map((q) => q.headers['webhook-id']))).toEqual(new Set(ids));
    expect(inFlightAtKill.length).toBeGreaterThan(0);
  }, 60_000);
});
