// The chain's users (D24): the owner changes roles and removes users; one given less to do, or removed, is signed out
// at once; a chain never loses its last owner, not even to two owners demoting each other at the same moment.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/modules/accounts/schemas.js';
import * as accounts from '../../src/modules/accounts/service.js';
import { useTestApp } from '../support/app.js';
import { needs } from '../support/services.js';
import { PASSWORD, dashboardClient, newEmail, signedUpOwner, type DashboardClient } from './support.js';

const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000 } });
const postgres = await needs('postgres');

async function chainOf(name: string) {
  const { c, venue } = await signedUpOwner(t, name);
  const chainId = (await accounts.findVenue(t.db, venue.id))!.chainId;
  const add = async (role: Role): Promise<{ id: string; c: DashboardClient }> => {
    const email = newEmail();
    const user = await accounts.createOwner(t.db, { chainId, venueId: venue.id, email, password: PASSWORD, role });
    const client = dashboardClient(t);
    expect((await client.post('/dashboard/api/session', { email, password: PASSWORD })).status).toBe(200);
    return { id: user.id, c: client };
  };
  return { owner: c, chainId, add };
}

const signedIn = async (c: DashboardClient) => (await c.get('/dashboard/api/session')).status === 200;

async function log(chainId: string) {
  const { rows } = await sql<{ action: string; target_id: string; changes: unknown }>`select action, target_id, changes from audit_events
    where chain_id = ${chainId} and action like 'user.%' order by id`.execute(t.db);
  return rows.map((r) => [r.action, r.target_id, typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes]);
}

describe('the chain’s users', () => {
  it('a demotion and a removal sign the user out at once; a promotion does not; each recorded', async () => {
    const { owner, chainId, add } = await chainOf('Users Bistro');
    const manager = await add('manager');
    const staff = await add('staff');
    const other = await add('staff');
    expect((await owner.get('/dashboard/api/users')).body.map((u: { role: string }) => u.role)).toEqual(['owner', 'manager', 'staff', 'staff']);

    expect((await owner.patch(`/dashboard/api/users/${manager.id}`, { role: 'staff' })).body.role).toBe('staff');
    expect(await signedIn(manager.c)).toBe(false);
    expect((await owner.patch(`/dashboard/api/users/${staff.id}`, { role: 'manager' })).body.role).toBe('manager');
    expect(await signedIn(staff.c)).toBe(true);
    expect((await staff.c.get('/dashboard/api/session')).body.owner.role).toBe('manager');
    expect((await owner.delete(`/dashboard/api/users/${other.id}`)).status).toBe(200);
    expect(await signedIn(other.c)).toBe(false);
    expect((await owner.get('/dashboard/api/users')).body).toHaveLength(3);
    // The same role again changes nothing and records nothing.
    expect((await owner.patch(`/dashboard/api/users/${staff.id}`, { role: 'manager' })).status).toBe(200);
    expect(await log(chainId)).toEqual([
      ['user.role_changed', manager.id, { role: ['manager', 'staff'] }],
      ['user.role_changed', staff.id, { role: ['staff', 'manager'] }],
      ['user.removed', other.id, { role: ['staff', null] }],
    ]);
  });

  it('the last owner can be neither demoted nor removed; with a second owner, either can go', async () => {
    const { owner, add } = await chainOf('Owners Bistro');
    const me = (await owner.get('/dashboard/api/session')).body.owner.id;
    const demoted = await owner.patch(`/dashboard/api/users/${me}`, { role: 'manager' });
    expect([demoted.status, demoted.body.error.code]).toEqual([409, 'last_owner']);
    expect((await owner.delete(`/dashboard/api/users/${me}`)).body.error.code).toBe('last_owner');
    const second = await add('owner');
    expect((await second.c.patch(`/dashboard/api/users/${me}`, { role: 'manager' })).status).toBe(200);
    expect(await signedIn(owner)).toBe(false);
    expect((await second.c.delete(`/dashboard/api/users/${second.id}`)).body.error.code).toBe('last_owner');
    expect((await second.c.get('/dashboard/api/users/x')).status).toBe(404);
  });

  it('a manager limited to one venue of two opens only it; an owner cannot be limited; narrowing signs them out; recorded', async () => {
    const { owner, chainId, add } = await chainOf('Limits Bistro');
    const first = (await owner.get('/dashboard/api/session')).body.venue.id as string;
    const second = (await owner.post('/dashboard/api/venues', { name: 'Limits Quay', slug: `limits-quay-${Date.now()}` })).body.venue.id as string;
    const manager = await add('manager');
    const me = (await owner.get('/dashboard/api/session')).body.owner.id;

    const limited = await owner.patch(`/dashboard/api/users/${manager.id}`, { venue_ids: [second] });
    expect(limited.body).toMatchObject({ role: 'manager', venue_ids: [second] });
    // It took the first venue away: signed out; signed in again, at the venue they may open.
    expect(await signedIn(manager.c)).toBe(false);
    const email = limited.body.email;
    const again = await manager.c.post('/dashboard/api/session', { email, password: PASSWORD });
    expect(again.body.venue.id).toBe(second);
    expect(again.body.chain.venues.map((v: { id: string }) => v.id)).toEqual([second]);
    const refused = await manager.c.put('/dashboard/api/session/venue', { venue_id: first });
    expect([refused.status, refused.body.error.code]).toEqual([404, 'venue_not_found']);

    // Widened to every venue: nothing taken away, so still signed in.
    expect((await owner.patch(`/dashboard/api/users/${manager.id}`, { venue_ids: null })).body.venue_ids).toBeNull();
    expect(await signedIn(manager.c)).toBe(true);
    expect((await manager.c.put('/dashboard/api/session/venue', { venue_id: first })).status).toBe(200);

    const ownerLimited = await owner.patch(`/dashboard/api/users/${me}`, { venue_ids: [first] });
    expect([ownerLimited.status, ownerLimited.body.error.param]).toEqual([400, 'venue_ids']);
    const stranger = await owner.patch(`/dashboard/api/users/${manager.id}`, { venue_ids: ['00000000-0000-4000-8000-000000000000'] });
    expect([stranger.status, stranger.body.error.code]).toEqual([404, 'venue_not_found']);
    // Made owner, a limit goes: an owner runs every venue.
    await owner.patch(`/dashboard/api/users/${manager.id}`, { venue_ids: [first] });
    expect((await owner.patch(`/dashboard/api/users/${manager.id}`, { role: 'owner' })).body).toMatchObject({ role: 'owner', venue_ids: null });
    expect((await log(chainId)).filter((e) => e[0] === 'user.venues_changed')).toEqual([
      ['user.venues_changed', manager.id, { venue_ids: [null, [second]] }],
      ['user.venues_changed', manager.id, { venue_ids: [[second], null] }],
      ['user.venues_changed', manager.id, { venue_ids: [null, [first]] }],
    ]);
  });

  it("a manager limited to one venue sees only its figures on the overview, and runs only that venue's campaigns", async () => {
    const { owner, add } = await chainOf('Limited Overview Bistro');
    const first = (await owner.get('/dashboard/api/session')).body.venue.id as string;
    const second = (await owner.post('/dashboard/api/venues', { name: 'Limited Quay', slug: `limited-quay-${Date.now()}` })).body.venue.id as string;
    const manager = await add('manager');
    const email = (await owner.patch(`/dashboard/api/users/${manager.id}`, { venue_ids: [first] })).body.email;
    await manager.c.post('/dashboard/api/session', { email, password: PASSWORD });

    const overview = (await manager.c.get('/dashboard/api/overview')).body;
    expect(overview.venues.map((v: { venue_id: string }) => v.venue_id)).toEqual([first]);
    expect((await owner.get('/dashboard/api/overview')).body.venues).toHaveLength(2);

    const bonus = { type: 'bonus', percent: 5, livemode: false };
    const elsewhere = await manager.c.post('/dashboard/api/campaigns', { ...bonus, name: 'There', venue_ids: [second] });
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([404, 'venue_not_found']);
    const chainWide = await manager.c.post('/dashboard/api/campaigns', { ...bonus, name: 'Everywhere' });
    expect(chainWide.status).toBe(404);
    expect((await manager.c.post('/dashboard/api/campaigns', { ...bonus, name: 'Here', venue_ids: [first] })).status).toBe(201);
    const theirs = (await owner.post('/dashboard/api/campaigns', { ...bonus, name: 'Owner quay', venue_ids: [second] })).body;
    expect((await manager.c.get('/dashboard/api/campaigns')).body.data.map((c: { name: string }) => c.name)).toEqual(['Here']);
    const paused = await manager.c.patch(`/dashboard/api/campaigns/${theirs.id}`, { status: 'paused' });
    expect([paused.status, paused.body.error.code]).toEqual([404, 'campaign_not_found']);
  });

  postgres.it('two owners demoting each other at the same moment: one demotion goes through, the chain keeps one owner', async () => {
    const { owner, chainId, add } = await chainOf('Race Bistro');
    const me = (await owner.get('/dashboard/api/session')).body.owner.id;
    const second = await add('owner');
    const [a, b] = await Promise.all([owner.patch(`/dashboard/api/users/${second.id}`, { role: 'staff' }), second.c.patch(`/dashboard/api/users/${me}`, { role: 'staff' })]);
    // The loser is refused (409 last_owner), or was already signed out by the winner's demotion (401).
    expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
    expect([a.status, b.status].every((s) => s === 200 || s === 409 || s === 401)).toBe(true);
    const { rows } = await sql<{ n: string }>`select count(*) as n from owners where chain_id = ${chainId} and role = 'owner'`.execute(t.db);
    expect(Number(rows[0]!.n)).toBe(1);
  });
});
