// Shutting down (D1): close() waits for the request in flight; a request that still arrives is 503 in the envelope;
// a stopped process always ends within SHUTDOWN_TIMEOUT, whatever holds it open.
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
import { startTestApp, TEST_PEPPER } from '../support/app.js';
import { openTestDatabase, onPostgres } from '../support/database.js';
import { venueWithKey } from '../support/factories.js';
import { startServerProcess } from '../support/processes.js';

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

/** A venue and a key in the database a spawned server will use, and that server's environment. */
async function processDatabase(): Promise<{ env: Record<string, string>; secret: string; close(): Promise<void> }> {
  const seed = async (db: Db, pepper: string) => {
    const venue = await accounts.createVenue(db, { name: 'Shutdown Bar', slug: `shutdown-${Date.now().toString(36)}` });
    return (await accounts.createApiKey(db, pepper, { venueId: venue.id, name: 'till', livemode: false })).secret;
  };
  if (onPostgres()) {
    const database = await openTestDatabase();
    const secret = await seed(database.database.db, TEST_PEPPER);
    return { env: { DATABASE_URL: database.url!, API_KEY_PEPPER: TEST_PEPPER }, secret, close: () => database.close() };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-shutdown-'));
  dirs.push(dataDir);
  const storage = await openStorage(loadConfig({ DATA_DIR: dataDir }), 'test');
  const secret = await seed(storage.database.db, storage.pepper);
  await storage.close();
  return { env: { DATA_DIR: dataDir, DATABASE_URL: '' }, secret, close: async () => {} };
}

describe('shutdown deadline', () => {
  it('SIGTERM ends the process within SHUTDOWN_TIMEOUT despite a keep-alive client, a silent webhook receiver and a closed stdout', async () => {
    const { env, secret, close } = await processDatabase();
    // A receiver that takes the request and never answers.
    let reached!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const silent = createHttpServer(() => reached());
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(silent.address() as { port: number }).port}/hook`;
    const server = await startServerProcess({
      ...env,
      REDIS_URL: '',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT: '1500ms',
      WEBHOOK_TIMEOUT: '5m',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const held = connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
    try {
      const auth = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
      const endpoint = await fetch(`${server.baseUrl}/api/v1/webhook_endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ url: hook }) });
      expect(endpoint.status).toBe(201);
      const { id } = (await endpoint.json()) as { id: string };

      // 1. A keep-alive client whose connection stays open after its answer.
      const kept = await new Promise<number>((resolve, reject) =>
        httpRequest(`${server.baseUrl}/healthz`, { agent }, (res) => res.resume().on('end', () => resolve(res.statusCode!))).on('error', reject).end(),
      );
      expect(kept).toBe(200);
      // 2. A client that has sent half a request and goes quiet, so its connection is never idle.
      held.on('error', () => {});
      held.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      // 3. A request in flight to the receiver that never answers.
      const inFlight = fetch(`${server.baseUrl}/api/v1/webhook_endpoints/${id}/test`, { method: 'POST', headers: { authorization: auth.authorization } }).catch(
        () => undefined,
      );
      await arrived;
      // 4. Standard output closed, as when the harness that read it dies.
      server.child.stdout!.destroy();

      const started = Date.now();
      const code = await server.stop('SIGTERM');
      const took = Date.now() - started;
      expect(code).toBe(1);
      expect(took).toBeGreaterThanOrEqual(1_400);
      expect(took).toBeLessThan(1_500 + 8_000);
      expect(server.output()).toContain('shutdown did not finish within 1500 ms; exiting anyway');
      await inFlight;
    } finally {
      await server.stop('SIGKILL');
      held.destroy();
      agent.destroy();
      silent.closeAllConnections();
      silent.close();
      await close();
    }
  }, 180_000);
});
