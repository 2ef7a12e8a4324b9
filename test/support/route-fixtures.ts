// A valid request for every keyed route, so the generated auth tests can call it; a new route adds its entry here.
import type { TestApp } from './app.js';
import { client } from './http.js';

export interface FixtureContext {
  t: TestApp;
  /** A full-access key of the venue that owns the objects the request names. */
  ownerKey: string;
}

export interface RouteRequest {
  url: string;
  body?: unknown;
}

export type RouteFixture = (ctx: FixtureContext) => Promise<RouteRequest>;

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

async function eventUrl({ t, ownerKey }: FixtureContext): Promise<string> {
  const test = await client(t, ownerKey).post(`${await unreachableEndpointUrl({ t, ownerKey })}/test`);
  const events = await client(t, ownerKey).get('/api/v1/events?limit=1');
  if (test.status !== 200 || !events.body.data?.[0]) throw new Error('fixture could not create an event');
  return `/api/v1/events/${events.body.data[0].id}`;
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
};
