// Input at the edge (src/http/input.ts): strings and date-times the database cannot hold, unknown query parameters,
// malformed Idempotency-Keys and public-order replays, each answered in the envelope and never as a 500.
import { describe, expect, it } from 'vitest';
import { ROUTE_SCOPES } from '../../src/http/route-scopes.js';
import { isStorableDate } from '../../src/http/validation.js';
import { useTestApp, type TestApp } from '../support/app.js';
import { createTable, createVenue, venueWithKey } from '../support/factories.js';
import { client, expectError, request, type Response } from '../support/http.js';

const t = useTestApp({ config: { publicOrdersPerMinute: 1000 } });

const HOOK = 'https://hooks.example.com/x';

/** 400 parameter_invalid naming `param`, with request_id equal to X-Request-Id (checked by expectError). */
function expectInvalid(res: Response, param: string | undefined, message?: RegExp) {
  const e = expectError(res, 400, 'parameter_invalid', 'invalid_request_error');
  expect(e.param).toBe(param);
  if (message) expect(e.message).toMatch(message);
  return e;
}

async function venueWithMenu(app: TestApp = t) {
  const { venue, secret } = await venueWithKey(app);
  const till = client(app, secret);
  const bulk = await till.post('/api/v1/menu/items/bulk', {
    items: [
      { external_id: 'soup', name: 'Tomato soup', price: 650 },
      { external_id: 'pie', name: 'Apple pie', price: 550, available: false },
    ],
  });
  expect(bulk.status).toBe(200);
  const table = await createTable(app, venue, 'Table 3');
  return { venue, secret, till, table };
}

describe('strings PostgreSQL and JSON cannot hold', () => {
  it('a NUL in a body string is 400 naming its field, nested ones in dotted form', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    expectInvalid(await api.post('/api/v1/webhook_endpoints', { url: HOOK, description: 'a\u0000b' }), 'description', /NUL/);
    expectInvalid(
      await api.post('/api/v1/menu/items/bulk', { items: [{ external_id: 'soup', name: 'Soup\u0000', price: 1 }] }),
      'items[0].name',
    );
    expectInvalid(await api.post('/api/v1/members', { card_number: 'C\u00001', consent: true }), 'card_number');
  });

  it('a lone UTF-16 surrogate (a JSON \\ud800 escape) is 400; a proper pair is stored', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    for (const escape of ['\\ud800', '\\udfff', 'x\\udc00\\ud800']) {
      const res = await api.post('/api/v1/webhook_endpoints', `{"url":"${HOOK}","description":"${escape}"}`);
      expectInvalid(res, 'description', /surrogate/);
    }
    const ok = await api.post('/api/v1/webhook_endpoints', `{"url":"${HOOK}","description":"pizza \\ud83c\\udf55"}`);
    expect(ok.status).toBe(201);
    expect(ok.body.description).toBe('pizza 🍕');
  });

  it('a field name with a NUL is 400 naming it as an escape', async () => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).post('/api/v1/webhook_endpoints', `{"url":"${HOOK}","a\\u0000":1}`);
    expectInvalid(res, 'a\\u0000', /field name/);
  });

  it('a body that is not UTF-8 is 400 naming the string that held the bytes', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    for (const bad of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
      const body = Buffer.concat([Buffer.from(`{"url":"${HOOK}","description":"caf`), Buffer.from(bad), Buffer.from('"}')]);
      expectInvalid(await api.post('/api/v1/webhook_endpoints', body), 'description', /not valid UTF-8/);
    }
    expectInvalid(await api.post('/api/v1/webhook_endpoints', Buffer.from([0x7b, 0xff, 0xfe])), undefined, /not valid UTF-8/);
  });

  it('a NUL in a path parameter is 400 naming it: keyed routes, the QR page and the public order endpoint', async () => {
    const { secret } = await venueWithKey(t);
    expectInvalid(await client(t, secret).get('/api/v1/members/%00'), 'id');
    expectInvalid(await client(t, secret).get('/api/v1/menu/items/a%00b'), 'external_id');
    expectInvalid(await client(t, null).get('/m/%00/t1'), 'venue_slug');
    expectInvalid(await client(t, null).post('/api/public/v1/menus/%00/orders', { table_code: 't', items: [] }), 'venue_slug');
  });

  it('a query value that is NUL or not UTF-8 once percent-decoded is 400 naming the parameter', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    expectInvalid(await api.get('/api/v1/members/lookup?card_number=%00'), 'card_number', /NUL/);
    for (const bad of ['%ff', '%c0%af', '%zz', '%ed%a0%80', '%e2%82']) {
      expectInvalid(await api.get(`/api/v1/members/lookup?card_number=${bad}`), 'card_number', /percent-encoded UTF-8/);
    }
    expectInvalid(await api.get('/api/v1/members/lookup?%ff=1'), '%ff');
    expectInvalid(await client(t, null).get('/m/some-venue/t1?x=%ff'), 'x');
  });

  it('a header value with a NUL is 400 naming the header', async () => {
    const { secret } = await venueWithKey(t);
    expectInvalid(await client(t, secret).get('/api/v1/account', { 'x-till-note': 'a\u0000b' }), 'x-till-note', /NUL/);
  });

  it('deeply nested JSON is refused by the schema, not by a stack overflow', async () => {
    const { secret } = await venueWithKey(t);
    const deep = `{"url":"${HOOK}","description":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expectInvalid(await client(t, secret).post('/api/v1/webhook_endpoints', deep), 'description');
  });
});

describe('every route, from the one edge check', () => {
  // Every API route in the scope table and the QR page: a NUL in each path parameter, in a query value and in a
  // body field name is refused naming it, before the route's own code or schema runs.
  const routes = [...Object.keys(ROUTE_SCOPES).map((r) => r.replace(' ', ' /api')), 'GET /m/:venue_slug/:table_code'];

  it.each(routes)('%s', async (route) => {
    const [method, pattern] = route.split(' ') as [string, string];
    const { secret } = await venueWithKey(t);
    const params = pattern.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1));
    const fill = (nul?: string) => pattern.replace(/:([a-z_]+)/g, (_m, name: string) => (name === nul ? 'a%00b' : 'x1'));
    const send = (url: string, body?: string) => request(t, method, url, { key: secret, body });
    for (const name of params) expectInvalid(await send(fill(name)), name, /NUL/);
    expectInvalid(await send(`${fill()}?note=%00`), 'note', /NUL/);
    if (['POST', 'PUT', 'PATCH'].includes(method)) expectInvalid(await send(fill(), '{"x\\u0000":1}'), 'x\\u0000', /field name/);
  });
});

describe('date-times the database can hold', () => {
  it.each([
    ['0000-01-01T00:00:00Z', 'year 0000'],
    ['0001-01-01T00:30:00+01:00', 'an offset that moves it into year 0000'],
    ['2024-02-30T00:00:00Z', 'a day that does not exist'],
    ['2024-06-30T23:59:60Z', 'a leap second'],
    ['2024-05-01T12:30:00', 'no UTC offset'],
    ['+010000-01-01T00:00:00Z', 'a six-digit year'],
  ])('created_after=%s (%s) is 400 naming created_after', async (value) => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).get(`/api/v1/orders?created_after=${encodeURIComponent(value)}`);
    expectInvalid(res, 'created_after', /years 0001 to 9999/);
  });

  it('the edges of the range are accepted', async () => {
    const { secret } = await venueWithKey(t);
    for (const value of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2024-05-01T12:30:00.123456+05:30']) {
      expect((await client(t, secret).get(`/api/v1/orders?created_after=${encodeURIComponent(value)}`)).status).toBe(200);
    }
  });

  it('format date (YYYY-MM-DD) is held to the same years, for routes that take days', () => {
    expect(['0001-01-01', '2024-02-29', '9999-12-31'].map(isStorableDate)).toEqual([true, true, true]);
    expect(['0000-01-01', '2023-02-29', '2024-13-01', '24-01-01', '2024-1-1'].map(isStorableDate)).toEqual([false, false, false, false, false]);
  });

  it('closed_at in year 0000 is 400 naming closed_at, before the check is looked at', async () => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).post('/api/v1/checks', {
      external_id: 'Y0',
      card_number: 'NOBODY',
      line_items: [{ name: 'Coffee', quantity: 1, unit_price: 300 }],
      closed_at: '0000-12-31T23:59:59Z',
    });
    expectInvalid(res, 'closed_at', /years 0001 to 9999/);
  });
});

describe('unknown query parameters', () => {
  it('are 400 naming the parameter on a route that takes none and on one that takes others', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    expectInvalid(await api.get('/api/v1/account?colour=red'), 'colour', /takes none/);
    expectInvalid(await api.get('/api/v1/orders?limit=5&colour=red'), 'colour');
    expectInvalid(await api.post('/api/v1/webhook_endpoints?debug=1', { url: HOOK }), 'debug');
    expectInvalid(await client(t, null).get('/healthz?verbose=1'), 'verbose');
    expectInvalid(await client(t, null).post('/api/public/v1/menus/x/orders?ref=qr', { table_code: 't', items: [] }), 'ref');
  });

  it('are left to pages and files served to browsers, where links add their own (utm_source, cache-busters)', async () => {
    const venue = await createVenue(t);
    const table = await createTable(t, venue, 'Window');
    const page = await client(t, null).get(`/m/${venue.slug}/${table.tableCode}?utm_source=qr&fbclid=abc`);
    expect(page.status).toBe(200);
    expect((await client(t, null).get('/api/docs/static/index.css?v=3')).status).toBe(200);
  });
});

describe('Idempotency-Key at the edge', () => {
  it('255 printable characters are accepted; 256, a control character or non-ASCII are 400 naming the header', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    const ok = await api.post('/api/v1/webhook_endpoints', { url: HOOK }, { 'idempotency-key': 'k'.repeat(255) });
    expect(ok.status).toBe(201);
    for (const key of ['k'.repeat(256), 'tab\tkey', 'bell\u0007', 'ключ', 'del\u007f']) {
      const res = await api.post('/api/v1/webhook_endpoints', { url: HOOK }, { 'idempotency-key': key });
      expectInvalid(res, 'Idempotency-Key', /1 to 255 printable ASCII/);
    }
  });

  it('is refused on routes that do not use it too, and before the work runs', async () => {
    const { secret } = await venueWithKey(t);
    const long = { 'idempotency-key': 'k'.repeat(300) };
    expectInvalid(await client(t, secret).get('/api/v1/account', long), 'Idempotency-Key');
    const endpoint = await client(t, secret).post('/api/v1/webhook_endpoints', { url: HOOK });
    expectInvalid(await client(t, secret).post(`/api/v1/webhook_endpoints/${endpoint.body.id}/test`, undefined, long), 'Idempotency-Key');
    const { venue, table } = await venueWithMenu();
    const res = await request(t, 'POST', `/api/public/v1/menus/${venue.slug}/orders`, {
      body: { table_code: table.tableCode, items: [{ external_id: 'soup', quantity: 1 }] },
      headers: long,
    });
    expectInvalid(res, 'Idempotency-Key');
  });
});

describe('public order replay', () => {
  const place = (slug: string, body: unknown, key?: string) =>
    request(t, 'POST', `/api/public/v1/menus/${slug}/orders`, { body, headers: key ? { 'idempotency-key': key } : {} });

  it('the same Idempotency-Key and body answers exactly like the first time and places one order', async () => {
    const { venue, till, table } = await venueWithMenu();
    const body = { table_code: table.tableCode, items: [{ external_id: 'soup', quantity: 2 }], comment: 'window seat' };
    const first = await place(venue.slug, body, 'guest-7f3a');
    expect(first.status).toBe(201);
    const again = await place(venue.slug, body, 'guest-7f3a');
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const orders = await till.get('/api/v1/orders');
    expect(orders.body.data.map((o: { id: string }) => o.id)).toEqual([first.body.id]);

    expectError(await place(venue.slug, { ...body, comment: 'other' }, 'guest-7f3a'), 400, 'idempotency_key_reused', 'idempotency_error');
    // Without a key every post is a new order, as before.
    expect((await place(venue.slug, body)).body.id).not.toBe(first.body.id);
  });

  it('a refusal is replayed too, even once the dish is back on the menu', async () => {
    const { venue, till, table } = await venueWithMenu();
    const body = { table_code: table.tableCode, items: [{ external_id: 'pie', quantity: 1 }] };
    const first = await place(venue.slug, body, 'guest-pie');
    const e = expectError(first, 409, 'dish_unavailable');
    expect((await till.patch('/api/v1/menu/items/pie', { available: true })).status).toBe(200);
    const again = await place(venue.slug, body, 'guest-pie');
    expect(expectError(again, 409, 'dish_unavailable')).toEqual(e);
    expect((await place(venue.slug, body, 'guest-pie-2')).status).toBe(201);
  });

  it("a guest's key is kept per venue, apart from the venue's own API keys", async () => {
    const a = await venueWithMenu();
    const b = await venueWithMenu();
    const order = (table: string) => ({ table_code: table, items: [{ external_id: 'soup', quantity: 1 }] });
    const atA = await place(a.venue.slug, order(a.table.tableCode), 'shared-key');
    const atB = await place(b.venue.slug, order(b.table.tableCode), 'shared-key');
    expect([atA.status, atB.status]).toEqual([201, 201]);
    expect(atB.body.id).not.toBe(atA.body.id);
    // The venue's till using the same key for its own call is not answered with the guest's order.
    for (const key of ['shared-key', 'public:shared-key']) {
      const mine = await a.till.post('/api/v1/webhook_endpoints', { url: HOOK }, { 'idempotency-key': key });
      expect(mine.status).toBe(201);
      expect(mine.body.object).toBe('webhook_endpoint');
    }
  });
});
