// Campaigns as a resource (D22, issue 22): create, list, get, change and pause; each type's fields; bad input named
// by its param; another chain's campaign answered like a missing one; a venue's key keeps to its venue.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createChainKey, createKey, createVenue, venueWithKey } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();

const HAPPY_HOUR = {
  name: 'Happy hour',
  type: 'bonus',
  percent: 5,
  schedule: { days_of_week: [1, 2, 3, 4], from: '15:00', to: '18:00' },
  budget: 10_000,
  max_per_member: 3,
};

async function chainKey() {
  const { venue } = await venueWithKey(t);
  const { secret } = await createChainKey(t, venue.chainId);
  return { venue, api: client(t, secret) };
}

describe('campaigns', () => {
  it('a bonus is created (201) with every field shown, unset ones null, spent 0, and read back the same', async () => {
    const { api } = await chainKey();
    const created = await api.post('/api/v1/campaigns', HAPPY_HOUR);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      object: 'campaign',
      id: expect.any(String),
      type: 'bonus',
      status: 'active',
      spent: 0,
      livemode: false,
      name: 'Happy hour',
      venue_ids: null,
      starts_at: null,
      ends_at: null,
      budget: 10_000,
      max_per_member: 3,
      schedule: { days_of_week: [1, 2, 3, 4], from: '15:00', to: '18:00' },
      percent: 5,
      stamps_multiplier: null,
      categories: null,
      min_check_amount: null,
      amount: null,
      stamps: null,
      referrer_amount: null,
      referee_amount: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: created.body.created_at,
    });
    const read = await api.get(`/api/v1/campaigns/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('a two-decimal percent such as 7.29 is kept exactly; three decimals are refused', async () => {
    const { api } = await chainKey();
    const ok = await api.post('/api/v1/campaigns', { ...HAPPY_HOUR, percent: 7.29 });
    expect(ok.status).toBe(201);
    expect(ok.body.percent).toBe(7.29);
    expect(expectError(await api.post('/api/v1/campaigns', { ...HAPPY_HOUR, percent: 7.295 }), 400, 'parameter_invalid').param).toBe('percent');
  });

  it('welcome, birthday and referral take their own fields', async () => {
    const { api } = await chainKey();
    const welcome = await api.post('/api/v1/campaigns', { name: 'Welcome', type: 'welcome', amount: 500, budget: 50_000 });
    expect(welcome.status).toBe(201);
    expect(welcome.body).toMatchObject({ type: 'welcome', amount: 500, stamps: null });
    const birthday = await api.post('/api/v1/campaigns', { name: 'Birthday coffee', type: 'birthday', stamps: 2 });
    expect(birthday.status).toBe(201);
    expect(birthday.body).toMatchObject({ type: 'birthday', amount: null, stamps: 2 });
    const referral = await api.post('/api/v1/campaigns', { name: 'Bring a friend', type: 'referral', referrer_amount: 500, referee_amount: 300, min_check_amount: 1500 });
    expect(referral.status).toBe(201);
    expect(referral.body).toMatchObject({ type: 'referral', referrer_amount: 500, referee_amount: 300, min_check_amount: 1500 });
  });

  it('the list is the chain’s, newest first, paginated, and filters by type', async () => {
    const { api } = await chainKey();
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) ids.push((await api.post('/api/v1/campaigns', { name, type: 'welcome', amount: 100 })).body.id);
    ids.push((await api.post('/api/v1/campaigns', HAPPY_HOUR)).body.id);
    const first = await api.get('/api/v1/campaigns?limit=2');
    expect(first.body).toMatchObject({ object: 'list', url: '/v1/campaigns', has_more: true });
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual([ids[3], ids[2]]);
    const rest = await api.get(`/api/v1/campaigns?limit=10&starting_after=${ids[2]}`);
    expect(rest.body.data.map((c: { id: string }) => c.id)).toEqual([ids[1], ids[0]]);
    expect(rest.body.has_more).toBe(false);
    const welcomes = await api.get('/api/v1/campaigns?type=welcome');
    expect(welcomes.body.data.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('PATCH changes what it names and keeps the rest; paused and active again; ended stays ended', async () => {
    const { api } = await chainKey();
    const { id } = (await api.post('/api/v1/campaigns', HAPPY_HOUR)).body;
    const paused = await api.patch(`/api/v1/campaigns/${id}`, { status: 'paused', percent: 10 });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ status: 'paused', percent: 10, budget: 10_000, schedule: HAPPY_HOUR.schedule });
    expect((await api.patch(`/api/v1/campaigns/${id}`, { status: 'active' })).body.status).toBe('active');
    expect((await api.patch(`/api/v1/campaigns/${id}`, { status: 'ended' })).body.status).toBe('ended');
    const resumed = expectError(await api.patch(`/api/v1/campaigns/${id}`, { status: 'active' }), 409, 'invalid_status_transition');
    expect(resumed).toMatchObject({ param: 'status', status: 'ended', requested_status: 'active' });
    expect(expectError(await api.patch(`/api/v1/campaigns/${id}`, { percent: 7 }), 400, 'parameter_invalid').param).toBe('percent');
    expect((await api.get(`/api/v1/campaigns/${id}`)).body).toMatchObject({ status: 'ended', percent: 10 });
  });

  it('a campaign ended by its ends_at cannot be revived by moving ends_at, and shows ended even when paused', async () => {
    const { api } = await chainKey();
    const ends_at = new Date(t.clock.now().getTime() + 1_000).toISOString();
    const { id } = (await api.post('/api/v1/campaigns', { ...HAPPY_HOUR, ends_at })).body;
    expect((await api.patch(`/api/v1/campaigns/${id}`, { status: 'paused' })).body.status).toBe('paused');
    t.clock.advance(5_000);
    expect((await api.get(`/api/v1/campaigns/${id}`)).body.status).toBe('ended');
    expect(expectError(await api.patch(`/api/v1/campaigns/${id}`, { ends_at: null }), 400, 'parameter_invalid').param).toBe('ends_at');
    // The same instant written another way is no change.
    expect((await api.patch(`/api/v1/campaigns/${id}`, { ends_at: ends_at.replace('.000Z', 'Z') })).status).toBe(200);
    expectError(await api.patch(`/api/v1/campaigns/${id}`, { status: 'active' }), 409, 'invalid_status_transition');
    expect((await api.get(`/api/v1/campaigns/${id}`)).body).toMatchObject({ status: 'ended', ends_at: expect.any(String) });
  });

  it('the unit is set at creation: percent cannot become stamps_multiplier, nor amount stamps, whatever was spent', async () => {
    const { api } = await chainKey();
    const bonus = (await api.post('/api/v1/campaigns', HAPPY_HOUR)).body;
    expect(expectError(await api.patch(`/api/v1/campaigns/${bonus.id}`, { percent: null, stamps_multiplier: 2 }), 400, 'parameter_invalid').param).toBe('percent');
    const welcome = (await api.post('/api/v1/campaigns', { name: 'W', type: 'welcome', stamps: 2, budget: 10 })).body;
    expect(expectError(await api.patch(`/api/v1/campaigns/${welcome.id}`, { stamps: null, amount: 500, budget: 1_000 }), 400, 'parameter_invalid').param).toBe('amount');
    expect(expectError(await api.patch(`/api/v1/campaigns/${welcome.id}`, { amount: 100 }), 400, 'parameter_invalid').param).toBe('amount');
    expect((await api.patch(`/api/v1/campaigns/${welcome.id}`, { stamps: 3 })).body).toMatchObject({ stamps: 3, amount: null, budget: 10 });
  });

  it('the list filters by livemode; venue ids in capitals name the same venue', async () => {
    const { venue, api } = await chainKey();
    const quay = await createVenue(t, { chainId: venue.chainId });
    const created = await api.post('/api/v1/campaigns', { ...HAPPY_HOUR, venue_ids: [quay.id.toUpperCase()] });
    expect(created.status).toBe(201);
    expect(created.body.venue_ids).toEqual([quay.id]);
    expect((await api.get('/api/v1/campaigns?livemode=false')).body.data.map((c: { id: string }) => c.id)).toEqual([created.body.id]);
    expect((await api.get('/api/v1/campaigns?livemode=true')).body.data).toEqual([]);
  });

  it('a campaign whose ends_at has passed shows ended', async () => {
    const { api } = await chainKey();
    const now = t.clock.now().getTime();
    const { id } = (
      await api.post('/api/v1/campaigns', { ...HAPPY_HOUR, starts_at: new Date(now - 7_200_000).toISOString(), ends_at: new Date(now + 3_600_000).toISOString() })
    ).body;
    expect((await api.get(`/api/v1/campaigns/${id}`)).body.status).toBe('active');
    t.clock.advance(3_600_000);
    expect((await api.get(`/api/v1/campaigns/${id}`)).body.status).toBe('ended');
  });

  it.each([
    ['a day outside 1–7', { schedule: { days_of_week: [0], from: '15:00', to: '18:00' } }, 'schedule.days_of_week[0]'],
    ['day 8', { schedule: { days_of_week: [8], from: '15:00', to: '18:00' } }, 'schedule.days_of_week[0]'],
    ['a time not HH:MM', { schedule: { days_of_week: [1], from: '3pm', to: '18:00' } }, 'schedule.from'],
    ['24:00', { schedule: { days_of_week: [1], from: '15:00', to: '24:00' } }, 'schedule.to'],
    ['to equal to from', { schedule: { days_of_week: [1], from: '15:00', to: '15:00' } }, 'schedule.to'],
    ['a percent above 100', { percent: 100.01 }, 'percent'],
    ['a percent of 0', { percent: 0 }, 'percent'],
    ['a percent below 0.01', { percent: 0.000000000001 }, 'percent'],
    ['a budget of 0 (pause it instead)', { budget: 0 }, 'budget'],
    ['a negative budget', { budget: -1 }, 'budget'],
    ['percent and stamps_multiplier both', { stamps_multiplier: 2 }, 'stamps_multiplier'],
    ['neither percent nor stamps_multiplier', { percent: null }, 'percent'],
    ['a field of another type', { amount: 500 }, 'amount'],
    ['ends_at before starts_at', { starts_at: '2026-12-02T00:00:00Z', ends_at: '2026-12-01T00:00:00Z' }, 'ends_at'],
    ['an unknown field', { colour: 'red' }, 'colour'],
  ])('a bonus with %s is 400 parameter_invalid naming its param, and nothing is written', async (_, change, param) => {
    const { api } = await chainKey();
    const res = await api.post('/api/v1/campaigns', { ...HAPPY_HOUR, ...change });
    expect(expectError(res, 400, 'parameter_invalid').param).toBe(param);
    expect((await api.get('/api/v1/campaigns')).body.data).toEqual([]);
  });

  it.each([
    ['welcome without amount or stamps', { name: 'W', type: 'welcome' }, 'amount'],
    ['birthday with amount and stamps', { name: 'B', type: 'birthday', amount: 100, stamps: 1 }, 'stamps'],
    ['referral crediting nobody', { name: 'R', type: 'referral', referrer_amount: 0 }, 'referrer_amount'],
    ['referral with a percent', { name: 'R', type: 'referral', referee_amount: 100, percent: 5 }, 'percent'],
    ['an empty name', { name: '  ', type: 'welcome', amount: 100 }, 'name'],
    ['an unknown type', { name: 'X', type: 'cashback' }, 'type'],
  ])('%s is 400 parameter_invalid naming its param', async (_, body, param) => {
    const { api } = await chainKey();
    expect(expectError(await api.post('/api/v1/campaigns', body), 400, 'parameter_invalid').param).toBe(param);
  });

  it('a PATCH that would break the campaign as a whole is refused and changes nothing', async () => {
    const { api } = await chainKey();
    const { id } = (await api.post('/api/v1/campaigns', HAPPY_HOUR)).body;
    expect(expectError(await api.patch(`/api/v1/campaigns/${id}`, { stamps_multiplier: 3 }), 400, 'parameter_invalid').param).toBe('stamps_multiplier');
    expect(expectError(await api.patch(`/api/v1/campaigns/${id}`, { type: 'welcome' }), 400, 'parameter_invalid').param).toBe('type');
    expect((await api.get(`/api/v1/campaigns/${id}`)).body).toMatchObject({ percent: 5, stamps_multiplier: null, type: 'bonus' });
  });

  it('venue_ids names venues of the chain; another chain’s venue is 404 venue_not_found with param venue_ids', async () => {
    const { venue, api } = await chainKey();
    const quay = await createVenue(t, { chainId: venue.chainId });
    const ok = await api.post('/api/v1/campaigns', { ...HAPPY_HOUR, venue_ids: [quay.id] });
    expect(ok.status).toBe(201);
    expect(ok.body.venue_ids).toEqual([quay.id]);
    const elsewhere = await createVenue(t);
    expect(expectError(await api.post('/api/v1/campaigns', { ...HAPPY_HOUR, venue_ids: [elsewhere.id] }), 404, 'venue_not_found').param).toBe('venue_ids');
  });

  it('another chain’s campaign is 404 campaign_not_found, exactly like a missing one, and not in its list', async () => {
    const { api } = await chainKey();
    const { id } = (await api.post('/api/v1/campaigns', HAPPY_HOUR)).body;
    const other = await chainKey();
    const stranger = await other.api.get(`/api/v1/campaigns/${id}`);
    const missing = await other.api.get('/api/v1/campaigns/01a21935-0000-7000-8000-000000000000');
    const garbage = await other.api.get('/api/v1/campaigns/nope');
    for (const res of [stranger, missing, garbage]) expectError(res, 404, 'campaign_not_found');
    expect(stranger.body.error).toEqual({ ...missing.body.error });
    expectError(await other.api.patch(`/api/v1/campaigns/${id}`, { status: 'paused' }), 404, 'campaign_not_found');
    expect((await other.api.get('/api/v1/campaigns')).body.data).toEqual([]);
    expect((await api.get(`/api/v1/campaigns/${id}`)).body.status).toBe('active');
  });

  it('a venue’s own key sets up campaigns of its venue only, and reads the whole chain’s', async () => {
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    const own = await api.post('/api/v1/campaigns', HAPPY_HOUR);
    expect(own.status).toBe(201);
    expect(own.body.venue_ids).toEqual([venue.id]);
    const quay = await createVenue(t, { chainId: venue.chainId });
    expectError(await api.post('/api/v1/campaigns', { ...HAPPY_HOUR, venue_ids: [venue.id, quay.id] }), 403, 'venue_not_allowed');
    const chainApi = client(t, (await createChainKey(t, venue.chainId)).secret);
    const chainWide = (await chainApi.post('/api/v1/campaigns', HAPPY_HOUR)).body;
    expectError(await api.patch(`/api/v1/campaigns/${chainWide.id}`, { status: 'paused' }), 403, 'venue_not_allowed');
    expect((await api.get('/api/v1/campaigns')).body.data.map((c: { id: string }) => c.id)).toEqual([chainWide.id, own.body.id]);
  });

  it('budget cannot be set below what is already spent', async () => {
    const { venue, api } = await chainKey();
    const { id } = (await api.post('/api/v1/campaigns', HAPPY_HOUR)).body;
    await t.db.updateTable('campaigns').set({ spent: 4_000 }).where('chain_id', '=', venue.chainId).where('id', '=', id).execute();
    expect(expectError(await api.patch(`/api/v1/campaigns/${id}`, { budget: 3_999 }), 400, 'parameter_invalid').param).toBe('budget');
    expect((await api.patch(`/api/v1/campaigns/${id}`, { budget: 4_000 })).body).toMatchObject({ budget: 4_000, spent: 4_000 });
  });

  it('a campaign keeps a budget, or goes without one, as created: PATCH budget null, or a budget on one without, is 400 budget', async () => {
    const { api } = await chainKey();
    const budgeted = (await api.post('/api/v1/campaigns', HAPPY_HOUR)).body;
    expect(expectError(await api.patch(`/api/v1/campaigns/${budgeted.id}`, { budget: null }), 400, 'parameter_invalid').param).toBe('budget');
    const { budget: _, ...unlimited } = HAPPY_HOUR;
    const open = (await api.post('/api/v1/campaigns', unlimited)).body;
    expect(open.budget).toBeNull();
    expect(expectError(await api.patch(`/api/v1/campaigns/${open.id}`, { budget: 5_000 }), 400, 'parameter_invalid').param).toBe('budget');
    expect((await api.patch(`/api/v1/campaigns/${budgeted.id}`, { budget: 20_000 })).body.budget).toBe(20_000);
  });

  it('campaigns:read reads but cannot write; campaigns:write does both', async () => {
    const { venue } = await venueWithKey(t);
    const reader = client(t, (await createKey(t, venue, { scopes: ['campaigns:read'] })).secret);
    const writer = client(t, (await createKey(t, venue, { scopes: ['campaigns:write'] })).secret);
    expectError(await reader.post('/api/v1/campaigns', HAPPY_HOUR), 403, 'missing_scope');
    const { id } = (await writer.post('/api/v1/campaigns', HAPPY_HOUR)).body;
    expect((await reader.get(`/api/v1/campaigns/${id}`)).status).toBe(200);
    expect((await writer.get('/api/v1/campaigns')).status).toBe(200);
  });
});
