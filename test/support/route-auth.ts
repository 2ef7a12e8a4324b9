// The generator every keyed route runs, under /api/v1 and the legacy /api/pos/v1 alike: missing, malformed, revoked key;
// missing scope; each allowed scope; other venue's id; the venue a call happens at (D21) for chain and venue keys.
import { describe, expect, it } from 'vitest';
import { LEGACY_POS_PREFIX, LEGACY_POS_ROUTES, ROUTE_SCOPES, legacyRoute, venueRuleOf } from '../../src/http/route-scopes.js';
import { SCOPES, type Scope } from '../../src/modules/accounts/schemas.js';
import type { TestApp } from './app.js';
import { createChainKey, createKey, createVenue, revokeKey, venueWithKey } from './factories.js';
import { expectError, request, type Response } from './http.js';
import { NAMES_OWNER_OBJECT, NOT_LIST_ROUTES, OWNER_VENUE_SETTINGS, UPSERT_ROUTES, type RouteFixture, type RouteRequest } from './route-fixtures.js';

/** Legacy POS routes by table key → the v1 route of the same definition, whose fixture and properties they share. */
const V1_TWIN = new Map<string, string>(LEGACY_POS_ROUTES.map((route) => [legacyRoute(route), route]));

/** A v1 fixture sending its request under the legacy prefix; its setup calls and read-backs stay on v1. */
function underLegacyPrefix(fixture: RouteFixture): RouteFixture {
  return async (ctx) => {
    const req = await fixture(ctx);
    return { ...req, url: req.url.replace(/^\/api\/v1\//, `/api${LEGACY_POS_PREFIX}/v1/`) };
  };
}

/**
 * The request naming `venueId` where the server reads it: in a JSON body when the request has one, else in the
 * query (src/http/auth.ts).
 */
function naming(req: RouteRequest, venueId: string): RouteRequest {
  const body = req.body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && !(body instanceof Blob)) return { ...req, body: { ...body, venue_id: venueId } };
  return { ...req, url: `${req.url}${req.url.includes('?') ? '&' : '?'}venue_id=${venueId}` };
}

const show = (res: Response) => `${res.status} ${typeof res.body === 'string' ? res.body.slice(0, 500) : JSON.stringify(res.body)}`;

/**
 * What an allowed key must get: a 2xx, or exactly the refusal the route's fixture documents. A 404 (the fixture's
 * object is missing), a 5xx or any other 4xx is a failure.
 */
function expectAllowed(route: string, req: RouteRequest, res: Response): void {
  if (req.refusal) {
    const { status, code, because } = req.refusal;
    if (res.status !== status || res.body?.error?.code !== code) {
      throw new Error(`${route}: expected the documented refusal ${status} ${code} (${because}), got ${show(res)}`);
    }
    return;
  }
  if (res.status < 200 || res.status > 299) throw new Error(`${route}: an allowed key must get 2xx, got ${show(res)}`);
}

/** The 404 another venue's key gets for the owner's object: the same as for an id that does not exist. */
function expectNotFound(route: string, res: Response): void {
  if (res.status !== 404 || !/_not_found$/.test(res.body?.error?.code ?? '')) {
    throw new Error(`${route}: another venue's key must get 404 *_not_found, got ${show(res)}`);
  }
}

export function describeRouteAuth(t: TestApp, fixtures: Record<string, RouteFixture>): void {
  const keyed = Object.entries(ROUTE_SCOPES).filter(
    (entry): entry is [string, Scope[]] => entry[1] !== 'public',
  );

  it('every route in the scope table is registered, and every keyed route has a fixture', () => {
    for (const route of Object.keys(ROUTE_SCOPES)) {
      const [method, path] = route.split(' ') as [string, string];
      expect(t.app.hasRoute({ method: method as 'GET', url: `/api${path}` }), route).toBe(true);
    }
    // Legacy routes use their v1 twin's fixture.
    expect(Object.keys(fixtures).sort()).toEqual(keyed.map(([route]) => route).filter((route) => !V1_TWIN.has(route)).sort());
  });

  for (const [route, needed] of keyed) {
    const [method, path] = route.split(' ') as [string, string];
    const twin = V1_TWIN.get(route) ?? route;
    const fixture = fixtures[twin] && (twin === route ? fixtures[twin] : underLegacyPrefix(fixtures[twin]));
    if (!fixture) continue; // reported by the test above

    const isList = method === 'GET' && !path.includes(':') && !NOT_LIST_ROUTES.has(twin);

    describe(route, () => {
      /** A venue whose objects the request names, with the settings the route's fixture asks for, and a full-access key. */
      async function ownerWithKey() {
        const venue = await createVenue(t, { settings: OWNER_VENUE_SETTINGS[twin] });
        return { venue, ...(await createKey(t, venue)) };
      }

      async function call(key: string | null, owner?: Awaited<ReturnType<typeof ownerWithKey>>) {
        const { venue, secret } = owner ?? (await ownerWithKey());
        const req = await fixture!({ t, ownerKey: secret, ownerVenue: venue });
        return { req, res: await request(t, method, req.url, { key, body: req.body }) };
      }

      it('no key → 401 api_key_missing', async () => {
        expectError((await call(null)).res, 401, 'api_key_missing', 'authentication_error');
      });

      it('malformed key → 401 api_key_invalid', async () => {
        expectError((await call('sk_test_not-a-key')).res, 401, 'api_key_invalid', 'authentication_error');
      });

      it('revoked key → 401 api_key_revoked', async () => {
        const { venue, key, secret } = await ownerWithKey();
        await revokeKey(t, key);
        const { url, body } = await fixture({ t, ownerKey: (await createKey(t, venue)).secret, ownerVenue: venue });
        expectError(await request(t, method, url, { key: secret, body }), 401, 'api_key_revoked');
      });

      it('a key with no scopes has full access', async () => {
        const owner = await ownerWithKey();
        const { req, res } = await call(owner.secret, owner);
        expectAllowed(route, req, res);
        // Shows the request went to the prefix under test: only legacy answers are deprecated.
        expect(res.headers.deprecation, `${route} answered under ${req.url}`).toBe(twin === route ? undefined : 'true');
        // Keeps NOT_LIST_ROUTES honest: a GET without an id in the path answers a list unless the table says otherwise.
        if (method === 'GET' && !path.includes(':')) {
          expect(res.body?.object === 'list', `${route} answers a list? (NOT_LIST_ROUTES) ${show(res)}`).toBe(isList);
        }
      });

      if (needed.length > 0) {
        it(`a key with every other scope but ${needed.join(' / ')} → 403 missing_scope`, async () => {
          const { venue, secret: ownerKey } = await ownerWithKey();
          const others = SCOPES.filter((s) => !needed.includes(s));
          const { secret } = await createKey(t, venue, { scopes: others });
          const { url, body } = await fixture({ t, ownerKey, ownerVenue: venue });
          const e = expectError(await request(t, method, url, { key: secret, body }), 403, 'missing_scope', 'permission_error');
          for (const scope of needed) expect(e.message).toContain(scope);
        });

        for (const scope of needed) {
          it(`a key with only ${scope} passes`, async () => {
            const { venue, secret: ownerKey } = await ownerWithKey();
            const { secret } = await createKey(t, venue, { scopes: [scope] });
            const req = await fixture({ t, ownerKey, ownerVenue: venue });
            expectAllowed(route, req, await request(t, method, req.url, { key: secret, body: req.body }));
          });
        }
      }

      if (UPSERT_ROUTES.has(twin)) {
        it("another venue's key creates its own object and leaves the owner's as it was", async () => {
          const { venue, secret: ownerKey } = await ownerWithKey();
          const { secret: intruder } = await venueWithKey(t);
          const { url, body, readUrl = url } = await fixture({ t, ownerKey, ownerVenue: venue });
          const before = await request(t, 'GET', readUrl, { key: ownerKey });
          expect(before.status).toBe(200);
          expect((await request(t, method, url, { key: intruder, body })).status).toBe(201);
          expect((await request(t, 'GET', readUrl, { key: ownerKey })).body).toEqual(before.body);
        });
      } else if (path.includes(':') || NAMES_OWNER_OBJECT.has(twin)) {
        it("another venue's key gets 404 for the owner's object, which the owner's key reaches with the same request", async () => {
          const owner = await ownerWithKey();
          const { secret: intruder } = await venueWithKey(t);
          const fresh = () => fixture({ t, ownerKey: owner.secret, ownerVenue: owner.venue });
          const first = await fresh();
          if (method === 'GET') {
            // Reading changes nothing: the owner's 2xx and the intruder's 404 answer the very same request.
            expectAllowed(route, first, await request(t, method, first.url, { key: owner.secret, body: first.body }));
            expectNotFound(route, await request(t, method, first.url, { key: intruder, body: first.body }));
            return;
          }
          // A write may consume its object (void, delete, capture): the owner first proves the request works on one
          // copy; the intruder is refused on a second copy, which the owner's key then still reaches.
          expectAllowed(route, first, await request(t, method, first.url, { key: owner.secret, body: first.body }));
          const second = await fresh();
          expectNotFound(route, await request(t, method, second.url, { key: intruder, body: second.body }));
          expectAllowed(route, second, await request(t, method, second.url, { key: owner.secret, body: second.body }));
        });
      }

      const venueRule = venueRuleOf(route);
      if (venueRule && twin === route) {
        it(`a chain key ${venueRule === 'at' ? 'must name the venue: without venue_id → 400 parameter_invalid' : 'may name a venue or none'}; naming the owner's venue passes; another chain's venue → 404 venue_not_found`, async () => {
          const owner = await ownerWithKey();
          // A chain key's rules are its own, else those of the venue it names (D21): it carries the owner venue's.
          const { secret: chainKey } = await createChainKey(t, owner.venue.chainId, { rules: OWNER_VENUE_SETTINGS[twin] });
          const send = (req: RouteRequest) => request(t, method, req.url, { key: chainKey, body: req.body });
          const bare = await fixture({ t, ownerKey: owner.secret, ownerVenue: owner.venue });
          const res = await send(bare);
          if (venueRule === 'at') expect(expectError(res, 400, 'parameter_invalid').param).toBe('venue_id');
          else expectAllowed(route, bare, res);
          const named = naming(await fixture({ t, ownerKey: owner.secret, ownerVenue: owner.venue }), owner.venue.id);
          expectAllowed(route, named, await send(named));
          const foreign = await createVenue(t);
          const elsewhere = naming(await fixture({ t, ownerKey: owner.secret, ownerVenue: owner.venue }), foreign.id);
          expectError(await send(elsewhere), 404, 'venue_not_found');
        });

        it("a venue key naming another venue of its chain → 403 venue_not_allowed; naming its own passes", async () => {
          const owner = await ownerWithKey();
          const sibling = await createVenue(t, { chainId: owner.venue.chainId });
          const other = naming(await fixture({ t, ownerKey: owner.secret, ownerVenue: owner.venue }), sibling.id);
          expect(expectError(await request(t, method, other.url, { key: owner.secret, body: other.body }), 403, 'venue_not_allowed').param).toBe('venue_id');
          const own = naming(await fixture({ t, ownerKey: owner.secret, ownerVenue: owner.venue }), owner.venue.id);
          expectAllowed(route, own, await request(t, method, own.url, { key: owner.secret, body: own.body }));
        });
      }

      if (twin !== route) {
        it('a chain key → 403 chain_key_not_accepted (the POS API takes venue keys only)', async () => {
          const owner = await ownerWithKey();
          const { secret: chainKey } = await createChainKey(t, owner.venue.chainId);
          const req = await fixture({ t, ownerKey: owner.secret, ownerVenue: owner.venue });
          expectError(await request(t, method, req.url, { key: chainKey, body: req.body }), 403, 'chain_key_not_accepted', 'permission_error');
        });
      }

      if (isList) {
        it("another venue's list leaves out the owner's objects", async () => {
          const owner = await ownerWithKey();
          const other = await ownerWithKey();
          const mine = await fixture({ t, ownerKey: owner.secret, ownerVenue: owner.venue });
          if (mine.listed === undefined) throw new Error(`${route} is a list route: its fixture must create an object and name its id in \`listed\``);
          const theirs = await fixture({ t, ownerKey: other.secret, ownerVenue: other.venue });
          const ids = async (key: string, url: string) => {
            const res = await request(t, 'GET', url, { key });
            expectAllowed(route, mine, res);
            expect(res.body.object, show(res)).toBe('list');
            return (res.body.data as Array<Record<string, unknown>>).map((item) => item[mine.listedBy ?? 'id']);
          };
          const ownerSees = await ids(owner.secret, mine.url);
          const otherSees = await ids(other.secret, theirs.url);
          expect(ownerSees, "the owner's list shows the owner's object").toContain(mine.listed);
          expect(otherSees, "the other venue's list shows its own object").toContain(theirs.listed);
          expect(otherSees, "the other venue's list leaves out the owner's object").not.toContain(mine.listed);
          expect(ownerSees, "the owner's list leaves out the other venue's object").not.toContain(theirs.listed);
        });
      }
    });
  }
}
