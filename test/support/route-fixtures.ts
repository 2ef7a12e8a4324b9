// A valid request for every keyed route, so the generated auth tests can call it; a new route adds its entry here.
import type { Venue } from '../../src/modules/accounts/service.js';
import type { TestApp } from './app.js';
import { createProgram, createTable, newCardNumber, seedLedger } from './factories.js';
import { client } from './http.js';

export interface FixtureContext {
  t: TestApp;
  /** A full-access key of the venue that owns the objects the request names. */
  ownerKey: string;
  ownerVenue: Venue;
}

export interface RouteRequest {
  url: string;
  body?: unknown;
  /** Where the owner reads back what an upsert route's url names, when that url has no GET. */
  readUrl?: string;
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

const hook = { url: 'https://hooks.example.com/fixture' };

async function webhookEndpointUrl({ t, ownerKey }: FixtureContext): Promise<string> {
  const res = await client(t, ownerKey).post('/api/v1/webhook_endpoints', hook);
  return `/api/v1/webhook_endpoints/${res.body.id}`;
}

/** An endpoint that passed registration as public and now resolves to loopback: a test ping is refused at once. */
async function unreachableEndpointUrl({ t, ownerKey }: FixtureContext): Promise<string> {
  t.dns.set('fixture-ping.example.com', ['93.184.216.34']);
  const res = await client(t, ownerKey).post('/api/v1/webhook_endpoints', { url: 'https://fixture-ping.example.com/hook' });
  t.dns.set('fixture-ping.example.com', ['127.0.0.1']);
  return `/api/v1/webhook_endpoints/${res.body.id}`;
}

async function eventUrl(ctx: FixtureContext): Promise<string> {
  const { t, ownerKey } = ctx;
  const test = await client(t, ownerKey).post(`${await unreachableEndpointUrl(ctx)}/test`);
  const events = await client(t, ownerKey).get('/api/v1/events?limit=1');
  if (test.status !== 200 || !events.body.data?.[0]) throw new Error('fixture could not create an event');
  return `/api/v1/events/${events.body.data[0].id}`;
}

/** A stamps member with a reward earned, so every member route has something to act on. */
async function memberUrl({ t, ownerKey, ownerVenue }: FixtureContext): Promise<string> {
  const program = await createProgram(t, ownerVenue, 'stamps');
  const res = await client(t, ownerKey).post('/api/v1/members', { card_number: newCardNumber(), consent: true, program_id: program.id });
  await seedLedger(t, ownerVenue, { memberId: res.body.id, kind: 'import', stamps: 5 });
  return `/api/v1/members/${res.body.id}`;
}

async function dishUrl({ t, ownerKey }: FixtureContext): Promise<string> {
  const sku = `sku-${Math.random().toString(36).slice(2, 10)}`;
  await client(t, ownerKey).put(`/api/v1/menu/items/${sku}`, { name: 'Soup', price: 650 });
  return `/api/v1/menu/items/${sku}`;
}

async function orderUrl({ t, ownerKey, ownerVenue }: FixtureContext): Promise<string> {
  await client(t, ownerKey).put('/api/v1/menu/items/tea', { name: 'Tea', price: 300 });
  const table = await createTable(t, ownerVenue);
  const res = await client(t, null).post(`/api/public/v1/menus/${ownerVenue.slug}/orders`, {
    table_code: table.tableCode,
    items: [{ external_id: 'tea', quantity: 1 }],
  });
  return `/api/v1/orders/${res.body.id}`;
}

async function productUrl({ t, ownerKey }: FixtureContext): Promise<string> {
  const sku = `p-${Math.random().toString(36).slice(2, 10)}`;
  await client(t, ownerKey).put(`/api/v1/catalog/products/${sku}`, { name: 'Flat white', category: 'coffee', price: 350 });
  return `/api/v1/catalog/products/${sku}`;
}

async function transactionUrl({ t, ownerKey }: FixtureContext): Promise<string> {
  const externalId = `chk-${Math.random().toString(36).slice(2, 10)}`;
  await client(t, ownerKey).post('/api/v1/checks', { external_id: externalId, line_items: [{ name: 'Soup', quantity: 1, unit_price: 650 }] });
  return `/api/v1/transactions/${externalId}`;
}

/** A cashback member with a balance, and a hold of part of it. */
async function holdUrl({ t, ownerKey, ownerVenue }: FixtureContext): Promise<string> {
  await createProgram(t, ownerVenue, 'cashback');
  const member = await client(t, ownerKey).post('/api/v1/members', { card_number: newCardNumber(), consent: true });
  await seedLedger(t, ownerVenue, { memberId: member.body.id, kind: 'import', cashback: 1000 });
  const hold = await client(t, ownerKey).post('/api/v1/holds', { member_id: member.body.id, amount: 100 });
  return `/api/v1/holds/${hold.body.id}`;
}

async function withProgram(ctx: FixtureContext) {
  await createProgram(ctx.t, ctx.ownerVenue);
}

export const ROUTE_FIXTURES: Record<string, RouteFixture> = {
  'GET /v1/account': async () => ({ url: '/api/v1/account' }),
  'POST /v1/webhook_endpoints': async () => ({ url: '/api/v1/webhook_endpoints', body: hook }),
  'GET /v1/webhook_endpoints': async () => ({ url: '/api/v1/webhook_endpoints' }),
  'GET /v1/webhook_endpoints/:id': async (ctx) => ({ url: await webhookEndpointUrl(ctx) }),
  'PATCH /v1/webhook_endpoints/:id': async (ctx) => ({ url: await webhookEndpointUrl(ctx), body: { description: 'x' } }),
  'DELETE /v1/webhook_endpoints/:id': async (ctx) => ({ url: await webhookEndpointUrl(ctx) }),
  'POST /v1/webhook_endpoints/:id/test': async (ctx) => ({ url: `${await unreachableEndpointUrl(ctx)}/test` }),
  'GET /v1/webhook_endpoints/:id/deliveries': async (ctx) => ({ url: `${await webhookEndpointUrl(ctx)}/deliveries` }),
  'GET /v1/events': async () => ({ url: '/api/v1/events' }),
  'GET /v1/events/:id': async (ctx) => ({ url: await eventUrl(ctx) }),
  'POST /v1/members': async (ctx) => {
    await withProgram(ctx);
    return { url: '/api/v1/members', body: { card_number: newCardNumber(), consent: true } };
  },
  'GET /v1/members': async () => ({ url: '/api/v1/members' }),
  'GET /v1/members/lookup': async (ctx) => {
    const member = await client(ctx.t, ctx.ownerKey).get(await memberUrl(ctx));
    return { url: `/api/v1/members/lookup?card_number=${member.body.card_numbers[0]}` };
  },
  'GET /v1/members/:id': async (ctx) => ({ url: await memberUrl(ctx) }),
  'PATCH /v1/members/:id': async (ctx) => ({ url: await memberUrl(ctx), body: { name: 'Anna K' } }),
  'POST /v1/members/:id/cards': async (ctx) => ({ url: `${await memberUrl(ctx)}/cards`, body: { card_number: newCardNumber() } }),
  'GET /v1/members/:id/history': async (ctx) => ({ url: `${await memberUrl(ctx)}/history` }),
  'GET /v1/members/:id/barcode.svg': async (ctx) => ({ url: `${await memberUrl(ctx)}/barcode.svg` }),
  'POST /v1/members/:id/adjustments': async (ctx) => ({ url: `${await memberUrl(ctx)}/adjustments`, body: { amount: 100, reason: 'test' } }),
  'POST /v1/members/:id/rewards/redeem': async (ctx) => ({ url: `${await memberUrl(ctx)}/rewards/redeem` }),
  'GET /v1/menu/items': async () => ({ url: '/api/v1/menu/items' }),
  'GET /v1/menu/items/:external_id': async (ctx) => ({ url: await dishUrl(ctx) }),
  'PUT /v1/menu/items/:external_id': async (ctx) => ({ url: await dishUrl(ctx), body: { name: 'Bread', price: 200 } }),
  'PATCH /v1/menu/items/:external_id': async (ctx) => ({ url: await dishUrl(ctx), body: { available: false } }),
  'DELETE /v1/menu/items/:external_id': async (ctx) => ({ url: await dishUrl(ctx) }),
  'POST /v1/menu/items/bulk': async () => ({ url: '/api/v1/menu/items/bulk', body: { items: [{ external_id: 'b1', name: 'Bun', price: 150 }] } }),
  'GET /v1/orders': async () => ({ url: '/api/v1/orders' }),
  'GET /v1/orders/:id': async (ctx) => ({ url: await orderUrl(ctx) }),
  'POST /v1/orders/:id/status': async (ctx) => ({ url: `${await orderUrl(ctx)}/status`, body: { status: 'accepted' } }),
  'GET /v1/catalog/products': async () => ({ url: '/api/v1/catalog/products' }),
  'GET /v1/catalog/products/:sku': async (ctx) => ({ url: await productUrl(ctx) }),
  'PUT /v1/catalog/products/:sku': async (ctx) => ({ url: await productUrl(ctx), body: { name: 'Espresso', price: 250 } }),
  'DELETE /v1/catalog/products/:sku': async (ctx) => ({ url: await productUrl(ctx) }),
  'POST /v1/catalog/products/bulk': async () => ({ url: '/api/v1/catalog/products/bulk', body: { items: [{ sku: 'b1', name: 'Bun' }] } }),
  'GET /v1/catalog/categories': async () => ({ url: '/api/v1/catalog/categories' }),
  'POST /v1/checks/calculate': async () => ({
    url: '/api/v1/checks/calculate',
    body: { external_id: 'chk-1', line_items: [{ name: 'Coffee', quantity: 1, unit_price: 300 }] },
  }),
  'POST /v1/checks': async () => ({ url: '/api/v1/checks', body: { external_id: `chk-${Math.random()}`, line_items: [{ name: 'Tea', quantity: 1, unit_price: 300 }] } }),
  'GET /v1/transactions': async () => ({ url: '/api/v1/transactions' }),
  'GET /v1/transactions/:external_id': async (ctx) => ({ url: await transactionUrl(ctx) }),
  'POST /v1/transactions/:external_id/void': async (ctx) => ({ url: `${await transactionUrl(ctx)}/void` }),
  'POST /v1/transactions/:external_id/refunds': async (ctx) => ({ url: `${await transactionUrl(ctx)}/refunds`, body: { external_id: 'r1', amount: 100 } }),
  'POST /v1/holds': async (ctx) => {
    const url = await holdUrl(ctx);
    const hold = await client(ctx.t, ctx.ownerKey).get(url);
    return { url: '/api/v1/holds', body: { member_id: hold.body.member_id, amount: 50 } };
  },
  'GET /v1/holds/:id': async (ctx) => ({ url: await holdUrl(ctx) }),
  'POST /v1/holds/:id/release': async (ctx) => ({ url: `${await holdUrl(ctx)}/release` }),
  'POST /v1/holds/:id/capture': async (ctx) => {
    const url = await holdUrl(ctx);
    const hold = await client(ctx.t, ctx.ownerKey).get(url);
    const externalId = `cap-${Math.random().toString(36).slice(2, 10)}`;
    await client(ctx.t, ctx.ownerKey).post('/api/v1/checks', { external_id: externalId, member_id: hold.body.member_id, line_items: [{ name: 'Soup', quantity: 1, unit_price: 650 }] });
    return { url: `${url}/capture`, body: { external_id: externalId } };
  },
  'POST /v1/visits': async (ctx) => {
    const member = await client(ctx.t, ctx.ownerKey).get(await memberUrl(ctx));
    return { url: '/api/v1/visits', body: { member_id: member.body.id } };
  },
  'POST /v1/scans': async (ctx) => {
    const member = await client(ctx.t, ctx.ownerKey).get(await memberUrl(ctx));
    return { url: '/api/v1/scans', body: { code: member.body.serial } };
  },
  'PUT /v1/catalog/categories/:external_id': async ({ t, ownerKey }) => {
    await client(t, ownerKey).put('/api/v1/catalog/categories/coffee', { name: 'Coffee' });
    return { url: '/api/v1/catalog/categories/coffee', body: { name: 'Hot drinks' }, readUrl: '/api/v1/catalog/categories' };
  },
};
