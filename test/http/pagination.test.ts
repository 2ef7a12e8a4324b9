// Cursor pagination (D7): newest first, stable under inserts, strict about limit and cursor.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { venueWithKey } from '../support/factories.js';
import { client, expectError } from '../support/http.js';

const t = useTestApp();

async function createEndpoints(api: ReturnType<typeof client>, n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api.post('/api/v1/webhook_endpoints', { url: 'https://hooks.example.com/x', description: `${tag}-${i}` });
    ids.push(res.body.id);
  }
  return ids;
}

describe('pagination', () => {
  it('45 objects with limit=20 come as 20/20/5, newest first, has_more true/true/false', async () => {
    const api = client(t, (await venueWithKey(t)).secret);
    const ids = await createEndpoints(api, 45, 'p');
    const pages = [];
    let cursor = '';
    for (let i = 0; i < 3; i++) {
      const res = await api.get(`/api/v1/webhook_endpoints?limit=20${cursor}`);
      expect(res.body).toMatchObject({ object: 'list', url: '/v1/webhook_endpoints' });
      pages.push(res.body);
      cursor = `&starting_after=${res.body.data.at(-1).id}`;
    }
    expect(pages.map((p) => p.data.length)).toEqual([20, 20, 5]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    expect(pages.flatMap((p) => p.data.map((e: { id: string }) => e.id))).toEqual([...ids].reverse());
  });

  it('objects created between page fetches are neither skipped nor repeated', async () => {
    const api = client(t, (await venueWithKey(t)).secret);
    const before = await createEndpoints(api, 25, 'old');
    const first = await api.get('/api/v1/webhook_endpoints?limit=10');
    await createEndpoints(api, 5, 'new');
    const seen = first.body.data.map((e: { id: string }) => e.id);
    let cursor = seen.at(-1);
    for (let more = first.body.has_more; more; ) {
      const res = await api.get(`/api/v1/webhook_endpoints?limit=10&starting_after=${cursor}`);
      seen.push(...res.body.data.map((e: { id: string }) => e.id));
      cursor = seen.at(-1);
      more = res.body.has_more;
    }
    expect(seen).toEqual([...before].reverse());
  });

  it('default limit is 20', async () => {
    const api = client(t, (await venueWithKey(t)).secret);
    await createEndpoints(api, 21, 'd');
    const res = await api.get('/api/v1/webhook_endpoints');
    expect([res.body.data.length, res.body.has_more]).toEqual([20, true]);
  });

  it('an unknown or foreign starting_after is 400 with param starting_after', async () => {
    const mine = client(t, (await venueWithKey(t)).secret);
    const other = client(t, (await venueWithKey(t)).secret);
    const [foreignId] = await createEndpoints(other, 1, 'f');
    for (const cursor of ['nope', '00000000-0000-7000-8000-000000000000', foreignId]) {
      const res = await mine.get(`/api/v1/webhook_endpoints?starting_after=${cursor}`);
      expect(expectError(res, 400, 'parameter_invalid').param).toBe('starting_after');
    }
  });
});
