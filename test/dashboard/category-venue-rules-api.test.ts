// A venue's own rule for a category of its chain, set from the dashboard (D21): PUT and DELETE
// /dashboard/api/categories/{external_id}/venue-rules/{venue_id}, the CLI's `category rules --venue-only | --chain-rule`.
// The figures are proven by calculating a check through the API at each venue of a chain of two.
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client, expectError } from '../support/http.js';
import { dashboardClient, signedUpOwner, type DashboardClient } from './support.js';

const t = useTestApp();

/** An owner whose chain has two venues, A (signed up) and B (added); the session is left at A. */
async function chainOfTwo() {
  const owner = await signedUpOwner(t, 'Harbour Café');
  const added = await owner.c.post('/dashboard/api/venues', { name: 'Harbour Café Quay', slug: `quay-${randomBytes(3).toString('hex')}` });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const b = added.body.venue as { id: string };
  const keyB = await keyAt(owner.c);
  expect((await owner.c.put('/dashboard/api/session/venue', { venue_id: owner.venue.id })).status).toBe(200);
  const keyA = await keyAt(owner.c);
  return { c: owner.c, a: owner.venue, b, tillA: client(t, keyA), tillB: client(t, keyB) };
}

const keyAt = async (c: DashboardClient) => (await c.post('/dashboard/api/api-keys', { name: 'Till', livemode: false, scopes: [] })).body.secret as string;
const rulePath = (category: string, venueId: string) => `/dashboard/api/categories/${category}/venue-rules/${venueId}`;

// 2 glasses of wine at 8.00 and a lunch that names no category (the program's 5 %).
const LINES = [
  { name: 'House wine', category: 'wine', quantity: 2, unit_price: 800 },
  { name: 'Lunch', quantity: 1, unit_price: 2_000 },
];

describe("a venue's own category rule from the dashboard", () => {
  it("wins at that venue only, proven by calculations at both; back to the chain's rule", async () => {
    const { c, a, b, tillA, tillB } = await chainOfTwo();
    const member = (await tillA.post('/api/v1/members', { card_number: `CVR-${randomBytes(4).toString('hex')}`, consent: true })).body;
    const calculate = async (till: typeof tillA) => {
      const res = await till.post('/api/v1/checks/calculate', { member_id: member.id, line_items: LINES });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { earned: number; line_items: { cashback_percent: number; earns_cashback: boolean; rule_source: string }[] };
    };
    // The chain's rule: wine earns 10 %.
    expect((await c.post('/dashboard/api/categories', { external_id: 'wine', name: 'Wine', cashback_percent: 10 })).status).toBe(201);
    // 10 % of 16.00 + 5 % of 20.00 = 1.60 + 1.00, at either venue.
    expect((await calculate(tillA)).earned).toBe(260);
    expect((await calculate(tillB)).earned).toBe(260);

    // B's own rule, set while the session is at A (the path names the venue): 2.5 %, starting from the chain's rule.
    const set = await c.put(rulePath('wine', b.id), { cashback_percent: 2.5 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ object: 'category', external_id: 'wine', earns_cashback: true, payable_with_cashback: true, cashback_percent: 10 });
    expect(set.body.venue_rules).toEqual([{ venue_id: b.id, earns_cashback: true, payable_with_cashback: true, cashback_percent: 2.5 }]);
    // A: unchanged, 1.60 + 1.00. B: 2.5 % of 16.00 + 5 % of 20.00 = 0.40 + 1.00.
    expect((await calculate(tillA)).earned).toBe(260);
    const atB = await calculate(tillB);
    expect(atB.earned).toBe(140);
    expect(atB.line_items[0]).toMatchObject({ cashback_percent: 2.5, earns_cashback: true, rule_source: 'category' });

    // A further change goes over B's own rule: wine earns nothing at B, its 2.5 % kept for when it earns again.
    const again = await c.put(rulePath('wine', b.id), { earns_cashback: false });
    expect(again.body.venue_rules).toEqual([{ venue_id: b.id, earns_cashback: false, payable_with_cashback: true, cashback_percent: 2.5 }]);
    expect((await calculate(tillB)).earned).toBe(100);
    expect((await calculate(tillA)).earned).toBe(260);
    const listed = (await c.get('/dashboard/api/categories')).body.data.find((x: { external_id: string }) => x.external_id === 'wine');
    expect(listed.venue_rules).toEqual(again.body.venue_rules);
    // A key sees it too, on the public API.
    expect((await tillA.get('/api/v1/catalog/categories')).body.data[0].venue_rules).toEqual(again.body.venue_rules);

    // Back to the chain's rule: B earns 10 % on wine again; a second time changes nothing and is no error.
    const back = await c.delete(rulePath('wine', b.id));
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ external_id: 'wine', cashback_percent: 10, venue_rules: [] });
    expect((await calculate(tillB)).earned).toBe(260);
    expect((await c.delete(rulePath('wine', b.id))).body.venue_rules).toEqual([]);

    // A venue's own rule at the session's venue works alike.
    expect((await c.put(rulePath('wine', a.id), { payable_with_cashback: false })).body.venue_rules).toEqual([
      { venue_id: a.id, earns_cashback: true, payable_with_cashback: false, cashback_percent: 10 },
    ]);
  });

  it('refuses bad input with code and param, and writes nothing', async () => {
    const { c, b } = await chainOfTwo();
    expect((await c.post('/dashboard/api/categories', { external_id: 'beer', name: 'Beer' })).status).toBe(201);
    const ruleOfB = async () => (await c.get('/dashboard/api/categories')).body.data[0].venue_rules;
    expect((await c.put(rulePath('beer', b.id), { cashback_percent: 7 })).status).toBe(200);
    const before = await ruleOfB();

    // Percent: at most 100, two decimals; never clamped.
    for (const cashback_percent of [150, 100.01, -1, 2.555, '7']) {
      const e = expectError(await c.put(rulePath('beer', b.id), { cashback_percent }), 400, 'parameter_invalid', 'invalid_request_error');
      expect(e.param, String(cashback_percent)).toBe('cashback_percent');
    }
    expect(expectError(await c.put(rulePath('beer', b.id), { earns_cashback: 'no' }), 400, 'parameter_invalid').param).toBe('earns_cashback');
    // The rule is one of the chain's categories: no name, no other venue in the body.
    expect(expectError(await c.put(rulePath('beer', b.id), { name: 'Lager' }), 400, 'parameter_invalid').param).toBe('name');
    expect(await ruleOfB()).toEqual(before);

    // A category the chain does not have.
    for (const method of ['PUT', 'DELETE'] as const) {
      const e = expectError(await c.call(method, rulePath('nope', b.id), method === 'PUT' ? { earns_cashback: false } : undefined), 404, 'category_not_found');
      expect(e.param).toBe('external_id');
    }

    // A venue of another chain is answered exactly as one that does not exist (or is no id at all).
    const other = await signedUpOwner(t, 'Elsewhere');
    expect((await other.c.post('/dashboard/api/categories', { external_id: 'beer', name: 'Beer' })).status).toBe(201);
    const answers = [];
    for (const venueId of [other.venue.id, randomUUID(), 'not-a-venue']) {
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await c.call(method, rulePath('beer', venueId), method === 'PUT' ? { earns_cashback: false } : undefined);
        const e = expectError(res, 404, 'venue_not_found', 'invalid_request_error');
        answers.push(e);
      }
    }
    expect(answers[0]).toMatchObject({ code: 'venue_not_found', param: 'venue_id' });
    for (const e of answers) expect(e).toEqual(answers[0]);
    // The other chain's owner cannot reach this chain's venue either, though it has a category of the same name.
    expect(expectError(await other.c.put(rulePath('beer', b.id), { earns_cashback: false }), 404, 'venue_not_found').param).toBe('venue_id');
    expect((await other.c.get('/dashboard/api/categories')).body.data[0].venue_rules).toEqual([]);
    expect(await ruleOfB()).toEqual(before);

    // As every change: a session and its CSRF token.
    expectError(await c.call('PUT', rulePath('beer', b.id), { earns_cashback: false }, { 'x-csrf-token': 'forged' }), 403, 'csrf_token_invalid');
    expectError(await c.call('DELETE', rulePath('beer', b.id), undefined, { 'x-csrf-token': 'forged' }), 403, 'csrf_token_invalid');
    expectError(await dashboardClient(t).put(rulePath('beer', b.id), { earns_cashback: false }), 401, 'session_required');
    expectError(await dashboardClient(t).delete(rulePath('beer', b.id)), 401, 'session_required');
    expect(await ruleOfB()).toEqual(before);
  });
});
