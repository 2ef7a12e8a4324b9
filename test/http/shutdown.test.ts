// Shutting down (D1): close() waits for the request in flight; a request that still arrives is 503 in the envelope;
// a stopped process always ends within SHUTDOWN_TIMEOUT, whatever holds it open: a client holding its connection,
// the delivery worker waiting on a receiver that never answers, a closed standard output (each alone, real processes).
import { SYSTEM } from '../../src/modules/audit/service.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer as createHttpServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import inject from 'light-my-request';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/db/database.js';
import * as accounts from '../../src/modules/accounts/service.js';
import { openStorage } from '../../src/server.js';
import { recordEvent } from '../../src/modules/webhooks/events.js';
import * as webhooks from '../../src/modules/webhooks/service.js';
import { openSecretBox } from '../../src/shared/secret-box.js';
import { startTestApp, TEST_PEPPER, TEST_SECRET_KEY } from '../support/app.js';
import { openTestDatabase, onPostgres } from '../support/database.js';
import { venueWithKey } from '../support/factories.js';
import { startServerProcess, startWorkerProcess, type MainProcess } from '../support/processes.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('graceful shutdown', () => {
  it('close() waits for the request in flight; a late request is 503 service_unavailable with Connection: close', async () => {
    const t = await startTestApp({ config: { webhookAllowPrivateUrls: true } });
    const { secret } = await venueWithKey(t);
    // A receiver that holds the webhook test call keeps a request in flight while the app closes.
    let answer!: () => void;
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const slow = createHttpServer((_req, res) => {
      answer = () => res.writeHead(200).end();
      arrived();
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(slow.address() as { port: number }).port}/hook`;
    const auth = { authorization: `Bearer ${secret}` };
    const endpoint = await t.app.inject({ method: 'POST', url: '/api/v1/webhook_endpoints', headers: { ...auth, 'content-type': 'application/json' }, payload: { url: hook } });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const inFlight = fetch(`${base}/api/v1/webhook_endpoints/${endpoint.json().id}/test`, { method: 'POST', headers: auth });
    await reached;

    let closed = false;
    const closing = t.app.close().then(() => (closed = true));
    // preClose has run once the listener is gone; a request that still reaches the router then is refused.
    await vi.waitFor(() => expect(t.app.server.listening).toBe(false));
    expect(closed).toBe(false);
    const late = await inject(t.app.routing, { method: 'GET', url: '/api/v1/account', headers: auth });
    expect(late.statusCode).toBe(503);
    expect(late.headers.connection).toBe('close');
    expect(late.json()).toEqual({
      error: expect.objectContaining({ type: 'api_error', code: 'service_unavailable' }),
      request_id: late.headers['x-request-id'],
    });
    answer();
    expect(await (await inFlight).json()).toMatchObject({ object: 'webhook_test', delivered: true, status_code: 200 });
    await closing;
    expect(closed).toBe(true);
    slow.close();
    await t.testDatabase.close();
  });
});

/** A database a spawned process will use, seeded by `seed` (with the key the processes seal secrets with), and its environment. */
async function processDatabase<T>(seed: (db: Db, pepper: string) => Promise<T>): Promise<{ env: Record<string, string>; seeded: T; close(): Promise<void> }> {
  if (onPostgres()) {
    const database = await openTestDatabase();
    const seeded = await seed(database.database.db, TEST_PEPPER);
    return { env: { DATABASE_URL: database.url!, API_KEY_PEPPER: TEST_PEPPER }, seeded, close: () => database.close() };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-shutdown-'));
  dirs.push(dataDir);
  const storage = await openStorage(loadConfig({ DATA_DIR: dataDir, SECRET_ENCRYPTION_KEY: TEST_SECRET_KEY }), 'test');
  const seeded = await seed(storage.database.db, storage.pepper);
  await storage.close();
  return { env: { DATA_DIR: dataDir, DATABASE_URL: '' }, seeded, close: async () => {} };
}

async function seedVenue(db: Db, pepper: string) {
  const venue = await accounts.createVenue(db, { name: 'Shutdown Bar', slug: `shutdown-${Date.now().toString(36)}` });
  return { venue, secret: (await accounts.createApiKey(db, pepper, { venueId: venue.id, name: 'till', livemode: false, by: SYSTEM })).secret };
}

const DEADLINE = { SHUTDOWN_TIMEOUT: '1500ms', LOG_LEVEL: 'info', REDIS_URL: '' };

/** SIGTERM; the process must be gone within the deadline plus the backstop's margin, and `why` says what ended it. */
async function expectEndsByDeadline(proc: MainProcess, why: 'deadline' | 'either'): Promise<void> {
  const started = Date.now();
  const code = await proc.stop('SIGTERM');
  const took = Date.now() - started;
  expect(took, proc.output()).toBeLessThan(1_500 + 8_000);
  if (why === 'deadline') {
    expect(code).toBe(1);
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(proc.output()).toContain('shutdown did not finish within 1500 ms; exiting anyway');
  }
  if (why === 'either') expect([0, 1]).toContain(code);
}

/** A receiver that takes requests and never answers; `arrived` resolves at the first. */
async function silentReceiver() {
  let reached!: () => void;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  const server = createHttpServer(() => reached());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    arrived,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('shutdown deadline (SHUTDOWN_TIMEOUT=1500ms)', () => {
  it('a client holding keep-alive connections, one of them halfway through a request: the deadline ends the process', async () => {
    const { env, close } = await processDatabase(seedVenue);
    const server = await startServerProcess({ ...env, ...DEADLINE });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const held = connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
    try {
      // An idle keep-alive connection, open after its answer.
      const kept = await new Promise<number>((resolve, reject) =>
        httpRequest(`${server.baseUrl}/healthz`, { agent }, (res) => res.resume().on('end', () => resolve(res.statusCode!))).on('error', reject).end(),
      );
      expect(kept).toBe(200);
      // A connection whose request has half arrived, so it is never idle and the listener cannot close.
      held.on('error', () => {});
      held.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n');
      await new Promise((r) => setTimeout(r, 200));
      await expectEndsByDeadline(server, 'deadline');
    } finally {
      await server.stop('SIGKILL');
      held.destroy();
      agent.destroy();
      await close();
    }
  }, 180_000);

  it('the delivery worker in the middle of a delivery to a receiver that never answers: the deadline ends the process', async () => {
    const receiver = await silentReceiver();
    const { env, close } = await processDatabase(async (db, pepper) => {
      const { venue } = await seedVenue(db, pepper);
      const caller = { ...accounts.ownerCaller(venue), livemode: false };
      const secrets = openSecretBox(loadConfig({ SECRET_ENCRYPTION_KEY: TEST_SECRET_KEY }));
      await webhooks.createEndpoint(db, caller, { url: receiver.url }, { allowPrivate: true, resolve: async () => [] }, secrets);
      await db.transaction().execute((trx) => recordEvent(trx, { chainId: venue.chainId, venueId: venue.id, type: 'order.created', livemode: false, object: { n: 1 }, request: null }));
    });
    // The worker role alone: no HTTP listener, so nothing but the delivery holds the shutdown open.
    const worker = startWorkerProcess({ ...env, ...DEADLINE, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT: '5m', WEBHOOK_POLL_INTERVAL: '50ms' });
    try {
      await Promise.race([
        receiver.arrived,
        new Promise((_, reject) => setTimeout(() => reject(new Error(`no delivery arrived:\n${worker.output()}`)), 90_000)),
      ]);
      await expectEndsByDeadline(worker, 'deadline');
    } finally {
      await worker.stop('SIGKILL');
      receiver.close();
      await close();
    }
  }, 180_000);

  it('a request in flight to a receiver that never answers (a webhook test call): the deadline ends the process', async () => {
    const receiver = await silentReceiver();
    const { env, seeded, close } = await processDatabase(seedVenue);
    const server = await startServerProcess({ ...env, ...DEADLINE, WEBHOOK_TIMEOUT: '5m', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    try {
      const auth = { authorization: `Bearer ${seeded.secret}` };
      const endpoint = await fetch(`${server.baseUrl}/api/v1/webhook_endpoints`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url }),
      });
      expect(endpoint.status).toBe(201);
      const { id } = (await endpoint.json()) as { id: string };
      const inFlight = fetch(`${server.baseUrl}/api/v1/webhook_endpoints/${id}/test`, { method: 'POST', headers: auth }).catch(() => undefined);
      await receiver.arrived;
      await expectEndsByDeadline(server, 'deadline');
      await inFlight;
    } finally {
      await server.stop('SIGKILL');
      receiver.close();
      await close();
    }
  }, 180_000);

  it('standard output closed by the parent before SIGTERM, with log lines still being written: the process ends', async () => {
    const { env, seeded, close } = await processDatabase(seedVenue);
    const server = await startServerProcess({ ...env, ...DEADLINE, LOG_LEVEL: 'trace' });
    try {
      // As when the harness that read it dies: every later log line meets a closed pipe.
      server.child.stdout!.destroy();
      for (let i = 0; i < 20; i++) {
        expect((await fetch(`${server.baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${seeded.secret}` } })).status).toBe(200);
      }
      // Nothing else holds it: it may finish gracefully; what matters is that it ends, within the deadline.
      await expectEndsByDeadline(server, 'either');
    } finally {
      await server.stop('SIGKILL');
      await close();
    }
  }, 180_000);
});
