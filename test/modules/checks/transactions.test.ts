// Applying checks: same numbers as calculate, idempotency by external_id, voids, partial refunds, register rules, races.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, ledgerSum, newCardNumber, seedLedger } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

async function setUp(opts: { balance?: number; spend?: number; rules?: Record<string, unknown>; venueSettings?: Record<string, unknown> } = {}) {
  const venue = await createVenue(t, { settings: opts.venueSettings });
  await createProgram(t, venue, 'cashback', {
    settings: { levels: [{ name: 'Bronze', min_spend: 0, percent: 5 }, { name: 'Silver', min_spend: 50_000, percent: 10 }] },
  });
  const api = client(t, (await createKey(t, venue, { rules: opts.rules })).secret);
  const { body: member } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
  if (opts.balance || opts.spend) await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: opts.balance ?? 0, spend: opts.spend ?? 0 });
  const read = async () => (await api.get(`/api/v1/members/${member.id}`)).body;
  const check = (externalId: string, price: number, extra: Record<string, unknown> = {}) => ({
    external_id: externalId,
    member_id: member.id,
    line_items: [{ name: 'Dinner', quantity: 1, unit_price: price }],
    ...extra,
  });
  return { venue, api, member, read, check };
}

describe('apply', () => {
  it('calculate then apply with the same body give the same numbers; the member moves by them', async () => {
    const { api, read, check } = await setUp({ balance: 1000 });
    const body = check('A-1', 2000, { redeem_amount: 300 });
    const calc = (await api.post('/api/v1/checks/calculate', body)).body;
    const applied = await api.post('/api/v1/checks', body);
    expect(applied.status).toBe(201);
    for (const field of ['subtotal', 'redeemed', 'earned', 'paid', 'line_items', 'display'] as const) expect(applied.body[field]).toEqual(calc[field]);
    expect(applied.body).toMatchObject({ object: 'transaction', status: 'completed', external_id: 'A-1', redeemed: 300, earned: 85, paid: 1700, refundable: 1700 });
    const m = await read();
    expect(m).toMatchObject({ balance: calc.balance_after, available: calc.available_after, total_spend: 1700, visits: 1 });
    expect(await ledgerSum(t, m.id)).toBe(m.balance);
    const event = (await api.get('/api/v1/events?type=transaction.completed')).body.data[0];
    expect(event.data.object).toEqual(applied.body);
  });

  it("display: the cashier line and the receipt both show the member after the check (calculate: as it would leave them)", async () => {
    const { api, read, check } = await setUp({ balance: 500 });
    const before = await read();
    expect(before.display.cashier).toMatch(/ · Bronze 5% · available €5\.00$/);
    // 2000 less 200 of cashback: 1800 paid, 5 % of it earned (90): 500 − 200 + 90 = 390 available after.
    const body = check('D-1', 2000, { redeem_amount: 200 });
    const calc = (await api.post('/api/v1/checks/calculate', body)).body;
    const applied = (await api.post('/api/v1/checks', body)).body;
    for (const display of [calc.display, applied.display]) {
      expect(display.cashier).toMatch(/ · Bronze 5% · available €3\.90 · up to €5\.00 payable$/);
      expect(display.receipt).toContain('Cashback available: €3.90');
    }
    expect((await read()).display.cashier).toBe(applied.display.cashier.split(' · up to ')[0]);
  });

  it('the same external_id and body replays (200, Idempotent-Replayed); another body is 409 external_id_reused', async () => {
    const { api, read, check } = await setUp({ balance: 1000 });
    const first = await api.post('/api/v1/checks', check('A-2', 1000));
    const again = await api.post('/api/v1/checks', check('A-2', 1000));
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([200, 'true', first.body]);
    expectError(await api.post('/api/v1/checks', check('A-2', 1001)), 409, 'external_id_reused');
    expect((await read()).total_spend).toBe(1000);
  });

  it('a check that crosses a level earns at the old level; the next one at the new', async () => {
    const { api, check } = await setUp({ spend: 49_000 });
    expect((await api.post('/api/v1/checks', check('L-1', 2000))).body.earned).toBe(100);
    expect((await api.post('/api/v1/checks', check('L-2', 2000))).body.earned).toBe(200);
  });

  it('the per-day cap counts every check of the member that day, in the venue time zone', async () => {
    const { api, check } = await setUp({ rules: { max_cashback_per_day: 100 } });
    expect((await api.post('/api/v1/checks', check('D-1', 1600))).body).toMatchObject({ earned: 80, earn_capped: false });
    expect((await api.post('/api/v1/checks', check('D-2', 1600))).body).toMatchObject({ earned: 20, earn_capped: true });
    t.clock.advance(24 * 3600_000);
    expect((await api.post('/api/v1/checks', check('D-3', 1600))).body).toMatchObject({ earned: 80, earn_capped: false });
  });
});

describe('register rules', () => {
  it('register_id_required, external_id per register, check_too_old and hold_required', async () => {
    const { api, check } = await setUp({ balance: 500, venueSettings: { checks_numbered_per_register: true, max_check_age_seconds: 3600 } });
    expect(expectError(await api.post('/api/v1/checks', check('R-1', 100)), 400, 'register_id_required').param).toBe('register_id');
    const one = await api.post('/api/v1/checks', check('R-1', 100, { register_id: 'till-1' }));
    const two = await api.post('/api/v1/checks', check('R-1', 100, { register_id: 'till-2' }));
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(one.body.id).not.toBe(two.body.id);
    expect((await api.get('/api/v1/transactions/R-1?register_id=till-2')).body.id).toBe(two.body.id);
    const old = new Date(t.clock.now().getTime() - 3601_000).toISOString();
    expect(expectError(await api.post('/api/v1/checks', check('R-2', 100, { register_id: 'till-1', closed_at: old })), 400, 'check_too_old').param).toBe('closed_at');
    const holdsOnly = await setUp({ balance: 500, rules: { redeem_only_via_holds: true } });
    expectError(await holdsOnly.api.post('/api/v1/checks', holdsOnly.check('H-1', 1000, { redeem_amount: 100 })), 400, 'hold_required');
  });
});

describe('void and refunds', () => {
  it('a void returns balance, total_spend, visits and level exactly; voiding again changes nothing', async () => {
    const { api, read, check } = await setUp({ balance: 1000, spend: 49_000 });
    const before = await read();
    await api.post('/api/v1/checks', check('V-1', 3000, { redeem_amount: 400 }));
    expect((await read()).level.name).toBe('Silver');
    const voided = await api.post('/api/v1/transactions/V-1/void');
    expect(voided.body).toMatchObject({ status: 'voided', refundable: 0 });
    const after = await read();
    for (const field of ['balance', 'available', 'total_spend', 'visits', 'level', 'held'] as const) expect(after[field]).toEqual(before[field]);
    expect((await api.post('/api/v1/transactions/V-1/void')).body.status).toBe('voided');
    expect((await read()).balance).toBe(before.balance);
    expect(await ledgerSum(t, after.id)).toBe(after.balance);
  });

  it('a void can leave the balance negative, and shows it so', async () => {
    const { api, read, check } = await setUp();
    await api.post('/api/v1/checks', check('N-1', 1000));
    await api.post('/api/v1/checks', check('N-2', 100, { redeem_amount: 50 }));
    await api.post('/api/v1/transactions/N-1/void');
    // N-1 earned 50, all spent on N-2, which earned 2 on the 50 paid: taking the 50 back leaves −48.
    expect((await read()).balance).toBe(-48);
  });

  it('partial refunds reverse earned and redeemed in proportion; the rest is refundable; more is 402 with refundable', async () => {
    const { api, read, check } = await setUp({ balance: 1000 });
    await api.post('/api/v1/checks', check('P-1', 2000, { redeem_amount: 1000 }));
    const m0 = await read();
    const first = await api.post('/api/v1/transactions/P-1/refunds', { external_id: 'RF-1', amount: 300 });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'refund', amount: 300, earned_reversed: 15, redeemed_returned: 300, transaction: { refunded_amount: 300, refundable: 700 } });
    const replay = await api.post('/api/v1/transactions/P-1/refunds', { external_id: 'RF-1', amount: 300 });
    expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([200, 'true']);
    expectError(await api.post('/api/v1/transactions/P-1/refunds', { external_id: 'RF-1', amount: 301 }), 409, 'external_id_reused');
    const second = await api.post('/api/v1/transactions/P-1/refunds', { external_id: 'RF-2', amount: 700 });
    expect(second.body).toMatchObject({ earned_reversed: 35, redeemed_returned: 700, transaction: { refundable: 0 } });
    expect(expectError(await api.post('/api/v1/transactions/P-1/refunds', { external_id: 'RF-3', amount: 1 }), 402, 'refund_exceeds_check').refundable).toBe(0);
    const m = await read();
    expect(m.total_spend).toBe(m0.total_spend - 1000);
    expect(m.balance).toBe(m0.balance - 50 + 1000);
    expect(await ledgerSum(t, m.id)).toBe(m.balance);
    expect((await api.get('/api/v1/events?type=transaction.refunded')).body.data).toHaveLength(2);
    expectError(await api.post('/api/v1/transactions/NOPE/refunds', { external_id: 'x', amount: 1 }), 404, 'transaction_not_found');
  });
});

describe('races', () => {
  it('100 concurrent checks of 30 paid with cashback from 1000 available: exactly 33 succeed, balance never negative', async () => {
    const { api, read, check } = await setUp({ balance: 1000 });
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => api.post('/api/v1/checks', check(`RACE-${i}`, 30, { redeem_amount: 30 }))));
    const ok = results.filter((r) => r.status === 201);
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 402, 'insufficient_balance');
    expect(ok).toHaveLength(33);
    const m = await read();
    expect(m.balance).toBe(10);
    expect(await ledgerSum(t, m.id)).toBe(10);
  });

  it('the same check sent 20 times at once with one external_id is applied once', async () => {
    const { api, read, check } = await setUp({ balance: 1000 });
    const results = await Promise.all(Array.from({ length: 20 }, () => api.post('/api/v1/checks', check('SAME-1', 500, { redeem_amount: 100 }))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200 && r.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await read()).balance).toBe(1000 - 100 + 20);
    const { rows } = await sql<{ n: string | number }>`select count(*) as n from transactions where external_id = 'SAME-1'`.execute(t.db);
    expect(Number(rows[0]!.n)).toBe(1);
  });
});
