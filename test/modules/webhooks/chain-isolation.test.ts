// Webhooks and the catalogue across chains (D21): an event reaches the endpoints of the venue where it happened (all of
// its chain's for an event of no venue) and names that venue; another chain's key finds neither the event nor the
// endpoint; categories are the chain's, shared by its venues and invisible to other chains.
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Venue } from '../../../src/modules/accounts/service.js';
import { recordEvent } from '../../../src/modules/webhooks/events.js';
import { useTestApp } from '../../support/app.js';
import { createChainKey, createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';
import { startReceiver, type Receiver } from '../../support/receiver.js';
import { fastDelivery, startWorker } from '../../support/webhooks.js';

const t = useTestApp({ config: { webhookAllowPrivateUrls: true, webhooks: fastDelivery() } });
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const dinner = (price: number) => [{ name: 'Dinner', quantity: 1, unit_price: price }];

/** Chain 1 with venues A and B (one program, the chain's), chain 2 with venue C; a full key at each venue. */
async function twoChains() {
  const a = await createVenue(t);
  const b = await createVenue(t, { chainId: a.chainId });
  const c = await createVenue(t);
  await createProgram(t, a);
  const at = async (venue: Venue) => ({ venue, api: client(t, (await createKey(t, venue)).secret) });
  return { a: await at(a), b: await at(b), c: await at(c) };
}

/** A receiver and an endpoint to it, registered with the venue's key. */
async function listening(api: ReturnType<typeof client>): Promise<{ receiver: Receiver; id: string; secret: string }> {
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const res = await api.post('/api/v1/webhook_endpoints', { url: receiver.url });
  expect(res.status).toBe(201);
  return { receiver, id: res.body.id, secret: res.body.secret };
}

const endpointsOf = async (eventId: string) =>
  (await t.db.selectFrom('webhook_deliveries').select('endpoint_id').where('event_id', '=', eventId).execute()).map((d) => d.endpoint_id);

describe('webhooks in a chain', () => {
  it("an event at A reaches A's endpoint only and names A, in the API and in the payload; B's event reaches B's", async () => {
    const { a, b, c } = await twoChains();
    const [hookA, hookB, hookC] = [await listening(a.api), await listening(b.api), await listening(c.api)];
    const card = newCardNumber();
    expect((await a.api.post('/api/v1/members', { card_number: card, consent: true })).status).toBe(201);
    expect((await a.api.post('/api/v1/checks', { external_id: 'A-1', card_number: card, line_items: dinner(4_000) })).status).toBe(201);

    const worker = startWorker(t);
    cleanups.push(() => worker.close());
    await vi.waitFor(() => expect(hookA.receiver.requests).toHaveLength(1), { timeout: 5000 });
    const [sent] = hookA.receiver.requests;
    const delivered = new Webhook(hookA.secret).verify(sent!.body, sent!.headers as Record<string, string>) as { id: string };
    expect(delivered).toMatchObject({ type: 'transaction.completed', venue_id: a.venue.id });
    expect(await endpointsOf(delivered.id)).toEqual([hookA.id]);
    const event = await a.api.get(`/api/v1/events/${delivered.id}`);
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject({ id: delivered.id, type: 'transaction.completed', venue_id: a.venue.id });

    // The member is the chain's: a check at B is B's event, for B's endpoint.
    expect((await b.api.post('/api/v1/checks', { external_id: 'B-1', card_number: card, line_items: dinner(2_000) })).status).toBe(201);
    await vi.waitFor(() => expect(hookB.receiver.requests).toHaveLength(1), { timeout: 5000 });
    const atB = JSON.parse(hookB.receiver.requests[0]!.body) as { id: string; venue_id: string };
    expect(atB.venue_id).toBe(b.venue.id);
    expect(await endpointsOf(atB.id)).toEqual([hookB.id]);
    expect(hookA.receiver.requests).toHaveLength(1);
    expect(hookC.receiver.requests).toHaveLength(0);

    // Events and endpoints are the venue's: B lists its own event only and does not find A's.
    expect((await b.api.get('/api/v1/events')).body.data.map((e: { id: string }) => e.id)).toEqual([atB.id]);
    expectError(await b.api.get(`/api/v1/events/${delivered.id}`), 404, 'event_not_found');
    expectError(await b.api.get(`/api/v1/webhook_endpoints/${hookA.id}`), 404, 'webhook_endpoint_not_found');
  });

  it("another chain's key finds neither A's event nor A's endpoint, as if they did not exist", async () => {
    const { a, c } = await twoChains();
    const hookA = await listening(a.api);
    const card = newCardNumber();
    await a.api.post('/api/v1/members', { card_number: card, consent: true });
    expect((await a.api.post('/api/v1/checks', { external_id: 'A-1', card_number: card, line_items: dinner(1_000) })).status).toBe(201);
    const [event] = (await a.api.get('/api/v1/events')).body.data as { id: string; venue_id: string }[];
    expect(event!.venue_id).toBe(a.venue.id);

    expectError(await c.api.get(`/api/v1/events/${event!.id}`), 404, 'event_not_found');
    expect((await c.api.get('/api/v1/events')).body.data).toEqual([]);
    expectError(await c.api.get(`/api/v1/webhook_endpoints/${hookA.id}`), 404, 'webhook_endpoint_not_found');
    expectError(await c.api.get(`/api/v1/webhook_endpoints/${hookA.id}/deliveries`), 404, 'webhook_endpoint_not_found');
    expectError(await c.api.patch(`/api/v1/webhook_endpoints/${hookA.id}`, { enabled: false }), 404, 'webhook_endpoint_not_found');
    expectError(await c.api.delete(`/api/v1/webhook_endpoints/${hookA.id}`), 404, 'webhook_endpoint_not_found');
    expect((await c.api.get('/api/v1/webhook_endpoints')).body.data).toEqual([]);
    expect((await a.api.get(`/api/v1/webhook_endpoints/${hookA.id}`)).body).toMatchObject({ id: hookA.id, status: 'enabled' });
  });

  it("an event of no venue reaches the chain's endpoints and its member's home venue's, and each venue's key reads it", async () => {
    const { a, b, c } = await twoChains();
    const chainKey = client(t, (await createChainKey(t, a.venue.chainId)).secret);
    const [hookA, hookB, hookC, hookChain] = [await listening(a.api), await listening(b.api), await listening(c.api), await listening(chainKey)];
    const event = await t.db.transaction().execute((trx) =>
      recordEvent(trx, { chainId: a.venue.chainId, venueId: null, homeVenueId: b.venue.id, type: 'balance.adjusted', livemode: false, object: { object: 'test' }, request: null }),
    );
    expect(event.venue_id).toBeNull();
    expect((await endpointsOf(event.id)).sort()).toEqual([hookB.id, hookChain.id].sort());

    const worker = startWorker(t);
    cleanups.push(() => worker.close());
    for (const hook of [hookB, hookChain]) await vi.waitFor(() => expect(hook.receiver.requests).toHaveLength(1), { timeout: 5000 });
    for (const hook of [hookB, hookChain]) expect(JSON.parse(hook.receiver.requests[0]!.body)).toMatchObject({ id: event.id, venue_id: null });
    expect(hookA.receiver.requests).toHaveLength(0);
    expect(hookC.receiver.requests).toHaveLength(0);
    for (const { api } of [a, b]) expect((await api.get(`/api/v1/events/${event.id}`)).body).toMatchObject({ id: event.id, venue_id: null });
    expectError(await c.api.get(`/api/v1/events/${event.id}`), 404, 'event_not_found');
  });

  it("a chain endpoint hears every venue's events; an event at A does not reach B's endpoint", async () => {
    const { a, b } = await twoChains();
    const chainKey = client(t, (await createChainKey(t, a.venue.chainId)).secret);
    const [hookA, hookB, hookChain] = [await listening(a.api), await listening(b.api), await listening(chainKey)];
    expect((await chainKey.get(`/api/v1/webhook_endpoints/${hookChain.id}`)).body.venue_id).toBeNull();
    const atA = await t.db.transaction().execute((trx) =>
      recordEvent(trx, { chainId: a.venue.chainId, venueId: a.venue.id, type: 'order.created', livemode: false, object: { object: 'test' }, request: null }),
    );
    expect((await endpointsOf(atA.id)).sort()).toEqual([hookA.id, hookChain.id].sort());
    expect(await endpointsOf(atA.id)).not.toContain(hookB.id);
    // A chain key lists every venue's endpoints and its own; a venue key its venue's only.
    expect(((await chainKey.get('/api/v1/webhook_endpoints')).body.data as { id: string }[]).map((e) => e.id).sort()).toEqual([hookA.id, hookB.id, hookChain.id].sort());
    expect(((await a.api.get('/api/v1/webhook_endpoints')).body.data as { id: string }[]).map((e) => e.id)).toEqual([hookA.id]);
  });
});

describe('the catalogue in a chain', () => {
  it("categories made with A's key are the chain's: B's key sees and renames the same one, another chain sees none", async () => {
    const { a, b, c } = await twoChains();
    const categories = async (api: ReturnType<typeof client>) =>
      ((await api.get('/api/v1/catalog/categories')).body.data as { external_id: string; name: string }[]).map((x) => `${x.external_id}:${x.name}`);
    expect((await a.api.put('/api/v1/catalog/categories/drinks', { name: 'Drinks' })).status).toBe(201);
    expect(await categories(b.api)).toEqual(['drinks:Drinks']);
    expect(await categories(c.api)).toEqual([]);

    // One category, not a copy per venue: B's rename is what A sees.
    expect((await b.api.put('/api/v1/catalog/categories/drinks', { name: 'Beverages' })).status).toBe(200);
    expect(await categories(a.api)).toEqual(['drinks:Beverages']);

    // Another chain's category of the same name is its own and leaves chain 1's alone.
    expect((await c.api.put('/api/v1/catalog/categories/drinks', { name: 'Boissons' })).status).toBe(201);
    expect(await categories(c.api)).toEqual(['drinks:Boissons']);
    expect(await categories(b.api)).toEqual(['drinks:Beverages']);
  });
});
