// One member and one balance across the venues of a chain (D21): earn at one venue, redeem at another, caps counted
// chain-wide on each venue's own day, and nothing of it visible to another chain. Figures are computed by hand here.
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, ledgerSum, newCardNumber } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';
import type { NewVenue } from '../../../src/modules/accounts/service.js';

const t = useTestApp();

/** Chain 1 with venues A, B, C (a 5 % program); chain 2 with venue D and a program of its own. */
async function twoChains(settings: NewVenue['settings'] = {}, zones: { a?: string; b?: string; c?: string } = {}) {
  const a = await createVenue(t, { settings, timezone: zones.a });
  const b = await createVenue(t, { chainId: a.chainId, settings, timezone: zones.b });
  const c = await createVenue(t, { chainId: a.chainId, settings, timezone: zones.c });
  const d = await createVenue(t, { settings });
  for (const venue of [a, d]) await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
  const api = async (venue: typeof a) => client(t, (await createKey(t, venue)).secret);
  return { a, b, c, d, atA: await api(a), atB: await api(b), atC: await api(c), atD: await api(d) };
}

const dinner = (price: number) => [{ name: 'Dinner', quantity: 1, unit_price: price }];

describe('a chain shares its members and their balance', () => {
  it('a member enrolled at A earns at B and redeems at C; each place is recorded; balance = hand computation = Σ ledger', async () => {
    const { a, b, c, atA, atB, atC } = await twoChains();
    expect(b.chainId).toBe(a.chainId);
    const card = newCardNumber();
    const enrolled = await atA.post('/api/v1/members', { card_number: card, consent: true, phone: '087 765 4321' });
    expect(enrolled.status).toBe(201);
    expect(enrolled.body.home_venue_id).toBe(a.id);

    // B: 100.00 at 5 % earns 5.00.
    const earn = await atB.post('/api/v1/checks', { external_id: 'B-1', card_number: card, line_items: dinner(10_000) });
    expect(earn.status).toBe(201);
    expect(earn.body).toMatchObject({ venue_id: b.id, earned: 500, redeemed: 0 });

    // C: 20.00 paying 3.00 of it with cashback; 17.00 paid earns 0.85.
    const redeem = await atC.post('/api/v1/checks', { external_id: 'C-1', member_id: enrolled.body.id, redeem_amount: 300, line_items: dinner(2_000) });
    expect(redeem.status).toBe(201);
    expect(redeem.body).toMatchObject({ venue_id: c.id, redeemed: 300, paid: 1_700, earned: 85 });

    const expected = 500 - 300 + 85;
    for (const api of [atA, atB, atC]) expect((await api.get(`/api/v1/members/${enrolled.body.id}`)).body.balance).toBe(expected);
    expect(await ledgerSum(t, enrolled.body.id)).toBe(expected);

    const history = (await atA.get(`/api/v1/members/${enrolled.body.id}/history`)).body.data as { type: string; venue_id: string | null }[];
    expect(new Set(history.filter((e) => e.type !== 'check').map((e) => `${e.type}@${e.venue_id}`))).toEqual(
      new Set([`earn@${b.id}`, `redemption@${c.id}`, `earn@${c.id}`]),
    );
    // Checks are the venue's: B's list has B's check only.
    expect((await atB.get('/api/v1/transactions')).body.data.map((x: { external_id: string }) => x.external_id)).toEqual(['B-1']);
  });

  it('the same card cannot be enrolled twice in a chain, but another chain may use it', async () => {
    const { atA, atB, atD } = await twoChains();
    const card = newCardNumber();
    expect((await atA.post('/api/v1/members', { card_number: card, consent: true })).status).toBe(201);
    expect((await atB.post('/api/v1/members', { card_number: card, consent: true })).status).toBe(409);
    expect((await atD.post('/api/v1/members', { card_number: card, consent: true })).status).toBe(201);
  });

  it("another chain's key sees none of it: member, look-ups, history, transactions, holds", async () => {
    const { c, atA, atC, atD } = await twoChains();
    const card = newCardNumber();
    const { body: member } = await atA.post('/api/v1/members', { card_number: card, consent: true, phone: '087 111 2233' });
    await atA.post('/api/v1/checks', { external_id: 'A-1', member_id: member.id, line_items: dinner(4_000) });
    // 40.00 at 5 % earned 2.00 at A; the hold of 1.00 of it is C's, the venue whose key placed it.
    const { body: hold } = await atC.post('/api/v1/holds', { member_id: member.id, amount: 100 });
    expect(hold).toMatchObject({ venue_id: c.id, amount: 100 });
    const { body: check } = await atA.get('/api/v1/transactions');
    const transactionId = check.data[0].id;

    expectError(await atD.get(`/api/v1/members/${member.id}`), 404, 'member_not_found');
    expectError(await atD.get(`/api/v1/members/lookup?card_number=${card}`), 404, 'member_not_found');
    expectError(await atD.get(`/api/v1/members/lookup?barcode=${encodeURIComponent(member.barcode.value)}`), 404, 'member_not_found');
    expectError(await atD.get(`/api/v1/members/lookup?phone=${encodeURIComponent(member.phone)}`), 404, 'member_not_found');
    expectError(await atD.get(`/api/v1/members/${member.id}/history`), 404, 'member_not_found');
    expect((await atD.get('/api/v1/members')).body.data).toEqual([]);
    expect((await atD.get('/api/v1/transactions')).body.data).toEqual([]);
    expect((await atD.get(`/api/v1/transactions/${transactionId}`)).status).toBe(404);
    expectError(await atD.get(`/api/v1/holds/${hold.id}`), 404, 'hold_not_found');
    // A hold is its venue's: another venue of the same chain does not capture or read it either.
    expectError(await atA.get(`/api/v1/holds/${hold.id}`), 404, 'hold_not_found');
    // Another chain's member cannot be charged by naming it.
    expectError(await atD.post('/api/v1/checks', { external_id: 'D-1', member_id: member.id, line_items: dinner(1_000) }), 404, 'member_not_found');
  });
});

describe('limits are counted across the chain', () => {
  it('a hold at one venue keeps its cashback from a redemption at another (available is chain-wide)', async () => {
    const { atA, atB, atC } = await twoChains();
    const { body: member } = await atA.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    await atA.post('/api/v1/checks', { external_id: 'A-1', member_id: member.id, line_items: dinner(20_000) }); // earns 1,000
    expect((await atB.post('/api/v1/holds', { member_id: member.id, amount: 700 })).status).toBe(201);
    const refused = expectError(
      await atC.post('/api/v1/checks', { external_id: 'C-1', member_id: member.id, redeem_amount: 400, line_items: dinner(5_000) }),
      402,
      'insufficient_balance',
    );
    expect(refused.available).toBe(300);
    const paid = await atC.post('/api/v1/checks', { external_id: 'C-2', member_id: member.id, redeem_amount: 300, line_items: dinner(5_000) });
    expect(paid.body).toMatchObject({ redeemed: 300, paid: 4_700 });
  });

  it('max_cashback_per_day counts the member’s checks at every venue whose local day is the check’s day', async () => {
    // 23:30 UTC on 25 November: still the 25th in Dublin (A and C), already the 26th in Auckland (B, UTC+13).
    t.clock.advance(Date.parse('2026-11-25T23:30:00Z') - t.clock.now().getTime());
    const { atA, atB, atC } = await twoChains({ max_cashback_per_day: 100 }, { a: 'Europe/Dublin', b: 'Pacific/Auckland', c: 'Europe/Dublin' });
    const { body: member } = await atA.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    const check = (api: typeof atA, id: string) => api.post('/api/v1/checks', { external_id: id, member_id: member.id, line_items: dinner(4_000) }); // 5 % = 200

    expect((await check(atA, 'A-1')).body).toMatchObject({ earned: 100, earn_capped: true }); // the 25th's 100 used up at A
    expect((await check(atC, 'C-1')).body).toMatchObject({ earned: 0, earn_capped: true }); // C is in Dublin: the same day, counted chain-wide
    expect((await check(atB, 'B-1')).body).toMatchObject({ earned: 100, earn_capped: true }); // B's day is the 26th: room of its own
    expect((await check(atB, 'B-2')).body).toMatchObject({ earned: 0, earn_capped: true });
    const { rows } = await sql<{ venue_day: string }>`select venue_day from transactions where member_id = ${member.id} order by id`.execute(t.db);
    expect(rows.map((r) => r.venue_day)).toEqual(['2026-11-25', '2026-11-25', '2026-11-26', '2026-11-26']);
    expect(await ledgerSum(t, member.id)).toBe(200);
  });
});

describe('concurrency across venues', () => {
  it('the same member applying checks at two venues at once: no lost update, balance = Σ ledger = hand computation', async () => {
    const { atA, atB } = await twoChains();
    const { body: member } = await atA.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    await atA.post('/api/v1/checks', { external_id: 'SEED', member_id: member.id, line_items: dinner(40_000) }); // earns 2,000
    // Twenty checks of 10.00 at once, alternating venues, each redeeming 0.50 and earning 5 % of the 9.50 paid (47).
    const rs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? atA : atB).post('/api/v1/checks', { external_id: `X-${i}`, member_id: member.id, redeem_amount: 50, line_items: dinner(1_000) }),
      ),
    );
    expect(rs.map((r) => r.status)).toEqual(Array(20).fill(201));
    const expected = 2_000 + 20 * (47 - 50);
    expect((await atB.get(`/api/v1/members/${member.id}`)).body.balance).toBe(expected);
    expect(await ledgerSum(t, member.id)).toBe(expected);
  });
});
