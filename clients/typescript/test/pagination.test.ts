// Auto-pagination: `list()` follows `has_more` with `starting_after` = the last id (D7), against a model list.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VenueLoyalty, VenueLoyaltyError } from '@venue-loyalty/client';
import { apiError, json, recordingSleep, scriptedFetch, type Answer, type Sent } from './fake-fetch.js';

// Five members, newest first, as the API orders them.
const IDS = ['m5', 'm4', 'm3', 'm2', 'm1'];

/** One page of the model list for the request's `limit` and `starting_after`. */
function page(sent: Sent): Response {
  const limit = Number(sent.url.searchParams.get('limit') ?? 20);
  const after = sent.url.searchParams.get('starting_after');
  const from = after === null ? 0 : IDS.indexOf(after) + 1;
  const data = IDS.slice(from, from + limit).map((id) => ({ object: 'member', id }));
  return json(200, { object: 'list', url: '/v1/members', has_more: from + limit < IDS.length, data });
}

function clientFor(answers: Answer[]) {
  const fetch = scriptedFetch(answers);
  const client = new VenueLoyalty({ baseUrl: 'https://loyalty.example/api', apiKey: 'sk_test_abc', fetch: fetch.fetch, sleep: recordingSleep().sleep });
  return { client, sent: fetch.sent };
}

const queries = (sent: Sent[]) => sent.map((request) => Object.fromEntries(request.url.searchParams));

describe('list()', () => {
  it('yields every object of every page, asking for the next page after the last id while has_more', async () => {
    const { client, sent } = clientFor([page, page, page]);
    const ids: string[] = [];
    for await (const member of client.list('/v1/members', { params: { query: { limit: 2 } } })) ids.push(member.id);
    assert.deepEqual(ids, IDS);
    assert.deepEqual(queries(sent), [{ limit: '2' }, { limit: '2', starting_after: 'm4' }, { limit: '2', starting_after: 'm2' }]);
  });

  it('starts after a given id, and fetches no further page once the caller stops', async () => {
    const { client, sent } = clientFor([page, page]);
    const ids: string[] = [];
    for await (const member of client.list('/v1/members', { params: { query: { limit: 1, starting_after: 'm4' } } })) {
      ids.push(member.id);
      if (ids.length === 2) break;
    }
    assert.deepEqual(ids, ['m3', 'm2']);
    assert.deepEqual(queries(sent), [{ limit: '1', starting_after: 'm4' }, { limit: '1', starting_after: 'm3' }]);
  });

  it('retries a page like any call, and throws a refusal', async () => {
    const { client, sent } = clientFor([page, apiError(503, 'api_error', 'service_unavailable'), page, page]);
    const ids: string[] = [];
    for await (const member of client.list('/v1/members', { params: { query: { limit: 2 } } })) ids.push(member.id);
    assert.deepEqual(ids, IDS);
    assert.equal(sent.length, 4);

    const refused = clientFor([apiError(400, 'invalid_request_error', 'parameter_invalid', { param: 'starting_after' })]);
    await assert.rejects(
      async () => {
        for await (const member of refused.client.list('/v1/members', { params: { query: { starting_after: 'nope' } } })) void member;
      },
      (err) => err instanceof VenueLoyaltyError && err.code === 'parameter_invalid' && err.param === 'starting_after',
    );
  });
});
