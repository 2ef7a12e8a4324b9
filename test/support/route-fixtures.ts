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

export const ROUTE_FIXTURES: Record<string, RouteFixture> = {
  'GET /v1/account': async () => ({ url: '/api/v1/account' }),
  'POST /v1/webhook_endpoints': async () => ({ url: '/api/v1/webhook_endpoints', body: hook }),
  'GET /v1/webhook_endpoints': async () => ({ url: '/api/v1/webhook_endpoints' }),
  'GET /v1/webhook_endpoints/:id': async (ctx) => ({ url: await webhookEndpointUrl(ctx) }),
  'PATCH /v1/webhook_endpoints/:id': async (ctx) => ({ url: await webhookEndpointUrl(ctx), body: { description: 'x' } }),
  'DELETE /v1/webhook_endpoints/:id': async (ctx) => ({ url: await webhookEndpointUrl(ctx) }),
};
