// Reversals that leave nothing behind (issue 25, item 10): a refund below the minimum takes the check's visit and
// stamps back, once; stamps owed show as a negative count and say when a visit pays them back. Hand-computed figures.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client } from '../../support/http.js';

const t = useTestApp();

async function memberOf(type: 'stamps' | 'visit_discount', settings: Record<string, unknown>) {
  const venue = await createVenue(t, { locale: 'en-IE', currency: 'EUR' });
  await createProgram(t, venue, type, { settings });
  const api = client(t, (await createKey(t, venue)).secret);
  const { body: member } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Anna Kowalska' });
  let n = 0;
  const check = async (amount: number) => {
    const res = await api.post('/api/v1/checks', { external_id: `X${++n}`, member_id: member.id, line_items: [{ name: 'Lunch', quantity: 1, unit_price: amount }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const refund = async (check: string, amount: number) => {
    const res = await api.post(`/api/v1/transactions/${check}/refunds`, { external_id: `R${++n}`, amount });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const get = async () => (await api.get(`/api/v1/members/${member.id}`)).body;
  return { api, member, check, refund, get };
}

// 3 stamps for a coffee, 1 per visit, a visit from 5.00.
const STAMPS = { stamps_required: 3, reward_name: 'Coffee', stamps_per_visit: 1, min_check_amount: 500 };

describe('a check counts as a visit only while it is paid at least the minimum', () => {
  it('three checks of 6.00, each refunded in full: no visits, no stamps, no free coffee', async () => {
    const m = await memberOf('stamps', STAMPS);
    for (let i = 0; i < 3; i++) await m.check(600);
    expect(await m.get()).toMatchObject({ visits: 3, stamps: { count: 0, rewards_available: 1 } });
    for (const id of ['X1', 'X2', 'X3']) await m.refund(id, 600);
    expect(await m.get()).toMatchObject({ visits: 0, total_spend: 0, stamps: { count: 0, required: 3, rewards_available: 0 } });
  });

  it('a refund that leaves 4.99 of 6.00 takes the visit and stamp back, once; a later refund and the void take nothing more', async () => {
    const m = await memberOf('stamps', STAMPS);
    await m.check(600);
    await m.check(700);
    const first = await m.refund('X1', 100); // 5.00 paid: still a visit
    expect(first.display.receipt).toEqual(['Refund: −€1.00']);
    expect(await m.get()).toMatchObject({ visits: 2, stamps: { count: 2 } });
    const below = await m.refund('X1', 1); // 4.99 paid: below 5.00
    expect(below.display.receipt).toEqual(['Refund: −€0.01', 'The check no longer counts as a visit', 'Stamps taken back: −1']);
    expect(await m.get()).toMatchObject({ visits: 1, total_spend: 1199, stamps: { count: 1 } });
    // The same refund sent again replays, and says the same.
    const again = await m.api.post('/api/v1/transactions/X1/refunds', { external_id: 'R4', amount: 1 });
    expect([again.status, again.body.display.receipt]).toEqual([200, below.display.receipt]);
    const more = await m.refund('X1', 200);
    expect(more.display.receipt).toEqual(['Refund: −€2.00']);
    expect((await m.api.post('/api/v1/transactions/X1/void')).status).toBe(200);
    expect(await m.get()).toMatchObject({ visits: 1, total_spend: 700, stamps: { count: 1 } });
  });

  it('a check below the minimum is no visit and earns no stamp', async () => {
    const m = await memberOf('stamps', STAMPS);
    const small = await m.check(499);
    expect(small.stamps_earned).toBe(0);
    expect(await m.get()).toMatchObject({ visits: 0, total_spend: 499, stamps: { count: 0 } });
  });

  it('two checks of 10.00 refunded in full do not lift a member into the 7.5 % tier', async () => {
    const m = await memberOf('visit_discount', { tiers: [{ min_visits: 0, percent: 0 }, { min_visits: 2, percent: 7.5 }] });
    await m.check(1000);
    await m.check(1000);
    expect(await m.get()).toMatchObject({ visits: 2, discount_percent: 7.5 });
    await m.refund('X1', 1000);
    await m.refund('X2', 1000);
    expect(await m.get()).toMatchObject({ visits: 0, discount_percent: 0 });
    const next = await m.check(1000);
    expect(next).toMatchObject({ discount_amount: 0, paid: 1000 });
  });
});

describe('stamps owed', () => {
  it('a reward redeemed, then one of its checks voided: count −1, and the next visit says it paid the stamp back', async () => {
    const m = await memberOf('stamps', STAMPS);
    for (let i = 0; i < 3; i++) await m.check(600);
    const reward = await m.api.post(`/api/v1/members/${m.member.id}/rewards/redeem`);
    expect(reward.status).toBe(201);
    expect((await m.api.post('/api/v1/transactions/X2/void')).body.display.receipt).toEqual(['Voided: −€6.00', 'Stamps taken back: −1']);
    const owing = await m.get();
    expect(owing).toMatchObject({ visits: 2, stamps: { count: -1, required: 3, rewards_available: 0 } });
    expect(owing.display.cashier).toBe('Anna K. · stamps -1/3');
    const visit = await m.api.post('/api/v1/visits', { member_id: m.member.id, external_id: 'door-9' });
    expect(visit.body.display.receipt[0]).toBe('Visit recorded: +1 stamp · 1 owed stamp paid back');
    expect(visit.body.member).toMatchObject({ visits: 3, stamps: { count: 0, rewards_available: 0 } });
    // A check while still owing: its receipt says so too.
    await m.api.post('/api/v1/transactions/X3/void');
    // A visit sent again says nothing of stamps owed since it was recorded.
    const again = await m.api.post('/api/v1/visits', { member_id: m.member.id, external_id: 'door-9' });
    expect([again.status, again.body.display.receipt[0]]).toEqual([200, 'Visit recorded: +1 stamp']);
    const paying = await m.check(600);
    expect(paying.display.receipt).toContain('Stamps: +1 (0/3) · 1 owed stamp paid back');
  });
});
