// Each program type end to end through HTTP: enrol, read, and the type's own fields as the ledger moves.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createProgram, createVenue, createKey, newCardNumber, seedLedger } from '../../support/factories.js';
import { client } from '../../support/http.js';
import * as programs from '../../../src/modules/programs/service.js';

const t = useTestApp();

async function setUp(type: Parameters<typeof createProgram>[2]) {
  const venue = await createVenue(t);
  const program = await createProgram(t, venue, type);
  const { secret } = await createKey(t, venue);
  const api = client(t, secret);
  const enrolled = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Anna Kowalska' });
  expect(enrolled.status).toBe(201);
  const read = async () => (await api.get(`/api/v1/members/${enrolled.body.id}`)).body;
  return { venue, program, api, member: enrolled.body, read };
}

describe('cashback program', () => {
  it('shows balance, level, levels reached and next_level.spend_needed, moving as spend moves', async () => {
    const { venue, member, read } = await setUp('cashback');
    expect(member).toMatchObject({
      object: 'member',
      program_type: 'cashback',
      balance: 0,
      held: 0,
      available: 0,
      total_spend: 0,
      level: { name: 'Bronze', percent: 3, min_spend: 0 },
      next_level: { name: 'Silver', percent: 5, spend_needed: 50_000 },
      stamps: null,
      discount_percent: null,
    });
    expect(member.levels.map((l: { reached: boolean }) => l.reached)).toEqual([true, false, false]);
    expect(member.display.cashier).toBe('Anna K. · Bronze 3% · available €0.00');

    await seedLedger(t, venue, { memberId: member.id, kind: 'import', spend: 49_999, cashback: 1_240 });
    expect((await read()).next_level).toEqual({ name: 'Silver', percent: 5, spend_needed: 1 });
    await seedLedger(t, venue, { memberId: member.id, kind: 'import', spend: 1 });
    const silver = await read();
    expect(silver).toMatchObject({ total_spend: 50_000, balance: 1_240, available: 1_240, level: { name: 'Silver' }, next_level: { name: 'Gold', percent: 7.5, spend_needed: 100_000 } });
    expect(silver.levels.map((l: { reached: boolean }) => l.reached)).toEqual([true, true, false]);
    await seedLedger(t, venue, { memberId: member.id, kind: 'import', spend: 100_000 });
    const gold = await read();
    expect(gold).toMatchObject({ level: { name: 'Gold', percent: 7.5 }, next_level: null });
    expect(gold.display.cashier).toBe('Anna K. · Gold 7.5% · available €12.40');
  });
});

describe('stamps program', () => {
  it('counts stamps toward the reward and rewards available; redemption consumes stamps_required', async () => {
    const { venue, api, member, read } = await setUp('stamps');
    expect(member).toMatchObject({ program_type: 'stamps', stamps: { count: 0, required: 5, rewards_available: 0 }, balance: null, level: null });
    await seedLedger(t, venue, { memberId: member.id, kind: 'import', stamps: 12, visits: 12 });
    expect((await read()).stamps).toEqual({ count: 2, required: 5, rewards_available: 2 });
    const redeemed = await api.post(`/api/v1/members/${member.id}/rewards/redeem`);
    expect(redeemed.status).toBe(201);
    expect(redeemed.body).toMatchObject({ object: 'reward_redemption', reward_name: 'Free coffee', stamps_used: 5, member: { stamps: { count: 2, rewards_available: 1 } } });
    expect(redeemed.body.display.receipt[0]).toBe('Reward: Free coffee');
    await api.post(`/api/v1/members/${member.id}/rewards/redeem`);
    const none = await api.post(`/api/v1/members/${member.id}/rewards/redeem`);
    expect([none.status, none.body.error.code]).toEqual([402, 'no_reward_available']);
    expect((await read()).stamps).toEqual({ count: 2, required: 5, rewards_available: 0 });
  });
});

describe('visit-discount program', () => {
  it('gives the discount of the tier the visit count reaches', async () => {
    const { venue, member, read } = await setUp('visit_discount');
    expect(member).toMatchObject({ program_type: 'visit_discount', visits: 0, discount_percent: 0, balance: null, stamps: null });
    await seedLedger(t, venue, { memberId: member.id, kind: 'import', visits: 3 });
    expect((await read()).discount_percent).toBe(5);
    await seedLedger(t, venue, { memberId: member.id, kind: 'import', visits: 7 });
    const regular = await read();
    expect(regular).toMatchObject({ visits: 10, discount_percent: 10 });
    expect(regular.display.cashier).toBe('Anna K. · 10 visits · discount 10%');
  });
});

describe('VIP program', () => {
  it('takes its level from spend, or from a level set by hand', async () => {
    const { venue, api, member, read } = await setUp('vip');
    expect(member).toMatchObject({ program_type: 'vip', level: { name: 'Guest' }, discount_percent: 0, vip_level: null, balance: null });
    await seedLedger(t, venue, { memberId: member.id, kind: 'import', spend: 120_000 });
    expect(await read()).toMatchObject({ level: { name: 'VIP' }, discount_percent: 10, next_level: { name: 'Black', spend_needed: 380_000 } });
    const set = await api.patch(`/api/v1/members/${member.id}`, { vip_level: 'Black' });
    expect(set.body).toMatchObject({ vip_level: 'Black', level: { name: 'Black' }, discount_percent: 20, next_level: null });
    const bad = await api.patch(`/api/v1/members/${member.id}`, { vip_level: 'Platinum' });
    expect([bad.status, bad.body.error.param]).toEqual([400, 'vip_level']);
    expect((await api.patch(`/api/v1/members/${member.id}`, { vip_level: null })).body.level.name).toBe('VIP');
  });
});

describe('GET /v1/account', () => {
  it('shows the programs with their settings, percents as numbers', async () => {
    const { api, program } = await setUp('cashback');
    const account = await api.get('/api/v1/account');
    expect(account.body.programs).toEqual([
      {
        object: 'program',
        id: program.id,
        name: 'cashback program',
        type: 'cashback',
        barcode_format: 'qr_card_number',
        is_default: true,
        settings: {
          levels: [
            { name: 'Bronze', min_spend: 0, percent: 3 },
            { name: 'Silver', min_spend: 50_000, percent: 5 },
            { name: 'Gold', min_spend: 150_000, percent: 7.5 },
          ],
          max_redeem_percent: 100,
        },
        created_at: program.createdAt,
      },
    ]);
  });

  it('the owner changes settings and the default program; members see the new rules at once', async () => {
    const { venue, api, program, member, read } = await setUp('cashback');
    const second = await createProgram(t, venue, 'stamps');
    expect(second.isDefault).toBe(false);
    await programs.updateProgram(t.db, venue.chainId, program.id, {
      settings: { levels: [{ name: 'Member', min_spend: 0, percent: 4 }], max_redeem_percent: 50 },
    });
    expect((await read()).level).toEqual({ name: 'Member', percent: 4, min_spend: 0 });
    await programs.updateProgram(t.db, venue.chainId, second.id, { isDefault: true });
    const account = (await api.get('/api/v1/account')).body.programs;
    expect(account.map((p: { id: string; is_default: boolean }) => [p.id, p.is_default])).toEqual([[program.id, false], [second.id, true]]);
    const next = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect([next.body.program_type, member.program_type]).toEqual(['stamps', 'cashback']);
  });

  it('refuses settings that do not fit the program type', async () => {
    const venue = await createVenue(t);
    await expect(createProgram(t, venue, 'stamps', { settings: { stamps_required: 0, reward_name: 'x' } })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'settings.stamps_required',
      message: 'stamps_required must be >= 1.',
    });
    await expect(createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'A', min_spend: 0, percent: 150 }] } })).rejects.toMatchObject({
      param: 'settings.levels[0].percent',
    });
    await expect(
      createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'A', min_spend: 100, percent: 1 }] } }),
    ).rejects.toMatchObject({ message: 'The first level must start at min_spend 0.' });
  });
});
