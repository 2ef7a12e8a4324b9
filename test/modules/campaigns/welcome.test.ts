// Welcome campaigns (D22): credited in the enrolment's transaction as a `campaign` entry naming the campaign; a
// budget never passed under concurrent enrolments (the last gets what is left), announced once when emptied.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createChainKey, createKey, createProgram, createVenue, newCardNumber, venueWithKey } from '../../support/factories.js';
import { client, ok } from '../../support/http.js';

const t = useTestApp();

async function cashbackVenue() {
  const { venue, secret } = await venueWithKey(t);
  await createProgram(t, venue, 'cashback');
  return { venue, api: client(t, secret) };
}

const enrol = (api: ReturnType<typeof client>, body: Record<string, unknown> = {}) =>
  api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, ...body });

async function eventsOf(chainId: string, type: string) {
  const { rows } = await sql<{ data: { object: { id: string; spent: number } } }>`
    select data from events where chain_id = ${chainId} and type = ${type} order by id`.execute(t.db);
  return rows.map((r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data).object);
}

describe('welcome campaigns', () => {
  it('a new member starts with the welcome amount: balance 500, one campaign entry naming it, spent 500', async () => {
    const { api } = await cashbackVenue();
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Welcome', type: 'welcome', amount: 500 }), 'campaign').body;
    const member = ok(await enrol(api), 'enrol').body;
    expect(member).toMatchObject({ balance: 500, available: 500 });
    const history = ok(await api.get(`/api/v1/members/${member.id}/history`), 'history').body.data;
    expect(history).toEqual([
      expect.objectContaining({ type: 'campaign', cashback: 500, stamps: 0, spend: 0, visits: 0, reason: 'Welcome', campaign_id: campaign.id }),
    ]);
    expect(ok(await api.get(`/api/v1/campaigns/${campaign.id}`), 'campaign').body.spent).toBe(500);
  });

  it('two welcome campaigns both credit; a paused one, one of another venue, one ended and one not started do not', async () => {
    const { venue, api } = await cashbackVenue();
    const quay = await createVenue(t, { chainId: venue.chainId });
    const now = t.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const chainApi = client(t, (await createChainKey(t, venue.chainId)).secret);
    ok(await chainApi.post('/api/v1/campaigns', { name: 'Hello', type: 'welcome', amount: 300 }), 'a');
    ok(await chainApi.post('/api/v1/campaigns', { name: 'Launch week', type: 'welcome', amount: 200, ends_at: at(3_600_000) }), 'b');
    const paused = ok(await chainApi.post('/api/v1/campaigns', { name: 'Paused', type: 'welcome', amount: 1_000 }), 'c').body;
    ok(await chainApi.patch(`/api/v1/campaigns/${paused.id}`, { status: 'paused' }), 'pause');
    ok(await chainApi.post('/api/v1/campaigns', { name: 'Quay only', type: 'welcome', amount: 1_000, venue_ids: [quay.id] }), 'd');
    ok(await chainApi.post('/api/v1/campaigns', { name: 'Over', type: 'welcome', amount: 1_000, starts_at: at(-7_200_000), ends_at: at(-3_600_000) }), 'e');
    ok(await chainApi.post('/api/v1/campaigns', { name: 'Soon', type: 'welcome', amount: 1_000, starts_at: at(3_600_000) }), 'f');
    ok(await chainApi.post('/api/v1/campaigns', { name: 'Stamps', type: 'welcome', stamps: 3 }), 'g');
    const member = ok(await enrol(api), 'enrol').body;
    expect(member.balance).toBe(500);
    const reasons = ok(await api.get(`/api/v1/members/${member.id}/history`), 'history').body.data.map((e: { reason: string }) => e.reason).sort();
    expect(reasons).toEqual(['Hello', 'Launch week']);
  });

  it('a stamps program’s member gets the stamps campaign, not the cashback one', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    const stamps = await createProgram(t, venue, 'stamps');
    ok(await api.post('/api/v1/campaigns', { name: 'Two to start', type: 'welcome', stamps: 2 }), 'stamps campaign');
    ok(await api.post('/api/v1/campaigns', { name: 'Money', type: 'welcome', amount: 500 }), 'cashback campaign');
    const member = ok(await enrol(api, { program_id: stamps.id }), 'enrol').body;
    expect(member.stamps.count).toBe(2);
    const history = ok(await api.get(`/api/v1/members/${member.id}/history`), 'history').body.data;
    expect(history).toEqual([expect.objectContaining({ type: 'campaign', stamps: 2, cashback: 0, reason: 'Two to start' })]);
  });

  it('a test-mode campaign credits test-mode members only', async () => {
    const { venue, api } = await cashbackVenue();
    const live = client(t, (await createKey(t, venue, { livemode: true })).secret);
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Test welcome', type: 'welcome', amount: 500 }), 'campaign').body;
    expect(campaign.livemode).toBe(false);
    expect(ok(await enrol(live), 'live enrol').body.balance).toBe(0);
    expect(ok(await enrol(api), 'test enrol').body.balance).toBe(500);
  });

  it('20 concurrent enrolments against a budget of 10.5 welcomes: ten get 100, one gets 50, the rest nothing; spent = budget = the credits; exhausted announced once', async () => {
    const { venue, api } = await cashbackVenue();
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'First hundred', type: 'welcome', amount: 100, budget: 1_050 }), 'campaign').body;
    const members = (await Promise.all(Array.from({ length: 20 }, () => enrol(api)))).map((res) => ok(res, 'enrol').body);
    const balances = members.map((m) => m.balance).sort((a, b) => b - a);
    expect(balances).toEqual([...Array(10).fill(100), 50, ...Array(9).fill(0)]);
    const { rows } = await sql<{ total: number; n: number }>`
      select coalesce(sum(cashback), 0)::int as total, count(*)::int as n from ledger_entries
      where chain_id = ${venue.chainId} and kind = 'campaign' and campaign_id = ${campaign.id}`.execute(t.db);
    expect(rows[0]).toEqual({ total: 1_050, n: 11 });
    const after = ok(await api.get(`/api/v1/campaigns/${campaign.id}`), 'campaign').body;
    expect(after).toMatchObject({ spent: 1_050, budget: 1_050 });
    const exhausted = await eventsOf(venue.chainId, 'campaign.budget_exhausted');
    expect(exhausted.map((c) => [c.id, c.spent])).toEqual([[campaign.id, 1_050]]);
  });

  it('a budget lowered by PATCH to exactly what was spent is announced as exhausted, and credits no more', async () => {
    const { venue, api } = await cashbackVenue();
    const campaign = ok(await api.post('/api/v1/campaigns', { name: 'Welcome', type: 'welcome', amount: 30, budget: 100 }), 'campaign').body;
    ok(await enrol(api), 'enrol');
    ok(await api.patch(`/api/v1/campaigns/${campaign.id}`, { budget: 30 }), 'lower');
    expect((await eventsOf(venue.chainId, 'campaign.budget_exhausted')).map((c) => [c.id, c.spent])).toEqual([[campaign.id, 30]]);
    expect(ok(await enrol(api), 'enrol').body.balance).toBe(0);
  });

  it('the liability report counts welcome cashback in its campaign column at the venue of the enrolment', async () => {
    const { venue, api } = await cashbackVenue();
    ok(await api.post('/api/v1/campaigns', { name: 'Welcome', type: 'welcome', amount: 250 }), 'campaign');
    ok(await enrol(api), 'enrol');
    const from = new Date(t.clock.now().getTime() - 60_000).toISOString();
    const to = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const report = ok(await api.get(`/api/v1/reports/venue_liability?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`), 'report').body.data;
    expect(report.find((r: { venue_id: string | null }) => r.venue_id === venue.id)).toMatchObject({ earned: 0, campaign: 250, net: 250 });
  });
});
