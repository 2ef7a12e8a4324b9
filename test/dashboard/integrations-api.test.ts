// The Point of sale page's API (D26) under /dashboard/api/integrations: an owner or a manager connects Square, its
// secrets masked in every answer and never in the audit log, pauses and resumes it, replaces a secret, maps locations
// to venues of the chain only; staff are refused (403); another chain's connection is 404, as one a limited manager's
// venues do not reach; the log is paged newest first and "try again" queues a retryable entry. PUBLIC_BASE_URL on
// this machine is flagged so the page refuses the URL, one on the internet is not.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isLocalBaseUrl } from '../../src/dashboard/integration-routes.js';
import * as accounts from '../../src/modules/accounts/service.js';
import type { Role } from '../../src/modules/accounts/schemas.js';
import { addEntry } from '../../src/integrations/core/queue.js';
import * as integrationRepo from '../../src/integrations/core/repo.js';
import { startTestApp, useTestApp } from '../support/app.js';
import { expectError } from '../support/http.js';
import { PASSWORD, dashboardClient, newEmail, signedUpOwner, type DashboardClient } from './support.js';

const t = useTestApp();
const TOKEN = 'EAAAl-dashboard-token-0123456789WXYZ';
const SIGNATURE_KEY = 'sig-key-dashboard-abcdKEY9';
const API = '/dashboard/api/integrations';

async function chainOf(venueId: string) {
  return (await accounts.findVenue(t.db, venueId))!.chainId;
}

/** Signed in as a new user of the chain with `role`. */
async function signedIn(chainId: string, venueId: string, role: Role): Promise<{ c: DashboardClient; id: string }> {
  const c = dashboardClient(t);
  const email = newEmail();
  const user = await accounts.createOwner(t.db, { chainId, venueId, email, password: PASSWORD, role });
  const res = await c.post('/dashboard/api/session', { email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`sign-in as ${role}: ${res.status} ${JSON.stringify(res.body)}`);
  return { c, id: user.id };
}

const square = (locations: Record<string, string>, name = 'Square tills') => ({
  provider: 'square',
  name,
  locations,
  settings: { access_token: TOKEN, webhook_signature_key: SIGNATURE_KEY },
});

describe('the Point of sale API', () => {
  it('an owner connects Square: secrets shown as …last4 (never in the audit log), pause and resume, a secret replaced, locations changed', async () => {
    const { c, venue } = await signedUpOwner(t, 'POS Bistro');
    const created = await c.post(API, square({ 'L-MAIN': venue.id }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      object: 'integration',
      provider: 'square',
      name: 'Square tills',
      status: 'active',
      livemode: true,
      locations: { 'L-MAIN': venue.id },
      settings: { access_token: '…WXYZ', webhook_signature_key: '…KEY9' },
      endpoint_url: `http://localhost:3000/integrations/square/${id}`,
      public_base_url: 'http://localhost:3000',
      public_base_url_is_local: true,
      failing_since: null,
    });
    expect(JSON.stringify(created.body)).not.toContain(TOKEN);

    const list = await c.get(API);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ public_base_url_is_local: true, public_base_url: 'http://localhost:3000' });
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([id]);
    expect((await c.get(`${API}/${id}`)).body.settings).toEqual({ access_token: '…WXYZ', webhook_signature_key: '…KEY9' });

    expect((await c.patch(`${API}/${id}`, { status: 'paused' })).body.status).toBe('paused');
    expect((await c.patch(`${API}/${id}`, { status: 'active' })).body.status).toBe('active');

    // A failing connection is fresh again once its access token is replaced.
    await integrationRepo.updateIntegration(t.db, await chainOf(venue.id), id, { failing_since: new Date() });
    expect((await c.get(`${API}/${id}`)).body.failing_since).not.toBeNull();
    const replaced = await c.patch(`${API}/${id}`, { settings: { access_token: 'EAAAl-new-token-7777' } });
    expect(replaced.body).toMatchObject({ settings: { access_token: '…7777', webhook_signature_key: '…KEY9' }, failing_since: null });

    const second = await c.post('/dashboard/api/venues', { name: 'POS Bistro Quay', slug: `pos-quay-${randomUUID().slice(0, 6)}` });
    expect(second.status).toBe(201);
    const moved = await c.patch(`${API}/${id}`, { locations: { 'L-MAIN': venue.id, 'L-QUAY': second.body.venue.id } });
    expect(moved.body.locations).toEqual({ 'L-MAIN': venue.id, 'L-QUAY': second.body.venue.id });

    const { rows } = await sql<{ action: string; actor_type: string; changes: unknown }>`select action, actor_type, changes from audit_events
      where target_id = ${id} order by created_at, id`.execute(t.db);
    expect(rows.map((r) => [r.action, r.actor_type])).toEqual([
      ['integration.created', 'user'],
      ['integration.updated', 'user'],
      ['integration.updated', 'user'],
      ['integration.updated', 'user'],
      ['integration.updated', 'user'],
    ]);
    expect(JSON.stringify(rows)).not.toContain('WXYZ');
    expect(JSON.stringify(rows)).not.toContain('7777');

    expect((await c.delete(`${API}/${id}`)).body).toEqual({ object: 'integration', id, deleted: true });
    expectError(await c.get(`${API}/${id}`), 404, 'integration_not_found');
  });

  it('refuses what is not whole: a missing secret, a venue of another chain or not a venue at all, no CSRF token', async () => {
    const { c, venue } = await signedUpOwner(t, 'POS Refusals');
    const other = await signedUpOwner(t, 'POS Elsewhere');
    expect(expectError(await c.post(API, { provider: 'square', settings: { webhook_signature_key: 'sig-key-0123456789' } }), 400, 'parameter_invalid').param).toBe('settings.access_token');
    expect(expectError(await c.post(API, square({ 'L-1': other.venue.id })), 404, 'venue_not_found').param).toBe('locations.L-1');
    expect(expectError(await c.post(API, square({ 'L-1': 'not-a-venue' })), 400, 'parameter_invalid').param).toMatch(/locations/);
    expectError(await c.call('POST', API, square({ 'L-1': venue.id }), { 'x-csrf-token': 'nope' }), 403, 'csrf_token_invalid');
    expect((await c.get(API)).body.data).toEqual([]);
  });

  it('a manager connects and changes one; staff are refused (403) and it stays as it was', async () => {
    const { c: owner, venue } = await signedUpOwner(t, 'POS Roles');
    const chainId = await chainOf(venue.id);
    const { c: manager } = await signedIn(chainId, venue.id, 'manager');
    const created = await manager.post(API, square({ 'L-M': venue.id }, 'Manager tills'));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect((await manager.patch(`${API}/${id}`, { status: 'paused' })).body.status).toBe('paused');
    expect((await owner.get(API)).body.data.map((i: { id: string }) => i.id)).toEqual([id]);

    const { c: staff } = await signedIn(chainId, venue.id, 'staff');
    expect((await staff.get('/dashboard/api/session')).body.allowed).not.toContain('GET /integrations');
    for (const [method, url, body] of [
      ['GET', API],
      ['POST', API, square({ 'L-S': venue.id })],
      ['GET', `${API}/${id}`],
      ['PATCH', `${API}/${id}`, { status: 'active' }],
      ['DELETE', `${API}/${id}`],
      ['GET', `${API}/${id}/log`],
      ['POST', `${API}/${id}/log/${randomUUID()}/retry`],
    ] as const) {
      expectError(await staff.call(method, url, body), 403, 'role_forbidden');
    }
    expect((await owner.get(`${API}/${id}`)).body.status).toBe('paused');
  });

  it("another chain's connection is not found, nor one beyond a limited manager's venues", async () => {
    const a = await signedUpOwner(t, 'POS Chain A');
    const b = await signedUpOwner(t, 'POS Chain B');
    const theirs = (await b.c.post(API, square({ 'L-B': b.venue.id }))).body.id as string;
    for (const [method, url, body] of [
      ['GET', `${API}/${theirs}`],
      ['PATCH', `${API}/${theirs}`, { status: 'paused' }],
      ['DELETE', `${API}/${theirs}`],
      ['GET', `${API}/${theirs}/log`],
      ['POST', `${API}/${theirs}/log/${randomUUID()}/retry`],
      ['GET', `${API}/not-an-id`],
    ] as const) {
      expectError(await a.c.call(method, url, body), 404, 'integration_not_found');
    }
    expect((await a.c.get(API)).body.data).toEqual([]);
    expect((await b.c.get(`${API}/${theirs}`)).body.status).toBe('active');

    // A manager limited to the first venue: connections of that venue only; another venue's, or none, are the owner's.
    const quay = (await a.c.post('/dashboard/api/venues', { name: 'Chain A Quay', slug: `pos-a-quay-${randomUUID().slice(0, 6)}` })).body.venue.id as string;
    const chainId = await chainOf(a.venue.id);
    const email = newEmail();
    const user = await accounts.createOwner(t.db, { chainId, venueId: a.venue.id, email, password: PASSWORD, role: 'manager' });
    expect((await a.c.patch(`/dashboard/api/users/${user.id}`, { venue_ids: [a.venue.id] })).status).toBe(200);
    const limited = dashboardClient(t);
    expect((await limited.post('/dashboard/api/session', { email, password: PASSWORD })).status).toBe(200);

    const first = (await a.c.post(API, square({ 'L-1': a.venue.id }, 'First venue'))).body.id as string;
    const quays = (await a.c.post(API, square({ 'L-Q': quay }, 'Quay'))).body.id as string;
    const none = (await a.c.post(API, square({}, 'Unmapped'))).body.id as string;
    expect((await limited.get(API)).body.data.map((i: { name: string }) => i.name)).toEqual(['First venue']);
    expect((await limited.get(`${API}/${first}`)).status).toBe(200);
    expectError(await limited.get(`${API}/${quays}`), 404, 'integration_not_found');
    expectError(await limited.get(`${API}/${none}`), 404, 'integration_not_found');
    expectError(await limited.patch(`${API}/${quays}`, { status: 'paused' }), 404, 'integration_not_found');
    expect(expectError(await limited.patch(`${API}/${first}`, { locations: { 'L-1': a.venue.id, 'L-Q': quay } }), 404, 'venue_not_found').param).toBe('locations.L-Q');
    expect(expectError(await limited.post(API, square({ 'L-Q2': quay })), 404, 'venue_not_found').param).toBe('locations.L-Q2');
    expect(expectError(await limited.post(API, square({})), 404, 'venue_not_found').param).toBe('locations');
    expect((await a.c.get(`${API}/${quays}`)).body.status).toBe('active');
    expect((await limited.post(API, square({ 'L-2': a.venue.id }, 'Mine'))).status).toBe(201);
  });

  it('the log: newest first, paged; "try again" queues a retryable entry, refuses another, 404 for an unknown one', async () => {
    const { c, venue } = await signedUpOwner(t, 'POS Log');
    const id = (await c.post(API, square({ 'L-LOG': venue.id }))).body.id as string;
    const row = (await integrationRepo.findIntegration(t.db, await chainOf(venue.id), id))!;
    const outcomes = ['applied', 'unmatched_guest', 'bad_signature', 'unknown_location', 'failed'] as const;
    const ids: string[] = [];
    for (const [n, outcome] of outcomes.entries()) {
      t.clock.advance(1_000);
      const payload = outcome === 'bad_signature' ? null : { payment: { id: `PAY-${n}` } };
      const added = await addEntry(
        t.db,
        row,
        { kind: 'square.payment', providerIds: { payment_id: `PAY-${n}`, location_id: 'L-LOG' }, dedupKey: `test:${n}`, subject: null, payload, queued: false, outcome, message: `Entry ${n}` },
        t.clock.now(),
      );
      ids.push(added!.id);
    }
    const page1 = await c.get(`${API}/${id}/log?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.has_more).toBe(true);
    expect(page1.body.data.map((e: { outcome: string }) => e.outcome)).toEqual(['failed', 'unknown_location']);
    const page2 = await c.get(`${API}/${id}/log?limit=2&starting_after=${page1.body.data[1].id}`);
    expect(page2.body.data.map((e: { outcome: string }) => e.outcome)).toEqual(['bad_signature', 'unmatched_guest']);
    const all = (await c.get(`${API}/${id}/log`)).body.data as Array<{ outcome: string; retryable: boolean; provider_ids: Record<string, string> }>;
    expect(all.map((e) => [e.outcome, e.retryable])).toEqual([
      ['failed', true],
      ['unknown_location', true],
      ['bad_signature', false],
      ['unmatched_guest', true],
      ['applied', false],
    ]);
    expect(all[0]!.provider_ids).toEqual({ payment_id: 'PAY-4', location_id: 'L-LOG' });

    const retried = await c.post(`${API}/${id}/log/${ids[1]}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ id: ids[1], outcome: 'queued', attempts: 0, retryable: false });
    expect((await c.get(`${API}/${id}/log`)).body.data.find((e: { id: string }) => e.id === ids[1]).outcome).toBe('queued');
    expectError(await c.post(`${API}/${id}/log/${ids[0]}/retry`), 409, 'integration_entry_not_retryable');
    expectError(await c.post(`${API}/${id}/log/${randomUUID()}/retry`), 404, 'integration_log_entry_not_found');
  });

  it('knows a PUBLIC_BASE_URL on this machine from one on the internet', () => {
    for (const local of ['http://localhost:3000', 'http://LOCALHOST', 'https://app.localhost', 'http://127.0.0.1:8080', 'http://127.1.2.3', 'http://[::1]:3000', 'http://0.0.0.0', 'http://[::ffff:127.0.0.1]', 'not a url']) {
      expect(isLocalBaseUrl(local), local).toBe(true);
    }
    for (const remote of ['https://loyalty.example.com', 'https://abc.ngrok-free.app', 'http://93.184.216.34', 'http://[2606:2800:220:1::1]', 'https://localhost.example.com']) {
      expect(isLocalBaseUrl(remote), remote).toBe(false);
    }
  });

  it('with a public PUBLIC_BASE_URL the URL to paste is offered', async () => {
    const remote = await startTestApp({ config: { publicBaseUrl: 'https://loyalty.example.com' } });
    try {
      const c = dashboardClient(remote);
      const signup = await c.post('/dashboard/api/signup', { venue_name: 'POS Public', email: newEmail(), password: PASSWORD });
      expect(signup.status).toBe(201);
      const created = await c.post(API, square({ 'L-P': signup.body.venue.id }));
      expect(created.body).toMatchObject({ public_base_url_is_local: false, endpoint_url: `https://loyalty.example.com/integrations/square/${created.body.id}` });
      expect((await c.get(API)).body.public_base_url_is_local).toBe(false);
    } finally {
      await remote.close();
    }
  });
});
