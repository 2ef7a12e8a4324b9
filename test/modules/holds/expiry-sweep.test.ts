// The worker's sweep of expired holds: bounded batches, under the members' locks, never against a capture, and
// nothing a reader sees changes with it (reads judge expiry by the clock already).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { startHousekeeping } from '../../../src/housekeeping.js';
import * as holdsRepo from '../../../src/modules/holds/repo.js';
import { markExpiredHolds } from '../../../src/modules/holds/service.js';
import * as members from '../../../src/modules/members/service.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber, seedLedger } from '../../support/factories.js';
import { client, expectError } from '../../support/http.js';

const t = useTestApp();
const MINUTE = 60_000;

/** A cashback venue, and `count` members with 1,000 each. */
async function setUp(count: number) {
  const venue = await createVenue(t);
  await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Member', min_spend: 0, percent: 5 }] } });
  const api = client(t, (await createKey(t, venue)).secret);
  const people: string[] = [];
  for (let i = 0; i < count; i++) {
    const { body: member } = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: 1000 });
    people.push(member.id);
  }
  const statuses = async () =>
    Object.fromEntries(
      (await sql<{ status: string; n: number }>`select status, count(*)::int as n from holds where venue_id = ${venue.id} group by status`.execute(t.db)).rows.map(
        (r) => [r.status, r.n],
      ),
    );
  const check = (externalId: string, holdId: string) => ({ external_id: externalId, hold_id: holdId, line_items: [{ name: 'Dinner', quantity: 1, unit_price: 2000 }] });
  return { api, people, statuses, check };
}

describe('marking expired holds', () => {
  it('takes at most a batch per statement, only active holds past expiry, and repeats until none is left', async () => {
    const { api, people, statuses } = await setUp(2);
    const [a, b] = people as [string, string];
    for (let i = 0; i < 5; i++) await api.post('/api/v1/holds', { member_id: i % 2 ? a : b, amount: 100, expires_in: 60 });
    const { body: released } = await api.post('/api/v1/holds', { member_id: a, amount: 50, expires_in: 60 });
    await api.post(`/api/v1/holds/${released.id}/release`);
    const { body: later } = await api.post('/api/v1/holds', { member_id: b, amount: 50, expires_in: 3600 });
    t.clock.advance(MINUTE);

    expect(await holdsRepo.expireHolds(t.db, t.clock.now(), 2)).toBe(2);
    expect(await statuses()).toEqual({ expired: 2, active: 4, released: 1 });
    expect(await markExpiredHolds(t.db, t.clock.now(), 2)).toBe(3);
    expect(await statuses()).toEqual({ expired: 5, active: 1, released: 1 });
    expect(await markExpiredHolds(t.db, t.clock.now(), 2)).toBe(0);
    expect((await api.get(`/api/v1/holds/${later.id}`)).body.status).toBe('active');
    // Expired at expires_at, not at the sweep.
    const finished = await sql<{ at: Date; expires_at: Date }>`select finished_at as at, expires_at from holds where status = 'expired' and member_id = ${a}`.execute(t.db);
    for (const row of finished.rows) expect(new Date(row.at).getTime()).toBe(new Date(row.expires_at).getTime());
  });

  it('a hold past expiry is 409 hold_expired before and after the sweep, and the member reads the same', async () => {
    const { api, people, check } = await setUp(1);
    const [member] = people as [string];
    const { body: hold } = await api.post('/api/v1/holds', { member_id: member, amount: 400, expires_in: 60 });
    t.clock.advance(MINUTE);
    const before = (await api.get(`/api/v1/members/${member}`)).body;
    // Hand-computed: the import's 1,000, nothing held once the hold has expired.
    expect(before).toMatchObject({ balance: 1000, held: 0, available: 1000 });
    expect((await api.get(`/api/v1/holds/${hold.id}`)).body.status).toBe('expired');
    expectError(await api.post('/api/v1/checks', check('SW-1', hold.id)), 409, 'hold_expired');
    expectError(await api.post(`/api/v1/holds/${hold.id}/release`), 409, 'hold_expired');

    expect(await markExpiredHolds(t.db, t.clock.now())).toBe(1);
    expect((await api.get(`/api/v1/members/${member}`)).body).toEqual(before);
    expect((await api.get(`/api/v1/holds/${hold.id}`)).body.status).toBe('expired');
    expectError(await api.post('/api/v1/checks', check('SW-2', hold.id)), 409, 'hold_expired');
    expectError(await api.post(`/api/v1/holds/${hold.id}/release`), 409, 'hold_expired');
    expect(await members.verifyTotals(t.db)).toEqual([]);
  });

  it("the worker's housekeeping pass marks them, by its clock", async () => {
    const { api, people, statuses } = await setUp(1);
    await api.post('/api/v1/holds', { member_id: people[0], amount: 100, expires_in: 60 });
    t.clock.advance(MINUTE);
    const housekeeping = startHousekeeping(t.db, t.clock, { error: (obj, msg) => console.error(msg, obj) });
    await housekeeping.stop();
    expect(await statuses()).toEqual({ expired: 1 });
  });

  it('a capture and the sweep at the same moment: never both win, and the totals match the ledger', async () => {
    const N = 12;
    const { api, people, check } = await setUp(N);
    const holds: string[] = [];
    for (const member of people) holds.push((await api.post('/api/v1/holds', { member_id: member, amount: 300, expires_in: 60 })).body.id);
    // The tills' clock is a millisecond short of expiry, the worker's is past it (two machines' clocks differ):
    // each capture alone would succeed, and so would the sweep alone.
    t.clock.advance(MINUTE - 1);
    const sweepAt = new Date(t.clock.now().getTime() + 5);
    const [marked, ...answers] = await Promise.all([
      markExpiredHolds(t.db, sweepAt, 4),
      ...holds.map((id, i) => api.post('/api/v1/checks', check(`RACE-${i}`, id))),
    ]);
    const won = answers.filter((a) => a.status === 201).length;
    for (const lost of answers.filter((a) => a.status !== 201)) expectError(lost, 409, 'hold_expired');
    const rows = await sql<{ id: string; status: string }>`select id, status from holds where id in (${sql.join(holds)})`.execute(t.db);
    const status = new Map(rows.rows.map((r) => [r.id, r.status]));
    answers.forEach((answer, i) => expect(status.get(holds[i]!)).toBe(answer.status === 201 ? 'captured' : 'expired'));
    // Whatever the sweep missed (a member locked by a capture at that moment) it marks on its next pass.
    const later = await markExpiredHolds(t.db, sweepAt);
    expect(won + marked + later).toBe(N);
    expect([...status.values()].filter((s) => s === 'expired').length).toBe(marked);
    for (const [i, member] of people.entries()) {
      // Hand-computed: a capture redeems its 300 of the 1,000 and earns 5 % of the 1,700 paid; an expiry moves nothing.
      const expected = answers[i]!.status === 201 ? 1000 - 300 + 85 : 1000;
      expect((await api.get(`/api/v1/members/${member}`)).body).toMatchObject({ balance: expected, held: 0, available: expected });
    }
    expect(await members.verifyTotals(t.db)).toEqual([]);
  });
});
