// The dashboard's operational API over HTTP: transactions (filters, one by id, CSV), webhooks, overview, menu,
// tables and orders; each refuses another venue's ids (404) and changes without the CSRF token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client, expectError } from '../support/http.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createWebhookWorker } from '../../src/server.js';
import { quietLog } from '../support/webhooks.js';
import { signedUpOwner, type DashboardClient } from './support.js';

// Webhook tests deliver to a receiver on loopback.
const t = useTestApp({ config: { webhookAllowPrivateUrls: true } });

/** A change sent with the session cookie but without the CSRF token. */
async function withoutCsrf(c: DashboardClient, method: 'POST' | 'DELETE' | 'PATCH', url: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: { cookie: c.cookie!, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

/** A signed-up owner with a test and a live till key, a member and three checks on two registers and two days. */
async function venueWithChecks() {
  const o = await signedUpOwner(t, 'Checks Bar');
  const key = async (livemode: boolean) =>
    (await o.c.post('/dashboard/api/api-keys', { name: livemode ? 'Live till' : 'Test till', livemode, scopes: [] })).body.secret as string;
  const live = client(t, await key(true));
  const test = client(t, await key(false));
  expect((await live.post('/api/v1/members', { card_number: 'TX-1', consent: true, name: 'Nora Quinn' })).status).toBe(201);
  const check = (external_id: string, register_id: string, closed_at: string, price: number) => ({
    external_id,
    register_id,
    closed_at,
    card_number: 'TX-1',
    line_items: [{ sku: 'SOUP', name: 'Soup, "house"', quantity: 1, unit_price: price }],
  });
  const a = await live.post('/api/v1/checks', check('=A-1', 'till-1', '2026-11-20T12:00:00.000Z', 2000));
  const b = await live.post('/api/v1/checks', check('B-1', 'till-2', '2026-11-22T09:00:00.000Z', 1500));
  const c = await test.post('/api/v1/checks', check('C-1', 'till-1', '2026-11-22T09:30:00.000Z', 1000));
  for (const r of [a, b, c]) expect(r.status).toBe(201);
  expect((await live.post('/api/v1/transactions/B-1/void', { register_id: 'till-2' })).status).toBe(200);
  return { ...o, live, test, ids: { a: a.body.id as string, b: b.body.id as string, c: c.body.id as string } };
}

const externalIds = async (c: DashboardClient, query: string) =>
  (await c.get(`/dashboard/api/transactions${query}`)).body.data.map((tx: { external_id: string }) => tx.external_id);

describe('transactions', () => {
  it('lists every key’s checks newest first, filtered by venue day, register, mode and status', async () => {
    const { c } = await venueWithChecks();
    expect(await externalIds(c, '')).toEqual(['C-1', 'B-1', '=A-1']);
    expect(await externalIds(c, '?from=2026-11-21')).toEqual(['C-1', 'B-1']);
    expect(await externalIds(c, '?to=2026-11-21')).toEqual(['=A-1']);
    expect(await externalIds(c, '?from=2026-11-20&to=2026-11-20')).toEqual(['=A-1']);
    expect(await externalIds(c, '?register_id=till-1')).toEqual(['C-1', '=A-1']);
    expect(await externalIds(c, '?livemode=false')).toEqual(['C-1']);
    expect(await externalIds(c, '?livemode=true&status=completed')).toEqual(['=A-1']);
    expect(await externalIds(c, '?status=voided')).toEqual(['B-1']);
    const page = (await c.get('/dashboard/api/transactions?limit=2')).body;
    expect(page.has_more).toBe(true);
    const next = (await c.get(`/dashboard/api/transactions?limit=2&starting_after=${page.data[1].id}`)).body;
    expect(next.data.map((tx: { external_id: string }) => tx.external_id)).toEqual(['=A-1']);
    expect((await c.get('/dashboard/api/transactions/registers')).body).toEqual(['till-1', 'till-2']);
    expect(expectError(await c.get('/dashboard/api/transactions?from=2026-11-22&to=2026-11-21'), 400, 'parameter_invalid').param).toBe('to');
    expect(expectError(await c.get('/dashboard/api/transactions?from=22.11.2026'), 400, 'parameter_invalid').param).toBe('from');
    expect(expectError(await c.get('/dashboard/api/transactions?status=open'), 400, 'parameter_invalid').param).toBe('status');
  });

  it('one transaction by id: lines with their rule sources, and the display text', async () => {
    const { c, ids } = await venueWithChecks();
    const tx = (await c.get(`/dashboard/api/transactions/${ids.a}`)).body;
    expect(tx.member).toMatchObject({ name: 'Nora Quinn', card_number: 'TX-1' });
    expect(tx).toMatchObject({ object: 'transaction', external_id: '=A-1', register_id: 'till-1', status: 'completed', livemode: true, subtotal: 2000 });
    expect(tx.line_items[0]).toMatchObject({ sku: 'SOUP', rule_source: 'default', amount: 2000 });
    expect(tx.display.receipt.join('\n')).toContain('Cashback earned');
    expectError(await c.get('/dashboard/api/transactions/not-an-id'), 404, 'transaction_not_found');
  });

  it('exports the filtered list as CSV, amounts in the currency’s unit, formula-like text defused', async () => {
    const { c } = await venueWithChecks();
    const res = await c.get('/dashboard/api/transactions/export.csv?register_id=till-1');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="transactions-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = String(res.body).trimEnd().split('\r\n');
    expect(lines[0]).toBe('created_at,closed_at,external_id,register_id,member_id,status,mode,currency,subtotal,discount,redeemed,earned,paid,refunded,lines,id');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^[^,]+,2026-11-22T09:30:00\.000\+00:00,C-1,till-1,[0-9a-f-]{36},completed,test,EUR,10\.00,0\.00,0\.00,0\.50,10\.00,0\.00,1,[0-9a-f-]{36}$/);
    expect(lines[2]).toContain(",'=A-1,till-1,");
    expect(expectError(await c.get('/dashboard/api/transactions/export.csv?livemode=maybe'), 400, 'parameter_invalid').param).toBe('livemode');
    // A date that does not exist (9885 is no leap year) is refused, not handed to PostgreSQL (a 500 the fuzzer found).
    expect(expectError(await c.get('/dashboard/api/transactions/export.csv?to=9885-02-29'), 400, 'parameter_invalid').param).toBe('to');
    expect(expectError(await c.get('/dashboard/api/transactions?from=2023-02-29'), 400, 'parameter_invalid').param).toBe('from');
  });

  it('exports a plain negative number as a number and a formula behind a minus sign defused, as every other download', async () => {
    // A till that numbers its returns below zero sends "-1042": a spreadsheet reads it as the number it is, so it
    // stays as sent (the transactions export once prefixed it, unlike the dashboard's other CSV files); "-1+2" is a
    // formula and is defused.
    const { c } = await signedUpOwner(t, 'Returns Bar');
    const live = client(t, (await c.post('/dashboard/api/api-keys', { name: 'Till', livemode: true, scopes: [] })).body.secret as string);
    for (const external_id of ['-1042', '-1+2']) {
      const res = await live.post('/api/v1/checks', { external_id, register_id: '-7', line_items: [{ name: 'Soup', quantity: 1, unit_price: 500 }] });
      expect(res.status).toBe(201);
    }
    const lines = String((await c.get('/dashboard/api/transactions/export.csv')).body).trimEnd().split('\r\n');
    expect(lines.slice(1).map((line) => line.split(',').slice(2, 4))).toEqual([
      ["'-1+2", '-7'],
      ['-1042', '-7'],
    ]);
  });

  it('another venue’s owner sees none of them; no session, no list', async () => {
    const { ids } = await venueWithChecks();
    const { c: other } = await signedUpOwner(t, 'Other Bar');
    expectError(await other.get(`/dashboard/api/transactions/${ids.a}`), 404, 'transaction_not_found');
    expect((await other.get('/dashboard/api/transactions')).body.data).toEqual([]);
    expect(String((await other.get('/dashboard/api/transactions/export.csv')).body).trimEnd().split('\r\n')).toHaveLength(1);
    expectError(await other.get(`/dashboard/api/transactions?starting_after=${ids.a}`), 400, 'parameter_invalid');
    const anon = await t.app.inject({ method: 'GET', url: '/dashboard/api/transactions/export.csv' });
    expect(anon.statusCode).toBe(401);
  });
});

describe('webhooks', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('registers an endpoint (secret once), sends a test event, lists its attempts, re-enables it, removes it', async () => {
    const { c } = await signedUpOwner(t, 'Hooks Bar');
    const created = await c.post('/dashboard/api/webhook-endpoints', { url: receiver.url, description: 'Kitchen screen' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'webhook_endpoint', url: receiver.url, events: ['*'], status: 'enabled', livemode: true });
    expect(created.body.secret).toMatch(/^whsec_/);
    const id = created.body.id;
    const listed = (await c.get('/dashboard/api/webhook-endpoints')).body;
    expect(listed).toHaveLength(1);
    expect(listed[0].secret).toBeUndefined();
    expect(expectError(await c.post('/dashboard/api/webhook-endpoints', { url: 'ftp://x' }), 400, 'parameter_invalid').param).toBe('url');

    const before = receiver.requests.length;
    const test = await c.post(`/dashboard/api/webhook-endpoints/${id}/test`);
    expect(test.body).toEqual({ object: 'webhook_test', delivered: true, status_code: 200, error: null });
    expect(receiver.requests).toHaveLength(before + 1);
    expect(JSON.parse(receiver.requests.at(-1)!.body)).toMatchObject({ type: 'test.ping', livemode: true });
    expect(receiver.requests.at(-1)!.headers['webhook-signature']).toMatch(/^v1,/);
    const attempts = (await c.get(`/dashboard/api/webhook-endpoints/${id}/deliveries`)).body.data;
    expect(attempts[0]).toMatchObject({ event_type: 'test.ping', attempt: 1, status_code: 200, error: null });
    expect(attempts[0].duration_ms).toBeGreaterThanOrEqual(0);

    // Disabled for failures (as the worker writes it); the owner re-enables it.
    const reason = 'Failing since 2026-11-19T08:00:00Z: 12 consecutive failed deliveries and none succeeded.';
    await t.db.updateTable('webhook_endpoints').set({ status: 'disabled', disabled_reason: reason }).where('id', '=', id).execute();
    expect((await c.get('/dashboard/api/webhook-endpoints')).body[0]).toMatchObject({ status: 'disabled', disabled_reason: reason });
    const enabled = await c.post(`/dashboard/api/webhook-endpoints/${id}/enable`);
    expect(enabled.body).toMatchObject({ status: 'enabled', disabled_reason: null });
    expect(enabled.body.secret).toBeUndefined();

    expect((await c.delete(`/dashboard/api/webhook-endpoints/${id}`)).body).toEqual({ ok: true });
    expect((await c.get('/dashboard/api/webhook-endpoints')).body).toEqual([]);
  });

  it('edits an endpoint, disables it (events wait) and re-enables it; an event sent again arrives again, once more', async () => {
    const { c } = await signedUpOwner(t, 'Hooks Edit Bar');
    const id = (await c.post('/dashboard/api/webhook-endpoints', { url: receiver.url })).body.id;
    const edited = await c.patch(`/dashboard/api/webhook-endpoints/${id}`, { url: `${receiver.url}/v2`, description: 'Kitchen', events: ['order.created', 'test.ping'] });
    expect(edited.body).toMatchObject({ url: `${receiver.url}/v2`, description: 'Kitchen', events: ['order.created', 'test.ping'] });
    expect(expectError(await c.patch(`/dashboard/api/webhook-endpoints/${id}`, { events: ['no.such'] }), 400, 'parameter_invalid').param).toMatch(/^events/);
    expect((await c.patch(`/dashboard/api/webhook-endpoints/${id}`, { enabled: false })).body).toMatchObject({ status: 'disabled', disabled_reason: 'disabled_by_api' });
    expect((await c.patch(`/dashboard/api/webhook-endpoints/${id}`, { enabled: true })).body.status).toBe('enabled');

    // A ping to send again: the resend is a new delivery, due now, which a worker sends.
    const ping = await c.post(`/dashboard/api/webhook-endpoints/${id}/test`);
    expect(ping.body.delivered).toBe(true);
    const first = (await c.get(`/dashboard/api/webhook-endpoints/${id}/deliveries`)).body.data[0];
    const arrived = receiver.requests.length;
    const resent = await c.post(`/dashboard/api/webhook-endpoints/${id}/events/${first.event_id}/resend`);
    expect([resent.status, resent.body.event_id]).toEqual([202, first.event_id]);
    const { worker, close } = createWebhookWorker(t.config, t.testDatabase.database, quietLog, t.resolveHost);
    try {
      expect(await worker.deliverDue()).toBe(1);
    } finally {
      await close();
    }
    expect(receiver.requests.length).toBe(arrived + 1);
    expect(JSON.parse(receiver.requests.at(-1)!.body).id).toBe(first.event_id);
    const log = (await c.get(`/dashboard/api/webhook-endpoints/${id}/deliveries`)).body.data;
    expect(log.map((a: { event_id: string; attempt: number }) => [a.event_id, a.attempt])).toEqual([[first.event_id, 1], [first.event_id, 1]]);
    // Only an event the endpoint was sent: another is 404, as is another chain's endpoint.
    expectError(await c.post(`/dashboard/api/webhook-endpoints/${id}/events/00000000-0000-4000-8000-000000000000/resend`), 404, 'event_not_found');
    const other = await signedUpOwner(t, 'Hooks Other Bar');
    expectError(await other.c.post(`/dashboard/api/webhook-endpoints/${id}/events/${first.event_id}/resend`), 404, 'webhook_endpoint_not_found');
    expectError(await other.c.patch(`/dashboard/api/webhook-endpoints/${id}`, { enabled: false }), 404, 'webhook_endpoint_not_found');
  });

  it('a failing receiver is reported, not an error', async () => {
    const { c } = await signedUpOwner(t, 'Hooks Bar 2');
    const id = (await c.post('/dashboard/api/webhook-endpoints', { url: receiver.url })).body.id;
    receiver.respond((_req, res) => res.writeHead(503).end('down'));
    try {
      expect((await c.post(`/dashboard/api/webhook-endpoints/${id}/test`)).body).toMatchObject({ delivered: false, status_code: 503 });
    } finally {
      receiver.respond((_req, res) => res.writeHead(200).end('ok'));
    }
    expect((await c.get(`/dashboard/api/webhook-endpoints/${id}/deliveries`)).body.data[0]).toMatchObject({ status_code: 503 });
  });

  it("another venue's owner gets 404 for its endpoints; changes need the CSRF token", async () => {
    const a = await signedUpOwner(t, 'Hooks A');
    const b = await signedUpOwner(t, 'Hooks B');
    const id = (await a.c.post('/dashboard/api/webhook-endpoints', { url: receiver.url })).body.id;
    const sent = receiver.requests.length;
    expectError(await b.c.get(`/dashboard/api/webhook-endpoints/${id}/deliveries`), 404, 'webhook_endpoint_not_found');
    expectError(await b.c.post(`/dashboard/api/webhook-endpoints/${id}/test`), 404, 'webhook_endpoint_not_found');
    expectError(await b.c.post(`/dashboard/api/webhook-endpoints/${id}/enable`), 404, 'webhook_endpoint_not_found');
    expectError(await b.c.delete(`/dashboard/api/webhook-endpoints/${id}`), 404, 'webhook_endpoint_not_found');
    expect((await b.c.get('/dashboard/api/webhook-endpoints')).body).toEqual([]);
    expect(receiver.requests.length).toBe(sent);

    expectError(await withoutCsrf(a.c, 'POST', `/dashboard/api/webhook-endpoints/${id}/test`), 403, 'csrf_token_invalid');
    expectError(await withoutCsrf(a.c, 'POST', `/dashboard/api/webhook-endpoints/${id}/enable`), 403, 'csrf_token_invalid');
    expectError(await withoutCsrf(a.c, 'DELETE', `/dashboard/api/webhook-endpoints/${id}`), 403, 'csrf_token_invalid');
    expectError(await withoutCsrf(a.c, 'POST', '/dashboard/api/webhook-endpoints', { url: receiver.url }), 403, 'csrf_token_invalid');
    expect(receiver.requests.length).toBe(sent);
    expect((await a.c.get('/dashboard/api/webhook-endpoints')).body).toHaveLength(1);
  });
});

describe('overview', () => {
  it("today's and this month's figures, live apart from test, a 30-day series and the outstanding cashback", async () => {
    const { c, venue } = await venueWithChecks();
    // Rows take the database's clock; the test's clock says it is 2026-11-22, so the member joined the day before.
    await t.db.updateTable('members').set({ created_at: new Date('2026-11-21T12:00:00Z') }).where('home_venue_id', '=', venue.id).execute();
    const o = (await c.get('/dashboard/api/overview')).body;
    expect(o).toMatchObject({ object: 'overview', currency: 'EUR', today: '2026-11-22', month_start: '2026-11-01' });
    // Today: the live check was voided (nothing left of it); the test check stands apart.
    expect(o.today_figures.live).toMatchObject({ checks: 0, sales: 0, earned: 0, redeemed: 0 });
    expect(o.today_figures.test).toMatchObject({ checks: 1, sales: 1000, earned: 50, redeemed: 0, members_enrolled: 0 });
    expect(o.month_figures.live).toMatchObject({ checks: 1, sales: 2000, earned: 100, redeemed: 0, members_enrolled: 1 });
    expect(o.days).toHaveLength(30);
    expect(o.days[0].day).toBe('2026-10-24');
    expect(o.days.at(-1)).toEqual({ day: '2026-11-22', live: { checks: 0, earned: 0, redeemed: 0 }, test: { checks: 1, earned: 50, redeemed: 0 } });
    expect(o.days.find((d: { day: string }) => d.day === '2026-11-20').live).toEqual({ checks: 1, earned: 100, redeemed: 0 });
    // The member is live; what they hold is the live liability (the test check's cashback went to them too).
    expect(o.balances.live).toEqual({ members: 1, members_with_balance: 1, liability: 150 });
    expect(o.balances.test).toEqual({ members: 0, members_with_balance: 0, liability: 0 });

    const { c: other } = await signedUpOwner(t, 'Empty Bar');
    const empty = (await other.get('/dashboard/api/overview')).body;
    expect(empty.month_figures.live.checks).toBe(0);
    expect(empty.balances.live.liability).toBe(0);
    expectError(await dashboardClientWithout().get('/dashboard/api/overview'), 401, 'session_required');
  });
});

const dashboardClientWithout = () => ({ get: async (url: string) => { const r = await t.app.inject({ method: 'GET', url }); return { status: r.statusCode, headers: r.headers, body: r.json() }; } });

describe('menu, tables and orders', () => {
  async function venueWithMenu() {
    const o = await signedUpOwner(t, 'Menu Bar');
    const secret = (await o.c.post('/dashboard/api/api-keys', { name: 'Menu sync', livemode: true, scopes: [] })).body.secret;
    const sync = client(t, secret);
    const res = await sync.post('/api/v1/menu/items/bulk', {
      items: [
        { external_id: 'soup', name: 'Tomato soup', category: 'Starters', price: 650 },
        { external_id: 'pie', name: 'Apple pie', category: 'Desserts', price: 550 },
      ],
    });
    expect(res.status).toBe(200);
    return { ...o, sync };
  }

  it('tables with their menu address and QR code (SVG and PNG); dishes on and off the stop list', async () => {
    const { c, venue, sync } = await venueWithMenu();
    const created = await c.post('/dashboard/api/tables', { name: 'Window 4', table_code: 'window-4' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ table_code: 'window-4', name: 'Window 4', menu_url: `http://localhost:3000/m/${venue.slug}/window-4` });
    expect((await c.post('/dashboard/api/tables', { name: 'Terrace' })).body.table_code).toMatch(/^[a-z0-9]{6}$/);
    expect(expectError(await c.post('/dashboard/api/tables', { name: 'Again', table_code: 'window-4' }), 400, 'parameter_invalid').param).toBe('table_code');
    expect(expectError(await c.post('/dashboard/api/tables', { name: 'Bad', table_code: 'Window 4' }), 400, 'parameter_invalid').param).toBe('table_code');
    expect((await c.get('/dashboard/api/tables')).body.map((x: { name: string }) => x.name).sort()).toEqual(['Terrace', 'Window 4']);

    const svg = await c.get('/dashboard/api/tables/window-4/qr.svg');
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(String(svg.body)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const png = await t.app.inject({ method: 'GET', url: '/dashboard/api/tables/window-4/qr.png?download=true', headers: { cookie: c.cookie! } });
    expect(png.headers['content-type'], png.body.slice(0, 300)).toBe('image/png');
    expect(png.headers['content-disposition']).toBe('attachment; filename="table-window-4.png"');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(png.rawPayload.readUInt32BE(16)).toBe(1024);

    const dishes = (await c.get('/dashboard/api/dishes')).body.data;
    expect(dishes.map((d: { external_id: string }) => d.external_id).sort()).toEqual(['pie', 'soup']);
    expect((await c.patch('/dashboard/api/dishes/pie', { available: false })).body).toMatchObject({ external_id: 'pie', available: false });
    expect((await sync.get('/api/v1/menu/items/pie')).body.available).toBe(false);
    expectError(await c.patch('/dashboard/api/dishes/nope', { available: false }), 404, 'dish_not_found');
  });

  it("today's orders with their next moves; moving one along the graph", async () => {
    const { c, venue } = await venueWithMenu();
    await c.post('/dashboard/api/tables', { name: 'Table 2', table_code: 't2' });
    const placed = await t.app.inject({
      method: 'POST',
      url: `/api/public/v1/menus/${venue.slug}/orders`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ table_code: 't2', items: [{ external_id: 'soup', quantity: 2, note: 'no croutons' }], comment: 'Quickly please' }),
    });
    expect(placed.statusCode).toBe(201);
    const id = placed.json().id;
    const board = (await c.get('/dashboard/api/orders')).body;
    expect(board).toHaveLength(1);
    expect(board[0]).toMatchObject({ id, status: 'new', table_name: 'Table 2', subtotal: 1300, next_statuses: ['accepted', 'rejected', 'cancelled'] });
    const moved = await c.post(`/dashboard/api/orders/${id}/status`, { status: 'accepted' });
    expect(moved.body).toMatchObject({ status: 'accepted', next_statuses: ['preparing', 'cancelled'] });
    expectError(await c.post(`/dashboard/api/orders/${id}/status`, { status: 'served' }), 409, 'invalid_status_transition');
    expect(expectError(await c.post(`/dashboard/api/orders/${id}/status`, { status: 'eaten' }), 400, 'parameter_invalid').param).toBe('status');
  });

  it("another venue's owner gets 404 for its tables, dishes and orders; changes need the CSRF token", async () => {
    const { c, venue } = await venueWithMenu();
    await c.post('/dashboard/api/tables', { name: 'Table 9', table_code: 't9' });
    const order = await t.app.inject({
      method: 'POST',
      url: `/api/public/v1/menus/${venue.slug}/orders`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ table_code: 't9', items: [{ external_id: 'soup', quantity: 1 }] }),
    });
    const id = order.json().id;
    const { c: other } = await signedUpOwner(t, 'Other Menu Bar');
    expectError(await other.get('/dashboard/api/tables/t9/qr.svg'), 404, 'table_not_found');
    expectError(await other.get('/dashboard/api/tables/t9/qr.png'), 404, 'table_not_found');
    expectError(await other.patch('/dashboard/api/dishes/soup', { available: false }), 404, 'dish_not_found');
    expectError(await other.post(`/dashboard/api/orders/${id}/status`, { status: 'accepted' }), 404, 'order_not_found');
    expect((await other.get('/dashboard/api/orders')).body).toEqual([]);
    expect((await other.get('/dashboard/api/tables')).body).toEqual([]);
    expect((await other.get('/dashboard/api/dishes')).body.data).toEqual([]);

    expectError(await withoutCsrf(c, 'POST', `/dashboard/api/orders/${id}/status`, { status: 'accepted' }), 403, 'csrf_token_invalid');
    expectError(await withoutCsrf(c, 'PATCH', '/dashboard/api/dishes/soup', { available: false }), 403, 'csrf_token_invalid');
    expectError(await withoutCsrf(c, 'POST', '/dashboard/api/tables', { name: 'Sneaky' }), 403, 'csrf_token_invalid');
    expect((await c.get('/dashboard/api/orders')).body[0].status).toBe('new');
    expect((await c.get('/dashboard/api/dishes')).body.data.every((d: { available: boolean }) => d.available)).toBe(true);
    expect((await c.get('/dashboard/api/tables')).body).toHaveLength(1);
  });
});
