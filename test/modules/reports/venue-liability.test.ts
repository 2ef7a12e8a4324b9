// GET /v1/reports/venue_liability (D21): a chain of three venues in three time zones, a scripted month of checks,
// a redemption at C of cashback earned at A, a partial refund, a void, adjustments (a venue key's, a chain key's
// without venue), imports (a chain key's without venue, a venue key's) and the expiry of a lot earned at A written
// by a check at C. Every row is worked out by hand below; the rows add up to the change in the chain's outstanding
// cashback read straight from the ledger; the period is half-open; another chain sees only its own rows.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as imports from '../../../src/modules/imports/service.js';
import { venueLiability } from '../../../src/modules/reports/service.js';
import * as members from '../../../src/modules/members/service.js';
import { runExpiry } from '../../../src/modules/members/expiry-service.js';
import { useTestApp } from '../../support/app.js';
import { createChainKey, createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

const at = (iso: string) => {
  const target = Date.parse(iso);
  expect(target).toBeGreaterThanOrEqual(t.clock.now().getTime());
  t.clock.advance(target - t.clock.now().getTime());
};

const FROM = '2030-03-02T10:00:00.000Z';
const TO = '2030-03-12T10:00:00.000Z';
const report = (api: ReturnType<typeof client>, from = FROM, to = TO) =>
  api.get(`/api/v1/reports/venue_liability?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);

/** Σ cashback of the chain's ledger entries before `moment`: the chain's outstanding cashback then, held included. */
async function outstanding(chainId: string, moment: string): Promise<number> {
  const { rows } = await sql<{ total: string | null }>`
    select sum(cashback) as total from ledger_entries where chain_id = ${chainId} and created_at < ${new Date(moment)}`.execute(t.db);
  return Number(rows[0]!.total ?? 0);
}

const row = (venueId: string | null, figures: { earned?: number; redeemed?: number; expired?: number; adjusted?: number; imported?: number; net: number }) => ({
  venue_id: venueId,
  earned: 0,
  campaign: 0,
  redeemed: 0,
  expired: 0,
  adjusted: 0,
  imported: 0,
  ...figures,
});

async function chainOfThree() {
  // A in Berlin (the chain's first venue), B in Dublin, C in New York: lots count days and expire in their own zone.
  const a = await createVenue(t, { timezone: 'Europe/Berlin', locale: 'en-IE', currency: 'EUR', country: 'DE' });
  const b = await createVenue(t, { chainId: a.chainId, timezone: 'Europe/Dublin', country: 'IE', settings: { manual_adjustments_allowed: true } });
  const c = await createVenue(t, { chainId: a.chainId, timezone: 'America/New_York', country: 'US' });
  await createProgram(t, a, 'cashback', {
    settings: { levels: [{ name: 'Base', min_spend: 0, percent: 10 }], cashback_expires_after_days: 10, cashback_expiry_warning_days: 0 },
  });
  const [apiA, apiB, apiC] = await Promise.all([a, b, c].map(async (v) => client(t, (await createKey(t, v)).secret)));
  // A chain key allowed to adjust by its own rules: naming no venue, no venue's rules apply to it.
  const chain = client(t, (await createChainKey(t, a.chainId, { rules: { manual_adjustments_allowed: true } })).secret);
  return { a, b, c, apiA: apiA!, apiB: apiB!, apiC: apiC!, chain };
}

describe('the venue liability report', () => {
  it('each venue, and no venue, as worked out by hand; the nets add up to the change in what the chain owes; half-open', async () => {
    at('2030-03-01T10:00:00.000Z');
    const { a, b, c, apiA, apiB, apiC, chain } = await chainOfThree();
    const ok = async (res: Promise<{ status: number; body: any }>, status = 201) => {
      const r = await res;
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      return r.body;
    };
    const check = (api: ReturnType<typeof client>, externalId: string, memberId: string, amount: number, redeem = 0) =>
      ok(api.post('/api/v1/checks', { external_id: externalId, member_id: memberId, line_items: [{ name: 'Dinner', quantity: 1, unit_price: amount }], ...(redeem ? { redeem_amount: redeem } : {}) }));
    const m1 = await ok(apiA.post('/api/v1/members', { card_number: newCardNumber(), consent: true }));

    // Before the period: A-0 earns 10.00 into M1's lot (A, 1 Mar), which expires 11 Mar 00:00 Berlin (10 Mar 23:00 UTC).
    expect(await check(apiA, 'A-0', m1.id, 10_000)).toMatchObject({ earned: 1000 });

    at(FROM); // exactly `from`: included
    // A-1 earns 20.00 at A: lot (A, 2 Mar), expiring 11 Mar 23:00 UTC.
    expect(await check(apiA, 'A-1', m1.id, 20_000)).toMatchObject({ earned: 2000 });
    at('2030-03-02T11:00:00.000Z');
    const m2 = await ok(apiB.post('/api/v1/members', { card_number: newCardNumber(), consent: true }));
    // B-1 earns 5.00 at B: lot (B, 2 Mar), expiring 12 Mar 00:00 Dublin (00:00 UTC).
    expect(await check(apiB, 'B-1', m2.id, 5000)).toMatchObject({ earned: 500 });

    at('2030-03-03T10:00:00.000Z');
    // C-1 at C redeems 25.00 of what M1 earned at A, first in first out: 10.00 of (A, 1 Mar), 15.00 of (A, 2 Mar); it
    // earns floor(7500 × 10 %) = 7.50 into (C, 3 Mar).
    expect(await check(apiC, 'C-1', m1.id, 10_000, 2500)).toMatchObject({ redeemed: 2500, earned: 750, paid: 7500 });
    const { rows: recorded } = await sql<{ redeemed_lots: Record<string, number> }>`
      select redeemed_lots from transactions where chain_id = ${a.chainId} and venue_id = ${c.id} and external_id = 'C-1'`.execute(t.db);
    expect(recorded[0]!.redeemed_lots).toEqual({ [`${a.id}:2030-03-01`]: 1000, [`${a.id}:2030-03-02`]: 1500 });

    at('2030-03-04T10:00:00.000Z');
    // Refund half of C-1 at C: floor(2500 × 3750 / 7500) = 12.50 given back — 5.00 to (A, 1 Mar), emptied and formed
    // again in Berlin's days, 7.50 to (A, 2 Mar) —; floor(750 × 3750 / 7500) = 3.75 taken back from (C, 3 Mar).
    await ok(apiC.post('/api/v1/transactions/C-1/refunds', { external_id: 'C-1-R1', amount: 3750 }));
    expect((await apiA.get(`/api/v1/members/${m1.id}`)).body).toMatchObject({
      balance: 2125, // 10.00 + 20.00 − 25.00 + 7.50 + 12.50 − 3.75
      expiring: [{ amount: 500, on: '2030-03-11' }, { amount: 1250, on: '2030-03-12' }, { amount: 375, on: '2030-03-13' }],
    });

    at('2030-03-05T10:00:00.000Z');
    // B-2 redeems 2.00 of (B, 2 Mar) and earns floor(3800 × 10 %) = 3.80 into (B, 5 Mar); voided an hour later at B.
    expect(await check(apiB, 'B-2', m2.id, 4000, 200)).toMatchObject({ redeemed: 200, earned: 380 });
    at('2030-03-05T11:00:00.000Z');
    await ok(apiB.post('/api/v1/transactions/B-2/void'), 200);

    at('2030-03-06T10:00:00.000Z');
    // B's key gives M2 4.00 by hand: B's adjustment.
    await ok(apiB.post(`/api/v1/members/${m2.id}/adjustments`, { amount: 400, reason: 'goodwill' }));
    at('2030-03-06T11:00:00.000Z');
    // The chain key takes 1.00 from M1 naming no venue: no venue's adjustment; out of the soonest lot, (A, 1 Mar): 4.00 left.
    expect(await ok(chain.post(`/api/v1/members/${m1.id}/adjustments`, { amount: -100, reason: 'correction' }))).toMatchObject({ balance: 2025 });

    at('2030-03-07T10:00:00.000Z');
    // An import sent by the chain key naming no venue (opening balance 9.00: no venue's) and one sent by B's key (2.50: B's).
    const file = (card: string, balance: number) => new Blob([`card_number,consent_date,opening_balance\n${card},2030-01-01,${balance}\n`], { type: 'text/csv' });
    const chainCard = newCardNumber();
    await ok(chain.post('/api/v1/members/imports', file(chainCard, 900)), 202);
    while (await imports.runNextImport(t.db, t.clock, 'a0000000-0000-7000-8000-00000000000a'));
    at('2030-03-07T11:00:00.000Z');
    const bCard = newCardNumber();
    await ok(apiB.post('/api/v1/members/imports', file(bCard, 250)), 202);
    while (await imports.runNextImport(t.db, t.clock, 'a0000000-0000-7000-8000-00000000000a'));
    const m3 = (await apiA.get(`/api/v1/members/lookup?card_number=${chainCard}`)).body;
    const m4 = (await apiA.get(`/api/v1/members/lookup?card_number=${bCard}`)).body;
    expect(m3).toMatchObject({ home_venue_id: null, balance: 900, expiring: [{ amount: 900, on: '2030-03-17' }] });
    expect(m4).toMatchObject({ home_venue_id: b.id, balance: 250 });
    const importVenues = await sql<{ venue_id: string | null }>`
      select l.venue_id from cashback_lots l where l.chain_id = ${a.chainId} and l.member_id in (${m3.id}, ${m4.id}) order by l.remaining desc`.execute(t.db);
    // The import of no venue forms the lot of no venue (its expiry will belong to no venue, as its import does); B's forms B's.
    expect(importVenues.rows.map((r) => r.venue_id)).toEqual([null, b.id]);

    at('2030-03-11T06:00:00.000Z');
    // (A, 1 Mar) expired at 10 Mar 23:00 UTC with 4.00 in it. C-2 at C touches M1: the expiry is written by the same
    // statement, and charged to A, where it was earned. C-2 earns 1.00 into (C, 11 Mar).
    expect(await check(apiC, 'C-2', m1.id, 1000)).toMatchObject({ earned: 100 });
    const { rows: expiries } = await sql<{ venue_id: string; cashback: string }>`
      select venue_id, cashback from ledger_entries where chain_id = ${a.chainId} and kind = 'expiry'`.execute(t.db);
    expect(expiries.map((e) => [e.venue_id, Number(e.cashback)])).toEqual([[a.id, -400]]);

    at(TO); // exactly `to`: not in the report
    // A-2 at A: M2's (B, 2 Mar) expired at 12 Mar 00:00 UTC (5.00, charged to B) and M2 earns 10.00 at A — both at `to`.
    expect(await check(apiA, 'A-2', m2.id, 10_000)).toMatchObject({ earned: 1000 });

    const expected = [
      // A: earned 20.00 (A-1; A-0 is before the period); expired 4.00 of (A, 1 Mar). Net 20.00 − 4.00.
      row(a.id, { earned: 2000, expired: 400, net: 1600 }),
      // B: earned 5.00 + 3.80 − 3.80 (B-1, B-2 and its void); redeemed 2.00 − 2.00; adjusted 4.00; imported 2.50. Net 5.00 + 4.00 + 2.50.
      row(b.id, { earned: 500, adjusted: 400, imported: 250, net: 1150 }),
      // C: earned 7.50 − 3.75 + 1.00 (C-1, its refund, C-2); redeemed 25.00 − 12.50. Net 4.75 − 12.50.
      row(c.id, { earned: 475, redeemed: 1250, net: -775 }),
      // No venue: the chain key's −1.00 and its import's 9.00.
      row(null, { adjusted: -100, imported: 900, net: 800 }),
    ];
    const res = await report(chain);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ object: 'list', url: '/v1/reports/venue_liability', has_more: false, data: expected });
    // Any key of the chain sees the whole chain: a venue key too.
    expect((await report(apiB)).body.data).toEqual(expected);
    // The service the dashboard calls answers the same.
    expect((await venueLiability(t.db, a.chainId, { from: new Date(FROM), to: new Date(TO) })).data).toEqual(expected);

    // Σ net = 16.00 + 11.50 − 7.75 + 8.00 = 27.75 = what the chain owed at `to` less what it owed at `from`, read from
    // the ledger: 37.75 (A-2 and the 5.00 expiry at `to` not yet counted) − 10.00.
    expect(await outstanding(a.chainId, TO)).toBe(3775);
    expect(await outstanding(a.chainId, FROM)).toBe(1000);
    const nets = (res.body.data as { net: number }[]).reduce((s, r) => s + r.net, 0);
    expect(nets).toBe(2775);
    expect(nets).toBe((await outstanding(a.chainId, TO)) - (await outstanding(a.chainId, FROM)));
    // Each net is its figures' sum.
    for (const r of res.body.data) expect(r.net).toBe(r.earned + r.campaign + r.adjusted + r.imported - r.redeemed - r.expired);

    // Half-open: a millisecond later `from` leaves A-1 out; a millisecond later `to` takes A-2 and B's expiry in.
    const later = (iso: string) => new Date(Date.parse(iso) + 1).toISOString();
    expect((await report(chain, later(FROM))).body.data[0]).toEqual(row(a.id, { expired: 400, net: -400 }));
    const wider = (await report(chain, FROM, later(TO))).body.data;
    expect(wider[0]).toEqual(row(a.id, { earned: 3000, expired: 400, net: 2600 }));
    expect(wider[1]).toEqual(row(b.id, { earned: 500, expired: 500, adjusted: 400, imported: 250, net: 650 }));
    expect(wider.reduce((s: number, r: { net: number }) => s + r.net, 0)).toBe((await outstanding(a.chainId, later(TO))) - (await outstanding(a.chainId, FROM)));

    // Test and live entries apart: everything here was done with test keys.
    expect((await chain.get(`/api/v1/reports/venue_liability?from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}&livemode=false`)).body.data).toEqual(expected);
    expect((await chain.get(`/api/v1/reports/venue_liability?from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}&livemode=true`)).body.data).toEqual(
      [a.id, b.id, c.id, null].map((id) => row(id, { net: 0 })),
    );
    expect(await members.verifyTotals(t.db, a.chainId)).toEqual([]);

    // Another chain's key sees its own chain only (its venue and its row of no venue), none of this chain's figures.
    const other = await createVenue(t);
    const otherApi = client(t, (await createKey(t, other)).secret);
    expect((await report(otherApi)).body.data).toEqual([row(other.id, { net: 0 }), row(null, { net: 0 })]);
    expect((await report(chain)).body.data.map((r: { venue_id: string | null }) => r.venue_id)).toEqual([a.id, b.id, c.id, null]);
  });

  it('cashback imported at no venue expires into the row of no venue, not the chain’s first venue', async () => {
    at('2031-05-01T10:00:00.000Z');
    const { a, b, c, apiA, chain } = await chainOfThree();
    const card = newCardNumber();
    const file = new Blob([`card_number,consent_date,opening_balance\n${card},2031-01-01,1000\n`], { type: 'text/csv' });
    expect((await chain.post('/api/v1/members/imports', file)).status).toBe(202);
    while (await imports.runNextImport(t.db, t.clock, 'a0000000-0000-7000-8000-00000000000a'));
    const m = (await apiA.get(`/api/v1/members/lookup?card_number=${card}`)).body;
    // The lot of no venue counts its days in the chain's first venue's zone (Berlin, CEST): day 1 May, expiring
    // 11 May 00:00 Berlin = 10 May 22:00 UTC.
    expect(m).toMatchObject({ home_venue_id: null, balance: 1000, expiring: [{ amount: 1000, on: '2031-05-11' }] });
    const { rows: lots } = await sql<{ venue_id: string | null; day: string; expires_at: Date; remaining: string }>`
      select venue_id, day::text as day, expires_at, remaining from cashback_lots where chain_id = ${a.chainId} and member_id = ${m.id}`.execute(t.db);
    expect(lots.map((l) => [l.venue_id, l.day, new Date(l.expires_at).toISOString(), Number(l.remaining)])).toEqual([[null, '2031-05-01', '2031-05-10T22:00:00.000Z', 1000]]);

    const from = '2031-05-01T00:00:00.000Z';
    const to = '2031-05-12T00:00:00.000Z';
    at('2031-05-01T11:00:00.000Z');
    expect((await report(chain, from, to)).body.data).toEqual([row(a.id, { net: 0 }), row(b.id, { net: 0 }), row(c.id, { net: 0 }), row(null, { imported: 1000, net: 1000 })]);

    at('2031-05-10T22:00:00.000Z');
    // The worker's pass (over every chain of this file's database: its ledger entries are read for this chain only).
    await runExpiry(t.db, t.clock.now());
    const { rows: expiries } = await sql<{ venue_id: string | null; cashback: string }>`
      select venue_id, cashback from ledger_entries where chain_id = ${a.chainId} and kind = 'expiry'`.execute(t.db);
    expect(expiries.map((e) => [e.venue_id, Number(e.cashback)])).toEqual([[null, -1000]]);

    // No venue: imported 10.00, expired 10.00, net 0; A (the first venue) untouched.
    const expected = [row(a.id, { net: 0 }), row(b.id, { net: 0 }), row(c.id, { net: 0 }), row(null, { imported: 1000, expired: 1000, net: 0 })];
    const res = await report(chain, from, to);
    expect(res.body.data).toEqual(expected);
    const nets = (res.body.data as { net: number }[]).reduce((s, r) => s + r.net, 0);
    expect(nets).toBe(0);
    expect(nets).toBe((await outstanding(a.chainId, to)) - (await outstanding(a.chainId, from)));
    expect((await apiA.get(`/api/v1/members/${m.id}`)).body).toMatchObject({ balance: 0, expiring: [] });
    expect(await members.verifyTotals(t.db, a.chainId)).toEqual([]);
  });

  it('a redemption at B of cashback imported at no venue, voided, goes back to the lot of no venue, whose expiry stays no venue’s', async () => {
    at('2031-06-01T10:00:00.000Z');
    const { a, b, c, apiA, apiB, chain } = await chainOfThree();
    const [card1, card2] = [newCardNumber(), newCardNumber()];
    const file = new Blob([`card_number,consent_date,opening_balance\n${card1},2031-01-01,1000\n${card2},2031-01-01,1000\n`], { type: 'text/csv' });
    expect((await chain.post('/api/v1/members/imports', file)).status).toBe(202);
    while (await imports.runNextImport(t.db, t.clock, 'a0000000-0000-7000-8000-00000000000a'));
    const m1 = (await apiA.get(`/api/v1/members/lookup?card_number=${card1}`)).body;
    const m2 = (await apiA.get(`/api/v1/members/lookup?card_number=${card2}`)).body;
    const check = async (externalId: string, memberId: string, amount: number, redeem: number) => {
      const r = await apiB.post('/api/v1/checks', { external_id: externalId, member_id: memberId, line_items: [{ name: 'Dinner', quantity: 1, unit_price: amount }], redeem_amount: redeem });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body;
    };
    const recorded = async (externalId: string) =>
      (await sql<{ redeemed_lots: Record<string, number> | null }>`
        select redeemed_lots from transactions where chain_id = ${a.chainId} and venue_id = ${b.id} and external_id = ${externalId}`.execute(t.db)).rows[0]!.redeemed_lots;
    const lotsOf = async (memberId: string) =>
      (await sql<{ venue_id: string | null; day: string; remaining: string }>`
        select venue_id, day::text as day, remaining from cashback_lots where chain_id = ${a.chainId} and member_id = ${memberId} order by day, lot_venue`.execute(t.db)).rows.map(
        (l) => [l.venue_id, l.day, Number(l.remaining)],
      );

    at('2031-06-02T10:00:00.000Z');
    // B-1 redeems 3.00 of M1's lot of no venue (1 Jun), earns floor(2700 × 10 %) = 2.70 into (B, 2 Jun).
    expect(await check('B-1', m1.id, 3000, 300)).toMatchObject({ redeemed: 300, earned: 270 });
    expect(await recorded('B-1')).toEqual({ ':2031-06-01': 300 });
    // B-2 redeems all 10.00 of M2's lot of no venue (emptied), earns floor(1000 × 10 %) = 1.00 into (B, 2 Jun).
    expect(await check('B-2', m2.id, 2000, 1000)).toMatchObject({ redeemed: 1000, earned: 100 });
    expect(await recorded('B-2')).toEqual({ ':2031-06-01': 1000 });
    expect(await lotsOf(m1.id)).toEqual([[null, '2031-06-01', 700], [b.id, '2031-06-02', 270]]);
    expect(await lotsOf(m2.id)).toEqual([[null, '2031-06-01', 0], [b.id, '2031-06-02', 100]]);

    at('2031-06-03T10:00:00.000Z');
    for (const id of ['B-1', 'B-2']) expect((await apiB.post(`/api/v1/transactions/${id}/void`)).status).toBe(200);
    // Each redemption goes back whole to the lot of no venue it came from (M2's formed again); the earnings are taken back.
    expect(await recorded('B-1')).toBeNull();
    expect(await recorded('B-2')).toBeNull();
    expect(await lotsOf(m1.id)).toEqual([[null, '2031-06-01', 1000], [b.id, '2031-06-02', 0]]);
    expect(await lotsOf(m2.id)).toEqual([[null, '2031-06-01', 1000], [b.id, '2031-06-02', 0]]);
    for (const m of [m1, m2]) expect((await apiA.get(`/api/v1/members/${m.id}`)).body).toMatchObject({ balance: 1000, expiring: [{ amount: 1000, on: '2031-06-11' }] });

    // 11 Jun 00:00 Berlin = 10 Jun 22:00 UTC: both lots expire, each an entry of no venue.
    at('2031-06-10T22:00:00.000Z');
    // The worker's pass (over every chain of this file's database: its ledger entries are read for this chain only).
    await runExpiry(t.db, t.clock.now());
    const { rows: expiries } = await sql<{ venue_id: string | null; cashback: string }>`
      select venue_id, cashback from ledger_entries where chain_id = ${a.chainId} and kind = 'expiry'`.execute(t.db);
    expect(expiries.map((e) => [e.venue_id, Number(e.cashback)])).toEqual([[null, -1000], [null, -1000]]);

    // B: earned 2.70 + 1.00 − 3.70, redeemed 13.00 − 13.00: all 0. No venue: imported 20.00, expired 20.00.
    const from = '2031-06-01T00:00:00.000Z';
    const to = '2031-06-12T00:00:00.000Z';
    const res = await report(chain, from, to);
    expect(res.body.data).toEqual([row(a.id, { net: 0 }), row(b.id, { net: 0 }), row(c.id, { net: 0 }), row(null, { imported: 2000, expired: 2000, net: 0 })]);
    expect((res.body.data as { net: number }[]).reduce((s, r) => s + r.net, 0)).toBe((await outstanding(a.chainId, to)) - (await outstanding(a.chainId, from)));
    expect(await members.verifyTotals(t.db, a.chainId)).toEqual([]);
  });

  it('refuses a period that is missing, not a date-time, or not from before to: 400 parameter_invalid naming it', async () => {
    const venue = await createVenue(t);
    const api = client(t, (await createKey(t, venue, { scopes: ['reports:read'] })).secret);
    const get = (query: string) => api.get(`/api/v1/reports/venue_liability?${query}`);
    expect(expectError(await get('to=2030-01-02T00:00:00Z'), 400, 'parameter_invalid').param).toBe('from');
    expect(expectError(await get('from=2030-01-01T00:00:00Z'), 400, 'parameter_invalid').param).toBe('to');
    expect(expectError(await get('from=2030-01-01&to=2030-01-02T00:00:00Z'), 400, 'parameter_invalid').param).toBe('from');
    expect(expectError(await get('from=2030-01-01T00:00:00Z&to=2030-02-30T00:00:00Z'), 400, 'parameter_invalid').param).toBe('to');
    expect(expectError(await get('from=2030-01-02T00:00:00Z&to=2030-01-02T00:00:00Z'), 400, 'parameter_invalid').param).toBe('to');
    expect(expectError(await get('from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z'), 400, 'parameter_invalid').param).toBe('to');
    // The whole chain for any key: it takes no venue_id.
    expect(expectError(await get(`from=2030-01-01T00:00:00Z&to=2030-01-02T00:00:00Z&venue_id=${venue.id}`), 400, 'parameter_invalid').param).toBe('venue_id');
    // An offset is the same moment: 01:00+01:00 is midnight UTC.
    const answer = await get(`from=${encodeURIComponent('2030-01-01T01:00:00+01:00')}&to=2030-01-02T00:00:00Z`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([row(venue.id, { net: 0 }), row(null, { net: 0 })]);
    // The service refuses the same for the dashboard, which passes Dates.
    await expect(venueLiability(t.db, venue.chainId, { from: new Date('2030-01-02T00:00:00Z'), to: new Date('2030-01-01T00:00:00Z') })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'to' });
  });
});
