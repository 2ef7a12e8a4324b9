// The generator every keyed route runs: missing, malformed, revoked key; missing scope; each allowed scope; other venue's id.
import { describe, expect, it } from 'vitest';
import { ROUTE_SCOPES } from '../../src/http/route-scopes.js';
import { SCOPES, type Scope } from '../../src/modules/accounts/schemas.js';
import type { TestApp } from './app.js';
import { createKey, revokeKey, venueWithKey } from './factories.js';
import { expectError, request } from './http.js';
import { UPSERT_ROUTES, type RouteFixture } from './route-fixtures.js';

/** Past authentication and the scope check; a venue rule may still refuse (403 adjustments_disabled). */
const passedAuth = (res: { status: number; body: any }) => res.status !== 401 && res.body?.error?.code !== 'missing_scope';

export function describeRouteAuth(t: TestApp, fixtures: Record<string, RouteFixture>): void {
  const keyed = Object.entries(ROUTE_SCOPES).filter(
    (entry): entry is [string, Scope[]] => entry[1] !== 'public',
  );

  it('every route in the scope table is registered, and every keyed route has a fixture', () => {
    for (const route of Object.keys(ROUTE_SCOPES)) {
      const [method, path] = route.split(' ') as [string, string];
      expect(t.app.hasRoute({ method: method as 'GET', url: `/api${path}` }), route).toBe(true);
    }
    expect(Object.keys(fixtures).sort()).toEqual(keyed.map(([route]) => route).sort());
  });

  for (const [route, needed] of keyed) {
    const [method, path] = route.split(' ') as [string, string];
    const fixture = fixtures[route];
    if (!fixture) continue; // reported by the test above

    describe(route, () => {
      async function call(key: string | null, owner?: Awaited<ReturnType<typeof venueWithKey>>) {
        const { venue, secret } = owner ?? (await venueWithKey(t));
        const { url, body } = await fixture!({ t, ownerKey: secret, ownerVenue: venue });
        return request(t, method, url, { key, body });
      }

      it('no key → 401 api_key_missing', async () => {
        expectError(await call(null), 401, 'api_key_missing', 'authentication_error');
      });

      it('malformed key → 401 api_key_invalid', async () => {
        expectError(await call('sk_test_not-a-key'), 401, 'api_key_invalid', 'authentication_error');
      });

      it('revoked key → 401 api_key_revoked', async () => {
        const { venue, key, secret } = await venueWithKey(t);
        await revokeKey(t, key);
        const { url, body } = await fixture({ t, ownerKey: (await createKey(t, venue)).secret, ownerVenue: venue });
        expectError(await request(t, method, url, { key: secret, body }), 401, 'api_key_revoked');
      });

      it('a key with no scopes has full access', async () => {
        const owner = await venueWithKey(t);
        const res = await call(owner.secret, owner);
        expect(passedAuth(res), JSON.stringify(res.body)).toBe(true);
      });

      if (needed.length > 0) {
        it(`a key with every other scope but ${needed.join(' / ')} → 403 missing_scope`, async () => {
          const { venue, secret: ownerKey } = await venueWithKey(t);
          const others = SCOPES.filter((s) => !needed.includes(s));
          const { secret } = await createKey(t, venue, { scopes: others });
          const { url, body } = await fixture({ t, ownerKey, ownerVenue: venue });
          const e = expectError(await request(t, method, url, { key: secret, body }), 403, 'missing_scope', 'permission_error');
          for (const scope of needed) expect(e.message).toContain(scope);
        });

        for (const scope of needed) {
          it(`a key with only ${scope} passes`, async () => {
            const { venue, secret: ownerKey } = await venueWithKey(t);
            const { secret } = await createKey(t, venue, { scopes: [scope] });
            const { url, body } = await fixture({ t, ownerKey, ownerVenue: venue });
            const res = await request(t, method, url, { key: secret, body });
            expect(passedAuth(res), JSON.stringify(res.body)).toBe(true);
          });
        }
      }

      if (UPSERT_ROUTES.has(route)) {
        it("another venue's key creates its own object and leaves the owner's as it was", async () => {
          const { venue, secret: ownerKey } = await venueWithKey(t);
          const { secret: intruder } = await venueWithKey(t);
          const { url, body, readUrl = url } = await fixture({ t, ownerKey, ownerVenue: venue });
          const before = await request(t, 'GET', readUrl, { key: ownerKey });
          expect(before.status).toBe(200);
          expect((await request(t, method, url, { key: intruder, body })).status).toBe(201);
          expect((await request(t, 'GET', readUrl, { key: ownerKey })).body).toEqual(before.body);
        });
      } else if (path.includes(':')) {
        it("another venue's id → 404, as for an id that does not exist", async () => {
          const { venue, secret: ownerKey } = await venueWithKey(t);
          const { secret: intruder } = await venueWithKey(t);
          const { url, body } = await fixture({ t, ownerKey, ownerVenue: venue });
          const res = await request(t, method, url, { key: intruder, body });
          expect(res.status).toBe(404);
          expect(res.body.error.code).toMatch(/_not_found$/);
        });
      }
    });
  }
}
