// Every failure, the framework's included, answers the contract's envelope with the right status, type, code and param.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../support/app.js';
import { createProgram, newCardNumber, venueWithKey } from '../support/factories.js';
import { client, expectError, rawHttp, request } from '../support/http.js';

const t = useTestApp({ config: { bodyLimitBytes: 4096 } });
// Router and parser failures need a real socket: app.inject normalises paths and cannot send malformed requests.
let base: string;
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

/** One request over the socket, closing the connection after the answer. */
const get = (path: string, headers = '') => rawHttp(base, `GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`);

describe('error envelope', () => {
  it('malformed JSON is 400 parameter_invalid', async () => {
    const { secret } = await venueWithKey(t);
    const res = await request(t, 'POST', '/api/v1/webhook_endpoints', { key: secret, body: '{"url": ' });
    const e = expectError(res, 400, 'parameter_invalid', 'invalid_request_error');
    expect(e.message).toMatch(/not valid JSON/);
    expect(e.doc_url).toBe('http://localhost:3000/api/errors#parameter_invalid');
  });

  it('an unknown body field is named first, with the known field it may mean, on /api/v1 and /api/pos/v1 alike', async () => {
    const { venue, secret } = await venueWithKey(t);
    await createProgram(t, venue, 'cashback');
    const api = client(t, secret);
    const member = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body;
    const line = { name: 'Soup', quantity: 1, unit_price: 650 };
    for (const prefix of ['/api/v1', '/api/pos/v1']) {
      // `ammount` alone was "amount is required"; with amount it was refused without a hint.
      const typo = expectError(await api.post(`${prefix}/checks/calculate`, { member_id: member.id, line_items: [{ ...line, unit_prise: 650 }] }), 400, 'parameter_invalid');
      expect([typo.param, typo.message]).toEqual(['line_items[0].unit_prise', 'line_items[0].unit_prise is not a known field. Did you mean unit_price?']);
      const top = expectError(await api.post(`${prefix}/checks/calculate`, { membr_id: member.id, line_items: [line] }), 400, 'parameter_invalid');
      expect([top.param, top.message]).toEqual(['membr_id', 'membr_id is not a known field. Did you mean member_id?']);
      const far = expectError(await api.post(`${prefix}/checks/calculate`, { member_id: member.id, line_items: [line], shoe_size: 42 }), 400, 'parameter_invalid');
      expect([far.param, far.message]).toEqual(['shoe_size', 'shoe_size is not a known field.']);
    }
    const adjust = expectError(await api.post(`/api/v1/members/${member.id}/adjustments`, { ammount: 100, reason: 'x' }), 400, 'parameter_invalid');
    expect([adjust.param, adjust.message]).toEqual(['ammount', 'ammount is not a known field. Did you mean amount?']);
  });

  it('a body that is not JSON is 415 unsupported_content_type', async () => {
    const { secret } = await venueWithKey(t);
    const res = await request(t, 'POST', '/api/v1/webhook_endpoints', {
      key: secret,
      body: 'url=https://hooks.example.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, 415, 'unsupported_content_type', 'invalid_request_error');
  });

  it('an unknown route is 404 route_not_found, also without a key', async () => {
    const { secret } = await venueWithKey(t);
    expectError(await client(t, secret).get('/api/v1/nothing_here'), 404, 'route_not_found', 'invalid_request_error');
    expectError(await client(t, null).get('/nope'), 404, 'route_not_found');
  });

  it('a known path with another method is 405 method_not_allowed with Allow', async () => {
    const { secret } = await venueWithKey(t);
    const res = await request(t, 'PUT', '/api/v1/webhook_endpoints', { key: secret, body: {} });
    expectError(res, 405, 'method_not_allowed', 'invalid_request_error');
    expect(res.headers.allow).toBe('GET, POST');
  });

  it('a method that carries a body (QUERY) sent without one is 405 on a known path and 404 on an unknown one, not "malformed"', async () => {
    const { secret } = await venueWithKey(t);
    const known = await request(t, 'QUERY', '/api/v1/account', { key: secret });
    expectError(known, 405, 'method_not_allowed');
    expect(known.headers.allow).toBe('GET');
    expectError(await request(t, 'QUERY', '/api/v1/nothing_here', { key: secret }), 404, 'route_not_found');
  });

  it('a body over the limit is 413 request_body_too_large', async () => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).post('/api/v1/webhook_endpoints', {
      url: 'https://hooks.example.com/x',
      description: 'x'.repeat(5000),
    });
    expectError(res, 413, 'request_body_too_large', 'invalid_request_error');
  });

  it('an unknown body field is 400 parameter_invalid naming it', async () => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).post('/api/v1/webhook_endpoints', { url: 'https://hooks.example.com/x', colour: 'red' });
    expect(expectError(res, 400, 'parameter_invalid').param).toBe('colour');
  });

  it('a missing required field names it in param', async () => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).post('/api/v1/webhook_endpoints', { events: ['order.created'] });
    expect(expectError(res, 400, 'parameter_invalid').param).toBe('url');
  });

  it('a field of the wrong type names its path in param', async () => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).post('/api/v1/webhook_endpoints', { url: 'https://hooks.example.com/x', events: [7] });
    expect(expectError(res, 400, 'parameter_invalid').param).toBe('events[0]');
  });

  it.each(['0', '101', 'ten'])('limit=%s is 400 parameter_invalid with param limit', async (limit) => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).get(`/api/v1/webhook_endpoints?limit=${limit}`);
    expect(expectError(res, 400, 'parameter_invalid', 'invalid_request_error').param).toBe('limit');
  });

  it('an unknown query parameter is 400 naming it', async () => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).get('/api/v1/webhook_endpoints?colour=red');
    expect(expectError(res, 400, 'parameter_invalid').param).toBe('colour');
  });
});

describe('router and HTTP parser failures, over a socket', () => {
  it.each(['%ff', '%c0%af', '%zz', '%e2%82'])('a path parameter %s that is not percent-encoded UTF-8 is 400 naming it', async (bad) => {
    const e = expectError(await get(`/api/v1/members/${bad}`), 400, 'parameter_invalid', 'invalid_request_error');
    expect(e.param).toBe('id');
    expect(e.message).toMatch(/percent-encoded UTF-8/);
  });

  it('bad percent-encoding outside any parameter is 400 with no param; on a wildcard route it is the path', async () => {
    expect(expectError(await get('/api/v1/%ff/members'), 400, 'parameter_invalid').param).toBeUndefined();
    expectError(await get('/api/docs/static/%c0%af'), 400, 'parameter_invalid');
  });

  it('a path parameter over the router limit (its 414) is 400 parameter_invalid naming it', async () => {
    const res = await get(`/api/v1/members/${'a'.repeat(101)}/history`);
    const e = expectError(res, 400, 'parameter_invalid');
    expect(e.param).toBe('id');
    expect(e.message).toMatch(/longer than 100 characters/);
  });

  it('invalid JSON, a wrong content type and a body over the limit answer the envelope', async () => {
    const { secret } = await venueWithKey(t);
    const post = (type: string, body: string) =>
      rawHttp(
        base,
        `POST /api/v1/webhook_endpoints HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${secret}\r\nContent-Type: ${type}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    expectError(await post('application/json', '{"url": '), 400, 'parameter_invalid');
    expectError(await post('text/plain', 'url=x'), 415, 'unsupported_content_type');
    expectError(await post('application/json', JSON.stringify({ url: 'https://hooks.example.com/x', description: 'x'.repeat(5000) })), 413, 'request_body_too_large');
  });

  it.each(['/api/docs/static/..', '/api/docs/static/../../package.json', '/api/docs/static/%2e%2e/%2e%2e/package.json', '/api/docs/static/nope.css'])(
    'static files: %s is 404 route_not_found, not a 500 or a 405',
    async (path) => {
      const res = await get(path);
      expectError(res, 404, 'route_not_found', 'invalid_request_error');
      expect(JSON.stringify(res.body)).not.toMatch(/"name"|venue-loyalty/);
    },
  );

  it('headers over the parser limit (its 431) get a minimal envelope and a closed connection', async () => {
    const res = await get('/healthz', `X-Big: ${'a'.repeat(20_000)}\r\n`);
    const e = expectError(res, 400, 'parameter_invalid', 'invalid_request_error');
    expect(e.message).toMatch(/headers are larger/);
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    expect(res.headers.connection).toBe('close');
  });

  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n'],
    ['a method with a space', 'G ET / HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a header line without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
    ['a control character in a header value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n'],
  ])('%s gets a minimal envelope', async (_what, bytes) => {
    const e = expectError(await rawHttp(base, bytes), 400, 'parameter_invalid');
    expect(e.message).toMatch(/not valid HTTP\/1\.1/);
  });

  it('a request without a Host header gets the envelope with X-Request-Id, not Node\'s bare 400', async () => {
    const res = await rawHttp(base, 'GET /api/v1/account HTTP/1.1\r\nConnection: close\r\n\r\n');
    const e = expectError(res, 400, 'parameter_invalid', 'invalid_request_error');
    expect(e.param).toBe('Host');
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    expect((res.body as { request_id: string }).request_id).toBe(res.headers['x-request-id']);
    // HTTP/1.0 has no Host header to require.
    expect((await rawHttp(base, 'GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
  });

  it('the server still answers afterwards', async () => {
    expect((await get('/healthz')).status).toBe(200);
  });
});

describe('failures on our side', () => {
  it('answer 500 internal_error in the envelope, with no internals; /readyz says 503', async () => {
    const broken = await startTestApp();
    const { secret } = await venueWithKey(broken);
    await broken.testDatabase.database.close();
    const res = await client(broken, secret).get('/api/v1/account');
    const e = expectError(res, 500, 'internal_error', 'api_error');
    expect(e.message).toMatch(/retry with the same Idempotency-Key/);
    expect(JSON.stringify(res.body)).not.toMatch(/stack|pglite|kysely|pool|\bat /i);
    expect((await client(broken, null).get('/readyz')).status).toBe(503);
    await broken.app.close();
  });
});

describe('X-Request-Id', () => {
  it('is generated for every response, errors included, and equals request_id', async () => {
    const res = await client(t, null).get('/api/v1/account');
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    expectError(res, 401, 'api_key_missing');
    expect((await client(t, null).get('/healthz')).headers['x-request-id']).toMatch(/^req_/);
  });

  it('echoes a sane incoming X-Request-Id and replaces an unsafe one', async () => {
    const echoed = await client(t, null).get('/api/v1/account', { 'x-request-id': 'till-7:abc-123' });
    expect(echoed.headers['x-request-id']).toBe('till-7:abc-123');
    expect(echoed.body.request_id).toBe('till-7:abc-123');
    const unsafe = await client(t, null).get('/api/v1/account', { 'x-request-id': 'bad id<script>' });
    expect(unsafe.headers['x-request-id']).toMatch(/^req_/);
  });
});
