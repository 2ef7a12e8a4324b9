// A valid request for every keyed route, so the generated auth tests can call it; a new route adds its entry here.
// Every setup call a fixture makes is checked (a fixture that could not create its object throws with the answer it
// got), and every request is valid for a fresh call: ids, SKUs and external_ids are new each time.
import { randomBytes } from 'node:crypto';
import type { VenueSettings } from '../../src/modules/accounts/schemas.js';
import type { Venue } from '../../src/modules/accounts/service.js';
import { addEntry } from '../../src/integrations/core/queue.js';
import { findIntegrationById } from '../../src/integrations/core/repo.js';
import type { TestApp } from './app.js';
import { createProgram, createTable, newCardNumber, seedLedger } from './factories.js';
import { client, type Response } from './http.js';

export interface FixtureContext {
  t: TestApp;
  /** A full-access key of the venue that owns the objects the request names. */
  ownerKey: string;
  ownerVenue: Venue;
}

/**
 * The domain answer an allowed key gets instead of a 2xx, when a venue rule refuses the request on purpose
 * (e.g. 403 adjustments_disabled). Each one is written in the fixture of its route, with the reason.
 */
export interface ExpectedRefusal {
  status: number;
  code: string;
  because: string;
}

export interface RouteRequest {
  url: string;
  body?: unknown;
  /** Where the owner reads back what an upsert route's url names, when that url has no GET. */
  readUrl?: string;
  /** A list route: the `id` of an object the fixture created in the owner's venue, which the owner's list shows. */
  listed?: string;
  /** The field of a list item that `listed` names, where the items have no `id` (a report's rows: `venue_id`). */
  listedBy?: string;
  /** Set only where an allowed key is refused by a venue rule on purpose; otherwise an allowed key must get 2xx. */
  refusal?: ExpectedRefusal;
}

export type RouteFixture = (ctx: FixtureContext) => Promise<RouteRequest>;

/**
 * Routes whose path names the caller's own key (a SKU): another venue's key does not get 404 but creates its
 * own object, and the owner's stays as it was.
 */
export const UPSERT_ROUTES = new Set([
  'PUT /v1/menu/items/:external_id',
  'PUT /v1/catalog/products/:sku',
  'PUT /v1/catalog/categories/:external_id',
]);

/**
 * Venue settings the owner's venue is created with for a route, where the default rules would refuse its request: the
 * route is tested as it works, and the refusal under the default rule has its own test.
 */
export const OWNER_VENUE_SETTINGS: Record<string, Partial<VenueSettings>> = {
  // Off by default (403 adjustments_disabled, test/modules/members/adjustments.test.ts).
  'POST /v1/members/:id/adjustments': { manual_adjustments_allowed: true },
};

/**
 * Routes without an id in the path whose body or query string names an object of the owner's venue (a member, a
 * card): another venue's key gets the same 404 as for an id that does not exist.
 */
export const NAMES_OWNER_OBJECT = new Set(['GET /v1/members/lookup', 'POST /v1/holds', 'POST /v1/visits', 'POST /v1/scans']);

/** GET routes without an id in the path that answer one object, not a list; every other one is a list route. */
export const NOT_LIST_ROUTES = new Set(['GET /v1/account', 'GET /v1/members/lookup']);

/** A fresh id for skus, external_ids and host names. */
const unique = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

/** The answer of a fixture's setup call, which must be a 2xx: a fixture that did not create its object fails loudly. */
export function ok(res: Response, what: string): Response {
  if (res.status < 200 || res.status > 299) {
    throw new Error(`route fixture: ${what} → ${res.status} ${typeof res.body === 'string' ? res.body : JSON.stringify(res.body)}`);
  }
  return res;
}

const hook = () => ({ url: `https://hooks.example.com/${unique('fixture')}` });

async function webhookEndpoint({ t, ownerKey }: FixtureContext): Promise<{ id: string; url: string }> {
  const res = ok(await client(t, ownerKey).post('/api/v1/webhook_endpoints', hook()), 'create a webhook endpoint');
  return { id: res.body.id, url: `/api/v1/webhook_endpoints/${res.body.id}` };
}

/** An endpoint that passed registration as public and now resolves to loopback: a test ping is refused at once. */
async function unreachableEndpointUrl({ t, ownerKey }: FixtureContext): Promise<string> {
  const host = `${unique('fixture-ping')}.example.com`;
  t.dns.set(host, ['93.184.216.34']);
  const res = ok(await client(t, ownerKey).post('/api/v1/webhook_endpoints', { url: `https://${host}/hook` }), 'create a webhook endpoint');
  t.dns.set(host, ['127.0.0.1']);
  return `/api/v1/webhook_endpoints/${res.body.id}`;
}

async function eventId(ctx: FixtureContext): Promise<string> {
  const { t, ownerKey } = ctx;
  ok(await client(t, ownerKey).post(`${await unreachableEndpointUrl(ctx)}/test`), 'send a test event');
  const events = ok(await client(t, ownerKey).get('/api/v1/events?limit=1'), 'list events');
  if (!events.body.data?.[0]) throw new Error(`route fixture: the test event is not listed: ${JSON.stringify(events.body)}`);
  return events.body.data[0].id;
}

/** A stamps member with a reward earned, so every member route has something to act on. */
async function member({ t, ownerKey, ownerVenue }: FixtureContext): Promise<{ id: string; url: string; cardNumber: string; serial: string }> {
  const program = await createProgram(t, ownerVenue, 'stamps');
  const cardNumber = newCardNumber();
  const res = ok(await client(t, ownerKey).post('/api/v1/members', { card_number: cardNumber, consent: true, program_id: program.id }), 'create a member');
  await seedLedger(t, ownerVenue, { memberId: res.body.id, kind: 'import', stamps: 5 });
  return { id: res.body.id, url: `/api/v1/members/${res.body.id}`, cardNumber, serial: res.body.serial };
}

async function dish({ t, ownerKey }: FixtureContext): Promise<{ id: string; url: string }> {
  const url = `/api/v1/menu/items/${unique('sku')}`;
  const res = ok(await client(t, ownerKey).put(url, { name: 'Soup', price: 650 }), 'create a dish');
  return { id: res.body.id, url };
}

async function order({ t, ownerKey, ownerVenue }: FixtureContext): Promise<{ id: string; url: string }> {
  const tea = unique('tea');
  ok(await client(t, ownerKey).put(`/api/v1/menu/items/${tea}`, { name: 'Tea', price: 300 }), 'create a dish');
  const table = await createTable(t, ownerVenue);
  const res = ok(
    await client(t, null).post(`/api/public/v1/menus/${ownerVenue.slug}/orders`, {
      table_code: table.tableCode,
      items: [{ external_id: tea, quantity: 1 }],
    }),
    'place a guest order',
  );
  return { id: res.body.id, url: `/api/v1/orders/${res.body.id}` };
}

async function product({ t, ownerKey }: FixtureContext): Promise<{ id: string; url: string }> {
  const url = `/api/v1/catalog/products/${unique('p')}`;
  const res = ok(await client(t, ownerKey).put(url, { name: 'Flat white', category: unique('coffee'), price: 350 }), 'create a product');
  return { id: res.body.id, url };
}

async function category({ t, ownerKey }: FixtureContext): Promise<{ id: string; url: string }> {
  const url = `/api/v1/catalog/categories/${unique('coffee')}`;
  const res = ok(await client(t, ownerKey).put(url, { name: 'Coffee' }), 'create a category');
  return { id: res.body.id, url };
}

/** A welcome campaign of the owner's venue. */
async function campaign({ t, ownerKey }: FixtureContext): Promise<{ id: string; url: string }> {
  const res = ok(await client(t, ownerKey).post('/api/v1/campaigns', { name: 'Welcome', type: 'welcome', amount: 200 }), 'create a campaign');
  return { id: res.body.id, url: `/api/v1/campaigns/${res.body.id}` };
}

/** A Square connection made by the owner's venue key. */
async function integration({ t, ownerKey }: FixtureContext): Promise<{ id: string; url: string }> {
  const settings = { access_token: `EAAA-${unique('token')}`, webhook_signature_key: unique('sig') };
  const res = ok(await client(t, ownerKey).post('/api/v1/integrations', { provider: 'square', settings }), 'connect Square');
  return { id: res.body.id, url: `/api/v1/integrations/${res.body.id}` };
}

/** An entry of a new connection's log that "try again" can queue: a payment that found no guest. */
async function integrationLogEntry(ctx: FixtureContext): Promise<{ id: string; url: string }> {
  const { id, url } = await integration(ctx);
  const row = await findIntegrationById(ctx.t.db, id);
  const payment = { id: unique('pay'), status: 'COMPLETED', amount_money: { amount: 500, currency: 'EUR' }, location_id: 'L1', created_at: ctx.t.clock.now().toISOString() };
  const entry = await addEntry(
    ctx.t.db,
    row!,
    { kind: 'square.payment', providerIds: { payment_id: payment.id }, dedupKey: null, subject: null, payload: { payment }, queued: false, outcome: 'unmatched_guest', message: 'No member matches.' },
    ctx.t.clock.now(),
  );
  return { id: entry!.id, url: `${url}/log/${entry!.id}` };
}

/** An applied check of 650 without a member. */
async function transaction({ t, ownerKey }: FixtureContext): Promise<{ id: string; url: string }> {
  const externalId = unique('chk');
  const res = ok(
    await client(t, ownerKey).post('/api/v1/checks', { external_id: externalId, line_items: [{ name: 'Soup', quantity: 1, unit_price: 650 }] }),
    'apply a check',
  );
  return { id: res.body.id, url: `/api/v1/transactions/${externalId}` };
}

/** A cashback member with a balance of 1000. */
async function cashbackMember({ t, ownerKey, ownerVenue }: FixtureContext): Promise<{ id: string; url: string }> {
  const program = await createProgram(t, ownerVenue, 'cashback');
  const res = ok(await client(t, ownerKey).post('/api/v1/members', { card_number: newCardNumber(), consent: true, program_id: program.id }), 'create a member');
  await seedLedger(t, ownerVenue, { memberId: res.body.id, kind: 'import', cashback: 1000 });
  return { id: res.body.id, url: `/api/v1/members/${res.body.id}` };
}

/** A cashback member with a balance, and a hold of part of it. */
async function hold(ctx: FixtureContext): Promise<{ url: string; memberId: string }> {
  const member = await cashbackMember(ctx);
  const hold = ok(await client(ctx.t, ctx.ownerKey).post('/api/v1/holds', { member_id: member.id, amount: 100 }), 'place a hold');
  return { url: `/api/v1/holds/${hold.body.id}`, memberId: member.id };
}

/**
 * The liability report of the day around now: it has a row for every venue of the caller's chain (zeros included),
 * so the owner's venue is listed, and no venue of another chain.
 */
async function venueLiability(ctx: FixtureContext): Promise<RouteRequest> {
  const now = ctx.t.clock.now().getTime();
  const [from, to] = [now - 12 * 3600_000, now + 12 * 3600_000].map((ms) => encodeURIComponent(new Date(ms).toISOString()));
  return { url: `/api/v1/reports/venue_liability?from=${from}&to=${to}`, listed: ctx.ownerVenue.id, listedBy: 'venue_id' };
}

/** An entry of the owner's chain's audit log: a campaign's creation. */
async function auditEntry(ctx: FixtureContext): Promise<string> {
  const { id } = await campaign(ctx);
  const [entry] = ok(await client(ctx.t, ctx.ownerKey).get(`/api/v1/audit_events?target_id=${id}`), 'read the audit log').body.data;
  if (!entry) throw new Error('route fixture: the campaign left no audit entry');
  return entry.id;
}

async function withProgram(ctx: FixtureContext) {
  await createProgram(ctx.t, ctx.ownerVenue);
}

/** A members file as an upload (sent with its own Content-Type), with one new member. */
const membersFile = () => new Blob([`card_number,consent_date\n${newCardNumber()},2024-05-01\n`], { type: 'text/csv' });

async function memberImport(ctx: FixtureContext): Promise<{ url: string }> {
  await withProgram(ctx);
  const res = ok(await client(ctx.t, ctx.ownerKey).post('/api/v1/members/imports', membersFile()), 'upload a member import');
  return { url: `/api/v1/members/imports/${res.body.id}` };
}

export const ROUTE_FIXTURES: Record<string, RouteFixture> = {
  'GET /v1/account': async () => ({ url: '/api/v1/account' }),
  'POST /v1/webhook_endpoints': async () => ({ url: '/api/v1/webhook_endpoints', body: hook() }),
  'GET /v1/webhook_endpoints': async (ctx) => ({ url: '/api/v1/webhook_endpoints', listed: (await webhookEndpoint(ctx)).id }),
  'GET /v1/webhook_endpoints/:id': async (ctx) => ({ url: (await webhookEndpoint(ctx)).url }),
  'PATCH /v1/webhook_endpoints/:id': async (ctx) => ({ url: (await webhookEndpoint(ctx)).url, body: { description: 'x' } }),
  'DELETE /v1/webhook_endpoints/:id': async (ctx) => ({ url: (await webhookEndpoint(ctx)).url }),
  'POST /v1/webhook_endpoints/:id/test': async (ctx) => ({ url: `${await unreachableEndpointUrl(ctx)}/test` }),
  'GET /v1/webhook_endpoints/:id/deliveries': async (ctx) => ({ url: `${(await webhookEndpoint(ctx)).url}/deliveries` }),
  'GET /v1/events': async (ctx) => ({ url: '/api/v1/events', listed: await eventId(ctx) }),
  'GET /v1/events/:id': async (ctx) => ({ url: `/api/v1/events/${await eventId(ctx)}` }),
  'POST /v1/members': async (ctx) => {
    await withProgram(ctx);
    return { url: '/api/v1/members', body: { card_number: newCardNumber(), consent: true } };
  },
  'GET /v1/members': async (ctx) => ({ url: '/api/v1/members', listed: (await member(ctx)).id }),
  'GET /v1/members/lookup': async (ctx) => ({ url: `/api/v1/members/lookup?card_number=${(await member(ctx)).cardNumber}` }),
  'GET /v1/members/:id': async (ctx) => ({ url: (await member(ctx)).url }),
  'PATCH /v1/members/:id': async (ctx) => ({ url: (await member(ctx)).url, body: { name: 'Anna K' } }),
  'POST /v1/members/:id/cards': async (ctx) => ({ url: `${(await member(ctx)).url}/cards`, body: { card_number: newCardNumber() } }),
  'GET /v1/members/:id/history': async (ctx) => ({ url: `${(await member(ctx)).url}/history` }),
  'GET /v1/members/:id/activity': async (ctx) => ({ url: `${(await member(ctx)).url}/activity` }),
  'GET /v1/members/:id/barcode.svg': async (ctx) => ({ url: `${(await member(ctx)).url}/barcode.svg` }),
  'GET /v1/members/:id/pass.pkpass': async (ctx) => ({
    url: `${(await member(ctx)).url}/pass.pkpass`,
    refusal: { status: 409, code: 'wallet_not_configured', because: 'this test app has no wallet settings; the key and the member passed first' },
  }),
  'POST /v1/members/:id/pass/revoke': async (ctx) => ({ url: `${(await member(ctx)).url}/pass/revoke` }),
  'GET /v1/members/:id/wallet/google': async (ctx) => ({
    url: `${(await member(ctx)).url}/wallet/google`,
    refusal: { status: 409, code: 'wallet_not_configured', because: 'this test app has no wallet settings; the key and the member passed first' },
  }),
  'GET /v1/members/:id/card_link': async (ctx) => ({ url: `${(await member(ctx)).url}/card_link` }),
  'POST /v1/members/:id/card_link': async (ctx) => ({ url: `${(await member(ctx)).url}/card_link` }),
  'POST /v1/members/imports': async (ctx) => {
    await withProgram(ctx);
    return { url: '/api/v1/members/imports', body: membersFile() };
  },
  'GET /v1/members/imports/:id': async (ctx) => ({ url: (await memberImport(ctx)).url }),
  'GET /v1/members/:id/export': async (ctx) => ({ url: `${(await member(ctx)).url}/export` }),
  'POST /v1/members/:id/erase': async (ctx) => ({ url: `${(await member(ctx)).url}/erase` }),
  // A cashback member (a stamps member has no balance to adjust) in a venue that allows adjustments (OWNER_VENUE_SETTINGS).
  'POST /v1/members/:id/adjustments': async (ctx) => ({ url: `${(await cashbackMember(ctx)).url}/adjustments`, body: { amount: 100, reason: 'test' } }),
  'POST /v1/members/:id/rewards/redeem': async (ctx) => ({ url: `${(await member(ctx)).url}/rewards/redeem` }),
  'GET /v1/menu/items': async (ctx) => ({ url: '/api/v1/menu/items', listed: (await dish(ctx)).id }),
  'GET /v1/menu/items/:external_id': async (ctx) => ({ url: (await dish(ctx)).url }),
  'PUT /v1/menu/items/:external_id': async (ctx) => ({ url: (await dish(ctx)).url, body: { name: 'Bread', price: 200 } }),
  'PATCH /v1/menu/items/:external_id': async (ctx) => ({ url: (await dish(ctx)).url, body: { available: false } }),
  'DELETE /v1/menu/items/:external_id': async (ctx) => ({ url: (await dish(ctx)).url }),
  'POST /v1/menu/items/bulk': async () => ({ url: '/api/v1/menu/items/bulk', body: { items: [{ external_id: unique('b'), name: 'Bun', price: 150 }] } }),
  'GET /v1/orders': async (ctx) => ({ url: '/api/v1/orders', listed: (await order(ctx)).id }),
  'GET /v1/orders/:id': async (ctx) => ({ url: (await order(ctx)).url }),
  'POST /v1/orders/:id/status': async (ctx) => ({ url: `${(await order(ctx)).url}/status`, body: { status: 'accepted' } }),
  'GET /v1/catalog/products': async (ctx) => ({ url: '/api/v1/catalog/products', listed: (await product(ctx)).id }),
  'GET /v1/catalog/products/:sku': async (ctx) => ({ url: (await product(ctx)).url }),
  'PUT /v1/catalog/products/:sku': async (ctx) => ({ url: (await product(ctx)).url, body: { name: 'Espresso', price: 250 } }),
  'DELETE /v1/catalog/products/:sku': async (ctx) => ({ url: (await product(ctx)).url }),
  'POST /v1/catalog/products/bulk': async () => ({ url: '/api/v1/catalog/products/bulk', body: { items: [{ sku: unique('b'), name: 'Bun' }] } }),
  'GET /v1/catalog/categories': async (ctx) => ({ url: '/api/v1/catalog/categories', listed: (await category(ctx)).id }),
  'PUT /v1/catalog/categories/:external_id': async (ctx) => {
    const { url } = await category(ctx);
    return { url, body: { name: 'Hot drinks' }, readUrl: '/api/v1/catalog/categories' };
  },
  'POST /v1/integrations': async () => ({ url: '/api/v1/integrations', body: { provider: 'square', settings: { access_token: `EAAA-${unique('token')}`, webhook_signature_key: unique('sig') } } }),
  'GET /v1/integrations': async (ctx) => ({ url: '/api/v1/integrations', listed: (await integration(ctx)).id }),
  'GET /v1/integrations/:id': async (ctx) => ({ url: (await integration(ctx)).url }),
  'PATCH /v1/integrations/:id': async (ctx) => ({ url: (await integration(ctx)).url, body: { name: 'Front till' } }),
  'DELETE /v1/integrations/:id': async (ctx) => ({ url: (await integration(ctx)).url }),
  'GET /v1/integrations/:id/log': async (ctx) => ({ url: `${(await integration(ctx)).url}/log` }),
  'POST /v1/integrations/:id/log/:entry_id/retry': async (ctx) => ({ url: `${(await integrationLogEntry(ctx)).url}/retry` }),
  'POST /v1/campaigns': async () => ({ url: '/api/v1/campaigns', body: { name: 'Happy hour', type: 'bonus', percent: 5 } }),
  'GET /v1/campaigns': async (ctx) => ({ url: '/api/v1/campaigns', listed: (await campaign(ctx)).id }),
  'GET /v1/campaigns/:id': async (ctx) => ({ url: (await campaign(ctx)).url }),
  'GET /v1/campaigns/:id/results': async (ctx) => ({ url: `${(await campaign(ctx)).url}/results` }),
  'PATCH /v1/campaigns/:id': async (ctx) => ({ url: (await campaign(ctx)).url, body: { status: 'paused' } }),
  // A calculation writes nothing: the external_id is sent (valid whether the field is required or optional) and new.
  'POST /v1/checks/calculate': async () => ({
    url: '/api/v1/checks/calculate',
    body: { external_id: unique('calc'), line_items: [{ name: 'Coffee', quantity: 1, unit_price: 300 }] },
  }),
  'POST /v1/checks': async () => ({ url: '/api/v1/checks', body: { external_id: unique('chk'), line_items: [{ name: 'Tea', quantity: 1, unit_price: 300 }] } }),
  'GET /v1/transactions': async (ctx) => ({ url: '/api/v1/transactions', listed: (await transaction(ctx)).id }),
  'GET /v1/transactions/:external_id': async (ctx) => ({ url: (await transaction(ctx)).url }),
  'POST /v1/transactions/:external_id/void': async (ctx) => ({ url: `${(await transaction(ctx)).url}/void` }),
  // 100 of the 650 check (which has no member): a partial refund, new external_id each call.
  'POST /v1/transactions/:external_id/refunds': async (ctx) => ({
    url: `${(await transaction(ctx)).url}/refunds`,
    body: { external_id: unique('rf'), amount: 100 },
  }),
  'POST /v1/holds': async (ctx) => ({ url: '/api/v1/holds', body: { member_id: (await hold(ctx)).memberId, amount: 50 } }),
  'GET /v1/holds/:id': async (ctx) => ({ url: (await hold(ctx)).url }),
  'POST /v1/holds/:id/release': async (ctx) => ({ url: `${(await hold(ctx)).url}/release` }),
  'POST /v1/holds/:id/capture': async (ctx) => {
    const { url, memberId } = await hold(ctx);
    const externalId = unique('cap');
    ok(
      await client(ctx.t, ctx.ownerKey).post('/api/v1/checks', {
        external_id: externalId,
        member_id: memberId,
        line_items: [{ name: 'Soup', quantity: 1, unit_price: 650 }],
      }),
      "apply the member's check",
    );
    return { url: `${url}/capture`, body: { external_id: externalId } };
  },
  'POST /v1/visits': async (ctx) => ({ url: '/api/v1/visits', body: { member_id: (await member(ctx)).id, external_id: unique('visit') } }),
  'POST /v1/scans': async (ctx) => ({ url: '/api/v1/scans', body: { code: (await member(ctx)).serial } }),
  // A list of rows without ids, one per venue of the chain: named by venue_id (listedBy).
  'GET /v1/reports/venue_liability': venueLiability,
  'GET /v1/audit_events': async (ctx) => ({ url: '/api/v1/audit_events', listed: await auditEntry(ctx) }),
};
