// The earlier POS API at /api/pos/v1 (D17): the till subset, v1 answers, one key space, deprecation headers, its own document.
// Keys and scopes of each legacy route are tested by the route-auth generator (test/http/route-auth.test.ts).
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installKeyAuth } from '../../src/http/auth.js';
import type { App } from '../../src/http/context.js';
import { LEGACY_POS_ROUTES, ROUTE_SCOPES, legacyRoute } from '../../src/http/route-scopes.js';
import { useTestApp } from '../support/app.js';
import { compileDocument, contractMismatch } from '../support/contract.js';
import { createProgram, newCardNumber, seedLedger, venueWithKey } from '../support/factories.js';
import { client, expectError, type Response } from '../support/http.js';

const t = useTestApp();
const V1_DOCUMENT = 'http://localhost:3000/api/v1/openapi.json';

function expectDeprecated(res: Response): void {
  expect(res.headers.deprecation, `${res.status} ${JSON.stringify(res.body)}`).toBe('true');
  expect(res.headers.link).toBe(`<${V1_DOCUMENT}>; rel="successor-version"`);
}

/** A cashback member with a balance of 1000, and a client for each prefix with the same key. */
async function till() {
  const { venue, secret } = await venueWithKey(t);
  const program = await createProgram(t, venue, 'cashback');
  const cardNumber = newCardNumber();
  const member = await client(t, secret).post('/api/v1/members', { card_number: cardNumber, consent: true, program_id: program.id });
  expect(member.status).toBe(201);
  await seedLedger(t, venue, { memberId: member.body.id, kind: 'import', cashback: 1000 });
  return { secret, cardNumber, memberId: member.body.id as string, v1: client(t, secret) };
}

/**
 * A client for the legacy prefix whose every answer must match the legacy document, as test/support/contract.ts
 * checks the v1 ones against theirs.
 */
function legacyClient(key: string, document: object) {
  const checked = (method: string, url: string) => async (res: Response) => {
    const body = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    const mismatch = contractMismatch([compileDocument(document)], { method, url, status: res.status, headers: res.headers, body });
    expect(mismatch, `${method} ${url}`).toBeUndefined();
    return res;
  };
  const c = client(t, key);
  return {
    get: (url: string) => c.get(url).then(checked('GET', url)),
    post: (url: string, body?: unknown) => c.post(url, body).then(checked('POST', url)),
  };
}

const check = (externalId: string, memberId: string) => ({
  external_id: externalId,
  member_id: memberId,
  line_items: [{ name: 'Soup', quantity: 1, unit_price: 650 }],
});

describe('/api/pos/v1', () => {
  it('serves the till subset with v1 answers, each with Deprecation and a Link to the v1 document', async () => {
    const { secret, cardNumber, memberId, v1 } = await till();
    const pos = legacyClient(secret, (await client(t, null).get('/api/pos/v1/openapi.json')).body);

    const account = await pos.get('/api/pos/v1/account');
    expectDeprecated(account);
    expect(account.body).toEqual((await v1.get('/api/v1/account')).body);

    const lookup = await pos.get(`/api/pos/v1/members/lookup?card_number=${cardNumber}`);
    expectDeprecated(lookup);
    expect(lookup.body).toEqual((await v1.get(`/api/v1/members/${memberId}`)).body);

    const scan = await pos.post('/api/pos/v1/scans', { code: cardNumber });
    expect([scan.status, scan.body.object, scan.body.member.id]).toEqual([201, 'scan', memberId]);

    const calculation = await pos.post('/api/pos/v1/checks/calculate', check('pos-1', memberId));
    expect(calculation.body).toEqual((await v1.post('/api/v1/checks/calculate', check('pos-1', memberId))).body);

    const hold = await pos.post('/api/pos/v1/holds', { member_id: memberId, amount: 100 });
    expect(hold.status).toBe(201);
    expect((await pos.get(`/api/pos/v1/holds/${hold.body.id}`)).body).toEqual(hold.body);
    const released = await pos.post(`/api/pos/v1/holds/${hold.body.id}/release`);
    expect([released.status, released.body.status]).toEqual([200, 'released']);

    const applied = await pos.post('/api/pos/v1/checks', check('pos-2', memberId));
    expectDeprecated(applied);
    expect(applied.status).toBe(201);
    expect((await v1.get('/api/v1/transactions/pos-2')).body).toEqual(applied.body);
    expect((await pos.get('/api/pos/v1/transactions/pos-2')).body).toEqual(applied.body);
    const voided = await pos.post('/api/pos/v1/transactions/pos-2/void');
    expect([voided.status, voided.body.status]).toEqual([200, 'voided']);
  });

  it('serves nothing beyond the subset: the rest of v1 is 404 there, deprecated all the same', async () => {
    const { secret } = await till();
    const pos = client(t, secret);
    for (const url of ['/api/pos/v1/members', '/api/pos/v1/webhook_endpoints', '/api/pos/v1/nothing', '/api/pos']) {
      const res = await pos.get(url);
      expectError(res, 404, 'route_not_found');
      expectDeprecated(res);
    }
    expect((await client(t, secret).get('/api/v1/account')).headers.deprecation).toBeUndefined();
  });

  it('refusals carry the headers too: no key, missing scope, an invalid body, a wrong method', async () => {
    const { secret: scanner } = await venueWithKey(t, { scopes: ['members:read'] });
    const cases: [Response, number, string][] = [
      [await client(t, null).get('/api/pos/v1/account'), 401, 'api_key_missing'],
      [await client(t, scanner).post('/api/pos/v1/checks', { external_id: 'x', line_items: [] }), 403, 'missing_scope'],
      [await client(t, scanner).post('/api/pos/v1/scans', { code: 1 }), 400, 'parameter_invalid'],
      [await client(t, scanner).delete('/api/pos/v1/account'), 405, 'method_not_allowed'],
    ];
    for (const [res, status, code] of cases) {
      expectError(res, status, code);
      expectDeprecated(res);
    }
  });

  it('shares idempotency with v1: the same key and body on the other prefix is a replay', async () => {
    const { secret, memberId, v1 } = await till();
    const pos = client(t, secret);
    const headers = { 'idempotency-key': 'legacy-then-v1' };
    const first = await pos.post('/api/pos/v1/holds', { member_id: memberId, amount: 100 }, headers);
    expect(first.status).toBe(201);
    const again = await v1.post('/api/v1/holds', { member_id: memberId, amount: 100 }, headers);
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([201, 'true', first.body]);
    expectError(await pos.post('/api/pos/v1/holds', { member_id: memberId, amount: 200 }, headers), 400, 'idempotency_key_reused');
  });

  it('shares the rate limit with v1: one window per key', async () => {
    const { secret } = await venueWithKey(t);
    const remaining = (res: Response) => Number(/r=(\d+)/.exec(String(res.headers.ratelimit))?.[1]);
    const a = remaining(await client(t, secret).get('/api/v1/account'));
    const b = remaining(await client(t, secret).get('/api/pos/v1/account'));
    const c = remaining(await client(t, secret).get('/api/v1/account'));
    expect([b, c]).toEqual([a - 1, a - 2]);
  });

  it('has its own document, deprecated, with exactly the subset; the v1 document leaves the prefix out', async () => {
    const legacy = await client(t, null).get('/api/pos/v1/openapi.json');
    expect(legacy.status).toBe(200);
    expectDeprecated(legacy);
    const result = await new Validator().validate(legacy.body);
    expect(result.errors ?? []).toEqual([]);
    expect(legacy.body.servers).toEqual([{ url: 'http://localhost:3000/api/pos' }]);
    const operations = Object.entries<Record<string, { deprecated?: boolean }>>(legacy.body.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, op })),
    );
    expect(operations.map((o) => o.route).sort()).toEqual([...LEGACY_POS_ROUTES].sort());
    for (const { route, op } of operations) expect(op.deprecated, route).toBe(true);

    const current = (await client(t, null).get('/api/v1/openapi.json')).body;
    expect(Object.keys(current.paths).filter((path) => path.includes('pos'))).toEqual([]);
    for (const route of LEGACY_POS_ROUTES) {
      const [method, path] = route.split(' ') as [string, string];
      const template = path.replace(/:(\w+)/g, '{$1}');
      const { deprecated: _, ...legacyOperation } = legacy.body.paths[template][method.toLowerCase()];
      expect(legacyOperation, route).toEqual(current.paths[template][method.toLowerCase()]);
    }
  });
});

describe('the legacy document', () => {
  it('carries exactly the component schemas its operations use, from the v1 document', async () => {
    const legacy = (await client(t, null).get('/api/pos/v1/openapi.json')).body;
    const current = (await client(t, null).get('/api/v1/openapi.json')).body;
    const names = Object.keys(legacy.components.schemas);
    // Referred to from an operation, or from another component (which is itself referred to, or fails here).
    const refs = JSON.stringify({ paths: legacy.paths, components: legacy.components }).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g);
    const used = new Set([...refs].map((match) => match[1]!));
    expect(names.filter((name) => !used.has(name)), 'component schemas no legacy operation uses').toEqual([]);
    expect([...used].filter((name) => !names.includes(name)), 'references to missing components').toEqual([]);
    for (const name of names) expect(legacy.components.schemas[name], name).toEqual(current.components.schemas[name]);
    expect(names).toEqual(expect.arrayContaining(['Member', 'Transaction', 'Hold', 'Scan', 'CheckCalculation', 'Error']));
    expect(legacy.components.securitySchemes).toEqual(current.components.securitySchemes);
  });
});

describe('the scope table fails closed for every prefix under /api', () => {
  const handler = async () => ({ secret: true });

  it.each(['/api/pos/v1/members', '/api/pos/v2/checks', '/api/v2/account', '/api/internal/stats'])(
    'a route at %s that the table does not name cannot be registered',
    async (url) => {
      const app = Fastify() as unknown as App;
      installKeyAuth(app);
      await expect(
        (async () => {
          app.get(url, handler);
          await app.ready();
        })(),
      ).rejects.toThrow(`GET ${url.slice('/api'.length)} has no entry in src/http/route-scopes.ts`);
      await app.close();
    },
  );

  it('names each legacy route with the scopes of its v1 twin', () => {
    for (const route of LEGACY_POS_ROUTES) expect(ROUTE_SCOPES[legacyRoute(route)], route).toEqual(ROUTE_SCOPES[route]);
  });
});
