// A campaign's results (issue 41), against hand-computed figures: credits given and taken back, the members reached,
// and their checks and spend while it ran, at its venues only; running, past its end, and ended by hand.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createChainKey, createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, ok } from '../../support/http.js';

const t = useTestApp();
const HOUR = 3_600_000;

describe('campaign results', () => {
  it('count what it gave, to whom, and their checks and spend at its venues while it ran', async () => {
    // The clock starts at 2026-11-22 10:00 UTC; the bonus runs 11:00–13:00 at venue A only.
    const a = await createVenue(t);
    const b = await createVenue(t, { chainId: a.chainId });
    await createProgram(t, a);
    const [atA, atB] = [client(t, (await createKey(t, a)).secret), client(t, (await createKey(t, b)).secret)];
    const chain = client(t, (await createChainKey(t, a.chainId)).secret);
    const campaign = ok(
      await chain.post('/api/v1/campaigns', {
        name: 'Happy hour',
        type: 'bonus',
        percent: 5,
        min_check_amount: 500,
        venue_ids: [a.id],
        starts_at: '2026-11-22T11:00:00Z',
        ends_at: '2026-11-22T13:00:00Z',
      }),
      'campaign',
    ).body;
    const other = ok(await chain.post('/api/v1/campaigns', { name: 'Other', type: 'bonus', percent: 1, venue_ids: [b.id] }), 'other campaign').body;
    const enrol = async () => ok(await atA.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;
    const [m1, m2, m3] = [await enrol(), await enrol(), await enrol()];
    let n = 0;
    const check = async (api: typeof atA, memberId: string, price: number) =>
      ok(await api.post('/api/v1/checks', { external_id: `R-${++n}`, member_id: memberId, line_items: [{ name: 'Dinner', quantity: 1, unit_price: price }] }), 'check').body;
    const bonusOf = (applied: { campaigns: { campaign_id: string; amount: number }[] }) => applied.campaigns.find((c) => c.campaign_id === campaign.id)?.amount ?? 0;

    expect(bonusOf(await check(atA, m1.id, 1_000))).toBe(0); // 10:00, before it starts
    t.clock.advance(1.5 * HOUR); // 11:30
    expect(bonusOf(await check(atA, m1.id, 2_000))).toBe(100); // 5 % of 20.00
    const big = await check(atA, m2.id, 3_000);
    expect(bonusOf(big)).toBe(150);
    const atOther = await check(atB, m2.id, 1_000);
    expect(bonusOf(atOther)).toBe(0); // not its venue
    expect(bonusOf(await check(atA, m3.id, 400))).toBe(0); // below its minimum: m3 is not reached
    const voided = await check(atA, m2.id, 1_000);
    expect(bonusOf(voided)).toBe(50);
    ok(await atA.post(`/api/v1/transactions/${voided.external_id}/void`), 'void');
    ok(await atA.post(`/api/v1/transactions/${big.external_id}/refunds`, { external_id: 'RF-1', amount: 600 }), 'refund');

    // Credits 100, 150 and 50 (three); back: the void's 50 and the refund's 150 × 600 / 3,000 = 30.
    // Checks: m1's 20.00 and m2's 30.00 less 6.00 at A (the voided one, B's and m3's do not count).
    const running = { object: 'campaign_results', campaign_id: campaign.id, from: '2026-11-22T11:00:00.000+00:00', credits: 3, credited: 220, members_reached: 2, checks: 2, spend: 4_400 };
    expect(ok(await chain.get(`/api/v1/campaigns/${campaign.id}/results`), 'results').body).toEqual({ ...running, to: null });
    expect(ok(await chain.get(`/api/v1/campaigns/${campaign.id}`), 'campaign').body.spent).toBe(220);

    t.clock.advance(2.5 * HOUR); // 14:00, after its end
    expect(bonusOf(await check(atA, m1.id, 5_000))).toBe(0);
    expect(ok(await atA.get(`/api/v1/campaigns/${campaign.id}/results`), 'results after').body).toEqual({ ...running, to: '2026-11-22T13:00:00.000+00:00' });

    // Ended by hand at 14:00: it ran from its creation (10:00) to then; m2's check at B is its one credit.
    ok(await chain.patch(`/api/v1/campaigns/${other.id}`, { status: 'ended' }), 'end');
    expect(ok(await chain.get(`/api/v1/campaigns/${other.id}/results`), 'ended by hand').body).toEqual({
      object: 'campaign_results',
      campaign_id: other.id,
      from: '2026-11-22T10:00:00.000+00:00',
      to: '2026-11-22T14:00:00.000+00:00',
      credits: 1,
      credited: 10,
      members_reached: 1,
      checks: 1,
      spend: 1_000,
    });
    // Ended again an hour later, and its one credited check voided: it still ended at 14:00 (budget writes and saves
    // move the campaign's updated_at, never when it ended); the credit is taken back and the check no longer counts.
    t.clock.advance(HOUR);
    ok(await chain.patch(`/api/v1/campaigns/${other.id}`, { status: 'ended' }), 'end again');
    ok(await atB.post(`/api/v1/transactions/${atOther.external_id}/void`), 'void at B');
    expect(ok(await chain.get(`/api/v1/campaigns/${other.id}/results`), 'after the void').body).toMatchObject({
      to: '2026-11-22T14:00:00.000+00:00',
      credits: 1,
      credited: 0,
      members_reached: 1,
      checks: 0,
      spend: 0,
    });
  });

  it('counts a member’s checks from when it reached them: a referrer’s checks before the friend came do not', async () => {
    const venue = await createVenue(t);
    await createProgram(t, venue);
    const api = client(t, (await createKey(t, venue)).secret);
    const referral = ok(await api.post('/api/v1/campaigns', { name: 'Bring a friend', type: 'referral', referrer_amount: 500, referee_amount: 300 }), 'referral').body;
    const referrer = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'referrer').body;
    let n = 0;
    const check = (memberId: string, price: number) =>
      api.post('/api/v1/checks', { external_id: `F-${++n}`, member_id: memberId, line_items: [{ name: 'Dinner', quantity: 1, unit_price: price }] });
    ok(await check(referrer.id, 3_000), 'before the friend');
    t.clock.advance(HOUR);
    const friend = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, referred_by: referrer.referral_code }), 'friend').body;
    ok(await check(friend.id, 1_000), 'the friend’s first check');
    t.clock.advance(HOUR);
    ok(await check(referrer.id, 2_000), 'after');
    // Both sides credited (5.00 and 3.00) at the friend's check; the friend's 10.00 and the referrer's later 20.00.
    expect(ok(await api.get(`/api/v1/campaigns/${referral.id}/results`), 'results').body).toMatchObject({ credits: 2, credited: 800, members_reached: 2, checks: 2, spend: 3_000 });
  });

  it('another chain’s campaign is not found, as a missing one', async () => {
    const venue = await createVenue(t);
    const chain = client(t, (await createChainKey(t, venue.chainId)).secret);
    const campaign = ok(await chain.post('/api/v1/campaigns', { name: 'Welcome', type: 'welcome', amount: 200 }), 'campaign').body;
    const stranger = client(t, (await createChainKey(t, (await createVenue(t)).chainId)).secret);
    for (const id of [campaign.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await stranger.get(`/api/v1/campaigns/${id}/results`);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'campaign_not_found' });
    }
  });
});
