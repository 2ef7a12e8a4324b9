// Cashback expiry (D20): lots by venue day, what a read subtracts before the worker runs, the worker's entries and
// events (the warning once per lot, before the expiry), daylight-saving changes, and a program without expiry.
// Figures are worked out by hand from docs/members.md; the clock only moves forward, so the tests run in order.
import { SYSTEM } from '../../../src/modules/audit/service.js';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { changeProgram } from '../../../src/dashboard/service.js';
import { importMembers } from '../../../src/modules/members/bulk-import.js';
import { runExpiry } from '../../../src/modules/members/expiry-service.js';
import * as members from '../../../src/modules/members/service.js';
import * as programs from '../../../src/modules/programs/service.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();
const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A Berlin venue, 10 % cashback, and one member; `expiry` null: the program does not expire cashback. */
async function berlinMember(expiry: { days: number; warning?: number } | null = { days: 30, warning: 7 }) {
  const venue = await createVenue(t, { timezone: 'Europe/Berlin', locale: 'en-IE', currency: 'EUR', country: 'DE', settings: { manual_adjustments_allowed: true } });
  await createProgram(t, venue, 'cashback', {
    settings: {
      levels: [{ name: 'Base', min_spend: 0, percent: 10 }],
      ...(expiry ? { cashback_expires_after_days: expiry.days, ...(expiry.warning === undefined ? {} : { cashback_expiry_warning_days: expiry.warning }) } : {}),
    },
  });
  const api = client(t, (await createKey(t, venue)).secret);
  const { body: member } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Lena Vogel' });
  let n = 0;
  const check = async (amount: number, extra: Record<string, unknown> = {}) => {
    const res = await api.post('/api/v1/checks', { external_id: `E${++n}`, member_id: member.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: amount }], ...extra });
    if (res.status >= 300 && !('redeem_amount' in extra)) throw new Error(JSON.stringify(res.body));
    return res;
  };
  const get = async () => (await api.get(`/api/v1/members/${member.id}`)).body;
  const expiries = async () => {
    const { rows } = await sql<{ cashback: string }>`select cashback from ledger_entries where member_id = ${member.id} and kind = 'expiry' order by id`.execute(t.db);
    return rows.map((r) => Number(r.cashback));
  };
  return { venue, api, member, check, get, expiries };
}

async function events(api: ReturnType<typeof client>, type: string, memberId: string) {
  const { body } = await api.get(`/api/v1/events?type=${type}&limit=100`);
  return (body.data as { venue_id: string | null; data: { object: Record<string, unknown> }; created_at: string }[]).filter((e) => e.data.object.member_id === memberId);
}

const at = (iso: string) => {
  const target = Date.parse(iso);
  expect(target).toBeGreaterThanOrEqual(t.clock.now().getTime());
  t.clock.advance(target - t.clock.now().getTime());
};

describe('cashback expiry', () => {
  it('expiry off: no lots, no expiring, nothing ever expires', async () => {
    const m = await berlinMember(null);
    expect((await m.check(10_000)).status).toBe(201);
    const before = await m.get();
    expect(before).toMatchObject({ balance: 1000, available: 1000, expiring: null });
    t.clock.advance(400 * DAY);
    await runExpiry(t.db, t.clock.now());
    expect(await m.get()).toMatchObject({ balance: 1000, available: 1000, expiring: null });
    expect(await m.expiries()).toEqual([]);
    const { rows } = await sql`select 1 from cashback_lots where member_id = ${m.member.id}`.execute(t.db);
    expect(rows).toEqual([]);
  });

  it('one lot per venue day, first in first out; reads subtract what is due before the worker; warned once, before', async () => {
    // Now 2027-12-28 afternoon in Berlin (the clock only moves forward in this file).
    at('2027-12-28T13:00:00.000Z');
    const m = await berlinMember({ days: 30, warning: 7 });
    expect((await m.check(2000)).body.earned).toBe(200); // lot of 28 Dec: 2.00, expires on 27 Jan
    expect((await m.check(1200)).body.earned).toBe(120); // same day: the lot is 3.20
    at('2027-12-29T13:00:00.000Z');
    expect((await m.check(5000)).body.earned).toBe(500); // lot of 29 Dec: 5.00, expires on 28 Jan
    let member = await m.get();
    expect(member).toMatchObject({ balance: 820, available: 820, expiring: [{ amount: 320, on: '2028-01-27' }, { amount: 500, on: '2028-01-28' }] });
    expect(member.display.cashier).toContain('€3.20 expires on 27 Jan');
    expect(member.display.receipt).toContain('€3.20 expires on 27 Jan');

    // Pay 1.00 with cashback: out of the oldest lot (3.20 → 2.20). Earned floor((3000 − 100) × 10 %) = 2.90, lot of 29 Dec.
    const paid = await m.check(3000, { redeem_amount: 100 });
    expect(paid.body).toMatchObject({ redeemed: 100, earned: 290 });
    expect(paid.body.display.receipt).toContain('€2.20 expires on 27 Jan');
    expect((await m.get()).expiring).toEqual([{ amount: 220, on: '2028-01-27' }, { amount: 790, on: '2028-01-28' }]);

    // Warnings: 7 days before 27 Jan is 20 Jan 00:00 Berlin. Not yet on the 19th; once on the 20th, run twice.
    at('2028-01-19T22:59:00.000Z');
    await runExpiry(t.db, t.clock.now());
    expect(await events(m.api, 'cashback.expiring', m.member.id)).toEqual([]);
    at('2028-01-20T00:00:00.000Z');
    await Promise.all([runExpiry(t.db, t.clock.now()), runExpiry(t.db, t.clock.now())]);
    await runExpiry(t.db, t.clock.now());
    const warned = await events(m.api, 'cashback.expiring', m.member.id);
    expect(warned.map((e) => e.data.object)).toEqual([
      { object: 'cashback_expiry_warning', member_id: m.member.id, amount: 220, earned_on: '2027-12-28', expires_on: '2028-01-27', expires_at: '2028-01-26T23:00:00.000+00:00' },
    ]);

    // At 27 Jan 00:00 Berlin the first lot is due: reads subtract it at once, before the worker writes anything.
    at('2028-01-26T22:59:59.999Z');
    expect(await m.get()).toMatchObject({ balance: 1010, available: 1010 });
    at('2028-01-26T23:00:00.000Z');
    member = await m.get();
    expect(member).toMatchObject({ balance: 790, available: 790, expiring: [{ amount: 790, on: '2028-01-28' }] });
    expect(await m.expiries()).toEqual([]);
    // A check's decision sees it too: 7.91 is more than is available.
    const refused = expectError(await m.check(5000, { redeem_amount: 791 }), 402, 'insufficient_balance');
    expect(refused.available).toBe(790);
    const calc = await m.api.post('/api/v1/checks/calculate', { member_id: m.member.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: 5000 }] });
    expect(calc.body.max_redeem).toBe(790);

    // The worker writes it once, however often and however many run at once.
    await Promise.all([runExpiry(t.db, t.clock.now()), runExpiry(t.db, t.clock.now())]);
    await runExpiry(t.db, t.clock.now());
    expect(await m.expiries()).toEqual([-220]);
    expect(await m.get()).toMatchObject({ balance: 790, available: 790 });
    const expired = await events(m.api, 'cashback.expired', m.member.id);
    expect(expired.map((e) => e.data.object)).toMatchObject([{ object: 'cashback_expiry', member_id: m.member.id, amount: 220, lots: [{ day: '2027-12-28', amount: 220 }] }]);
    // The second lot's warning (due 21 Jan 00:00) is sent by this run: late, but still before its expiry.
    expect((await events(m.api, 'cashback.expiring', m.member.id)).map((e) => e.data.object.earned_on)).toEqual(['2027-12-29', '2027-12-28']);
    expect(await members.verifyTotals(t.db, m.venue.chainId)).toEqual([]);
  });

  it('a check that finds cashback due writes its expiry in the same statement; a hold keeps what it holds; reversals use their own lot', async () => {
    at('2028-02-01T10:00:00.000Z');
    const m = await berlinMember({ days: 10, warning: 0 });
    expect((await m.check(10_000)).body.earned).toBe(1000); // E1: lot A of 1 Feb, 10.00, expires on 11 Feb
    at('2028-02-05T10:00:00.000Z');
    expect((await m.check(3000)).body.earned).toBe(300); // E2: lot B of 5 Feb, 3.00, expires on 15 Feb
    at('2028-02-07T10:00:00.000Z');
    expect((await m.check(2000)).body.earned).toBe(200); // E3: lot C of 7 Feb, 2.00, expires on 17 Feb
    // A hold of 4.00 made an hour before lot A is due.
    at('2028-02-10T22:00:00.000Z');
    const hold = await m.api.post('/api/v1/holds', { member_id: m.member.id, amount: 400, expires_in: 86_400 });
    expect(hold.status).toBe(201);
    at('2028-02-10T23:00:00.000Z'); // 11 Feb 00:00 Berlin
    // Due: A's 10.00; available 15.00 − 4.00 = 11.00 covers it. Balance 5.00, of which the hold keeps 4.00.
    expect(await m.get()).toMatchObject({ balance: 500, held: 400, available: 100, expiring: [{ amount: 300, on: '2028-02-15' }, { amount: 200, on: '2028-02-17' }] });
    expect(await m.expiries()).toEqual([]);
    // E4 captures the hold: 4.00 out of the lots expiring soonest (B 3.00, C 1.00), and the expiry is written by
    // the same statement. It earns floor((5000 − 400) × 10 %) = 4.60 into lot D of 11 Feb (expires on 21 Feb).
    const captured = await m.check(5000, { hold_id: hold.body.id });
    expect(captured.body).toMatchObject({ redeemed: 400, earned: 460 });
    expect(await m.expiries()).toEqual([-1000]);
    expect(await m.get()).toMatchObject({ balance: 560, held: 0, available: 560, expiring: [{ amount: 100, on: '2028-02-17' }, { amount: 460, on: '2028-02-21' }] });
    // Refund half of E4: floor(400 × 2300 / 4600) = 2.00 given back where E4 took it from, in proportion: B 1.50,
    // C 0.50; then floor(460 × 2300 / 4600) = 2.30 taken back from E4's own lot D — not from C, which expires sooner.
    expect((await m.api.post('/api/v1/transactions/E4/refunds', { external_id: 'R1', amount: 2300 })).status).toBe(201);
    expect(await m.get()).toMatchObject({
      balance: 530,
      expiring: [{ amount: 150, on: '2028-02-15' }, { amount: 150, on: '2028-02-17' }, { amount: 230, on: '2028-02-21' }],
    });
    // Void E2: its 3.00 comes out of its own lot B first (1.50), then the lots expiring soonest: C 1.50.
    expect((await m.api.post('/api/v1/transactions/E2/void')).status).toBe(200);
    expect(await m.get()).toMatchObject({ balance: 230, expiring: [{ amount: 230, on: '2028-02-21' }] });
    at('2028-02-20T23:00:00.000Z');
    const pass = await runExpiry(t.db, t.clock.now());
    expect(pass.expired).toBeGreaterThanOrEqual(230);
    expect(await m.expiries()).toEqual([-1000, -230]);
    expect(await m.get()).toMatchObject({ balance: 0, available: 0, expiring: [] });
    const history = (await m.api.get(`/api/v1/members/${m.member.id}/history`)).body.data;
    expect(history[0]).toMatchObject({ type: 'expiry', cashback: -230 });
    expect(await members.verifyTotals(t.db, m.venue.chainId)).toEqual([]);
  });

  it('in debt nothing expires; what is earned pays the debt back first, only the rest forms a lot', async () => {
    at('2028-03-01T10:00:00.000Z');
    const m = await berlinMember({ days: 5, warning: 0 });
    await m.check(10_000); // lot of 1 Mar: 10.00
    await m.check(10_000, { redeem_amount: 1000 }); // pays 10.00 out of it; earns 9.00 into the same lot
    expect(await m.get()).toMatchObject({ balance: 900, expiring: [{ amount: 900, on: '2028-03-06' }] });
    await m.api.post('/api/v1/transactions/E1/void'); // takes 10.00 back: 9.00 from the lot, −1.00 of debt
    expect(await m.get()).toMatchObject({ balance: -100, available: -100, expiring: [] });
    at('2028-03-02T10:00:00.000Z');
    await m.check(3000); // earns 3.00: 1.00 pays the debt, 2.00 forms the lot of 2 Mar
    expect(await m.get()).toMatchObject({ balance: 200, expiring: [{ amount: 200, on: '2028-03-07' }] });
    at('2028-03-06T23:00:00.000Z');
    await runExpiry(t.db, t.clock.now());
    expect(await m.expiries()).toEqual([-200]);
    expect(await m.get()).toMatchObject({ balance: 0, available: 0 });
  });

  it('crosses the spring daylight-saving change: a lot expires at the start of the right local day', async () => {
    at('2028-03-24T12:00:00.000Z');
    const m = await berlinMember({ days: 2, warning: 0 });
    // Closed on Friday 24 Mar 2028 at 23:30 Berlin (22:30 UTC): its venue day is the 24th; it expires on Sunday the
    // 26th, the day clocks go forward, at 00:00 CET = 23:00 UTC on the 25th.
    at('2028-03-24T22:45:00.000Z');
    await m.check(1000, { closed_at: '2028-03-24T22:30:00.000+00:00' });
    at('2028-03-25T10:00:00.000Z');
    await m.check(2000); // lot of the 25th, expiring on Monday the 27th at 00:00 CEST = 22:00 UTC on the 26th
    at('2028-03-25T22:59:59.999Z');
    expect((await m.get()).balance).toBe(300);
    at('2028-03-25T23:00:00.000Z');
    expect((await m.get()).balance).toBe(200);
    at('2028-03-26T21:59:59.999Z');
    expect((await m.get()).balance).toBe(200);
    at('2028-03-26T22:00:00.000Z');
    expect((await m.get()).balance).toBe(0);
    // One pass writes what is due by then as one entry.
    await runExpiry(t.db, t.clock.now());
    expect(await m.expiries()).toEqual([-300]);
  });

  it('crosses the autumn change the same way', async () => {
    at('2028-10-27T10:00:00.000Z');
    const m = await berlinMember({ days: 2, warning: 0 });
    await m.check(1000); // lot of Fri 27 Oct, expires on Sun 29 Oct (the change day) at 00:00 CEST = 22:00 UTC on the 28th
    at('2028-10-28T10:00:00.000Z');
    await m.check(2000); // lot of Sat 28 Oct, expires on Mon 30 Oct at 00:00 CET = 23:00 UTC on the 29th
    at('2028-10-28T21:59:59.999Z');
    expect((await m.get()).balance).toBe(300);
    at('2028-10-28T22:00:00.000Z');
    expect((await m.get()).balance).toBe(200);
    at('2028-10-29T22:59:59.999Z');
    expect((await m.get()).balance).toBe(200);
    at('2028-10-29T23:00:00.000Z');
    expect((await m.get()).balance).toBe(0);
    await runExpiry(t.db, t.clock.now());
    await runExpiry(t.db, t.clock.now());
    expect(await m.expiries()).toEqual([-300]);
    expect(await members.verifyTotals(t.db, m.venue.chainId)).toEqual([]);
  });

  it('an imported opening balance forms a lot of the import day', async () => {
    at('2028-11-10T09:00:00.000Z');
    const m = await berlinMember({ days: 30, warning: 0 });
    const card = newCardNumber();
    const csv = `card_number,phone,name,consent_date,opening_balance,total_spend,visits,stamps\n${card},,Jonas Weber,2028-01-01,1250,0,0,0\n`;
    const totals = await importMembers(t.db, { chainId: m.venue.chainId, venueId: m.venue.id, livemode: false, country: 'DE', reference: 'expiry.csv' }, 'csv', (async function* () {
      yield csv;
    })(), { clock: t.clock });
    expect(totals.imported).toBe(1);
    const { body: imported } = await m.api.get(`/api/v1/members/lookup?card_number=${card}`);
    expect(imported).toMatchObject({ balance: 1250, expiring: [{ amount: 1250, on: '2028-12-10' }] });
    at('2028-12-09T23:00:00.000Z'); // 10 Dec 00:00 Berlin
    await runExpiry(t.db, t.clock.now());
    expect((await m.api.get(`/api/v1/members/${imported.id}`)).body).toMatchObject({ balance: 0, expiring: [] });
    expect(await members.verifyTotals(t.db, m.venue.chainId)).toEqual([]);
  });

  it('turning expiry off forgets the lots: nothing earned until then expires', async () => {
    at('2028-12-20T09:00:00.000Z');
    const m = await berlinMember({ days: 3, warning: 0 });
    await m.check(5000);
    expect(await m.get()).toMatchObject({ balance: 500, expiring: [{ amount: 500, on: '2028-12-23' }] });
    const [program] = await programs.listPrograms(t.db, m.venue.chainId);
    await changeProgram(t.db, m.venue.chainId, program!.id, { settings: { levels: [{ name: 'Base', min_spend: 0, percent: 10 }] } }, t.clock.now(), SYSTEM);
    t.clock.advance(10 * DAY);
    await runExpiry(t.db, t.clock.now());
    expect(await m.get()).toMatchObject({ balance: 500, available: 500, expiring: null });
    expect(await m.expiries()).toEqual([]);
    const { rows } = await sql`select 1 from cashback_lots where member_id = ${m.member.id}`.execute(t.db);
    expect(rows).toEqual([]);
  });

  it('costs no extra round trip with expiry on: a look-up and a scan are one statement, a check five, also when it writes an expiry', async () => {
    at('2029-01-10T09:00:00.000Z');
    const m = await berlinMember({ days: 1, warning: 0 });
    const sentBy = async (send: () => Promise<{ status: number; body: unknown }>) => {
      const from = t.testDatabase.sent.length;
      const res = await send();
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      return t.testDatabase.sent.slice(from);
    };
    await m.check(5000); // warms the caches; a lot of 10 Jan (5.00), due on 11 Jan
    const card = m.member.card_numbers[0];
    expect(await sentBy(() => m.api.get(`/api/v1/members/lookup?card_number=${card}`))).toHaveLength(1);
    expect(await sentBy(() => m.api.get(`/api/v1/members/${m.member.id}`))).toHaveLength(1);
    expect(await sentBy(() => m.api.post('/api/v1/scans', { code: card }))).toHaveLength(1);
    const line = [{ name: 'Dinner', quantity: 1, unit_price: 3000 }];
    expect((await sentBy(() => m.api.post('/api/v1/checks/calculate', { member_id: m.member.id, line_items: line }))).length).toBe(1); // the member with the gather alongside: one snapshot
    const sent = await sentBy(() => m.check(3000, { redeem_amount: 100 }));
    expect(sent, sent.map((q) => q.slice(0, 120)).join('\n')).toHaveLength(5);
    at('2029-01-11T09:00:00.000Z'); // the 10 Jan lot is due: this check writes its expiry in its one write
    await m.get(); // the key's last use is written at most once a minute: not in the count
    const writing = await sentBy(() => m.check(3000));
    expect(writing, writing.map((q) => q.slice(0, 120)).join('\n')).toHaveLength(5);
    expect(await m.expiries()).toEqual([-690]); // 5.00 − 1.00 paid + 2.90 earned, all on 10 Jan
  });

  it('a void gives a redemption of cashback that formed no lot back to no lot: it never expires', async () => {
    at('2031-08-01T08:00:00.000Z');
    const m = await berlinMember({ days: 2, warning: 0 });
    expect((await m.api.post(`/api/v1/members/${m.member.id}/adjustments`, { amount: 5000, reason: 'goodwill' })).status).toBe(201);
    // Pays 50.00 out of the adjustment (no lot) and earns floor(1000 × 10 %) = 1.00 into the lot of 1 Aug.
    expect((await m.check(6000, { redeem_amount: 5000 })).body).toMatchObject({ redeemed: 5000, earned: 100 });
    expect(await m.get()).toMatchObject({ balance: 100, expiring: [{ amount: 100, on: '2031-08-03' }] });
    at('2031-08-10T10:00:00.000Z'); // the 1 Aug lot expired on 3 Aug
    expect(await m.get()).toMatchObject({ balance: 0, expiring: [] });
    // The void writes the 1.00 expiry, gives the 50.00 back to no lot and takes the 1.00 earned back: 49.00.
    expect((await m.api.post('/api/v1/transactions/E1/void')).status).toBe(200);
    expect(await m.get()).toMatchObject({ balance: 4900, available: 4900, expiring: [] });
    t.clock.advance(30 * DAY);
    await runExpiry(t.db, t.clock.now());
    expect(await m.get()).toMatchObject({ balance: 4900, available: 4900, expiring: [] });
    expect(await m.expiries()).toEqual([-100]);
    expect(await members.verifyTotals(t.db, m.venue.chainId)).toEqual([]);
  });

  it('refunds give a redemption back to the lots it took from and to no lot, in proportion, exactly', async () => {
    at('2031-10-01T08:00:00.000Z');
    const m = await berlinMember({ days: 10, warning: 0 });
    await m.api.post(`/api/v1/members/${m.member.id}/adjustments`, { amount: 1000, reason: 'goodwill' }); // no lot
    await m.check(5000); // E1: lot of 1 Oct, 5.00 (expires on 11 Oct)
    at('2031-10-02T08:00:00.000Z');
    await m.check(3000); // E2: lot of 2 Oct, 3.00 (12 Oct)
    at('2031-10-03T08:00:00.000Z');
    // E3 pays 17.00: 5.00 from the 1 Oct lot, 3.00 from the 2 Oct lot, 9.00 from no lot; earns 8.30 (3 Oct lot).
    expect((await m.check(10_000, { redeem_amount: 1700 })).body).toMatchObject({ redeemed: 1700, earned: 830, paid: 8300 });
    expect(await m.get()).toMatchObject({ balance: 930, expiring: [{ amount: 830, on: '2031-10-13' }] });
    // Refund 15.00 of 83.00: floor(1700 × 1500 / 8300) = 3.07 back — 307 × 500/1700 = 90.29, × 300/1700 = 54.18,
    // × 900/1700 = 162.53: floors 90 + 54 + 162 = 306, the cent left to the largest remainder (no lot): 163.
    // floor(830 × 1500 / 8300) = 1.50 taken back from the 3 Oct lot.
    expect((await m.api.post('/api/v1/transactions/E3/refunds', { external_id: 'R1', amount: 1500 })).status).toBe(201);
    expect(await m.get()).toMatchObject({
      balance: 1087,
      expiring: [{ amount: 90, on: '2031-10-11' }, { amount: 54, on: '2031-10-12' }, { amount: 680, on: '2031-10-13' }],
    });
    // The void gives the rest back whole: 4.10 and 2.46 to the lots, 7.37 to no lot; takes the 6.80 left back.
    at('2031-10-04T08:00:00.000Z');
    expect((await m.api.post('/api/v1/transactions/E3/void')).status).toBe(200);
    expect(await m.get()).toMatchObject({ balance: 1800, expiring: [{ amount: 500, on: '2031-10-11' }, { amount: 300, on: '2031-10-12' }] });
    at('2031-10-20T08:00:00.000Z');
    await runExpiry(t.db, t.clock.now());
    expect(await m.expiries()).toEqual([-800]); // the adjustment's 10.00 never expires
    expect(await m.get()).toMatchObject({ balance: 1000, expiring: [] });
    expect(await members.verifyTotals(t.db, m.venue.chainId)).toEqual([]);
  });

  it('a check closed longer ago than cashback lasts earns nothing, says why, and its void takes nothing back (issue 25, 10c)', async () => {
    at('2031-12-01T10:00:00.000Z');
    const m = await berlinMember({ days: 30, warning: 0 });
    await m.api.post(`/api/v1/members/${m.member.id}/adjustments`, { amount: 200, reason: 'goodwill' }); // no lot
    // Closed on 15 Oct: 10 % of 50.00 would go into the lot of 15 Oct, which expired on 14 Nov (30 days later).
    const line = [{ name: 'Dinner', quantity: 1, unit_price: 5000 }];
    const why = 'Nothing earned: cashback of 15 Oct expired on 14 Nov';
    const calc = await m.api.post('/api/v1/checks/calculate', { member_id: m.member.id, line_items: line, closed_at: '2031-10-15T12:00:00.000Z' });
    expect(calc.body).toMatchObject({ earned: 0, earn_capped: false, balance_after: 200, available_after: 200 });
    expect(calc.body.display.receipt).toContain(why);
    const res = await m.check(5000, { closed_at: '2031-10-15T12:00:00.000Z', external_id: 'OLD-1' });
    expect(res.body).toMatchObject({ earned: 0, paid: 5000 });
    expect(res.body.display.receipt).toContain(why);
    expect(res.body.display.receipt).toContain('Cashback available: €2.00');
    expect(await m.get()).toMatchObject({ balance: 200, available: 200, expiring: [] });
    // A check closed 29 days ago still earns: its lot expires tomorrow.
    const recent = await m.check(1000, { closed_at: '2031-11-02T12:00:00.000Z' });
    expect(recent.body.earned).toBe(100);
    // Applying the old check and voiding it is nothing: no debt, no expiry.
    const voided = await m.api.post('/api/v1/transactions/OLD-1/void');
    expect(voided.status).toBe(200);
    expect(await m.get()).toMatchObject({ balance: 300, available: 300 });
    await runExpiry(t.db, t.clock.now());
    expect(await m.expiries()).toEqual([]);
    expect(await members.verifyTotals(t.db, m.venue.chainId)).toEqual([]);
  });

  it('turning expiry off after a lot is due, before the worker: what was due is written first, never given back', async () => {
    at('2032-01-05T10:00:00.000Z');
    const m = await berlinMember({ days: 3, warning: 0 });
    await m.check(5000); // lot of 5 Jan, 5.00, expires on 8 Jan
    at('2032-01-06T10:00:00.000Z');
    await m.check(2000); // lot of 6 Jan, 2.00, expires on 9 Jan
    at('2032-01-08T10:00:00.000Z'); // the 5 Jan lot is due; no worker has run
    expect(await m.get()).toMatchObject({ balance: 200, expiring: [{ amount: 200, on: '2032-01-09' }] });
    const [program] = await programs.listPrograms(t.db, m.venue.chainId);
    await changeProgram(t.db, m.venue.chainId, program!.id, { settings: { levels: [{ name: 'Base', min_spend: 0, percent: 10 }] } }, t.clock.now(), SYSTEM);
    expect(await m.expiries()).toEqual([-500]);
    expect(await events(m.api, 'cashback.expired', m.member.id)).toHaveLength(1);
    // The 6 Jan lot was not due: it no longer expires.
    t.clock.advance(10 * DAY);
    await runExpiry(t.db, t.clock.now());
    expect(await m.get()).toMatchObject({ balance: 200, available: 200, expiring: null });
    expect(await m.expiries()).toEqual([-500]);
    expect(await members.verifyTotals(t.db, m.venue.chainId)).toEqual([]);
  });

  it('a changed warning lead applies to the lots not yet warned about: 7 → 0 warns none, 0 → 3 warns them', async () => {
    at('2032-02-01T10:00:00.000Z');
    const m = await berlinMember({ days: 10, warning: 7 });
    await m.check(5000); // lot of 1 Feb, 5.00, expires on 11 Feb; warned on 4 Feb by the lead it was formed with
    const [program] = await programs.listPrograms(t.db, m.venue.chainId);
    const lead = (days: number) =>
      changeProgram(t.db, m.venue.chainId, program!.id, { settings: { levels: [{ name: 'Base', min_spend: 0, percent: 10 }], cashback_expires_after_days: 10, cashback_expiry_warning_days: days } }, t.clock.now(), SYSTEM);
    await lead(0);
    at('2032-02-05T10:00:00.000Z');
    await runExpiry(t.db, t.clock.now());
    expect(await events(m.api, 'cashback.expiring', m.member.id)).toEqual([]);
    await lead(3); // warned from the start of 8 Feb, Berlin (7 Feb 23:00 UTC)
    at('2032-02-07T22:59:00.000Z');
    await runExpiry(t.db, t.clock.now());
    expect(await events(m.api, 'cashback.expiring', m.member.id)).toEqual([]);
    at('2032-02-07T23:00:00.000Z');
    await runExpiry(t.db, t.clock.now());
    const warned = await events(m.api, 'cashback.expiring', m.member.id);
    expect(warned.map((e) => e.data.object)).toMatchObject([{ amount: 500, earned_on: '2032-02-01', expires_on: '2032-02-11' }]);
  });

  it("lots by venue (D21): each venue's day and time zone; FIFO across venues; a void gives back to another venue's emptied lot; one expiry entry per venue", async () => {
    at('2032-03-01T11:30:00.000Z'); // 12:30 on 1 Mar in Berlin, 00:30 on 2 Mar in Auckland (NZDT, UTC+13)
    const m = await berlinMember({ days: 10, warning: 0 });
    const auckland = await createVenue(t, { chainId: m.venue.chainId, timezone: 'Pacific/Auckland', country: 'NZ' });
    const apiB = client(t, (await createKey(t, auckland)).secret);
    const checkAtB = (externalId: string, amount: number, redeem = 0) =>
      apiB.post('/api/v1/checks', { external_id: externalId, member_id: m.member.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: amount }], ...(redeem ? { redeem_amount: redeem } : {}) });
    expect((await m.check(1000)).body.earned).toBe(100); // lot (Berlin, 1 Mar): expires 11 Mar 00:00 Berlin = 10 Mar 23:00 UTC
    expect((await checkAtB('B1', 2000)).body.earned).toBe(200); // lot (Auckland, 2 Mar): expires 12 Mar 00:00 NZDT = 11 Mar 11:00 UTC
    expect((await m.get()).expiring).toEqual([{ amount: 100, on: '2032-03-11' }, { amount: 200, on: '2032-03-12' }]);
    const lots = async () =>
      (await sql<{ venue_id: string; day: string; expires_at: Date; remaining: string }>`
        select venue_id, day::text as day, expires_at, remaining from cashback_lots where member_id = ${m.member.id} order by expires_at, day, venue_id`.execute(t.db)).rows.map(
        (l) => [l.venue_id, l.day, l.expires_at.toISOString(), Number(l.remaining)],
      );
    expect(await lots()).toEqual([
      [m.venue.id, '2032-03-01', '2032-03-10T23:00:00.000Z', 100],
      [auckland.id, '2032-03-02', '2032-03-11T11:00:00.000Z', 200],
    ]);
    // B2 at Auckland pays 1.50 first in first out across venues: 1.00 of the Berlin lot, 0.50 of Auckland's; it earns
    // floor(850 × 10 %) = 0.85 into Auckland's lot of its day.
    expect((await checkAtB('B2', 1000, 150)).body).toMatchObject({ redeemed: 150, earned: 85 });
    const { rows: recorded } = await sql<{ redeemed_lots: unknown }>`select redeemed_lots from transactions where venue_id = ${auckland.id} and external_id = 'B2'`.execute(t.db);
    expect(recorded[0]!.redeemed_lots).toEqual({ [`${m.venue.id}:2032-03-01`]: 100, [`${auckland.id}:2032-03-02`]: 50 });
    expect(await lots()).toEqual([
      [m.venue.id, '2032-03-01', '2032-03-10T23:00:00.000Z', 0],
      [auckland.id, '2032-03-02', '2032-03-11T11:00:00.000Z', 235],
    ]);
    // Voided at Auckland on 10 Mar 12:00 UTC: 1.00 back to the Berlin lot — emptied, so formed again, by Berlin's days:
    // due at 23:00 UTC, not at Auckland's midnight (11:00 UTC), so the answer still counts it —, 0.50 back to
    // Auckland's, and 0.85 taken back from Auckland's.
    at('2032-03-10T12:00:00.000Z');
    const voided = await apiB.post('/api/v1/transactions/B2/void');
    expect(voided.status).toBe(200);
    expect(voided.body.display.receipt).toContain('Cashback balance: €3.00');
    expect((await m.get()).expiring).toEqual([{ amount: 100, on: '2032-03-11' }, { amount: 200, on: '2032-03-12' }]);
    expect(await lots()).toEqual([
      [m.venue.id, '2032-03-01', '2032-03-10T23:00:00.000Z', 100],
      [auckland.id, '2032-03-02', '2032-03-11T11:00:00.000Z', 200],
    ]);
    // Both due by 11 Mar 12:00 UTC: one pass writes an `expiry` entry per venue, each charged where it was earned.
    at('2032-03-11T12:00:00.000Z');
    await runExpiry(t.db, t.clock.now());
    const { rows: entries } = await sql<{ venue_id: string; cashback: string; reason: string }>`
      select venue_id, cashback, reason from ledger_entries where member_id = ${m.member.id} and kind = 'expiry' order by cashback desc`.execute(t.db);
    expect(entries.map((e) => [e.venue_id, Number(e.cashback), e.reason])).toEqual([
      [m.venue.id, -100, 'Cashback earned on 2032-03-01 expired'],
      [auckland.id, -200, 'Cashback earned on 2032-03-02 expired'],
    ]);
    const [expired] = await events(m.api, 'cashback.expired', m.member.id);
    expect(expired!.data.object).toMatchObject({ amount: 300, lots: [{ venue_id: m.venue.id, day: '2032-03-01', amount: 100 }, { venue_id: auckland.id, day: '2032-03-02', amount: 200 }] });
    // Expiry is the chain's, an event of no venue (D21): the chain's endpoints and the home venue's hear of it.
    expect(expired!.venue_id).toBeNull();
    expect(await m.get()).toMatchObject({ balance: 0, expiring: [] });
    expect(await members.verifyTotals(t.db, m.venue.chainId)).toEqual([]);
  });

  it('a redemption recorded before lots had venues (by day alone) is given back to the lot of that day at the check’s venue', async () => {
    at('2032-04-01T10:00:00.000Z');
    const m = await berlinMember({ days: 10, warning: 0 });
    await m.check(10_000); // E1: lot of 1 Apr, 10.00 (expires on 11 Apr)
    at('2032-04-02T10:00:00.000Z');
    // E2 pays 6.00 out of the 1 Apr lot and earns floor(4400 × 10 %) = 4.40 into the lot of 2 Apr.
    expect((await m.check(5000, { redeem_amount: 600 })).body).toMatchObject({ redeemed: 600, earned: 440 });
    // As a check written before migration 0017 recorded it: the day alone.
    const e2 = sql`venue_id = ${m.venue.id} and external_id = 'E2'`;
    await sql`update transactions set redeemed_lots = '{"2032-04-01": 600}'::jsonb where ${e2}`.execute(t.db);
    // Half refunded: floor(600 × 2200 / 4400) = 3.00 back to the 1 Apr lot, floor(440 × 2200 / 4400) = 2.20 taken back from 2 Apr's.
    expect((await m.api.post('/api/v1/transactions/E2/refunds', { external_id: 'R1', amount: 2200 })).status).toBe(201);
    expect(await m.get()).toMatchObject({ balance: 920, expiring: [{ amount: 700, on: '2032-04-11' }, { amount: 220, on: '2032-04-12' }] });
    const { rows } = await sql<{ redeemed_lots: unknown }>`select redeemed_lots from transactions where ${e2}`.execute(t.db);
    expect(rows[0]!.redeemed_lots).toEqual({ '2032-04-01': 300 });
    // The void gives the rest back whole.
    expect((await m.api.post('/api/v1/transactions/E2/void')).status).toBe(200);
    expect(await m.get()).toMatchObject({ balance: 1000, expiring: [{ amount: 1000, on: '2032-04-11' }] });
    const { rows: lots } = await sql<{ venue_id: string; day: string; remaining: string }>`
      select venue_id, day::text as day, remaining from cashback_lots where member_id = ${m.member.id} order by day`.execute(t.db);
    expect(lots.map((l) => [l.venue_id, l.day, Number(l.remaining)])).toEqual([[m.venue.id, '2032-04-01', 1000], [m.venue.id, '2032-04-02', 0]]);
    expect(await members.verifyTotals(t.db, m.venue.chainId)).toEqual([]);
  });
  it("a test key's check that finds a live member's cashback due writes that expiry as live, as the worker would", async () => {
    at('2033-03-01T10:00:00.000Z');
    const m = await berlinMember({ days: 3, warning: 0 });
    const live = client(t, (await createKey(t, m.venue, { livemode: true })).secret);
    const { body: member } = await live.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Live Guest' });
    const sale = { member_id: member.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: 5000 }] };
    expect((await live.post('/api/v1/checks', { external_id: 'LIVE-1', ...sale })).body).toMatchObject({ earned: 500, livemode: true });
    at('2033-03-05T10:00:00.000Z'); // the lot of 1 Mar expired on 4 Mar
    expect((await m.api.post('/api/v1/checks', { external_id: 'TEST-1', ...sale })).body).toMatchObject({ earned: 500, livemode: false });
    const { rows } = await sql<{ kind: string; livemode: boolean }>`select kind, livemode from ledger_entries where member_id = ${member.id} order by id`.execute(t.db);
    expect(rows.filter((r) => r.kind === 'expiry')).toEqual([{ kind: 'expiry', livemode: true }]);
    expect(rows.filter((r) => r.kind === 'check').map((r) => r.livemode)).toEqual([true, false]);
    const expired = await sql<{ livemode: boolean }>`select livemode from events where type = 'cashback.expired' and data->'object'->>'member_id' = ${member.id}`.execute(t.db);
    expect(expired.rows).toEqual([{ livemode: true }]);
  });
  it('a hold captured into a check whose day has expired since earns by the rules it was applied under', async () => {
    at('2033-10-01T10:00:00.000Z');
    const m = await berlinMember({ days: 30, warning: 0 });
    await m.api.post(`/api/v1/members/${m.member.id}/adjustments`, { amount: 5000, reason: 'goodwill' }); // no lot
    expect((await m.check(2000, { external_id: 'OLD-CAP' })).body.earned).toBe(200); // lot of 1 Oct, expires on 31 Oct
    at('2033-11-05T10:00:00.000Z');
    expect(await m.get()).toMatchObject({ balance: 5000 }); // the 2.00 expired
    const { body: hold } = await m.api.post('/api/v1/holds', { member_id: m.member.id, amount: 500 });
    const captured = await m.api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'OLD-CAP' });
    // Redeemed 5.00; earned floor(1500 × 10 %) = 1.50 of the 2.00: 0.50 taken back. 50.00 − 5.00 − 0.50 = 44.50.
    expect(captured.body).toMatchObject({ redeemed: 500, earned: 150, paid: 1500 });
    expect(captured.body.display.receipt.join(' ')).not.toContain('Nothing earned');
    expect(await m.get()).toMatchObject({ balance: 4450, available: 4450 });
  });
});
