// Referral campaigns (D22), against hand-computed figures: both sides credited with the referee's first check of at
// least the minimum, none for a smaller one, once; a void of that check takes both back (and the budget gets them
// back), a refund never.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createProgram, ledgerSum, newCardNumber, venueWithKey } from '../../support/factories.js';
import { client, ok } from '../../support/http.js';
import { needs } from '../../support/services.js';

const t = useTestApp();
const postgres = await needs('postgres');

type Api = ReturnType<typeof client>;

/** A cashback venue (Bronze 3 %), a referral campaign, Anna, and Ben who enrolled with Anna's code. */
async function setUp(campaign: Record<string, unknown> = {}, program: Record<string, unknown> = {}) {
  const { venue, secret } = await venueWithKey(t);
  await createProgram(t, venue, 'cashback', program);
  const api = client(t, secret);
  const referral = ok(await api.post('/api/v1/campaigns', { name: 'Bring a friend', type: 'referral', referrer_amount: 500, referee_amount: 300, min_check_amount: 2_000, ...campaign }), 'campaign').body;
  const anna = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'anna').body;
  const ben = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, referred_by: anna.referral_code.toLowerCase() }), 'ben').body;
  return { venue, api, referral, anna, ben };
}

let n = 0;
const check = (memberId: string, amount: number) => ({ external_id: `RF-${++n}`, member_id: memberId, line_items: [{ name: 'Dinner', quantity: 1, unit_price: amount }] });
const balanceOf = async (api: Api, id: string) => ok(await api.get(`/api/v1/members/${id}`), 'member').body.balance;
const spentOf = async (api: Api, id: string) => ok(await api.get(`/api/v1/campaigns/${id}`), 'campaign').body.spent;

describe('referral campaigns', () => {
  it('none for a 15.00 check; both sides with the first of 25.00 (calculate shows it), and not again', async () => {
    const { api, referral, anna, ben } = await setUp();
    expect(ok(await api.post('/api/v1/checks', check(ben.id, 1_500)), 'small').body.campaigns).toEqual([]);
    expect(await balanceOf(api, anna.id)).toBe(0);
    const body = check(ben.id, 2_500);
    const calculated = ok(await api.post('/api/v1/checks/calculate', body), 'calculate').body;
    const applied = ok(await api.post('/api/v1/checks', body), 'qualifying').body;
    expect(calculated.campaigns).toEqual([{ campaign_id: referral.id, name: 'Bring a friend', amount: 300 }]);
    expect(applied.campaigns).toEqual(calculated.campaigns);
    // Ben: 3 % of 15.00 and of 25.00, and 3.00. Anna: 5.00.
    expect(await balanceOf(api, ben.id)).toBe(45 + 75 + 300);
    expect(await balanceOf(api, anna.id)).toBe(500);
    const annaHistory = ok(await api.get(`/api/v1/members/${anna.id}/history`), 'history').body.data;
    expect(annaHistory).toEqual([expect.objectContaining({ type: 'campaign', cashback: 500, campaign_id: referral.id, reference: `referral-${ben.id}` })]);
    expect(ok(await api.post('/api/v1/checks', check(ben.id, 3_000)), 'again').body.campaigns).toEqual([]);
    expect(await balanceOf(api, anna.id)).toBe(500);
    expect(await spentOf(api, referral.id)).toBe(800);
  });

  it('a refund of the qualifying check reverses neither side; its void takes both back, the budget gets them back, and a later qualifying check credits again', async () => {
    const { api, referral, anna, ben } = await setUp();
    const qualifying = check(ben.id, 2_500);
    ok(await api.post('/api/v1/checks', qualifying), 'qualifying');
    const refund = ok(await api.post(`/api/v1/transactions/${qualifying.external_id}/refunds`, { external_id: 'R1', amount: 1_000 }), 'refund').body;
    expect(refund.campaigns_reversed).toEqual([]);
    expect([await balanceOf(api, anna.id), await spentOf(api, referral.id)]).toEqual([500, 800]);
    ok(await api.post(`/api/v1/transactions/${qualifying.external_id}/void`), 'void');
    expect([await balanceOf(api, anna.id), await balanceOf(api, ben.id), await spentOf(api, referral.id)]).toEqual([0, 0, 0]);
    expect(ok(await api.post('/api/v1/checks', check(ben.id, 2_000)), 'again').body.campaigns[0].amount).toBe(300);
    expect([await balanceOf(api, anna.id), await spentOf(api, referral.id)]).toEqual([500, 800]);
    expect(await ledgerSum(t, anna.id)).toBe(500);
    expect(await ledgerSum(t, ben.id)).toBe(60 + 300);
  });

  it('a budget of 6.00: the referee gets 3.00 and the referrer what is left, 3.00', async () => {
    const { api, referral, anna, ben } = await setUp({ budget: 600 });
    ok(await api.post('/api/v1/checks', check(ben.id, 2_000)), 'qualifying');
    expect([await balanceOf(api, ben.id), await balanceOf(api, anna.id), await spentOf(api, referral.id)]).toEqual([60 + 300, 300, 600]);
  });

  it('a budget of 100.00, referee 1.00, referrer 100.00: the referee first, the referrer the 99.00 left (ample room for the referee alone does not skip the budget’s lock)', async () => {
    const { api, referral, anna, ben } = await setUp({ referee_amount: 100, referrer_amount: 10_000, budget: 10_000 });
    const applied = ok(await api.post('/api/v1/checks', check(ben.id, 2_500)), 'qualifying').body;
    expect(applied.campaigns[0].amount).toBe(100);
    expect([await balanceOf(api, anna.id), await spentOf(api, referral.id)]).toEqual([9_900, 10_000]);
  });

  it('a referral paying the referrer only still credits the referrer; a member nobody referred gets nothing', async () => {
    const { api, anna, ben } = await setUp({ referee_amount: 0 });
    const applied = ok(await api.post('/api/v1/checks', check(ben.id, 2_000)), 'qualifying').body;
    expect(applied.campaigns).toEqual([]);
    expect(await balanceOf(api, anna.id)).toBe(500);
    expect(ok(await api.post('/api/v1/checks', check(anna.id, 5_000)), 'anna').body.campaigns).toEqual([]);
  });

  it('the first qualifying check is the referee’s first of at least the minimum ever: one made before the campaign leaves none to credit', async () => {
    const { venue, secret } = await venueWithKey(t);
    await createProgram(t, venue, 'cashback');
    const api = client(t, secret);
    const anna = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'anna').body;
    const ben = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, referred_by: anna.referral_code }), 'ben').body;
    ok(await api.post('/api/v1/checks', check(ben.id, 5_000)), 'before the campaign');
    ok(await api.post('/api/v1/campaigns', { name: 'Late friend', type: 'referral', referrer_amount: 500, referee_amount: 300 }), 'campaign');
    expect(ok(await api.post('/api/v1/checks', check(ben.id, 5_000)), 'after').body.campaigns).toEqual([]);
    expect(await balanceOf(api, anna.id)).toBe(0);
  });

  it('max_per_member 1 counts the referrer’s credits as a referrer: Anna gets 5.00 once for two friends, who each get theirs; Ben, Anna’s friend who brought Cleo, still gets his own', async () => {
    const { api, referral, anna, ben } = await setUp({ max_per_member: 1 });
    const cleo = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, referred_by: anna.referral_code }), 'cleo').body;
    const dan = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, referred_by: ben.referral_code }), 'dan').body;
    ok(await api.post('/api/v1/checks', check(dan.id, 2_000)), 'dan');
    expect(await balanceOf(api, ben.id)).toBe(500); // Dan's referrer
    ok(await api.post('/api/v1/checks', check(ben.id, 2_000)), 'ben');
    ok(await api.post('/api/v1/checks', check(cleo.id, 2_000)), 'cleo');
    // Ben: 5.00 as Dan's referrer, 3.00 and 0.60 of his own check. Anna: 5.00 once. Cleo: 3.00 and 0.60.
    expect([await balanceOf(api, ben.id), await balanceOf(api, anna.id), await balanceOf(api, cleo.id)]).toEqual([860, 500, 360]);
    expect(await spentOf(api, referral.id)).toBe(500 + 300 + 300 + 500 + 300);
  });

  it('a hold captured into the qualifying check (paid 20.00 → 17.00, under the minimum) leaves it the qualifying one: the next check gets no referral again', async () => {
    const { api, anna, ben } = await setUp();
    const first = check(ben.id, 2_000);
    ok(await api.post('/api/v1/checks', first), 'qualifying');
    expect([await balanceOf(api, ben.id), await balanceOf(api, anna.id)]).toEqual([360, 500]);
    const hold = ok(await api.post('/api/v1/holds', { member_id: ben.id, amount: 300, expires_in: 600 }), 'hold').body;
    ok(await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: first.external_id }), 'capture');
    // 3.00 redeemed, and 3 % of 17.00 earned where 3 % of 20.00 was: 3.60 − 3.00 − 0.09.
    expect(await balanceOf(api, ben.id)).toBe(51);
    expect(ok(await api.post('/api/v1/checks', check(ben.id, 2_000)), 'next').body.campaigns).toEqual([]);
    expect([await balanceOf(api, ben.id), await balanceOf(api, anna.id)]).toEqual([111, 500]);
  });

  it('a check backdated past its cashback’s expiry earns nothing, yet its referral rewards both sides today: neither credit expires at once', async () => {
    const { api, anna, ben } = await setUp({}, { settings: { levels: [{ name: 'Base', min_spend: 0, percent: 3 }], cashback_expires_after_days: 30 } });
    const closedAt = new Date(t.clock.now().getTime() - 40 * 86_400_000).toISOString();
    const backdated = ok(await api.post('/api/v1/checks', { ...check(ben.id, 2_500), closed_at: closedAt }), 'backdated').body;
    expect([backdated.earned, backdated.campaigns.map((c: { amount: number }) => c.amount)]).toEqual([0, [300]]);
    const [benNow, annaNow] = [ok(await api.get(`/api/v1/members/${ben.id}`), 'ben').body, ok(await api.get(`/api/v1/members/${anna.id}`), 'anna').body];
    expect([benNow.balance, benNow.available, annaNow.balance, annaNow.available]).toEqual([300, 300, 500, 500]);
  });

  postgres.it('max_per_member 1: ten friends’ first checks at once credit Anna 5.00 once; each friend gets 3.00 and 0.60', async () => {
    const { api, referral, anna, ben } = await setUp({ max_per_member: 1 });
    const friends = [ben];
    for (let i = 0; i < 9; i++) friends.push(ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, referred_by: anna.referral_code }), 'friend').body);
    const statuses = await Promise.all(friends.map(async (f) => (await api.post('/api/v1/checks', check(f.id, 2_000))).status));
    expect(statuses.every((s) => s === 201), statuses.join(',')).toBe(true);
    expect(await balanceOf(api, anna.id)).toBe(500);
    for (const f of friends) expect(await balanceOf(api, f.id)).toBe(360);
    expect(await spentOf(api, referral.id)).toBe(500 + 10 * 300);
  }, 60_000);

  postgres.it('a budget raised while a referee’s check waits for the referrer: both sides take from it as it then stands, as in a serial order', async () => {
    // Budget 10.00: Ben's referral takes 8.00, so Cleo's check reads 2.00 left, then waits for Anna's lock, held here.
    const { api, referral, anna, ben } = await setUp({ budget: 1_000 });
    ok(await api.post('/api/v1/checks', check(ben.id, 2_500)), 'ben');
    const cleo = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, referred_by: anna.referral_code }), 'cleo').body;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction().execute(async (trx) => {
      await sql`select id from members where id = ${anna.id} for update`.execute(trx);
      locked();
      await released;
    });
    await lockHeld;
    const waiting = async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db)).rows[0]!.n;
    const cleoChecks = api.post('/api/v1/checks', check(cleo.id, 2_500));
    for (let i = 0; i < 200 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await waiting()).toBe(1);
    // The owner raises the budget to 20.00 meanwhile (no member's lock needed).
    ok(await api.patch(`/api/v1/campaigns/${referral.id}`, { budget: 2_000 }), 'raise');
    release();
    await holder;
    const applied = ok(await cleoChecks, 'cleo checks').body;
    // Raise first: Cleo 3.00, Anna 5.00 (12.00 left). Cleo's check first: Cleo 2.00, Anna nothing. Never Cleo 2.00 and Anna 5.00.
    expect(applied.campaigns).toEqual([{ campaign_id: referral.id, name: 'Bring a friend', amount: 300 }]);
    expect([await balanceOf(api, anna.id), await spentOf(api, referral.id)]).toEqual([1_000, 1_600]);
  }, 60_000);

  postgres.it('a referee’s first check and the referrer’s own at the same moment, 15 pairs with a bonus as well: no deadlock, every check 201', async () => {
    const { api, anna: _anna } = await setUp();
    ok(await api.post('/api/v1/campaigns', { name: 'Happy hour', type: 'bonus', percent: 5 }), 'bonus');
    const pairs: { anna: { id: string }; ben: { id: string } }[] = [];
    for (let i = 0; i < 15; i++) {
      const anna = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'anna').body;
      pairs.push({ anna, ben: ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, referred_by: anna.referral_code }), 'ben').body });
    }
    const deadlocks = async () => {
      await sql`select pg_stat_clear_snapshot()`.execute(t.db);
      const { rows } = await sql<{ d: string }>`select deadlocks::text as d from pg_stat_database where datname = current_database()`.execute(t.db);
      return Number(rows[0]!.d);
    };
    const before = await deadlocks();
    const statuses = await Promise.all(pairs.flatMap(({ anna, ben }) => [check(ben.id, 2_500), check(anna.id, 2_500)].map(async (body) => (await api.post('/api/v1/checks', body)).status)));
    expect(statuses.every((s) => s === 201), statuses.join(',')).toBe(true);
    // The statistics collector reports a deadlock a little later: wait for it rather than miss it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await deadlocks()).toBe(before);
    for (const { anna } of pairs) expect(await balanceOf(api, anna.id)).toBe(500 + 75 + 125);
  }, 60_000);
});
