// Retries, backoff, Retry-After, Idempotency-Key reuse and typed errors, against a scripted fetch and a recording sleep.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VenueLoyalty, VenueLoyaltyConnectionError, VenueLoyaltyError, type VenueLoyaltyOptions } from '@venue-loyalty/client';
import { apiError, json, recordingSleep, scriptedFetch, type Answer } from './fake-fetch.js';

const CHECK = { external_id: 'T7-1', line_items: [{ name: 'Tea', quantity: 1, unit_price: 250 }] };
const TRANSACTION = { object: 'transaction', external_id: 'T7-1', paid: 250 };

function clientFor(answers: Answer[], options: Partial<VenueLoyaltyOptions> = {}) {
  const fetch = scriptedFetch(answers);
  const sleep = recordingSleep();
  let keys = 0;
  const client = new VenueLoyalty({
    baseUrl: 'https://loyalty.example/api',
    apiKey: 'sk_test_abc',
    fetch: fetch.fetch,
    sleep: sleep.sleep,
    random: () => 0.5,
    idempotencyKey: () => `key-${++keys}`,
    ...options,
  });
  return { client, sent: fetch.sent, slept: sleep.slept };
}

async function refusal(promise: Promise<unknown>): Promise<VenueLoyaltyError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof VenueLoyaltyError, `expected a VenueLoyaltyError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to throw');
}

describe('retries', () => {
  it('sends one Idempotency-Key per POST and the same key and body on each of its retries', async () => {
    const { client, sent, slept } = clientFor([apiError(503, 'api_error', 'service_unavailable'), new TypeError('fetch failed'), json(201, TRANSACTION)]);
    assert.deepEqual(await client.post('/v1/checks', { body: CHECK }), TRANSACTION);
    assert.equal(sent.length, 3);
    for (const request of sent) {
      assert.equal(request.method, 'POST');
      assert.equal(request.url.href, 'https://loyalty.example/api/v1/checks');
      assert.equal(request.headers.get('idempotency-key'), 'key-1');
      assert.equal(request.headers.get('authorization'), 'Bearer sk_test_abc');
      assert.deepEqual(JSON.parse(request.body), CHECK);
    }
    // Equal jitter at random 0.5: half of 500 ms plus a quarter, then half of 1000 ms plus a quarter.
    assert.deepEqual(slept, [375, 750]);
  });

  it('gives every POST a key of its own, keeps a key the caller sends, and sends none on a GET', async () => {
    const { client, sent } = clientFor([json(201, TRANSACTION), json(201, TRANSACTION), json(201, TRANSACTION), json(200, { object: 'account' })]);
    await client.post('/v1/checks', { body: CHECK });
    await client.post('/v1/checks', { body: CHECK });
    await client.post('/v1/checks', { body: CHECK, headers: { 'Idempotency-Key': 'till-7-check-1' } });
    await client.get('/v1/account');
    assert.deepEqual(
      sent.map((request) => request.headers.get('idempotency-key')),
      ['key-1', 'key-2', 'till-7-check-1', null],
    );
  });

  it('waits what Retry-After says on 429 and 503, in seconds or as a date', async () => {
    const seconds = clientFor([apiError(429, 'rate_limit_error', 'rate_limited', { headers: { 'retry-after': '7' } }), json(200, { object: 'account' })]);
    await seconds.client.get('/v1/account');
    assert.deepEqual(seconds.slept, [7000]);

    const date = clientFor(
      [apiError(503, 'api_error', 'service_unavailable', { headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:12 GMT' } }), json(200, { object: 'account' })],
      { now: () => Date.parse('2026-01-01T00:00:00Z') },
    );
    await date.client.get('/v1/account');
    assert.deepEqual(date.slept, [12_000]);
  });

  it('retries 409 balance_conflict and idempotency_key_in_use, with the same key', async () => {
    const { client, sent, slept } = clientFor([
      apiError(409, 'invalid_request_error', 'balance_conflict'),
      apiError(409, 'idempotency_error', 'idempotency_key_in_use'),
      json(201, TRANSACTION),
    ]);
    assert.deepEqual(await client.post('/v1/checks', { body: CHECK }), TRANSACTION);
    assert.deepEqual(sent.map((request) => request.headers.get('idempotency-key')), ['key-1', 'key-1', 'key-1']);
    assert.deepEqual(slept, [375, 750]);
  });

  it('never retries another 4xx, and throws it with the envelope’s fields', async () => {
    for (const [status, type, code] of [
      [400, 'invalid_request_error', 'parameter_invalid'],
      [401, 'authentication_error', 'api_key_invalid'],
      [402, 'invalid_request_error', 'insufficient_balance'],
      [404, 'invalid_request_error', 'transaction_not_found'],
      [409, 'invalid_request_error', 'card_number_taken'],
    ] as const) {
      const { client, sent, slept } = clientFor([apiError(status, type, code, { param: 'line_items' })]);
      const error = await refusal(client.post('/v1/checks', { body: CHECK }));
      assert.equal(sent.length, 1, code);
      assert.deepEqual(slept, []);
      assert.equal(error.name, 'VenueLoyaltyError');
      assert.equal(error.status, status);
      assert.equal(error.code, code);
      assert.equal(error.type, type);
      assert.equal(error.param, 'line_items');
      assert.equal(error.requestId, `req_${code}`);
      assert.equal(error.message, `A ${code} for the test.`);
      assert.deepEqual(error.error, { type, code, message: `A ${code} for the test.`, param: 'line_items' });
    }
  });

  it('gives up after maxRetries: the last answer is thrown, or a connection error when none came', async () => {
    const proxy = () => new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html', 'x-request-id': 'req_proxy' } });
    const failing = clientFor([proxy(), proxy(), proxy(), proxy()]);
    const error = await refusal(failing.client.get('/v1/account'));
    assert.equal(failing.sent.length, 4);
    assert.deepEqual(failing.slept, [375, 750, 1500]);
    assert.equal(error.status, 502);
    assert.equal(error.code, 'unexpected_response');
    assert.equal(error.requestId, 'req_proxy');

    const down = clientFor([new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed')], { maxRetries: 2 });
    const lost = await refusal(down.client.post('/v1/checks', { body: CHECK }));
    assert.ok(lost instanceof VenueLoyaltyConnectionError);
    assert.equal(lost.status, 0);
    assert.equal(lost.code, 'connection_error');
    assert.equal(down.sent.length, 3);
    assert.deepEqual(down.sent.map((request) => request.headers.get('idempotency-key')), ['key-1', 'key-1', 'key-1']);
  });

  it('doubles the backoff up to maxDelayMs, each wait between half of it and all of it', async () => {
    const failures = (n: number) => Array.from({ length: n }, () => apiError(500, 'api_error', 'internal_error'));
    const low = clientFor([...failures(6), json(200, { object: 'account' })], { maxRetries: 6, random: () => 0 });
    await low.client.get('/v1/account');
    assert.deepEqual(low.slept, [250, 500, 1000, 2000, 4000, 4000]);
    const high = clientFor([...failures(6), json(200, { object: 'account' })], { maxRetries: 6, random: () => 0.999 });
    await high.client.get('/v1/account');
    // ceiling / 2 + 0.999 × ceiling / 2, rounded: 499.75, 999.5, 1999, 3998, 7996, 7996.
    assert.deepEqual(high.slept, [500, 1000, 1999, 3998, 7996, 7996]);
  });

  it('does not retry at all with maxRetries 0; the raw client answers errors as values', async () => {
    const once = clientFor([apiError(503, 'api_error', 'service_unavailable')], { maxRetries: 0 });
    assert.equal((await refusal(once.client.get('/v1/account'))).status, 503);
    assert.equal(once.sent.length, 1);

    const raw = clientFor([apiError(500, 'api_error', 'internal_error'), apiError(404, 'invalid_request_error', 'member_not_found')]);
    const result = await raw.client.api.GET('/v1/members/{id}', { params: { path: { id: 'c0ffee00-0000-4000-8000-000000000000' } } });
    assert.equal(result.response.status, 404);
    assert.equal(raw.sent.length, 2);
  });
});
