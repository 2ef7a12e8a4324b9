// Birthday campaigns (D22) with an injected clock: credited by the worker's pass on the birthday in the home venue's
// timezone, once per calendar year per member and campaign (a changed birthday gives no second one), 29 February on
// 28 February in other years, 7 days caught up, budgets and max_per_member kept.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runBirthdays, dueYear } from '../../../src/flows/birthdays.js';
import { useTestApp } from '../../support/app.js';
import { createChainKey, createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, ok } from '../../support/http.js';

const t = useTestApp();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A venue in `timezone` with a program of `type`, its key, and a birthday campaign of the chain. */
async function setUp(timezone: string, campaign: Record<string, unknown>, type: 'cashback' | 'stamps' = 'cashback') {
  const venue = await createVenue(t, { timezone });
  await createProgram(t, venue, type);
  const api = client(t, (await createKey(t, venue)).secret);
  const chain = client(t, (await createChainKey(t, venue.chainId)).secret);
  const created = ok(await chain.post('/api/v1/campaigns', { name: 'Birthday treat', type: 'birthday', ...campaign }), 'campaign').body;
  return { venue, api, campaign: created };
}

const enrol = async (api: ReturnType<typeof client>, birthday: string) =>
  ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, birthday }), 'enrol').body;

const balanceOf = async (api: ReturnType<typeof client>, id: string) => ok(await api.get(`/api/v1/members/${id}`), 'member').body;

describe('the due year of a birthday (hand-computed)', () => {
  it.each([
    ['11-23', '2026-11-23', 2026],
    ['11-17', '2026-11-23', 2026], // six days back: still caught up
    ['11-16', '2026-11-23', null], // seven days back: too late
    ['11-24', '2026-11-23', null], // tomorrow
    ['12-30', '2027-01-02', 2026], // caught up across the new year: last year's birthday
    ['02-29', '2027-02-28', 2027], // no 29 February in 2027: on the 28th
    ['02-29', '2028-02-28', null], // 2028 has one: not on the 28th
    ['02-29', '2028-02-29', 2028],
    ['1990-07-14', '2026-07-14', 2026],
  ])('%s on %s → %s', (birthday, today, year) => {
    expect(dueYear(birthday, today)).toBe(year);
  });

  it.each([
    ['11-20', '2026-11-23', '2026-11-21', null], // before the campaign (or enrolment, or the birthday's setting)
    ['11-21', '2026-11-23', '2026-11-21', 2026], // on its first day
  ])('%s on %s, nothing before %s → %s', (birthday, today, notBefore, year) => {
    expect(dueYear(birthday, today, notBefore)).toBe(year);
  });
});

describe('birthday campaigns', () => {
  it('credit on the day in the home venue’s timezone (Auckland, a day ahead of UTC), once, not again after a birthday change', async () => {
    // The clock starts at 2026-11-22 10:00 UTC: 23:00 on the 22nd in Auckland (UTC+13 in November).
    const { api, campaign } = await setUp('Pacific/Auckland', { amount: 400 });
    const member = await enrol(api, '11-23');
    await runBirthdays(t.db, t.clock.now());
    expect((await balanceOf(api, member.id)).balance).toBe(0);
    t.clock.advance(HOUR); // 00:00 on the 23rd in Auckland, still the 22nd in UTC
    await runBirthdays(t.db, t.clock.now());
    expect((await balanceOf(api, member.id)).balance).toBe(400);
    const history = ok(await api.get(`/api/v1/members/${member.id}/history`), 'history').body.data;
    expect(history).toEqual([expect.objectContaining({ type: 'campaign', cashback: 400, campaign_id: campaign.id, reason: 'Birthday treat', reference: 'birthday-2026' })]);
    await runBirthdays(t.db, t.clock.now());
    ok(await api.patch(`/api/v1/members/${member.id}`, { birthday: '11-21' }), 'change');
    await runBirthdays(t.db, t.clock.now());
    expect((await balanceOf(api, member.id)).balance).toBe(400);
    expect(ok(await api.get(`/api/v1/campaigns/${campaign.id}`), 'campaign').body.spent).toBe(400);
  });

  it('the database refuses a second birthday-<year> credit of one campaign to one member (two workers racing)', async () => {
    const { venue, api, campaign } = await setUp('UTC', { amount: 100 });
    const member = await enrol(api, t.clock.now().toISOString().slice(5, 10));
    await runBirthdays(t.db, t.clock.now());
    const again = sql`insert into ledger_entries (chain_id, venue_id, id, member_id, kind, cashback, reason, reference, livemode, created_at, campaign_id)
      select chain_id, venue_id, gen_random_uuid(), member_id, kind, cashback, reason, reference, livemode, created_at, campaign_id
      from ledger_entries where chain_id = ${venue.chainId} and member_id = ${member.id} and campaign_id = ${campaign.id}`;
    await expect(again.execute(t.db)).rejects.toMatchObject({ code: '23505' });
  });

  it('a worker down for six days catches a birthday up; for seven, not', async () => {
    const { api } = await setUp('UTC', { amount: 100 });
    const day = (ms: number) => new Date(ms).toISOString().slice(5, 10);
    const start = t.clock.now().getTime();
    const sevenBack = await enrol(api, day(start)); // today: seven days past when the worker comes back
    const sixBack = await enrol(api, day(start + DAY)); // tomorrow: six days past then
    t.clock.advance(7 * DAY);
    await runBirthdays(t.db, t.clock.now());
    expect((await balanceOf(api, sixBack.id)).balance).toBe(100);
    expect((await balanceOf(api, sevenBack.id)).balance).toBe(0);
  });

  it('a birthday from before the enrolment or the campaign is not caught up', async () => {
    const { venue, api } = await setUp('UTC', { amount: 100 });
    const back3 = new Date(t.clock.now().getTime() - 3 * DAY).toISOString().slice(5, 10);
    const late = await enrol(api, back3);
    await runBirthdays(t.db, t.clock.now());
    expect((await balanceOf(api, late.id)).balance).toBe(0);
    // A campaign set up now, for a member whose birthday (set long before) was three days ago: nothing either.
    const chain = client(t, (await createChainKey(t, venue.chainId)).secret);
    t.clock.advance(365 * DAY);
    const newcomer = ok(await chain.post('/api/v1/campaigns', { name: 'New treat', type: 'birthday', amount: 7 }), 'new').body;
    await runBirthdays(t.db, t.clock.now());
    expect(ok(await chain.get(`/api/v1/campaigns/${newcomer.id}`), 'new').body.spent).toBe(0);
  });

  it('is credited every year: three 1 Decembers in a row give 100, 200, 300', async () => {
    const { api } = await setUp('UTC', { amount: 100 });
    const member = await enrol(api, '12-01');
    // The next three 1 Decembers from the clock (earlier tests move it on).
    const first = t.clock.now().getUTCFullYear() + 1;
    const balances: number[] = [];
    for (const year of [first, first + 1, first + 2]) {
      t.clock.advance(Date.parse(`${year}-12-01T12:00:00Z`) - t.clock.now().getTime());
      await runBirthdays(t.db, t.clock.now());
      balances.push((await balanceOf(api, member.id)).balance);
    }
    expect(balances).toEqual([100, 200, 300]);
  });

  it('29 February is credited on 28 February of a common year, and max_per_member 1 gives none in the next leap year', async () => {
    const { api } = await setUp('UTC', { amount: 300, max_per_member: 1 });
    const member = await enrol(api, '02-29');
    let common = t.clock.now().getUTCFullYear() + 1;
    while (common % 4 === 0) common++;
    const leap = common + (4 - (common % 4));
    const feb28 = Date.parse(`${common}-02-28T12:00:00Z`);
    t.clock.advance(feb28 - t.clock.now().getTime());
    await runBirthdays(t.db, t.clock.now());
    expect((await balanceOf(api, member.id)).balance).toBe(300);
    t.clock.advance(Date.parse(`${leap}-02-29T12:00:00Z`) - t.clock.now().getTime());
    await runBirthdays(t.db, t.clock.now());
    expect((await balanceOf(api, member.id)).balance).toBe(300);
  });
});
