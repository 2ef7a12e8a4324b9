// Idempotency-Key (D6): replays, reuse with another body, concurrency, refusals remembered, 24-hour memory.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { onPostgres } from '../support/database.js';
import { createKey, venueWithKey } from '../support/factories.js';
import { client, expectError } from '../support/http.js';

const t = useTestApp();
const body = { url: 'https://hooks.example.com/idem' };

async function countEndpoints(venueId: string): Promise<number> {
  const row = await t.db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('venue_id', '=', venueId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('Idempotency-Key', () => {
  it('a replay returns the same status and body with Idempotent-Replayed: true, and creates nothing more', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    const first = await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'create-1' });
    const again = await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'create-1' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countEndpoints(venue.id)).toBe(1);
  });

  it('the same key with a different body is 400 idempotency_key_reused', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'k2' });
    const res = await api.post('/api/v1/webhook_endpoints', { ...body, description: 'other' }, { 'idempotency-key': 'k2' });
    expectError(res, 400, 'idempotency_key_reused', 'idempotency_error');
  });

  it('key order in the JSON body does not make a different request', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    await api.post('/api/v1/webhook_endpoints', { url: body.url, description: 'd' }, { 'idempotency-key': 'k3' });
    const res = await api.post('/api/v1/webhook_endpoints', { description: 'd', url: body.url }, { 'idempotency-key': 'k3' });
    expect(res.headers['idempotent-replayed']).toBe('true');
  });

  it('two concurrent requests with one key create exactly one object', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    const results = await Promise.all(
      Array.from({ length: 2 }, () => api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'race' })),
    );
    expect(await countEndpoints(venue.id)).toBe(1);
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 409, 'idempotency_key_in_use', 'idempotency_error');
  });

  // PGlite has one connection, so a second request simply waits its turn; PostgreSQL shows the in-flight case.
  it.runIf(onPostgres())('a request while the first with the same key is still running is 409 idempotency_key_in_use', async () => {
    const { venue, secret } = await venueWithKey(t);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const first = t.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`${venue.id}:in-flight`}, 0))`.execute(trx);
      locked();
      await held;
    });
    await isLocked;
    const res = await client(t, secret).post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'in-flight' });
    release();
    await first;
    expectError(res, 409, 'idempotency_key_in_use', 'idempotency_error');
  });

  it('a refusal by the service is remembered and replayed with the current request id', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    t.dns.set('flaky.example.com', ['10.0.0.1']);
    const first = await api.post('/api/v1/webhook_endpoints', { url: 'https://flaky.example.com/x' }, { 'idempotency-key': 'k4' });
    expectError(first, 400, 'parameter_invalid');
    t.dns.set('flaky.example.com', ['93.184.216.34']);
    const again = await api.post('/api/v1/webhook_endpoints', { url: 'https://flaky.example.com/x' }, { 'idempotency-key': 'k4' });
    expectError(again, 400, 'parameter_invalid');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.error).toEqual(first.body.error);
    expect(again.body.request_id).not.toBe(first.body.request_id);
    expect(await countEndpoints(venue.id)).toBe(0);
  });

  it('keys are scoped to the venue and shared by its keys', async () => {
    const a = await venueWithKey(t);
    const b = await venueWithKey(t);
    const { secret: a2 } = await createKey(t, a.venue);
    const first = await client(t, a.secret).post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'shared' });
    const sameVenue = await client(t, a2).post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'shared' });
    const otherVenue = await client(t, b.secret).post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'shared' });
    expect(sameVenue.body.id).toBe(first.body.id);
    expect(otherVenue.status).toBe(201);
    expect(otherVenue.headers['idempotent-replayed']).toBeUndefined();
  });

  it('is remembered for 24 hours', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'day' });
    t.clock.advance(23 * 3600_000);
    expect((await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'day' })).headers['idempotent-replayed']).toBe('true');
    t.clock.advance(2 * 3600_000);
    const fresh = await api.post('/api/v1/webhook_endpoints', body, { 'idempotency-key': 'day' });
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(await countEndpoints(venue.id)).toBe(2);
  });

  it('works on PATCH and DELETE, and refuses a malformed key', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    const { body: created } = await api.post('/api/v1/webhook_endpoints', body);
    const path = `/api/v1/webhook_endpoints/${created.id}`;
    await api.delete(path, { 'idempotency-key': 'del' });
    const again = await api.delete(path, { 'idempotency-key': 'del' });
    expect([again.status, again.headers['idempotent-replayed'], again.body.deleted]).toEqual([200, 'true', true]);
    const bad = await api.patch(path, { description: 'x' }, { 'idempotency-key': 'x'.repeat(256) });
    expect(expectError(bad, 400, 'parameter_invalid').param).toBe('Idempotency-Key');
  });
});
