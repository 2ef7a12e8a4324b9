// The dashboard's role table walked (D24): every route of src/dashboard/roles.ts, for an owner, a manager and
// staff of one chain, is refused with 403 role_forbidden exactly when the table says the role may not call it; a change
// refused writes nothing but its `access.denied` audit entry. Generated from the table, not listed by hand.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/modules/accounts/schemas.js';
import * as accounts from '../../src/modules/accounts/service.js';
import { DASHBOARD_PREFIX, DASHBOARD_ROUTE_ROLES, roleAllows } from '../../src/dashboard/roles.js';
import { useTestApp } from '../support/app.js';
import { PASSWORD, dashboardClient, newEmail, signedUpOwner, type DashboardClient } from './support.js';

const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000 } });

/** A route's path with its parameters filled in: ids that name nothing, so an allowed call finds nothing to change. */
const filled = (path: string) =>
  path.replace(/:(id|venue_id)\b/g, () => randomUUID()).replace(':external_id', 'no-such-thing').replace(':table_code', 'NO-SUCH-TABLE');

/** Signed in as a user of the chain with `role` (the owner is the one who signed up). */
async function signedIn(chain: { chainId: string; venueId: string }, role: Role): Promise<DashboardClient> {
  const c = dashboardClient(t);
  const email = newEmail();
  await accounts.createOwner(t.db, { ...chain, email, password: PASSWORD, role });
  const res = await c.post('/dashboard/api/session', { email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`sign-in as ${role}: ${res.status} ${JSON.stringify(res.body)}`);
  return c;
}

const deniedCount = async (chainId: string) =>
  Number((await sql<{ n: string }>`select count(*) as n from audit_events where chain_id = ${chainId} and action = 'access.denied'`.execute(t.db)).rows[0]!.n);

describe('the dashboard role table', () => {
  it('every route: 403 role_forbidden exactly for the roles the table refuses; a refused change writes only its audit entry', async () => {
    const { venue } = await signedUpOwner(t, 'Roles Bistro');
    const chain = { chainId: (await accounts.findVenue(t.db, venue.id))!.chainId, venueId: venue.id };
    // Signing out last: it ends the session the other calls use.
    const routes = Object.entries(DASHBOARD_ROUTE_ROLES).sort(([a], [b]) => Number(a === 'DELETE /session') - Number(b === 'DELETE /session'));
    const refusedChanges = { owner: 0, manager: 0, staff: 0 };
    for (const role of ROLES) {
      const c = await signedIn(chain, role);
      for (const [route, needed] of routes) {
        const [method, path] = route.split(' ') as [string, string];
        const res = await c.call(method, `${DASHBOARD_PREFIX}${filled(path)}`, method === 'GET' || method === 'DELETE' ? undefined : {});
        const refused = needed !== 'public' && !roleAllows(role, needed);
        const what = `${role} → ${route}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        if (refused) {
          expect(res.status, what).toBe(403);
          expect(res.body.error.code, what).toBe('role_forbidden');
          if (method !== 'GET') refusedChanges[role]++;
        } else {
          // Allowed: whatever the call answers for ids that name nothing, it is not a refusal for the role, nor a missing route.
          expect(res.body?.error?.code, what).not.toBe('role_forbidden');
          expect(res.body?.error?.code, what).not.toBe('route_not_found');
          expect(res.body?.error?.code, what).not.toBe('session_required');
        }
      }
    }
    expect(refusedChanges.owner).toBe(0);
    expect(refusedChanges.manager).toBeGreaterThan(0);
    expect(refusedChanges.staff).toBeGreaterThan(refusedChanges.manager);
    expect(await deniedCount(chain.chainId)).toBe(refusedChanges.manager + refusedChanges.staff);
  });

  it('staff trying an adjustment: 403, the balance unchanged, one access.denied entry naming the route', async () => {
    const { c: owner, venue } = await signedUpOwner(t, 'Roles Café');
    const chain = { chainId: (await accounts.findVenue(t.db, venue.id))!.chainId, venueId: venue.id };
    const key = (await owner.post('/dashboard/api/api-keys', { name: 'Till', livemode: true, scopes: [] })).body.secret as string;
    const enrolled = await t.app.inject({
      method: 'POST',
      url: '/api/v1/members',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ card_number: 'ROLE-1', consent: true }),
    });
    const member = enrolled.json();
    const staff = await signedIn(chain, 'staff');
    // What the pages offer comes from the same table: staff are not offered the adjustment, the owner is.
    const session = (await staff.get('/dashboard/api/session')).body;
    expect(session.owner.role).toBe('staff');
    expect(session.allowed).toContain('GET /members/:id');
    expect(session.allowed).not.toContain('POST /members/:id/adjustments');
    expect((await owner.get('/dashboard/api/session')).body.allowed).toContain('POST /members/:id/adjustments');
    expect((await staff.get(`/dashboard/api/members/${member.id}`)).status).toBe(200);
    const res = await staff.post(`/dashboard/api/members/${member.id}/adjustments`, { amount: 5_000, reason: 'a friend' });
    expect([res.status, res.body.error.code]).toEqual([403, 'role_forbidden']);
    expect((await owner.get(`/dashboard/api/members/${member.id}`)).body.balance).toBe(0);
    const { rows } = await sql<{ actor_type: string; target_id: string }>`select actor_type, target_id from audit_events
      where chain_id = ${chain.chainId} and action = 'access.denied'`.execute(t.db);
    expect(rows).toEqual([{ actor_type: 'user', target_id: 'POST /dashboard/api/members/:id/adjustments' }]);
  });

  it('the same refusal 120 times in seconds writes one entry (another a minute later); the request metrics count all 120', async () => {
    const { venue } = await signedUpOwner(t, 'Roles Tavern');
    const chain = { chainId: (await accounts.findVenue(t.db, venue.id))!.chainId, venueId: venue.id };
    const staff = await signedIn(chain, 'staff');
    const refusedOnRoute = async () => {
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      const line = metrics.split('\n').find((l) => l.startsWith('http_requests_total{') && l.includes('route="/dashboard/api/api-keys"') && l.includes('status="403"') && l.includes('method="POST"'));
      return line ? Number(line.split(' ').at(-1)) : 0;
    };
    const before = await refusedOnRoute();
    for (let i = 0; i < 120; i++) expect((await staff.post('/dashboard/api/api-keys', { name: `Till ${i}`, livemode: false, scopes: [] })).status).toBe(403);
    expect(await deniedCount(chain.chainId)).toBe(1);
    t.clock.advance(60_001);
    expect((await staff.post('/dashboard/api/api-keys', { name: 'Till again', livemode: false, scopes: [] })).status).toBe(403);
    expect(await deniedCount(chain.chainId)).toBe(2);
    expect((await refusedOnRoute()) - before).toBe(121);
  });
});
