// Referral campaigns (D22), against hand-computed figures: both sides credited with the referee's first check of at
// least the minimum, none for a smaller one, once; a void of that check takes both back (and the budget gets them
// back), a refund never.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createProgram, ledgerSum, newCardNumber, venueWithKey } from '../../support/factories.js';
import { client, type Response } from '../../support/http.js';

const t = useTestApp();

function ok(res: Response, what: string): Response {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

type Api = ReturnType<typeof client>;

/** A cashback venue (Bronze 3 %), a referral campaign, Anna, and Ben who enrolled with Anna's code. */
async function setUp(campaign: Record<string, unknown> = {}) {
  const { venue, secret } = await venueWithKey(t);
  await createProgram(t, venue, 'cashback');
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

  it('a referral paying the referrer only still credits the referrer; a member nobody referred gets nothing', async () => {
    const { api, anna, ben } = await setUp({ referee_amount: 0 });
    const applied = ok(await api.post('/api/v1/checks', check(ben.id, 2_000)), 'qualifying').body;
    expect(applied.campaigns).toEqual([]);
    expect(await balanceOf(api, anna.id)).toBe(500);
    expect(ok(await api.post('/api/v1/checks', check(anna.id, 5_000)), 'anna').body.campaigns).toEqual([]);
  });
});
