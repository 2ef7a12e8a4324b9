// The OpenAPI document validates as OpenAPI 3.1 and lists every keyed route; the reference pages are served.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { isLegacyPosPath } from '../../src/http/legacy-pos.js';
import { ROUTE_SCOPES } from '../../src/http/route-scopes.js';
import { ERROR_CODES } from '../../src/shared/errors.js';
import { readFileSync } from 'node:fs';
import { useTestApp } from '../support/app.js';
import { client } from '../support/http.js';

const t = useTestApp();

describe('OpenAPI', () => {
  it('is served without a key and validates as OpenAPI 3.1', async () => {
    const res = await client(t, null).get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const result = await new Validator().validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every keyed route with its error responses', async () => {
    const spec = (await client(t, null).get('/api/v1/openapi.json')).body;
    for (const [route, scopes] of Object.entries(ROUTE_SCOPES)) {
      const [method, path] = route.split(' ') as [string, string];
      // The legacy POS routes are in their own document (test/http/legacy-pos.test.ts).
      if (scopes === 'public' || isLegacyPosPath(`/api${path}`)) continue;
      const operation = spec.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      expect(operation, route).toBeDefined();
      expect(operation.responses['4XX'] ?? operation.responses['4xx'], route).toBeDefined();
    }
  });

  it('checks have request and response examples', async () => {
    const spec = (await client(t, null).get('/api/v1/openapi.json')).body;
    const apply = spec.paths['/v1/checks'].post;
    const exampleOf = (content: any) => content['application/json'].example;
    expect(exampleOf(apply.requestBody.content)).toMatchObject({ external_id: 'T7-000123', redeem_amount: 500 });
    expect(exampleOf(apply.responses['201'].content)).toMatchObject({ object: 'transaction', redeemed: 500, earned: 50 });
    expect(exampleOf(spec.paths['/v1/checks/calculate'].post.responses['200'].content)).toMatchObject({ object: 'check_calculation' });
  });

  it('serves the reference page at /api/docs and the error reference at /api/errors', async () => {
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
    const errors = await client(t, null).get('/api/errors');
    for (const code of Object.keys(ERROR_CODES)) expect(errors.body).toContain(`id="${code}"`);
  });

  it('docs/errors.md lists every error code', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    for (const code of Object.keys(ERROR_CODES)) expect(doc).toContain(`\`${code}\``);
  });
});
