// Manual adjustments (members:adjust): venue rule, limits, the balance.adjusted event, concurrency, ledger invariants.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, ledgerSum, newCardNumber, seedLedger } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

async function cashbackMember(opts: { allowed?: boolean; start?: number } = {}) {
  const venue = await createVenue(t, { settings: { manual_adjustments_allowed: opts.allowed ?? true } });
  await createProgram(t, venue, 'cashback');
  const { secret } = await createKey(t, venue);
  const api = client(t, secret);
  const { body: member } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Anna Kowalska' });
  if (opts.start) await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: opts.start });
  return { venue, api, member };
}

describe('adjustments', () => {
  it('adds and takes cashback with a reason, answers the new balance and display, and raises balance.adjusted', async () => {
    const { api, member } = await cashbackMember({ start: 1000 });
    const res = await api.post(`/api/v1/members/${member.id}/adjustments`, { amount: -250, reason: 'Spilled coffee, refunded by hand' }, { 'idempotency-key': 'adj-1' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'adjustment', member_id: member.id, amount: -250, reason: 'Spilled coffee, refunded by hand', balance: 750, available: 750 });
    expect(res.body.display.receipt).toEqual(['Cashback adjusted: −€2.50', 'Cashback available: €7.50']);
    const events = await api.get('/api/v1/events?type=balance.adjusted');
    expect(events.body.data[0]).toMatchObject({
      type: 'balance.adjusted',
      livemode: false,
      data: { object: { id: res.body.id, amount: -250, balance: 750 } },
      request: { id: res.headers['x-request-id'], idempotency_key: 'adj-1' },
    });
    const history = await api.get(`/api/v1/members/${member.id}/history`);
    expect(history.body.data[0]).toMatchObject({ type: 'adjustment', cashback: -250, reason: 'Spilled coffee, refunded by hand' });
  });

  it('taking more than available → 402 insufficient_balance with available; nothing is written', async () => {
    const { api, member } = await cashbackMember({ start: 300 });
    const e = expectError(await api.post(`/api/v1/members/${member.id}/adjustments`, { amount: -301, reason: 'too much' }), 402, 'insufficient_balance', 'invalid_request_error');
    expect(e.available).toBe(300);
    expect((await api.get(`/api/v1/members/${member.id}`)).body.balance).toBe(300);
    expect((await api.get(`/api/v1/events?type=balance.adjusted`)).body.data).toEqual([]);
  });

  it('the venue rule off → 403 adjustments_disabled; a key of its own may allow it', async () => {
    const { venue, api, member } = await cashbackMember({ allowed: false });
    expectError(await api.post(`/api/v1/members/${member.id}/adjustments`, { amount: 100, reason: 'gift' }), 403, 'adjustments_disabled', 'permission_error');
    const office = client(t, (await createKey(t, venue, { rules: { manual_adjustments_allowed: true } })).secret);
    expect((await office.post(`/api/v1/members/${member.id}/adjustments`, { amount: 100, reason: 'gift' })).status).toBe(201);
  });

  it('refuses a zero amount, a missing reason, and a member of a program without cashback', async () => {
    const { venue, api, member } = await cashbackMember();
    expect(expectError(await api.post(`/api/v1/members/${member.id}/adjustments`, { amount: 0, reason: 'x' }), 400, 'parameter_invalid').param).toBe('amount');
    expect(expectError(await api.post(`/api/v1/members/${member.id}/adjustments`, { amount: 5 }), 400, 'parameter_invalid').param).toBe('reason');
    const stamps = await createProgram(t, venue, 'stamps', { isDefault: false });
    const { body: stamper } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, program_id: stamps.id });
    expectError(await api.post(`/api/v1/members/${stamper.id}/adjustments`, { amount: 5, reason: 'x' }), 400, 'redeem_not_supported');
  });

  it('50 concurrent adjustments on one member: balance is the sum of those applied, never below zero, equal to the ledger', async () => {
    const { api, member } = await cashbackMember({ start: 500 });
    const amounts = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? -40 : 10));
    const results = await Promise.all(amounts.map((amount, i) => api.post(`/api/v1/members/${member.id}/adjustments`, { amount, reason: `race ${i}` })));
    const applied = results.filter((r) => r.status === 201);
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 402, 'insufficient_balance');
    expect(applied.every((r) => r.body.balance >= 0)).toBe(true);
    const expected = 500 + applied.reduce((sum, r) => sum + r.body.amount, 0);
    const final = (await api.get(`/api/v1/members/${member.id}`)).body;
    expect(final.balance).toBe(expected);
    expect(final.balance).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(t, member.id)).toBe(final.balance);
  });
});

describe('ledger invariants (property)', () => {
  it('any sequence of adjustments keeps available = balance − held ≥ 0 and balance = Σ ledger', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -500, max: 500 }).filter((n) => n !== 0), { minLength: 1, maxLength: 12 }), async (amounts) => {
        const { api, member } = await cashbackMember();
        for (const amount of amounts) {
          const res = await api.post(`/api/v1/members/${member.id}/adjustments`, { amount, reason: 'property' });
          expect([201, 402]).toContain(res.status);
        }
        const m = (await api.get(`/api/v1/members/${member.id}`)).body;
        expect(m.available).toBe(m.balance - m.held);
        expect(m.available).toBeGreaterThanOrEqual(0);
        expect(m.balance).toBe(await ledgerSum(t, member.id));
      }),
      { numRuns: 20 },
    );
  });

  it('any sequence of stamp earnings and reward redemptions keeps stamps ≥ 0 and equal to Σ ledger', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.integer({ min: 1, max: 7 }), fc.constant('redeem' as const)), { minLength: 1, maxLength: 12 }), async (steps) => {
        const venue = await createVenue(t);
        await createProgram(t, venue, 'stamps');
        const api = client(t, (await createKey(t, venue)).secret);
        const { body: member } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
        let expected = 0;
        for (const step of steps) {
          if (step === 'redeem') {
            const res = await api.post(`/api/v1/members/${member.id}/rewards/redeem`);
            expect(res.status).toBe(expected >= 5 ? 201 : 402);
            if (res.status === 201) expected -= 5;
          } else {
            await seedLedger(t, venue, { memberId: member.id, kind: 'import', stamps: step });
            expected += step;
          }
        }
        const m = (await api.get(`/api/v1/members/${member.id}`)).body;
        expect(m.stamps.count + 5 * m.stamps.rewards_available).toBe(expected);
        expect(await ledgerSum(t, member.id, 'stamps')).toBe(expected);
        expect(expected).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 20 },
    );
  });
});
