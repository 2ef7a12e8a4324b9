// Bonus campaigns in checks (D22), against hand-computed figures: the weekly window in the venue's local time
// (one that passes midnight belongs to the day it starts), stacked on the line's own percent, categories, the
// minimum check; calculate exactly as apply; budgets under concurrency; refunds and voids give back in proportion.
import { SYSTEM } from '../../../src/modules/audit/service.js';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { setCategoryRules } from '../../../src/modules/catalogue/service.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, ledgerSum, newCardNumber, seedLedger } from '../../support/factories.js';
import { client, ok, type Response } from '../../support/http.js';
import { needs } from '../../support/services.js';

const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000 } });
const postgres = await needs('postgres');

type Api = ReturnType<typeof client>;

/**
 * A venue in Tokyo (UTC+9 all year, the server's clock is UTC) with a cashback program (Bronze 3 %) or a stamps
 * program, a wine category earning 10 %, and its key.
 */
async function tokyoVenue(type: 'cashback' | 'stamps' = 'cashback') {
  const venue = await createVenue(t, { timezone: 'Asia/Tokyo', currency: 'EUR', locale: 'en-IE', country: 'IE' });
  await createProgram(t, venue, type);
  const api = client(t, (await createKey(t, venue)).secret);
  ok(await api.put('/api/v1/catalog/categories/wine', { name: 'Wine' }), 'category');
  await setCategoryRules(t.db, venue.chainId, 'wine', { cashback_percent: 10 }, SYSTEM);
  return { venue, api };
}

const enrol = async (api: Api) => ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;

let n = 0;
/** Steak 2 × 15.00 (Bronze 3 %) and a glass of wine 20.00 (its category's 10 %), closed at `closedAt`. */
const dinner = (memberId: string, closedAt?: string, extra: Record<string, unknown> = {}) => ({
  external_id: `B-${++n}`,
  member_id: memberId,
  line_items: [
    { name: 'Steak', quantity: 2, unit_price: 1_500 },
    { name: 'Rioja', category: 'wine', quantity: 1, unit_price: 2_000 },
  ],
  ...(closedAt ? { closed_at: closedAt } : {}),
  ...extra,
});

const campaignOf = async (api: Api, id: string) => ok(await api.get(`/api/v1/campaigns/${id}`), 'campaign').body;

async function eventsOf(chainId: string, type: string) {
  const { rows } = await sql<{ data: unknown }>`select data from events where chain_id = ${chainId} and type = ${type} order by id`.execute(t.db);
  return rows.map((r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as { object: Record<string, unknown> });
}

describe('bonus campaigns: the window', () => {
  // Friday 22:00 to 02:00 in Tokyo. The test's clock is Sunday 22 November 2026, 10:00 UTC; checks are closed earlier.
  const lateNight = { days_of_week: [5], from: '22:00', to: '02:00' };
  it.each([
    ['Saturday 01:00 in Tokyo (Friday 16:00 UTC): Friday’s window', '2026-11-20T16:00:00Z', 250],
    ['Friday 23:59 in Tokyo', '2026-11-20T14:59:00Z', 250],
    ['Friday 22:00 in Tokyo, the first minute', '2026-11-20T13:00:00Z', 250],
    ['Saturday 02:00 in Tokyo: the window ended', '2026-11-20T17:00:00Z', 0],
    ['Friday 01:00 in Tokyo: Thursday night, not scheduled', '2026-11-19T16:00:00Z', 0],
    ['Friday 21:59 in Tokyo', '2026-11-20T12:59:00Z', 0],
  ])('Fri 22:00–02:00, a check closed %s: bonus %i', async (_, closedAt, bonus) => {
    const { api } = await tokyoVenue();
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Late night', type: 'bonus', percent: 5, schedule: lateNight }), 'campaign').body;
    const member = await enrol(api);
    const applied = ok(await api.post('/api/v1/checks', dinner(member.id, closedAt)), 'check').body;
    // Earned: 3 % of 30.00 + 10 % of 20.00 = 0.90 + 2.00. The bonus: 5 % of 30.00 + 5 % of 20.00 = 1.50 + 1.00.
    expect(applied.earned).toBe(290);
    expect(applied.campaigns).toEqual(bonus ? [{ campaign_id: campaign.id, name: 'Late night', amount: bonus }] : []);
    expect(ok(await api.get(`/api/v1/members/${member.id}`), 'member').body.balance).toBe(290 + bonus);
    expect((await campaignOf(api, campaign.id)).spent).toBe(bonus);
  });

  it('a test-mode bonus credits no live member, even on a check a test key sends (D4): 0, and 5 % for the test member', async () => {
    const venue = await createVenue(t);
    await createProgram(t, venue);
    const test = client(t, (await createKey(t, venue)).secret);
    const live = client(t, (await createKey(t, venue, { livemode: true })).secret);
    const liveMember = ok(await live.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'live member').body;
    const testMember = await enrol(test);
    ok(await test.post('/api/v1/campaigns', { name: 'Test bonus', type: 'bonus', percent: 5 }), 'campaign');
    const steak = (memberId: string) => ({ external_id: `M-${++n}`, member_id: memberId, line_items: [{ name: 'Steak', quantity: 1, unit_price: 2_000 }] });
    expect(ok(await test.post('/api/v1/checks', steak(liveMember.id)), 'live member').body.campaigns).toEqual([]);
    expect(ok(await test.post('/api/v1/checks', steak(testMember.id)), 'test member').body.campaigns).toEqual([expect.objectContaining({ amount: 100 })]);
  });

  it('Monday to Thursday 15:00–18:00: in at Thursday 15:30 in Tokyo, out at 18:00 and on Friday', async () => {
    const { api } = await tokyoVenue();
    const schedule = { days_of_week: [1, 2, 3, 4], from: '15:00', to: '18:00' };
    ok(await api.post('/api/v1/campaigns', { name: 'Happy hour', type: 'bonus', percent: 5, schedule }), 'campaign');
    const member = await enrol(api);
    const at = async (closedAt: string) => ok(await api.post('/api/v1/checks', dinner(member.id, closedAt)), closedAt).body.campaigns.map((c: { amount: number }) => c.amount);
    expect(await at('2026-11-19T06:30:00Z')).toEqual([250]); // Thursday 15:30
    expect(await at('2026-11-19T09:00:00Z')).toEqual([]); // Thursday 18:00
    expect(await at('2026-11-19T05:59:00Z')).toEqual([]); // Thursday 14:59
    expect(await at('2026-11-20T07:00:00Z')).toEqual([]); // Friday 16:00
  });
});

describe('bonus campaigns: what a check gets', () => {
  it('calculate shows exactly what apply writes, the receipt names the campaign, and the history has one campaign entry', async () => {
    const { venue, api } = await tokyoVenue();
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Happy hour', type: 'bonus', percent: 5 }), 'campaign').body;
    const member = await enrol(api);
    const body = dinner(member.id);
    const calculated = ok(await api.post('/api/v1/checks/calculate', body), 'calculate').body;
    const applied = ok(await api.post('/api/v1/checks', body), 'apply').body;
    expect(calculated.campaigns).toEqual([{ campaign_id: campaign.id, name: 'Happy hour', amount: 250 }]);
    expect(applied.campaigns).toEqual(calculated.campaigns);
    expect([calculated.earned, calculated.balance_after]).toEqual([290, 540]);
    expect(applied.display).toEqual(calculated.display);
    expect(applied.display.receipt).toContain('Happy hour: +€2.50');
    const history = ok(await api.get(`/api/v1/members/${member.id}/history`), 'history').body.data;
    expect(history.filter((e: { type: string }) => e.type === 'campaign')).toEqual([
      expect.objectContaining({ cashback: 250, campaign_id: campaign.id, reason: 'Happy hour', reference: body.external_id, venue_id: venue.id }),
    ]);
    const [completed] = await eventsOf(venue.chainId, 'transaction.completed');
    expect(completed!.object.campaigns).toEqual(calculated.campaigns);
    expect(await ledgerSum(t, member.id)).toBe(540);
  });

  it('categories: a 5 % bonus on wine only adds 1.00 to the wine line’s own 10 %', async () => {
    const { api } = await tokyoVenue();
    ok(await api.post('/api/v1/campaigns', { name: 'Wine week', type: 'bonus', percent: 5, categories: ['wine'] }), 'campaign');
    const member = await enrol(api);
    const applied = ok(await api.post('/api/v1/checks', dinner(member.id)), 'apply').body;
    expect([applied.earned, applied.campaigns[0].amount]).toEqual([290, 100]);
  });

  it('two bonuses each add their own share: 5 % → 250 and 7.29 % → 218 + 145 = 363', async () => {
    const { api } = await tokyoVenue();
    const a = ok(await api.post('/api/v1/campaigns', { name: 'A', type: 'bonus', percent: 5 }), 'a').body;
    const b = ok(await api.post('/api/v1/campaigns', { name: 'B', type: 'bonus', percent: 7.29 }), 'b').body;
    const member = await enrol(api);
    const applied = ok(await api.post('/api/v1/checks', dinner(member.id)), 'apply').body;
    // floor(3000 × 7.29 %) = 218, floor(2000 × 7.29 %) = 145.
    const amounts = Object.fromEntries(applied.campaigns.map((c: { campaign_id: string; amount: number }) => [c.campaign_id, c.amount]));
    expect(amounts).toEqual({ [a.id]: 250, [b.id]: 363 });
  });

  it('the bonus is on what is paid of a line: 20.00 redeemed of 50.00 leaves 18.00 and 12.00 → 0.90 + 0.60', async () => {
    const { venue, api } = await tokyoVenue();
    ok(await api.post('/api/v1/campaigns', { name: 'Happy hour', type: 'bonus', percent: 5 }), 'campaign');
    const member = await enrol(api);
    await seedLedger(t, venue, { memberId: member.id, kind: 'adjustment', cashback: 5_000, reason: 'seed' });
    const applied = ok(await api.post('/api/v1/checks', dinner(member.id, undefined, { redeem_amount: 2_000 })), 'apply').body;
    expect(applied.line_items.map((l: { redeemed: number }) => l.redeemed)).toEqual([1_200, 800]);
    expect(applied.campaigns[0].amount).toBe(150);
  });

  it('min_check_amount is judged on what is paid; paused, test-mode-only and other venues’ campaigns give nothing', async () => {
    const { venue, api } = await tokyoVenue();
    const other = await createVenue(t, { chainId: venue.chainId });
    ok(await api.post('/api/v1/campaigns', { name: 'Big spender', type: 'bonus', percent: 1, min_check_amount: 5_001 }), 'min');
    const paused = ok(await api.post('/api/v1/campaigns', { name: 'Paused', type: 'bonus', percent: 1 }), 'paused').body;
    ok(await api.patch(`/api/v1/campaigns/${paused.id}`, { status: 'paused' }), 'pause');
    const chain = client(t, (await createKey(t, other)).secret);
    ok(await chain.post('/api/v1/campaigns', { name: 'Elsewhere', type: 'bonus', percent: 1 }), 'other venue');
    const member = await enrol(api);
    expect(ok(await api.post('/api/v1/checks', dinner(member.id)), 'apply').body.campaigns).toEqual([]);
    const live = client(t, (await createKey(t, venue, { livemode: true })).secret);
    const liveMember = ok(await live.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'live member').body;
    ok(await api.post('/api/v1/campaigns', { name: 'Test only', type: 'bonus', percent: 1 }), 'test');
    expect(ok(await live.post('/api/v1/checks', dinner(liveMember.id)), 'live').body.campaigns).toEqual([]);
  });

  it('a line of a category earning 0 % gets no bonus, and neither does a check backdated past its cashback’s expiry', async () => {
    const venue = await createVenue(t, { currency: 'EUR', locale: 'en-IE', country: 'IE' });
    await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Base', min_spend: 0, percent: 3 }], cashback_expires_after_days: 30 } });
    const api = client(t, (await createKey(t, venue)).secret);
    ok(await api.put('/api/v1/catalog/categories/water', { name: 'Water' }), 'category');
    await setCategoryRules(t.db, venue.chainId, 'water', { cashback_percent: 0 }, SYSTEM);
    ok(await api.post('/api/v1/campaigns', { name: 'Bonus', type: 'bonus', percent: 5 }), 'campaign');
    const member = await enrol(api);
    const water = { name: 'Water', category: 'water', quantity: 1, unit_price: 2_000 };
    const steak = { name: 'Steak', quantity: 1, unit_price: 2_000 };
    const today = ok(await api.post('/api/v1/checks', { external_id: `W-${++n}`, member_id: member.id, line_items: [water, steak] }), 'today').body;
    expect([today.earned, today.campaigns[0].amount]).toEqual([60, 100]);
    const closedAt = new Date(t.clock.now().getTime() - 40 * 86_400_000).toISOString();
    for (const line of [water, steak]) {
      const old = ok(await api.post('/api/v1/checks', { external_id: `W-${++n}`, member_id: member.id, closed_at: closedAt, line_items: [line] }), 'backdated').body;
      expect([old.earned, old.campaigns]).toEqual([0, []]);
    }
  });

  it('max_per_member 1: the second check gets nothing', async () => {
    const { api } = await tokyoVenue();
    ok(await api.post('/api/v1/campaigns', { name: 'Once', type: 'bonus', percent: 5, max_per_member: 1 }), 'campaign');
    const member = await enrol(api);
    expect(ok(await api.post('/api/v1/checks', dinner(member.id)), 'first').body.campaigns).toHaveLength(1);
    expect(ok(await api.post('/api/v1/checks', dinner(member.id)), 'second').body.campaigns).toEqual([]);
  });

  it('a stamps multiplier of 3 makes one visit three stamps; the void takes all three back', async () => {
    const { api } = await tokyoVenue('stamps');
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Triple', type: 'bonus', stamps_multiplier: 3, budget: 10 }), 'campaign').body;
    const member = await enrol(api);
    const applied = ok(await api.post('/api/v1/checks', dinner(member.id)), 'apply').body;
    expect([applied.stamps_earned, applied.campaigns]).toEqual([1, [{ campaign_id: campaign.id, name: 'Triple', amount: 2 }]]);
    expect(applied.display.receipt).toContain('Triple: +2 stamps');
    expect(ok(await api.get(`/api/v1/members/${member.id}`), 'member').body.stamps.count).toBe(3);
    ok(await api.post(`/api/v1/transactions/${applied.external_id}/void`), 'void');
    expect(ok(await api.get(`/api/v1/members/${member.id}`), 'member').body.stamps.count).toBe(0);
    expect((await campaignOf(api, campaign.id)).spent).toBe(0);
  });
});

describe('bonus campaigns: reversals and budgets', () => {
  it('three refunds of 333, 333 and 334 of a 10.00 check reverse 23 + 24 + 25 of its 72 bonus, and give them back to the budget', async () => {
    const { api } = await tokyoVenue();
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Odd', type: 'bonus', percent: 7.29, budget: 1_000 }), 'campaign').body;
    const member = await enrol(api);
    const check = { external_id: `R-${++n}`, member_id: member.id, line_items: [{ name: 'Lunch', quantity: 1, unit_price: 1_000 }] };
    const applied = ok(await api.post('/api/v1/checks', check), 'apply').body;
    // floor(1000 × 7.29 %) = 72; Bronze 3 % earns 30.
    expect([applied.earned, applied.campaigns[0].amount]).toEqual([30, 72]);
    const reversed: number[] = [];
    const spent: number[] = [];
    for (const [i, amount] of [333, 333, 334].entries()) {
      const refund = ok(await api.post(`/api/v1/transactions/${check.external_id}/refunds`, { external_id: `RF-${i}`, amount }), 'refund').body;
      reversed.push(refund.campaigns_reversed[0]?.amount ?? 0);
      spent.push((await campaignOf(api, campaign.id)).spent);
    }
    // floor(72 × 333 / 1000) = 23, floor(72 × 666 / 1000) = 47, 72.
    expect(reversed).toEqual([23, 24, 25]);
    expect(spent).toEqual([49, 25, 0]);
    expect(ok(await api.get(`/api/v1/members/${member.id}`), 'member').body.balance).toBe(0);
    expect(await ledgerSum(t, member.id)).toBe(0);
    const replay = ok(await api.post(`/api/v1/transactions/${check.external_id}/refunds`, { external_id: 'RF-2', amount: 334 }), 'replay').body;
    expect(replay.campaigns_reversed).toEqual([{ campaign_id: campaign.id, name: 'Odd', amount: 25 }]);
    expect(replay.display.receipt).toContain('Odd taken back: −€0.25');
  });

  it('50 concurrent checks against a budget of 10.5 of them: ten get 100, one 50, the rest nothing; spent = budget = the credits; exhausted once; a void gives back and the next check uses it', async () => {
    const { venue, api } = await tokyoVenue();
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Launch', type: 'bonus', percent: 10, budget: 1_050 }), 'campaign').body;
    const members = await Promise.all(Array.from({ length: 50 }, () => enrol(api)));
    const lunch = (memberId: string) => ({ external_id: `C-${++n}`, member_id: memberId, line_items: [{ name: 'Lunch', quantity: 1, unit_price: 1_000 }] });
    const applied = await Promise.all(members.map(async (m) => ok(await api.post('/api/v1/checks', lunch(m.id)), 'check').body));
    const credits = applied.map((a) => a.campaigns[0]?.amount ?? 0).sort((a, b) => b - a);
    expect(credits.slice(0, 11)).toEqual([100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 50]);
    expect(credits.slice(11).every((c) => c === 0)).toBe(true);
    expect((await campaignOf(api, campaign.id)).spent).toBe(1_050);
    const { rows } = await sql<{ total: string | number }>`select coalesce(sum(cashback), 0) as total from ledger_entries
      where chain_id = ${venue.chainId} and campaign_id = ${campaign.id}`.execute(t.db);
    expect(Number(rows[0]!.total)).toBe(1_050);
    expect((await eventsOf(venue.chainId, 'campaign.budget_exhausted')).map((e) => e.object.id)).toEqual([campaign.id]);

    const full = applied.find((a) => a.campaigns[0]?.amount === 100)!;
    ok(await api.post(`/api/v1/transactions/${full.external_id}/void`), 'void');
    expect((await campaignOf(api, campaign.id)).spent).toBe(950);
    const next = ok(await api.post('/api/v1/checks', lunch(members[0]!.id)), 'next').body;
    expect(next.campaigns[0].amount).toBe(100);
    expect((await campaignOf(api, campaign.id)).spent).toBe(1_050);
    expect(await eventsOf(venue.chainId, 'campaign.budget_exhausted')).toHaveLength(2);
  });

  postgres.it('150 checks at once against a budget of exactly 100 of them, ample for each when they begin: 100 get 1.00, 50 nothing, spent = budget = the credits, exhausted once', async () => {
    const { venue, api } = await tokyoVenue();
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Ample', type: 'bonus', percent: 10, budget: 10_000 }), 'campaign').body;
    const members = await Promise.all(Array.from({ length: 150 }, () => enrol(api)));
    const lunch = (memberId: string) => ({ external_id: `O-${++n}`, member_id: memberId, line_items: [{ name: 'Lunch', quantity: 1, unit_price: 1_000 }] });
    const applied = await Promise.all(members.map(async (m) => ok(await api.post('/api/v1/checks', lunch(m.id)), 'check').body));
    const credits = applied.map((a) => a.campaigns[0]?.amount ?? 0);
    expect([credits.filter((c) => c === 100).length, credits.filter((c) => c === 0).length]).toEqual([100, 50]);
    expect((await campaignOf(api, campaign.id)).spent).toBe(10_000);
    const { rows } = await sql<{ total: string | number }>`select coalesce(sum(cashback), 0) as total from ledger_entries
      where chain_id = ${venue.chainId} and campaign_id = ${campaign.id}`.execute(t.db);
    expect(Number(rows[0]!.total)).toBe(10_000);
    expect(await eventsOf(venue.chainId, 'campaign.budget_exhausted')).toHaveLength(1);
  }, 120_000);

  postgres.it('a check that read ample room while another took nearly all of it meets the budget constraint, runs again, and gets what is left: 50', async () => {
    const { api } = await tokyoVenue();
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Race', type: 'bonus', percent: 10, budget: 100_000 }), 'campaign').body;
    const member = await enrol(api);
    const lunch = { external_id: `X-${++n}`, member_id: member.id, line_items: [{ name: 'Lunch', quantity: 1, unit_price: 1_000 }] };
    let answer: Response | undefined;
    // Another writer holds the campaign's row, about to leave 50 of the budget: the check reads the room before it commits.
    await t.db.connection().execute(async (conn) => {
      await sql`begin`.execute(conn);
      await sql`update campaigns set spent = budget - 50 where id = ${campaign.id}`.execute(conn);
      const sent = api.post('/api/v1/checks', lunch).then((res) => (answer = res));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(answer).toBeUndefined(); // waiting for the row
      await sql`commit`.execute(conn);
      await sent;
    });
    expect(ok(answer!, 'check').body.campaigns).toEqual([{ campaign_id: campaign.id, name: 'Race', amount: 50 }]);
    expect((await campaignOf(api, campaign.id)).spent).toBe(100_000);
  });

  it('calculate shows what the budget has left: 40 of a 100 bonus', async () => {
    const { api } = await tokyoVenue();
    ok(await api.post('/api/v1/campaigns', { name: 'Last bit', type: 'bonus', percent: 10, budget: 140 }), 'campaign');
    const member = await enrol(api);
    const lunch = () => ({ external_id: `L-${++n}`, member_id: member.id, line_items: [{ name: 'Lunch', quantity: 1, unit_price: 1_000 }] });
    expect(ok(await api.post('/api/v1/checks', lunch()), 'first').body.campaigns[0].amount).toBe(100);
    const body = lunch();
    expect(ok(await api.post('/api/v1/checks/calculate', body), 'calculate').body.campaigns[0].amount).toBe(40);
    expect(ok(await api.post('/api/v1/checks', body), 'apply').body.campaigns[0].amount).toBe(40);
    expect(ok(await api.post('/api/v1/checks/calculate', lunch()), 'empty').body.campaigns).toEqual([]);
  });

  it('a hold of 5.00 captured into a 10.00 check with a 10 % bonus: the bonus falls from 100 to 50 and 50 goes back to the budget', async () => {
    const { venue, api } = await tokyoVenue();
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Ten', type: 'bonus', percent: 10, budget: 1_000 }), 'campaign').body;
    const member = await enrol(api);
    await seedLedger(t, venue, { memberId: member.id, kind: 'adjustment', cashback: 1_000, reason: 'seed' });
    const check = { external_id: `H-${++n}`, member_id: member.id, line_items: [{ name: 'Lunch', quantity: 1, unit_price: 1_000 }] };
    expect(ok(await api.post('/api/v1/checks', check), 'apply').body.campaigns[0].amount).toBe(100);
    const hold = ok(await api.post('/api/v1/holds', { member_id: member.id, amount: 500 }), 'hold').body;
    const captured = ok(await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: check.external_id }), 'capture').body;
    // 3 % and 10 % of the 5.00 left to pay: 15 earned, 50 bonus.
    expect([captured.earned, captured.campaigns[0].amount]).toEqual([15, 50]);
    expect((await campaignOf(api, campaign.id)).spent).toBe(50);
    // 10.00 seeded − 5.00 redeemed + 0.15 + 0.50.
    expect(ok(await api.get(`/api/v1/members/${member.id}`), 'member').body.balance).toBe(565);
    expect(await ledgerSum(t, member.id)).toBe(565);
  });
});
