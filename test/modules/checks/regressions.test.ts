// Money-engine defects found by reading the code against D11/D12, each pinned by hand-computed figures through HTTP.
import { SYSTEM } from '../../../src/modules/audit/service.js';
import { describe, expect, it } from 'vitest';
import * as catalogue from '../../../src/modules/catalogue/service.js';
import { sql } from 'kysely';
import { useTestApp } from '../../support/app.js';
import { onPostgres } from '../../support/database.js';
import { createKey, createProgram, createVenue, ledgerSum, newCardNumber } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();
const HOUR = 3600_000;

/** A venue with one level of 5 %, a full-access key with `rules`, and a member with no balance. */
async function setUp(opts: { rules?: Record<string, unknown>; timezone?: string } = {}) {
  const venue = await createVenue(t, { timezone: opts.timezone, settings: { manual_adjustments_allowed: true } });
  await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
  const api = client(t, (await createKey(t, venue, { rules: opts.rules })).secret);
  const enrolled = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
  expect(enrolled.status).toBe(201);
  const member = enrolled.body;
  const read = async () => (await api.get(`/api/v1/members/${member.id}`)).body;
  const check = (externalId: string, price: number, extra: Record<string, unknown> = {}) => ({
    external_id: externalId,
    member_id: member.id,
    line_items: [{ name: 'Dinner', quantity: 1, unit_price: price }],
    ...extra,
  });
  const apply = async (body: Record<string, unknown>, status = 201) => {
    const res = await api.post('/api/v1/checks', body);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  };
  return { venue, api, member, read, check, apply };
}

const iso = (at: Date) => at.toISOString();

describe('a hold captured into an applied check', () => {
  it('is refused with 402 when the earning it takes back would overdraw; nothing changes', async () => {
    const { api, read, check, apply, member } = await setUp();
    expect(await apply(check('CAP-1', 1000))).toMatchObject({ earned: 50 });
    const hold = (await api.post('/api/v1/holds', { member_id: member.id, amount: 50 })).body;
    expect(await read()).toMatchObject({ balance: 50, held: 50, available: 0 });
    // Redeeming 50 leaves 950 to earn on: 47, so 3 of the 50 earned go back and available would be −3.
    const refused = expectError(await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'CAP-1' }), 402, 'insufficient_balance');
    expect(refused.available).toBe(50);
    expect(await read()).toMatchObject({ balance: 50, held: 50, available: 0 });
    expect((await api.get(`/api/v1/holds/${hold.id}`)).body.status).toBe('active');
    expect((await api.get('/api/v1/transactions/CAP-1')).body).toMatchObject({ redeemed: 0, earned: 50, paid: 1000 });
  });

  it('redeems what fits, earns on the rest with earn_capped and line figures true, and emits transaction.updated', async () => {
    const { api, read, check, apply, member } = await setUp();
    await apply(check('CAP-2', 1000));
    const hold = (await api.post('/api/v1/holds', { member_id: member.id, amount: 50 })).body;
    const captured = await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'CAP-2', redeem_amount: 47 });
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    // 953 left to earn on at 5 % → 47; balance 50 − 47 redeemed − 3 taken back = 0; the hold's rest is free.
    expect(captured.body).toMatchObject({ redeemed: 47, earned: 47, earn_capped: false, paid: 953, refundable: 953, hold_id: hold.id });
    expect(captured.body.line_items).toEqual([expect.objectContaining({ amount: 1000, redeemed: 47, earned: 47 })]);
    expect(await read()).toMatchObject({ balance: 0, held: 0, available: 0, total_spend: 953 });
    expect(await ledgerSum(t, member.id)).toBe(0);
    const events = (await api.get('/api/v1/events?type=transaction.updated')).body.data;
    expect(events.map((e: { data: { object: unknown } }) => e.data.object)).toEqual([captured.body]);
  });

  it("keeps the per-check cap of the calling key and marks the capped earning", async () => {
    const { api, read, check, apply, member } = await setUp({ rules: { max_cashback_per_check: 40 } });
    await apply(check('CAP-3', 2000)); // earns 100, capped at 40
    await apply(check('CAP-3b', 2000)); // 40 more: balance 80
    const hold = (await api.post('/api/v1/holds', { member_id: member.id, amount: 30 })).body;
    const captured = (await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'CAP-3' })).body;
    // 1970 × 5 % = 98, still over the cap: earned stays 40, earn_capped stays true.
    expect(captured).toMatchObject({ redeemed: 30, earned: 40, earn_capped: true, paid: 1970 });
    expect(captured.line_items[0]).toMatchObject({ redeemed: 30, earned: 98 });
    expect(await read()).toMatchObject({ balance: 50, held: 0, available: 50 });
  });
});

describe('the per-day cap', () => {
  // America/New_York is UTC−5 in November: 2026-11-22 05:00 UTC is still 2026-11-22 00:00 there.
  const newYork = { timezone: 'America/New_York' };

  it("counts a venue day's checks net of their own reversals; a void on another day frees nothing today", async () => {
    const { api, check, apply } = await setUp({ ...newYork, rules: { max_cashback_per_day: 100 } });
    expect(await apply(check('DAY-1', 2000))).toMatchObject({ earned: 100, earn_capped: false });
    t.clock.advance(24 * HOUR);
    expect((await api.post('/api/v1/transactions/DAY-1/void')).status).toBe(200);
    // Today's room is the whole cap: voiding yesterday's check does not add to it.
    expect(await apply(check('DAY-2', 4000))).toMatchObject({ earned: 100, earn_capped: true });
  });

  it("a check counts in its closed_at's venue day, across the UTC day boundary, whatever day it arrives", async () => {
    const { api, check, apply } = await setUp({ ...newYork, rules: { max_cashback_per_day: 100 } });
    const now = t.clock.now();
    // 21:00 UTC on the venue's today: earlier the same New York day as 03:00 UTC tomorrow (22:00 New York).
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 21));
    const lateEvening = new Date(today.getTime() + 6 * HOUR); // 03:00 UTC next day, still today in New York
    const afterMidnight = new Date(today.getTime() + 8 * HOUR); // 05:00 UTC: 00:00 New York, a new venue day
    t.clock.advance(2 * 24 * HOUR); // so that all three are in the past, as closed checks are
    expect(await apply(check('B-1', 1600, { closed_at: iso(today) }))).toMatchObject({ earned: 80 });
    expect(await apply(check('B-2', 1600, { closed_at: iso(lateEvening) }))).toMatchObject({ earned: 20, earn_capped: true });
    expect(await apply(check('B-3', 1600, { closed_at: iso(afterMidnight) }))).toMatchObject({ earned: 80, earn_capped: false });
    // A day of checks replayed late counts against its own day, not the day it arrives.
    t.clock.advance(3 * 24 * HOUR);
    expect(await apply(check('B-4', 1600, { closed_at: iso(lateEvening) }))).toMatchObject({ earned: 0, earn_capped: true });
    expect(await apply(check('B-5', 1600))).toMatchObject({ earned: 80, earn_capped: false });
    // Voiding one of that day's checks frees its earning on that day.
    await api.post('/api/v1/transactions/B-2/void');
    expect(await apply(check('B-6', 1600, { closed_at: iso(today) }))).toMatchObject({ earned: 20, earn_capped: true });
  });

  it("a partial refund frees what it took back on the check's own day", async () => {
    const { api, check, apply } = await setUp({ ...newYork, rules: { max_cashback_per_day: 100 } });
    await apply(check('P-1', 2000)); // earns 100
    const refund = await api.post('/api/v1/transactions/P-1/refunds', { external_id: 'r-1', amount: 1000 });
    expect(refund.body).toMatchObject({ earned_reversed: 50 });
    expect(await apply(check('P-2', 2000))).toMatchObject({ earned: 50, earn_capped: true });
  });

  it("counts the member's earnings from every key against the calling key's cap", async () => {
    const { venue, member, check, apply } = await setUp(newYork);
    await apply(check('K-1', 1600)); // no cap on this key: earns 80
    const capped = client(t, (await createKey(t, venue, { rules: { max_cashback_per_day: 100 } })).secret);
    expect((await capped.post('/api/v1/checks', check('K-2', 1600))).body).toMatchObject({ earned: 20, earn_capped: true, member_id: member.id });
  });
});

describe('replays', () => {
  it('a check applied within max_check_age_seconds replays after the age has passed', async () => {
    const { api, check, apply } = await setUp({ rules: { max_check_age_seconds: 60 } });
    const body = check('AGE-1', 1000, { closed_at: iso(new Date(t.clock.now().getTime() - 50_000)) });
    const first = await apply(body);
    t.clock.advance(15_000);
    const again = await api.post('/api/v1/checks', body);
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([200, 'true', first]);
  });

  it('answers the transaction as it is now, in the register scope it was applied under', async () => {
    const { venue, api, check, apply } = await setUp({ rules: { checks_numbered_per_register: true } });
    const body = check('REG-1', 1000, { register_id: 'till-1' });
    await apply(body);
    const voided = (await api.post('/api/v1/transactions/REG-1/void?register_id=till-1')).body;
    // A key that numbers checks per venue still finds the check, and its refunds too.
    const perVenue = client(t, (await createKey(t, venue)).secret);
    const again = await perVenue.post('/api/v1/checks', body);
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([200, 'true', voided]);
    expect((await perVenue.get('/api/v1/transactions/REG-1?register_id=till-1')).body.status).toBe('voided');
  });

  it('a refund replays whatever the key now says about register numbering', async () => {
    const { venue, api, check, apply } = await setUp();
    await apply(check('RF-1', 1000, { register_id: 'till-1' }));
    const first = await api.post('/api/v1/transactions/RF-1/refunds', { external_id: 'rf-a', amount: 100, register_id: 'till-1' });
    expect(first.status).toBe(201);
    const perRegister = client(t, (await createKey(t, venue, { rules: { checks_numbered_per_register: true } })).secret);
    const again = await perRegister.post('/api/v1/transactions/RF-1/refunds', { external_id: 'rf-a', amount: 100, register_id: 'till-1' });
    expect([again.status, again.headers['idempotent-replayed'], again.body.id]).toEqual([200, 'true', first.body.id]);
  });
});

describe('visits', () => {
  it('the same external_id for another member is 409 external_id_reused; for the same member it replays', async () => {
    const venue = await createVenue(t);
    await createProgram(t, venue, 'stamps');
    const api = client(t, (await createKey(t, venue)).secret);
    const anna = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body;
    const ben = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body;
    const first = await api.post('/api/v1/visits', { member_id: anna.id, external_id: 'V-1' });
    expect(first.status).toBe(201);
    expectError(await api.post('/api/v1/visits', { member_id: ben.id, external_id: 'V-1' }), 409, 'external_id_reused');
    const byCard = await api.post('/api/v1/visits', { card_number: anna.card_numbers[0], external_id: 'V-1' });
    expect([byCard.status, byCard.headers['idempotent-replayed'], byCard.body.id]).toEqual([200, 'true', first.body.id]);
    expect((await api.get(`/api/v1/members/${ben.id}`)).body.visits).toBe(0);
  });
});

describe('a member in debt', () => {
  it('can still apply a check without redemption, whose earning pays the debt back; nothing can be redeemed or held', async () => {
    const { api, read, check, apply, member } = await setUp();
    await apply(check('DEBT-1', 2000)); // earns 100
    await apply(check('DEBT-2', 1000, { redeem_amount: 100 })); // earns floor(900 × 5 %) = 45
    await api.post('/api/v1/transactions/DEBT-1/void');
    expect(await read()).toMatchObject({ balance: -55, available: -55 });
    expect(await apply(check('DEBT-3', 400))).toMatchObject({ earned: 20, redeemed: 0 });
    expect(await read()).toMatchObject({ balance: -35, available: -35 });
    expect(expectError(await api.post('/api/v1/checks', check('DEBT-4', 400, { redeem_amount: 1 })), 402, 'insufficient_balance').available).toBe(-35);
    expectError(await api.post('/api/v1/holds', { member_id: member.id, amount: 1 }), 402, 'insufficient_balance');
    expectError(await api.post(`/api/v1/members/${member.id}/adjustments`, { amount: -1, reason: 'test' }), 402, 'insufficient_balance');
    expect(await ledgerSum(t, member.id)).toBe(-35);
  });
});

describe('hold expiry', () => {
  it('is judged by the clock once the hold is locked, not when the request arrived', async () => {
    const { api, check, apply, member, read } = await setUp();
    await apply(check('EXP-0', 2000)); // 100 to hold
    await apply(check('EXP-1', 1000));
    const hold = (await api.post('/api/v1/holds', { member_id: member.id, amount: 50, expires_in: 60 })).body;
    await read(); // the key is authenticated and cached: the capture below reads the clock before any query

    // The test holds the hold's row lock; the capture arrives at once, then waits while two minutes pass.
    let arrived!: () => void;
    const hasArrived = new Promise<void>((resolve) => (arrived = resolve));
    const now = t.clock.now.bind(t.clock);
    t.clock.now = () => (arrived(), now());
    const { capture } = await t.db.transaction().execute(async (trx) => {
      await trx.selectFrom('holds').select('id').where('id', '=', hold.id).forUpdate().execute();
      const capture = api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'EXP-1' });
      await hasArrived;
      // Authentication finishes within the same turn of the event loop; the capture then needs the database.
      await new Promise((resolve) => setImmediate(resolve));
      t.clock.now = now;
      t.clock.advance(120_000);
      return { capture }; // not awaited here: the capture waits for this transaction to end
    });
    expectError(await capture, 409, 'hold_expired');
    expect((await api.get('/api/v1/transactions/EXP-1')).body).toMatchObject({ redeemed: 0, hold_id: null });
  });
});

/** Until a statement of this database waits for a row lock (PostgreSQL): a request is parked behind the test's lock. */
async function waitForLockWaiter(): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('found in review', () => {
  it('a hold expiring while the capture waits for the member is judged with the same clock as what holds keep', async () => {
    const { api, check, apply, member, read } = await setUp();
    await apply(check('TWICE-1', 1000)); // earns 50
    const hold = (await api.post('/api/v1/holds', { member_id: member.id, amount: 50, expires_in: 60 })).body;
    await read();
    let arrived!: () => void;
    const hasArrived = new Promise<void>((resolve) => (arrived = resolve));
    const now = t.clock.now.bind(t.clock);
    t.clock.now = () => (arrived(), now());
    // The test holds the member's lock: the capture locks the hold, then waits for the member while 61 s pass.
    const { capture } = await t.db.transaction().execute(async (trx) => {
      await trx.selectFrom('members').select('id').where('id', '=', member.id).forUpdate().execute();
      const capture = api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'TWICE-1' });
      await hasArrived;
      // On PostgreSQL, wait until the capture holds the hold's lock and waits for the member's; PGlite runs
      // transactions one at a time, so there the capture has not started yet.
      if (onPostgres()) await waitForLockWaiter();
      else await new Promise((resolve) => setImmediate(resolve));
      t.clock.now = now;
      t.clock.advance(61_000);
      return { capture };
    });
    // Counted as expired (held 0) and as spendable (+50) at once, it would redeem 50 and leave −3.
    expectError(await capture, 409, 'hold_expired');
    expect(await read()).toMatchObject({ balance: 50, held: 0, available: 50 });
  });

  it('the same check sent at once through keys that number checks differently is applied once', async () => {
    const { venue, member, read } = await setUp();
    const perVenue = client(t, (await createKey(t, venue)).secret);
    const perRegister = client(t, (await createKey(t, venue, { rules: { checks_numbered_per_register: true } })).secret);
    for (let i = 0; i < 10; i++) {
      const body = { external_id: `DUP-${i}`, member_id: member.id, register_id: 'till-1', line_items: [{ name: 'Lunch', quantity: 1, unit_price: 1000 }] };
      const answers = await Promise.all([perVenue.post('/api/v1/checks', body), perRegister.post('/api/v1/checks', body)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    }
    expect(await read()).toMatchObject({ balance: 500, total_spend: 10_000 });
  });

  it('a member in debt can be given cashback by hand', async () => {
    const { api, check, apply, member, read } = await setUp();
    await apply(check('GIVE-1', 2000));
    await apply(check('GIVE-2', 1000, { redeem_amount: 100 }));
    await api.post('/api/v1/transactions/GIVE-1/void');
    const given = await api.post(`/api/v1/members/${member.id}/adjustments`, { amount: 5, reason: 'goodwill' });
    expect(given.status, JSON.stringify(given.body)).toBe(201);
    expect(await read()).toMatchObject({ balance: -50 });
  });

  it('closed_at more than 300 s ahead of the clock is refused; a till running a little fast is not', async () => {
    const { api, check, apply } = await setUp({ rules: { max_cashback_per_day: 100 } });
    const ahead = (s: number) => iso(new Date(t.clock.now().getTime() + s * 1000));
    expect(expectError(await api.post('/api/v1/checks', check('FUT-1', 2000, { closed_at: ahead(48 * 3600) })), 400, 'parameter_invalid').param).toBe('closed_at');
    expect(await apply(check('FUT-2', 2000, { closed_at: ahead(120) }))).toMatchObject({ earned: 100 });
  });

  it('a key numbering per register does not fall back to a check of the same number that named no register', async () => {
    const { venue, api, check, apply } = await setUp();
    await apply(check('NUM-1', 1000)); // per venue, no register_id
    const perRegister = client(t, (await createKey(t, venue, { rules: { checks_numbered_per_register: true } })).secret);
    expectError(await perRegister.post('/api/v1/transactions/NUM-1/void?register_id=till-2'), 404, 'transaction_not_found');
    expect((await api.get('/api/v1/transactions/NUM-1')).body.status).toBe('completed');
  });
});

describe('found when tried as a new user would', () => {
  it('calculate needs no external_id, and every line says where its rule came from', async () => {
    const { venue, api, member } = await setUp();
    await api.put('/api/v1/catalog/products/WINE', { name: 'Rioja', category: 'alcohol' });
    await catalogue.setCategoryRules(t.db, venue.chainId, 'alcohol', { earns_cashback: false }, SYSTEM);
    await api.put('/api/v1/catalog/categories/desserts', { name: 'Desserts' });
    const res = await api.post('/api/v1/checks/calculate', {
      member_id: member.id,
      line_items: [
        { sku: 'WINE', name: 'Rioja', quantity: 1, unit_price: 1000 },
        { name: 'Cake', category: 'desserts', quantity: 1, unit_price: 500 },
        { sku: 'UNKNOWN', name: 'Special', quantity: 1, unit_price: 300 },
        { name: 'Tea', category: 'no-such-category', quantity: 1, unit_price: 200 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.line_items.map((l: { rule_source: string; earned: number }) => [l.rule_source, l.earned])).toEqual([
      ['product', 0],
      ['category', 25],
      ['default', 15],
      ['default', 10],
    ]);
  });

  it('a void says what it returned and took back, and the balance it left', async () => {
    const { api, check, apply } = await setUp();
    await apply(check('DSP-1', 2000)); // earns 100
    await apply(check('DSP-2', 1000, { redeem_amount: 100 })); // redeems 100, earns 45
    const voided = (await api.post('/api/v1/transactions/DSP-2/void')).body;
    expect(voided.display).toEqual({
      cashier: 'Check DSP-2 voided · balance €1.00',
      receipt: ['Voided: −€9.00', 'Cashback returned: +€1.00', 'Cashback taken back: −€0.45', 'Cashback balance: €1.00'],
    });
    const refund = (await api.post('/api/v1/transactions/DSP-1/refunds', { external_id: 'r', amount: 500 })).body;
    expect(refund.display).toEqual({
      cashier: 'Refund €5.00 of check DSP-1 · balance €0.75',
      receipt: ['Refund: −€5.00', 'Cashback taken back: −€0.25', 'Cashback balance: €0.75'],
    });
  });
});
