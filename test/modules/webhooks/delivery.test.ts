// Signed delivery to real receivers on loopback: signatures, filtering, retries, auto-disable, redirects, test call.
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, useTestApp, type TestApp } from '../../support/app.js';
import { venueWithKey } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';
import { startReceiver, type Receiver } from '../../support/receiver.js';
import { fastDelivery, raiseEvent, startWorker } from '../../support/webhooks.js';

const t = useTestApp({ config: { webhookAllowPrivateUrls: true, webhooks: fastDelivery() } });
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

function worker(app: TestApp = t) {
  const w = startWorker(app);
  cleanups.push(() => w.close());
  return w;
}

async function endpoint(api: ReturnType<typeof client>, url: string, events?: string[]) {
  const res = await api.post('/api/v1/webhook_endpoints', { url, ...(events ? { events } : {}) });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

const eventIds = (r: Receiver) => r.requests.map((q) => JSON.parse(q.body).id as string);

describe('delivery', () => {
  it('every delivery verifies with the endpoint secret (Standard Webhooks); a tampered body does not', async () => {
    const { venue, secret } = await venueWithKey(t);
    const r = await receiver();
    const ep = await endpoint(client(t, secret), r.url);
    const event = await raiseEvent(t, venue, 'balance.adjusted', { object: 'member', id: 'm1', balance: 120 });
    worker();
    await vi.waitFor(() => expect(r.requests).toHaveLength(1), { timeout: 5000 });
    const [req] = r.requests;
    const headers = req!.headers as Record<string, string>;
    const verified = new Webhook(ep.secret).verify(req!.body, headers) as Record<string, unknown>;
    expect(verified).toEqual({
      object: 'event',
      id: event.id,
      type: 'balance.adjusted',
      venue_id: venue.id,
      api_version: 'v1',
      created_at: event.created_at,
      livemode: false,
      data: { object: { object: 'member', id: 'm1', balance: 120 } },
      request: null,
    });
    expect(headers['webhook-id']).toBe(event.id);
    expect(() => new Webhook(ep.secret).verify(req!.body.replace('120', '999'), headers)).toThrow();
  });

  it("each endpoint receives the types it subscribed to, '*' receives all, a deleted endpoint nothing", async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    const [orders, all, balances, deleted] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    await endpoint(api, orders.url, ['order.created']);
    await endpoint(api, all.url);
    await endpoint(api, balances.url, ['balance.adjusted']);
    const gone = await endpoint(api, deleted.url);
    const order = await raiseEvent(t, venue, 'order.created');
    const balance = await raiseEvent(t, venue, 'balance.adjusted');
    await api.delete(`/api/v1/webhook_endpoints/${gone.id}`); // after the events were queued for it
    worker();
    await vi.waitFor(() => expect(all.requests).toHaveLength(2), { timeout: 5000 });
    await vi.waitFor(() => expect(orders.requests.length + balances.requests.length).toBe(2), { timeout: 5000 });
    expect(eventIds(orders)).toEqual([order.id]);
    expect(eventIds(balances)).toEqual([balance.id]);
    expect(new Set(eventIds(all))).toEqual(new Set([order.id, balance.id]));
    expect(deleted.connections()).toBe(0);
  });

  it('500, 500, then 200: delivered once, three attempts recorded, spaced by the schedule', async () => {
    const { venue, secret } = await venueWithKey(t);
    const r = await receiver();
    let calls = 0;
    r.respond((_req, res) => res.writeHead(++calls <= 2 ? 500 : 200).end(calls <= 2 ? 'try later' : 'ok'));
    const ep = await endpoint(client(t, secret), r.url);
    const event = await raiseEvent(t, venue, 'transaction.completed');
    worker();
    await vi.waitFor(() => expect(r.requests).toHaveLength(3), { timeout: 8000 });
    expect(new Set(eventIds(r))).toEqual(new Set([event.id]));
    expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual([event.id, event.id, event.id]);
    const [first, second, third] = r.requests.map((q) => q.at) as [number, number, number];
    // Schedule 300 ms then 600 ms, ±10 % jitter, plus a poll interval and some scheduling slack.
    expect(second - first).toBeGreaterThanOrEqual(270 - 5);
    expect(second - first).toBeLessThan(330 + 250);
    expect(third - second).toBeGreaterThanOrEqual(540 - 5);
    expect(third - second).toBeLessThan(660 + 250);

    await vi.waitFor(async () => {
      const log = await client(t, secret).get(`/api/v1/webhook_endpoints/${ep.id}/deliveries`);
      expect(log.body.data).toHaveLength(3);
    });
    const log = (await client(t, secret).get(`/api/v1/webhook_endpoints/${ep.id}/deliveries`)).body.data;
    expect(log.map((a: { attempt: number }) => a.attempt)).toEqual([3, 2, 1]);
    expect(log.map((a: { status_code: number }) => a.status_code)).toEqual([200, 500, 500]);
    expect(log[0]).toMatchObject({ object: 'webhook_delivery_attempt', event_id: event.id, event_type: 'transaction.completed', error: null, next_attempt_at: null });
    expect(log[1].error).toBe('HTTP 500: try later');
    expect(Date.parse(log[1].next_attempt_at)).toBeGreaterThan(Date.parse(log[1].created_at));
    expect(log[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('a 302 to another host is not followed and counts as a failure', async () => {
    const { venue, secret } = await venueWithKey(t);
    const [first, elsewhere] = await Promise.all([receiver(), receiver()]);
    first.respond((_req, res) => res.writeHead(302, { location: elsewhere.url }).end());
    const ep = await endpoint(client(t, secret), first.url);
    await raiseEvent(t, venue, 'order.created');
    worker();
    await vi.waitFor(() => expect(first.requests.length).toBeGreaterThanOrEqual(1), { timeout: 5000 });
    await vi.waitFor(async () => {
      const log = await client(t, secret).get(`/api/v1/webhook_endpoints/${ep.id}/deliveries`);
      expect(log.body.data[0]).toMatchObject({ status_code: 302, error: expect.stringContaining('redirects are not followed') });
    });
    expect(elsewhere.connections()).toBe(0);
  });

  it('after the last scheduled retry the delivery is given up', async () => {
    const { venue, secret } = await venueWithKey(t);
    const r = await receiver();
    r.respond((_req, res) => res.writeHead(500).end());
    const ep = await endpoint(client(t, secret), r.url);
    await raiseEvent(t, venue, 'order.created');
    const w = worker();
    // Schedule of three retries: four attempts in all, the last with no next attempt.
    await vi.waitFor(async () => {
      const log = (await client(t, secret).get(`/api/v1/webhook_endpoints/${ep.id}/deliveries`)).body.data;
      expect(log).toHaveLength(4);
      expect(log[0]).toMatchObject({ attempt: 4, next_attempt_at: null });
    }, { timeout: 8000 });
    const status = await t.db.selectFrom('webhook_deliveries').select('status').where('endpoint_id', '=', ep.id).executeTakeFirstOrThrow();
    expect(status.status).toBe('failed');
    // Another round sends it no more (it may pick up other tests' retries, so count this receiver's requests).
    await w.worker.deliverDue();
    expect(r.requests).toHaveLength(4);
  });

  it('a receiver that does not answer within the timeout is a failed attempt', async () => {
    const { venue, secret } = await venueWithKey(t);
    const r = await receiver();
    r.respond(() => {}); // never answers
    const ep = await endpoint(client(t, secret), r.url);
    await raiseEvent(t, venue, 'order.created');
    worker();
    await vi.waitFor(async () => {
      const log = (await client(t, secret).get(`/api/v1/webhook_endpoints/${ep.id}/deliveries`)).body.data;
      expect(log[0]).toMatchObject({ attempt: 1, status_code: 0, error: 'No answer within 1000 ms.' });
      expect(log[0].duration_ms).toBeGreaterThanOrEqual(990);
    }, { timeout: 5000 });
  });

  it('a Retry-After later than the schedule is honoured', async () => {
    const { venue, secret } = await venueWithKey(t);
    const r = await receiver();
    let calls = 0;
    r.respond((_req, res) => (++calls === 1 ? res.writeHead(503, { 'retry-after': '2' }).end() : res.writeHead(200).end()));
    await endpoint(client(t, secret), r.url);
    await raiseEvent(t, venue, 'order.created');
    worker();
    await vi.waitFor(() => expect(r.requests).toHaveLength(2), { timeout: 6000 });
    expect(r.requests[1]!.at - r.requests[0]!.at).toBeGreaterThanOrEqual(1995);
  });
});

describe('auto-disable', () => {
  it('a receiver down past the threshold disables the endpoint with a reason; re-enabling delivers what was pending', async () => {
    const app = await startTestApp({
      config: { webhookAllowPrivateUrls: true, webhooks: fastDelivery({ retryScheduleMs: [50, 50, 50, 50, 50], disableAfterFailures: 3 }) },
    });
    cleanups.push(() => app.close());
    const { venue, secret } = await venueWithKey(app);
    const api = client(app, secret);
    const r = await receiver();
    r.respond((_req, res) => res.writeHead(503).end());
    const ep = await endpoint(api, r.url);
    const event = await raiseEvent(app, venue, 'order.created');
    const w = worker(app);
    await vi.waitFor(async () => expect((await api.get(`/api/v1/webhook_endpoints/${ep.id}`)).body.status).toBe('disabled'), {
      timeout: 5000,
    });
    const disabled = (await api.get(`/api/v1/webhook_endpoints/${ep.id}`)).body;
    expect(disabled.disabled_reason).toMatch(/^Failing since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: 3 consecutive failed deliveries/);
    await w.worker.deliverDue();
    expect(r.requests).toHaveLength(3); // nothing more goes to a disabled endpoint

    r.respond((_req, res) => res.writeHead(200).end());
    const enabled = await api.patch(`/api/v1/webhook_endpoints/${ep.id}`, { enabled: true });
    expect(enabled.body).toMatchObject({ status: 'enabled', disabled_reason: null });
    await vi.waitFor(() => expect(r.requests).toHaveLength(4), { timeout: 5000 });
    expect(JSON.parse(r.requests[3]!.body).id).toBe(event.id);
  });

  it('a schedule of ten or more delays retries every one of them (attempt numbers compared as numbers)', async () => {
    const app = await startTestApp({
      config: { webhookAllowPrivateUrls: true, webhooks: fastDelivery({ retryScheduleMs: Array(10).fill(20), disableAfterFailures: 100 }) },
    });
    cleanups.push(() => app.close());
    const { venue, secret } = await venueWithKey(app);
    const r = await receiver();
    r.respond((_req, res) => res.writeHead(503).end());
    await endpoint(client(app, secret), r.url);
    await raiseEvent(app, venue, 'order.created');
    worker(app);
    // The first attempt and its ten retries; '2' > '10' as text once gave up at the second.
    await vi.waitFor(() => expect(r.requests).toHaveLength(11), { timeout: 10_000 });
  });

  it('a 410 Gone disables the endpoint at once', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    const r = await receiver();
    r.respond((_req, res) => res.writeHead(410).end());
    const ep = await endpoint(api, r.url);
    await raiseEvent(t, venue, 'order.created');
    worker();
    await vi.waitFor(async () => expect((await api.get(`/api/v1/webhook_endpoints/${ep.id}`)).body.status).toBe('disabled'));
    expect((await api.get(`/api/v1/webhook_endpoints/${ep.id}`)).body.disabled_reason).toMatch(/410 Gone/);
    expect(r.requests).toHaveLength(1);
  });
});

describe('POST /v1/webhook_endpoints/{id}/test', () => {
  it('sends a signed test.ping now and reports delivered', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    const r = await receiver();
    const ep = await endpoint(api, r.url, ['order.created']);
    const res = await api.post(`/api/v1/webhook_endpoints/${ep.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'webhook_test', delivered: true, status_code: 200, error: null });
    expect(r.requests).toHaveLength(1);
    const ping = new Webhook(ep.secret).verify(r.requests[0]!.body, r.requests[0]!.headers as Record<string, string>) as {
      type: string;
      id: string;
      request: { id: string };
      data: { object: { id: string } };
    };
    expect(ping.type).toBe('test.ping');
    expect(ping.data.object.id).toBe(ep.id);
    expect(ping.request.id).toBe(res.headers['x-request-id']);
    expect((await api.get(`/api/v1/events/${ping.id}`)).body.type).toBe('test.ping');
  });

  it('reports a closed port as delivered: false, status_code 0 and a sentence; never retried', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    const r = await receiver();
    const ep = await endpoint(api, r.url);
    await r.close();
    const res = await api.post(`/api/v1/webhook_endpoints/${ep.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'webhook_test', delivered: false, status_code: 0 });
    expect(res.body.error).toMatch(/^Could not connect: ECONNREFUSED\.$/);
    const w = worker();
    expect(await w.worker.deliverDue()).toBe(0);
    const log = (await api.get(`/api/v1/webhook_endpoints/${ep.id}/deliveries`)).body.data;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ attempt: 1, status_code: 0, next_attempt_at: null });
  });

  it('reports the status of a receiver that answers an error', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    const r = await receiver();
    r.respond((_req, res) => res.writeHead(401).end('bad signature'));
    const ep = await endpoint(api, r.url);
    const res = await api.post(`/api/v1/webhook_endpoints/${ep.id}/test`);
    expect(res.body).toEqual({ object: 'webhook_test', delivered: false, status_code: 401, error: 'HTTP 401: bad signature' });
  });
});

describe('events API', () => {
  it('lists the venue’s events newest first, filters by type, and shows one as delivered', async () => {
    const { venue, secret } = await venueWithKey(t);
    const { venue: other } = await venueWithKey(t);
    const api = client(t, secret);
    const a = await raiseEvent(t, venue, 'order.created');
    const b = await raiseEvent(t, venue, 'balance.adjusted');
    const foreign = await raiseEvent(t, other, 'order.created');
    const list = await api.get('/api/v1/events');
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([b.id, a.id]);
    expect((await api.get('/api/v1/events?type=order.created')).body.data.map((e: { id: string }) => e.id)).toEqual([a.id]);
    expect((await api.get(`/api/v1/events/${a.id}`)).body).toEqual(a);
    expectError(await api.get(`/api/v1/events/${foreign.id}`), 404, 'event_not_found');
  });
});
