// Levels that move both ways (D22), with an injected clock and hand-computed figures: Bronze 3 % from 0, Silver 5 %
// from 500.00, Gold 7.5 % from 1,500.00. A level judged on a rolling window falls when old spend leaves it (the
// worker's pass), a refund or a void moves it at once, a VIP level set by hand moves it; member.level_changed each time.
import { SYSTEM } from '../../../src/modules/audit/service.js';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { changeProgram } from '../../../src/dashboard/service.js';
import * as members from '../../../src/modules/members/service.js';
import { PROGRAM_SETTINGS, createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { useTestApp } from '../../support/app.js';
import { client, ok } from '../../support/http.js';
import { needs } from '../../support/services.js';

const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000 } });
const postgres = await needs('postgres');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

type Api = ReturnType<typeof client>;

/** A venue whose cashback program judges levels on the last `days` days (undefined: on all spend), its key, a member. */
async function setUp(days: number | undefined, type: 'cashback' | 'vip' = 'cashback') {
  const venue = await createVenue(t);
  const settings = { levels: PROGRAM_SETTINGS.cashback.levels, ...(days ? { level_period_days: days } : {}) };
  const program = await createProgram(t, venue, type, { settings });
  const api = client(t, (await createKey(t, venue)).secret);
  const member = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;
  return { venue, program, api, member };
}

let n = 0;
/** A check of one line of `amount`, closed at `closedAt` when given. */
const check = async (api: Api, memberId: string, amount: number, closedAt?: Date) =>
  ok(
    await api.post('/api/v1/checks', {
      external_id: `L-${++n}`,
      member_id: memberId,
      line_items: [{ name: 'Dinner', quantity: 1, unit_price: amount }],
      ...(closedAt ? { closed_at: closedAt.toISOString() } : {}),
    }),
    'check',
  ).body;

const memberOf = async (api: Api, id: string) => ok(await api.get(`/api/v1/members/${id}`), 'member').body;
const levelOf = async (api: Api, id: string) => {
  const m = await memberOf(api, id);
  return { level: m.level.name, level_spend: m.level_spend, total_spend: m.total_spend };
};

async function levelEvents(chainId: string) {
  const { rows } = await sql<{ data: unknown }>`select data from events where chain_id = ${chainId} and type = 'member.level_changed' order by id`.execute(t.db);
  return rows.map((r) => {
    const { object } = (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as { object: Record<string, unknown> };
    return { from: object.from, to: object.to, reason: object.reason, level_spend: object.level_spend, reference: object.reference };
  });
}

const verifyClean = async () => expect(await members.levelSpendDifferences(t.db, t.clock.now())).toEqual([]);

describe('levels on a 30-day window', () => {
  it('a member falls a level when old spend leaves the window, not a minute before; the next check earns the lower percent', async () => {
    const { venue, api, member } = await setUp(30);
    const first = await check(api, member.id, 60_000);
    expect(await levelOf(api, member.id)).toEqual({ level: 'Silver', level_spend: 60_000, total_spend: 60_000 });
    // The receipt shows the member after the check: the level it reached.
    expect(first.display.receipt).toContain('Level: Silver 5%');
    t.clock.advance(10 * DAY);
    await check(api, member.id, 10_000);
    // Silver 5 % of 100.00.
    expect((await check(api, member.id, 2_000)).earned).toBe(100);
    expect(await levelOf(api, member.id)).toEqual({ level: 'Silver', level_spend: 72_000, total_spend: 72_000 });
    await verifyClean();

    t.clock.advance(20 * DAY - MINUTE); // a minute before the first check is 30 days old
    expect(await members.runLevelPeriods(t.db, t.clock.now())).toBe(0);
    expect((await levelOf(api, member.id)).level).toBe('Silver');
    t.clock.advance(2 * MINUTE);
    expect(await members.runLevelPeriods(t.db, t.clock.now())).toBe(1);
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 12_000, total_spend: 72_000 });
    await verifyClean();
    // Bronze 3 % of 100.00.
    expect((await check(api, member.id, 10_000)).earned).toBe(300);

    // Forty days on, the window holds only that last check; the level stays Bronze: no event.
    t.clock.advance(10 * DAY);
    await members.runLevelPeriods(t.db, t.clock.now());
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 10_000, total_spend: 82_000 });
    expect(await levelEvents(venue.chainId)).toEqual([
      { from: 'Bronze', to: 'Silver', reason: 'spend', level_spend: 60_000, reference: first.external_id },
      { from: 'Silver', to: 'Bronze', reason: 'period', level_spend: 12_000, reference: null },
    ]);
    await verifyClean();
  });

  it('spend that has left the window is never counted, even before the worker’s pass: the check judges the member first', async () => {
    const { venue, api, member } = await setUp(30);
    await check(api, member.id, 60_000);
    t.clock.advance(30 * DAY + 30_000); // the 600.00 has left; the worker has not run
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 0, total_spend: 60_000 });
    const body = { external_id: `L-${++n}`, member_id: member.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: 10_000 }] };
    // Bronze 3 % of 100.00, in calculate as in apply.
    expect(ok(await api.post('/api/v1/checks/calculate', body), 'calculate').body.earned).toBe(300);
    expect(ok(await api.post('/api/v1/checks', body), 'apply').body.earned).toBe(300);
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 10_000, total_spend: 70_000 });
    // The check's write judged the member as the worker would have: the move is announced once, by it.
    expect(await members.runLevelPeriods(t.db, t.clock.now())).toBe(0);
    expect((await levelEvents(venue.chainId)).map((e) => [e.from, e.to, e.reason, e.level_spend])).toEqual([
      ['Bronze', 'Silver', 'spend', 60_000],
      ['Silver', 'Bronze', 'period', 0],
    ]);
    await verifyClean();
  });

  it('days are 24 hours whatever the database session’s time zone says of calendar days (a window across summer time in Berlin)', async () => {
    const { api, member } = await setUp(100);
    const moveTo = (at: string) => t.clock.advance(Date.parse(at) - t.clock.now().getTime());
    moveTo('2027-01-10T10:00:00Z');
    await check(api, member.id, 60_000);
    moveTo('2027-04-20T09:30:00Z'); // 100 × 24 h after is 10:00Z; 100 calendar days in Berlin end at 09:00Z
    await t.db.transaction().execute(async (trx) => {
      await sql`set local timezone = 'Europe/Berlin'`.execute(trx);
      expect(await members.levelSpendDifferences(trx, t.clock.now())).toEqual([]);
    });
    expect(await levelOf(api, member.id)).toEqual({ level: 'Silver', level_spend: 60_000, total_spend: 60_000 });
    moveTo('2027-04-20T10:00:00Z');
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 0, total_spend: 60_000 });
  });

  it('a check closed before the window began counts for total_spend but not for the level', async () => {
    const { api, member } = await setUp(1);
    await check(api, member.id, 60_000, new Date(t.clock.now().getTime() - DAY - MINUTE));
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 0, total_spend: 60_000 });
    await check(api, member.id, 60_000, new Date(t.clock.now().getTime() - DAY + MINUTE));
    expect(await levelOf(api, member.id)).toEqual({ level: 'Silver', level_spend: 60_000, total_spend: 120_000 });
    t.clock.advance(2 * MINUTE);
    await members.runLevelPeriods(t.db, t.clock.now());
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 0, total_spend: 120_000 });
    await verifyClean();
  });

  it('a refund of a check whose spend has left the window moves nothing', async () => {
    const { venue, api, member } = await setUp(30);
    const applied = await check(api, member.id, 60_000);
    t.clock.advance(31 * DAY);
    await members.runLevelPeriods(t.db, t.clock.now());
    ok(await api.post(`/api/v1/transactions/${applied.external_id}/refunds`, { external_id: 'R-old', amount: 20_000 }), 'refund');
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 0, total_spend: 40_000 });
    expect((await levelEvents(venue.chainId)).map((e) => e.reason)).toEqual(['spend', 'period']);
    await verifyClean();
  });
});

describe.each([
  ['on a 30-day window', 30],
  ['on all spend', undefined],
])('levels %s: refunds and voids move them at once', (_, days) => {
  it('a refund demotes, a check promotes, its void demotes, each with its event', async () => {
    const { venue, api, member } = await setUp(days);
    const first = await check(api, member.id, 60_000);
    ok(await api.post(`/api/v1/transactions/${first.external_id}/refunds`, { external_id: 'R-1', amount: 15_000 }), 'refund');
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 45_000, total_spend: 45_000 });
    const second = await check(api, member.id, 10_000);
    expect((await levelOf(api, member.id)).level).toBe('Silver');
    ok(await api.post(`/api/v1/transactions/${second.external_id}/void`), 'void');
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 45_000, total_spend: 45_000 });
    expect(await levelEvents(venue.chainId)).toEqual([
      { from: 'Bronze', to: 'Silver', reason: 'spend', level_spend: 60_000, reference: first.external_id },
      { from: 'Silver', to: 'Bronze', reason: 'refund', level_spend: 45_000, reference: 'R-1' },
      { from: 'Bronze', to: 'Silver', reason: 'spend', level_spend: 55_000, reference: second.external_id },
      { from: 'Silver', to: 'Bronze', reason: 'void', level_spend: 45_000, reference: second.external_id },
    ]);
    await verifyClean();
  });
});

describe('levels: set by hand and by the program', () => {
  it('a VIP level set by hand and cleared again: member.level_changed with reason manual', async () => {
    const { venue, api, member } = await setUp(30, 'vip');
    ok(await api.patch(`/api/v1/members/${member.id}`, { vip_level: 'Gold' }), 'set');
    expect((await levelOf(api, member.id)).level).toBe('Gold');
    ok(await api.patch(`/api/v1/members/${member.id}`, { vip_level: 'Gold' }), 'again');
    ok(await api.patch(`/api/v1/members/${member.id}`, { vip_level: null }), 'clear');
    expect((await levelOf(api, member.id)).level).toBe('Bronze');
    expect((await levelEvents(venue.chainId)).map((e) => [e.from, e.to, e.reason])).toEqual([
      ['Bronze', 'Gold', 'manual'],
      ['Gold', 'Bronze', 'manual'],
    ]);
  });

  it('a window set on a program already in use: every member judged on it at once, no event; removed: all spend again', async () => {
    const { venue, program, api, member } = await setUp(undefined);
    await check(api, member.id, 60_000);
    t.clock.advance(20 * DAY);
    await check(api, member.id, 10_000);
    t.clock.advance(5 * DAY);
    const windowed = { levels: PROGRAM_SETTINGS.cashback.levels, level_period_days: 10 };
    await t.db.transaction().execute((trx) => changeProgram(trx, venue.chainId, program.id, { settings: windowed }, t.clock.now(), SYSTEM));
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 10_000, total_spend: 70_000 });
    await verifyClean();
    t.clock.advance(6 * DAY);
    await members.runLevelPeriods(t.db, t.clock.now());
    expect((await levelOf(api, member.id)).level_spend).toBe(0);
    await t.db.transaction().execute((trx) => changeProgram(trx, venue.chainId, program.id, { settings: PROGRAM_SETTINGS.cashback }, t.clock.now(), SYSTEM));
    expect(await levelOf(api, member.id)).toEqual({ level: 'Silver', level_spend: 70_000, total_spend: 70_000 });
    expect((await levelEvents(venue.chainId)).map((e) => e.reason)).toEqual(['spend']);
  });

  it.each([
    [{ level_period_days: 0 }, '/level_period_days'],
    [{ level_period_days: 3651 }, '/level_period_days'],
    [{ level_period_days: 1.5 }, '/level_period_days'],
  ])('a program with %j is refused, naming the setting', async (extra, where) => {
    const venue = await createVenue(t);
    await expect(createProgram(t, venue, 'cashback', { settings: { ...PROGRAM_SETTINGS.cashback, ...extra } })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: `settings.${where.slice(1)}`,
    });
  });
});

describe('levels: the worker and checks at once', () => {
  postgres.it('the worker judging a member while their checks apply: the level spend equals the window, verify clean', async () => {
    const { venue, api, member } = await setUp(30);
    await check(api, member.id, 60_000);
    t.clock.advance(30 * DAY + MINUTE);
    const checks = Array.from({ length: 8 }, () => check(api, member.id, 1_000));
    const [moved] = await Promise.all([members.runLevelPeriods(t.db, t.clock.now()), ...checks]);
    expect(moved).toBe(1);
    expect(await levelOf(api, member.id)).toEqual({ level: 'Bronze', level_spend: 8_000, total_spend: 68_000 });
    expect((await levelEvents(venue.chainId)).map((e) => e.reason)).toEqual(['spend', 'period']);
    await verifyClean();
  });
});
