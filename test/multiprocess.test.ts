// Two API processes and a webhook worker on one PostgreSQL and one Redis: a till alternating between the two API
// processes meets one rate limit, one idempotency record, the same holds and the same revocations; webhooks
// arrive once per event id.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import * as accounts from '../src/modules/accounts/service.js';
import { TEST_PEPPER, useTestApp } from './support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from './support/factories.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startServerProcess, startWorkerProcess, type MainProcess, type ServerProcess } from './support/processes.js';
import { needs } from './support/services.js';

const t = useTestApp();
const postgresGate = await needs('postgres');
const redisGate = await needs('redis');
// Several processes share a database only on PostgreSQL; with PostgreSQL here, Redis must be too (under CI it fails).
const gate = postgresGate.available ? redisGate : postgresGate;

/** Small, so the shared count is seen within a few requests; the scenario's own key stays well under it. */
const RATE_LIMIT = 25;
const PASSWORD = 'correct horse battery';

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function call(base: string, method: string, path: string, secret: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

gate.describe('two API processes and a worker on one PostgreSQL and Redis', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let worker: MainProcess;
  let receiver: Receiver;
  let venue: accounts.Venue;
  let till: string;
  const email = `owner-${Math.random().toString(36).slice(2, 10)}@example.com`;

  beforeAll(async () => {
    receiver = await startReceiver();
    venue = await createVenue(t);
    await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
    till = (await createKey(t, venue, { name: 'till', rules: { manual_adjustments_allowed: true } })).secret;
    await accounts.createOwner(t.db, { chainId: venue.chainId, venueId: venue.id, email, password: PASSWORD });
    const env = {
      DATABASE_URL: t.testDatabase.url!,
      REDIS_URL: process.env.REDIS_URL!,
      API_KEY_PEPPER: TEST_PEPPER,
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      // The receiver is on loopback, which the URL guard refuses unless told otherwise (as every webhook test does).
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_INTERVAL: '50ms',
      WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms',
    };
    [a, b] = await Promise.all([startServerProcess({ ...env, ROLE: 'api' }), startServerProcess({ ...env, ROLE: 'api' })]);
    worker = startWorkerProcess(env);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), worker?.stop()]);
    await receiver?.close();
    // Every process logged only what a healthy run logs: nothing at error level or above.
    for (const p of [a, b, worker]) if (p) expect(p.logLines().filter((l) => l.level >= 50), p.output()).toEqual([]);
  }, 60_000);

  it('counts one key across both processes: request RATE_LIMIT + 1, wherever it lands, is 429', async () => {
    const { secret } = await createKey(t, venue, { name: 'counted' });
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMIT; i++) statuses.push((await call([a, b][i % 2]!.baseUrl, 'GET', '/api/v1/account', secret)).status);
    expect(statuses.slice(0, RATE_LIMIT)).toEqual(Array(RATE_LIMIT).fill(200));
    expect(statuses[RATE_LIMIT]).toBe(429);
    // Neither process alone has seen more than half the limit: only a shared count refuses.
    expect((await call(a.baseUrl, 'GET', '/api/v1/account', secret)).status).toBe(429);
  });

  it('runs a till between A and B: a replayed check, a hold made on A captured on B, webhooks once per event', async () => {
    const endpoint = await call(b.baseUrl, 'POST', '/api/v1/webhook_endpoints', till, { url: receiver.url });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);

    const card = newCardNumber();
    const member = await call(a.baseUrl, 'POST', '/api/v1/members', till, { card_number: card, consent: true });
    expect(member.status).toBe(201);
    const adjusted = await call(b.baseUrl, 'POST', `/api/v1/members/${member.body.id}/adjustments`, till, { amount: 1000, reason: 'opening balance' });
    expect(adjusted.status, JSON.stringify(adjusted.body)).toBe(201);

    // Idempotency: the same key and body sent to A, then to B, is one check and the same answer.
    const check = { external_id: 'MP-1', card_number: card, line_items: [{ name: 'Dinner', quantity: 1, unit_price: 2000 }] };
    const first = await call(a.baseUrl, 'POST', '/api/v1/checks', till, check, { 'idempotency-key': 'mp-check-1' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await call(b.baseUrl, 'POST', '/api/v1/checks', till, check, { 'idempotency-key': 'mp-check-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    // 5 % of 2000 earned on top of the 1000 imported, once.
    expect((await call(b.baseUrl, 'GET', `/api/v1/members/${member.body.id}`, till)).body).toMatchObject({ balance: 1100, available: 1100 });

    // A hold made through A is seen and captured through B; A then sees it captured.
    const hold = await call(a.baseUrl, 'POST', '/api/v1/holds', till, { card_number: card, amount: 400 }, { 'idempotency-key': 'mp-hold-1' });
    expect(hold.status).toBe(201);
    expect((await call(b.baseUrl, 'GET', `/api/v1/holds/${hold.body.id}`, till)).body).toMatchObject({ status: 'active', amount: 400 });
    expect((await call(b.baseUrl, 'GET', `/api/v1/members/${member.body.id}`, till)).body).toMatchObject({ held: 400, available: 700 });
    const capture = await call(
      b.baseUrl,
      'POST',
      '/api/v1/checks',
      till,
      { external_id: 'MP-2', hold_id: hold.body.id, line_items: [{ name: 'Lunch', quantity: 1, unit_price: 1000 }] },
      { 'idempotency-key': 'mp-check-2' },
    );
    expect(capture.status, JSON.stringify(capture.body)).toBe(201);
    expect(capture.body).toMatchObject({ redeemed: 400, hold_id: hold.body.id });
    expect((await call(a.baseUrl, 'GET', `/api/v1/holds/${hold.body.id}`, till)).body).toMatchObject({ status: 'captured', captured_amount: 400 });
    // 1100 − 400 redeemed + 5 % of the 600 paid = 730.
    expect((await call(a.baseUrl, 'GET', `/api/v1/members/${member.body.id}`, till)).body).toMatchObject({ balance: 730, held: 0, available: 730 });

    const refund = await call(b.baseUrl, 'POST', '/api/v1/transactions/MP-2/refunds', till, { external_id: 'MP-R1', amount: 100 }, { 'idempotency-key': 'mp-refund-1' });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);

    // Webhooks: every event of the venue reaches the receiver, each event id exactly once.
    const events = await call(a.baseUrl, 'GET', '/api/v1/events?limit=100', till);
    expect(events.status).toBe(200);
    const eventIds = (events.body.data as { id: string }[]).map((e) => e.id);
    // The adjustment, the two checks and the refund (a replay records nothing; a hold is no event).
    expect((events.body.data as { type: string }[]).map((e) => e.type).sort()).toEqual([
      'balance.adjusted',
      'transaction.completed',
      'transaction.completed',
      'transaction.refunded',
    ]);
    const delivered = () => receiver.requests.map((r) => String(r.headers['webhook-id']));
    await vi.waitFor(() => expect(new Set(delivered())).toEqual(new Set(eventIds)), { timeout: 15_000, interval: 100 });
    await new Promise((r) => setTimeout(r, 500)); // ten polls: time enough for a duplicate to show
    expect(delivered().sort()).toEqual([...eventIds].sort());
  }, 60_000);

  it('a key revoked through the dashboard on A is refused by B within one second', async () => {
    const { key, secret } = await createKey(t, venue, { name: 'to revoke' });
    // Both processes have it cached as valid.
    for (const p of [a, b]) expect((await call(p.baseUrl, 'GET', '/api/v1/account', secret)).status).toBe(200);

    const signIn = await fetch(`${a.baseUrl}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const { csrf_token: csrf } = (await signIn.json()) as { csrf_token: string };
    const revoked = await fetch(`${a.baseUrl}/dashboard/api/api-keys/${key.id}/revoke`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf } });
    expect(revoked.status).toBe(200);
    const at = Date.now();

    expect((await call(a.baseUrl, 'GET', '/api/v1/account', secret)).status).toBe(401);
    let answer: Answer;
    for (;;) {
      answer = await call(b.baseUrl, 'GET', '/api/v1/account', secret);
      if (answer.status !== 200 || Date.now() - at > 1000) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('api_key_revoked');
    expect(Date.now() - at).toBeLessThanOrEqual(1000);
  });
});
