// The contract checks themselves: a mismatch in status, content type or body is caught and named; the app's real answers pass.
import { describe, expect, it } from 'vitest';
import { compileDocument, contractMismatch, ContractViolation, DOCUMENT_URLS, installContractChecks, type ReceivedResponse } from '../support/contract.js';
import { useTestApp } from '../support/app.js';
import { venueWithKey } from '../support/factories.js';
import { client } from '../support/http.js';

const envelope = {
  type: 'object',
  required: ['error', 'request_id'],
  properties: { error: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } }, request_id: { type: 'string' } },
};
const doc = {
  openapi: '3.1.0',
  info: { title: 'Contract test document', version: '1' },
  servers: [{ url: 'http://localhost:3000/api' }],
  paths: {
    '/v1/things/{id}': {
      get: {
        responses: {
          200: {
            description: 'A thing',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'at'],
                  properties: { id: { type: 'string' }, at: { type: 'string', format: 'date-time' }, n: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
                  additionalProperties: false,
                },
              },
            },
          },
          '4XX': { description: 'Error', content: { 'application/json': { schema: envelope } } },
        },
      },
    },
    '/v1/things/special': { get: { responses: { 200: { description: 'Literal', content: { 'text/csv': { schema: { type: 'string' } } } } } } },
    '/v1/things/{id}/picture': { get: { responses: { 200: { description: 'No body documented' } } } },
  },
};
const documents = [compileDocument(doc)];
const json = (body: unknown) => JSON.stringify(body);
const res = (method: string, url: string, status: number, body: string, type = 'application/json; charset=utf-8'): ReceivedResponse => ({
  method,
  url,
  status,
  headers: type ? { 'content-type': type } : {},
  body,
});

describe('contract checks', () => {
  it('pass a conforming answer, and the literal path before the templated one', () => {
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a?x=1', 200, json({ id: 'a', at: '2024-05-01T12:00:00.000Z', n: null })))).toBeUndefined();
    expect(contractMismatch(documents, res('GET', '/api/v1/things/special', 200, 'a,b\r\n', 'text/csv; charset=utf-8'))).toBeUndefined();
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a', 404, json({ error: { code: 'x' }, request_id: 'r' })))).toBeUndefined();
  });

  it('name the status that is not documented', () => {
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a', 201, '{}'))).toMatch(
      /GET \/api\/v1\/things\/a → 201: status 201 is not documented for GET \/v1\/things\/\{id\} \(documented: 200, 4XX\)/,
    );
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a', 500, '{}'))).toMatch(/status 500 is not documented/);
  });

  it('name a content type that is not documented, and a body where none is documented', () => {
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a', 200, '<a/>', 'text/html'))).toMatch(/content type text\/html is not documented/);
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a/picture', 200, '<svg/>', 'image/svg+xml'))).toMatch(/documents no body for 200/);
  });

  it('name the schema error: missing field, extra field, wrong type, bad format, not JSON', () => {
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a', 200, json({ id: 'a' })))).toMatch(/must have required property 'at'/);
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a', 200, json({ id: 'a', at: '2024-05-01T12:00:00Z', z: 1 })))).toMatch(/additional properties/);
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a', 200, json({ id: 1, at: '2024-05-01T12:00:00Z' })))).toMatch(/\/id must be string/);
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a', 200, json({ id: 'a', at: 'yesterday' })))).toMatch(/\/at must match format "date-time"/);
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a', 200, 'not json'))).toMatch(/not JSON/);
    expect(contractMismatch(documents, res('GET', '/api/v1/things/a', 400, json({ message: 'framework shape' })))).toMatch(/required property 'error'/);
  });

  it('require the envelope on unknown routes in the namespace, and a document for every 2xx there', () => {
    expect(contractMismatch(documents, res('GET', '/api/v1/nothing', 404, json({ error: { code: 'route_not_found' }, request_id: 'r' })))).toBeUndefined();
    expect(contractMismatch(documents, res('DELETE', '/api/v1/things/a', 404, json({ statusCode: 404 })))).toMatch(/no documented operation/);
    expect(contractMismatch(documents, res('GET', '/api/v1/undocumented', 200, '{}'))).toMatch(/no operation in Contract test document documents GET \/api\/v1\/undocumented/);
    // Outside the document's namespace: not its business.
    expect(contractMismatch(documents, res('GET', '/healthz', 200, '{}'))).toBeUndefined();
  });
});

describe('contract checks on the app', () => {
  const t = useTestApp();

  it('every document the checks read is served: none is skipped as missing', async () => {
    for (const url of DOCUMENT_URLS) expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
  });

  it('check every answer received through inject: a real answer passes, a wrong document fails the call', async () => {
    const { secret } = await venueWithKey(t);
    expect((await client(t, secret).get('/api/v1/account')).status).toBe(200);
    // The same answer, judged against a document that promises something else, must throw from the helper.
    const strict = compileDocument({
      ...doc,
      info: { title: 'strict', version: '1' },
      paths: { '/v1/account': { get: { responses: { 200: { description: 'x', content: { 'application/json': { schema: { type: 'array' } } } } } } } },
    });
    const real = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: `Bearer ${secret}` } });
    expect(contractMismatch([strict], { method: 'GET', url: '/api/v1/account', status: real.statusCode, headers: real.headers, body: real.body })).toMatch(
      /GET \/api\/v1\/account → 200: body does not match GET \/v1\/account 200 application\/json: \(body\) must be array/,
    );
  });

  it('throw from inject, naming method, path, status and the schema error', async () => {
    const answer = (statusCode: number, body: unknown) => ({ statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), json: () => body });
    const fake = {
      inject: async (opts: { url: string }) =>
        opts.url === '/api/v1/openapi.json' ? answer(200, doc)
        : opts.url === '/dashboard/api/openapi.json' ? answer(200, { ...doc, servers: [{ url: 'http://localhost:3000/dashboard' }] })
        : answer(200, { id: 'a', at: 'not a date' }),
    };
    installContractChecks(fake);
    const call = fake.inject({ url: '/api/v1/things/a' });
    await expect(call).rejects.toBeInstanceOf(ContractViolation);
    await expect(call).rejects.toThrow(/GET \/api\/v1\/things\/a → 200: body does not match GET \/v1\/things\/\{id\} 200 application\/json: \/at must match format "date-time"/);
  });
});
