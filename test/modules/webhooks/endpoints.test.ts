// Webhook endpoint CRUD exactly as the contract's table, URL validation of D15, and tenant isolation.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { venueWithKey } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();
const URL_OK = 'https://hooks.example.com/venue-loyalty';

describe('webhook endpoints', () => {
  it('creation answers 201 with the whsec_ secret, which no later response shows', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    const created = await api.post('/api/v1/webhook_endpoints', { url: URL_OK, events: ['order.created'], description: 'Kitchen' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'webhook_endpoint',
      url: URL_OK,
      description: 'Kitchen',
      events: ['order.created'],
      status: 'enabled',
      disabled_reason: null,
      livemode: false,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    const id = created.body.id;
    const later = [
      await api.get(`/api/v1/webhook_endpoints/${id}`),
      await api.get('/api/v1/webhook_endpoints'),
      await api.patch(`/api/v1/webhook_endpoints/${id}`, { description: 'Bar' }),
    ];
    for (const res of later) {
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(created.body.secret);
      expect(JSON.stringify(res.body)).not.toContain('"secret"');
    }
  });

  it('events omitted at creation means all events, shown as ["*"]', async () => {
    const { secret } = await venueWithKey(t);
    const created = await client(t, secret).post('/api/v1/webhook_endpoints', { url: URL_OK });
    expect(created.body.events).toEqual(['*']);
  });

  it('an unknown event type is refused with param events', async () => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).post('/api/v1/webhook_endpoints', { url: URL_OK, events: ['order.eaten'] });
    const e = expectError(res, 400, 'parameter_invalid', 'invalid_request_error');
    expect(e.param).toBe('events');
    expect(e.message).toContain('order.eaten');
  });

  it('patch changes url, events and description, and enabled toggles the status', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    const { body: created } = await api.post('/api/v1/webhook_endpoints', { url: URL_OK });
    const path = `/api/v1/webhook_endpoints/${created.id}`;
    const changed = await api.patch(path, { url: 'https://hooks.example.com/v2', events: ['transaction.completed'], description: 'Till' });
    expect(changed.body).toMatchObject({ url: 'https://hooks.example.com/v2', events: ['transaction.completed'], description: 'Till' });
    const disabled = await api.patch(path, { enabled: false });
    expect(disabled.body).toMatchObject({ status: 'disabled', disabled_reason: 'disabled_by_api' });
    const enabled = await api.patch(path, { enabled: true });
    expect(enabled.body).toMatchObject({ status: 'enabled', disabled_reason: null });
    expect((await api.get(path)).body).toEqual(enabled.body);
  });

  it('patch re-validates the url', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    const { body: created } = await api.post('/api/v1/webhook_endpoints', { url: URL_OK });
    const res = await api.patch(`/api/v1/webhook_endpoints/${created.id}`, { url: 'https://10.1.2.3/hook' });
    expect(expectError(res, 400, 'parameter_invalid').param).toBe('url');
  });

  it('delete answers {object, id, deleted: true} and the endpoint is gone', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    const { body: created } = await api.post('/api/v1/webhook_endpoints', { url: URL_OK });
    const res = await api.delete(`/api/v1/webhook_endpoints/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'webhook_endpoint', id: created.id, deleted: true });
    expectError(await api.get(`/api/v1/webhook_endpoints/${created.id}`), 404, 'webhook_endpoint_not_found');
    expectError(await api.delete(`/api/v1/webhook_endpoints/${created.id}`), 404, 'webhook_endpoint_not_found');
  });

  it('an id that is not a UUID is simply not found', async () => {
    const { secret } = await venueWithKey(t);
    expectError(await client(t, secret).get('/api/v1/webhook_endpoints/nope'), 404, 'webhook_endpoint_not_found');
  });
});

describe('webhook URL validation', () => {
  it.each([
    'http://hooks.example.com/x',
    'https://127.0.0.1/x',
    'https://localhost/x',
    'https://[::1]/x',
    'https://10.0.0.1/x',
    'https://169.254.169.254/latest/meta-data',
    'https://[::ffff:127.0.0.1]/x',
    'https://192.168.1.10/x',
    'https://172.16.0.1/x',
    'https://100.64.0.1/x',
    'https://0.0.0.0/x',
    'https://[fd00::1]/x',
    'https://[fe80::1]/x',
    'https://[::127.0.0.1]/x',
    'https://[::a9fe:a9fe]/x',
    'https://[::a00:1]/x',
    'https://[::2]/x',
    'https://224.0.0.1/x',
    'https://2130706433/x',
    'https://user:pass@hooks.example.com/x',
    'not a url',
    'ftp://hooks.example.com/x',
  ])('refuses %s with param url', async (url) => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).post('/api/v1/webhook_endpoints', { url });
    expect(expectError(res, 400, 'parameter_invalid', 'invalid_request_error').param).toBe('url');
  });

  it('a refusal a developer meets when testing locally (http, localhost, a private address) names the setting that allows it, and only its name', async () => {
    t.dns.set('internal.example.com', ['10.0.0.7']);
    const { secret } = await venueWithKey(t);
    for (const url of ['http://hooks.example.com/x', 'https://localhost:4000/x', 'https://127.0.0.1/x', 'https://internal.example.com/x']) {
      const error = expectError(await client(t, secret).post('/api/v1/webhook_endpoints', { url }), 400, 'parameter_invalid');
      expect(error.message, url).toContain('WEBHOOK_ALLOW_PRIVATE_URLS=true');
      expect(error.message, url).not.toMatch(/\btrue\b.*\btrue\b/);
    }
    // Not where the setting would not help.
    for (const url of ['ftp://hooks.example.com/x', 'https://user:pass@hooks.example.com/x', 'not a url']) {
      expect(expectError(await client(t, secret).post('/api/v1/webhook_endpoints', { url }), 400, 'parameter_invalid').message, url).not.toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
    }
  });

  it('refuses a host name that resolves to a private address, or to any private one among public ones', async () => {
    t.dns.set('internal.example.com', ['10.0.0.7']);
    t.dns.set('mixed.example.com', ['93.184.216.34', '127.0.0.1']);
    const { secret } = await venueWithKey(t);
    for (const host of ['internal.example.com', 'mixed.example.com', 'unresolvable.example.com']) {
      const res = await client(t, secret).post('/api/v1/webhook_endpoints', { url: `https://${host}/x` });
      expect(expectError(res, 400, 'parameter_invalid').param).toBe('url');
    }
  });

  it('accepts a public host name and a public IP literal', async () => {
    const { secret } = await venueWithKey(t);
    for (const url of [URL_OK, 'https://93.184.216.34/hook', 'https://[2606:2800:220:1:248:1893:25c8:1946]/hook']) {
      expect((await client(t, secret).post('/api/v1/webhook_endpoints', { url })).status).toBe(201);
    }
  });
});

describe('tenant isolation', () => {
  it("a key of venue A gets 404 for venue B's endpoint, and B's endpoints never appear in A's list", async () => {
    const a = client(t, (await venueWithKey(t)).secret);
    const b = client(t, (await venueWithKey(t)).secret);
    const { body: ofB } = await b.post('/api/v1/webhook_endpoints', { url: URL_OK });
    const { body: ofA } = await a.post('/api/v1/webhook_endpoints', { url: URL_OK });
    const path = `/api/v1/webhook_endpoints/${ofB.id}`;
    const missing = await a.get(`/api/v1/webhook_endpoints/00000000-0000-7000-8000-000000000000`);
    for (const res of [await a.get(path), await a.patch(path, { description: 'mine now' }), await a.delete(path)]) {
      const e = expectError(res, 404, 'webhook_endpoint_not_found');
      expect(e.message).toBe(missing.body.error.message);
    }
    expect((await a.get('/api/v1/webhook_endpoints')).body.data.map((e: { id: string }) => e.id)).toEqual([ofA.id]);
    expect((await b.get(path)).body.description).toBeNull();
  });
});
