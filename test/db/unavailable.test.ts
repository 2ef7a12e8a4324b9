// When PostgreSQL is unavailable a request is answered 503 (retry), not 500 and not never: which errors count, and
// a server that accepts connections but never answers.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUT_MS, isDatabaseUnavailable, openDatabase } from '../../src/db/database.js';
import { createServer } from '../../src/server.js';
import { TEST_PEPPER, testConfig, type TestApp } from '../support/app.js';
import { onPostgres, openTestDatabase } from '../support/database.js';
import { venueWithKey } from '../support/factories.js';

describe('isDatabaseUnavailable', () => {
  // From PostgreSQL's SQLSTATE table (Appendix A) and Node's socket and DNS error codes.
  const unavailable = ['08000', '08003', '08006', '08001', '08004', '57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'];
  // 08P01 protocol violation and 08007 transaction resolution unknown are bugs or need a person, not a retry.
  const bugs = ['08P01', '08007', '0A000', '23505', '40001', '42P01', '53200', '57014', 'EACCES'];

  it.each(unavailable)('%s is unavailable', (code) => expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(true));
  it.each(bugs)('%s is not', (code) => expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(false));

  it("pg's messages for a lost connection and for a pool that could not connect in time are unavailable", () => {
    for (const message of ['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout', 'Connection terminated unexpectedly']) {
      expect(isDatabaseUnavailable(new Error(message))).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error('syntax error at or near "selec"'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe('a PostgreSQL that accepts connections but never answers', () => {
  it.runIf(onPostgres())(
    'a request is answered 503 once the connect timeout has passed, not held forever',
    async () => {
      const real = await openTestDatabase();
      await real.close();
      const target = new URL(real.url!);
      // Forwards to the real server while `forwarding`; afterwards accepts connections and never says a word.
      let forwarding = true;
      const piped: net.Socket[] = [];
      const held: net.Socket[] = [];
      const proxy = net.createServer((socket) => {
        if (!forwarding) return void held.push(socket);
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
        piped.push(socket, upstream);
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const viaProxy = new URL(target.href);
      viaProxy.port = String((proxy.address() as net.AddressInfo).port);
      const database = await openDatabase({ kind: 'postgres', url: viaProxy.href });
      const server = await createServer(testConfig(), database, TEST_PEPPER);
      try {
        // A real key, so the request reaches the database (its look-up) rather than stopping at the key's shape.
        const { secret } = await venueWithKey({ db: database.db, pepper: TEST_PEPPER } as TestApp);
        forwarding = false;
        piped.forEach((s) => s.destroy());
        // Let the pool see its idle connections die, so the request needs a new one.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const started = performance.now();
        const res = await server.app.inject({ method: 'GET', url: '/api/v1/webhook_endpoints', headers: { authorization: `Bearer ${secret}` } });
        const took = performance.now() - started;
        expect(res.statusCode).toBe(503);
        expect(res.json().error.code).toBe('service_unavailable');
        expect(held.length).toBeGreaterThan(0);
        expect(took).toBeGreaterThan(CONNECT_TIMEOUT_MS - 500);
        expect(took).toBeLessThan(CONNECT_TIMEOUT_MS + 3000);
      } finally {
        held.forEach((s) => s.destroy());
        await server.close().catch(() => {});
        await database.close().catch(() => {});
        proxy.close();
      }
    },
    30_000,
  );
});
