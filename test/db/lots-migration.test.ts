// Migration 0020 (a cashback lot of no venue): existing lots keep their venue; the primary key tells lots apart by
// venue with no venue as one more (PostgreSQL 14: no NULLS NOT DISTINCT); down folds lots of no venue back into the
// chain's first venue's lots, and the checks' redemptions recorded from them into that venue's keys.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.js';
import { useTestApp } from '../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../support/factories.js';
import { client } from '../support/http.js';

const t = useTestApp();

describe('migration 0020_lots_of_no_venue', () => {
  it('keeps every lot’s venue, keys lots of no venue apart by day, and goes down into the chain’s first venue', async () => {
    const a = await createVenue(t, { timezone: 'Europe/Berlin' });
    const b = await createVenue(t, { chainId: a.chainId, timezone: 'Europe/Dublin' });
    await createProgram(t, a, 'cashback', { settings: { levels: [{ name: 'Base', min_spend: 0, percent: 10 }], cashback_expires_after_days: 10 } });
    const api = client(t, (await createKey(t, a)).secret);
    const member = await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true });
    expect(member.status).toBe(201);
    const check = await api.post('/api/v1/checks', { external_id: 'A-1', member_id: member.body.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: 1000 }] });
    expect(check.status).toBe(201);

    const lot = (venueId: string | null, day: string, remaining: number) => sql`insert into cashback_lots (chain_id, member_id, venue_id, day, expires_on, expires_at, remaining)
      values (${a.chainId}, ${member.body.id}, ${venueId}::uuid, ${day}::date, ${day}::date + 10, ${`${day}T00:00:00Z`}::timestamptz + interval '10 days', ${remaining})`.execute(t.db);
    const lots = async () =>
      (await sql<{ venue_id: string | null; day: string; remaining: string }>`select venue_id, day::text as day, remaining from cashback_lots
        where chain_id = ${a.chainId} and member_id = ${member.body.id} and day >= '2031-01-01' order by day, venue_id nulls first`.execute(t.db)).rows.map((r) => [r.venue_id, r.day, Number(r.remaining)]);
    await lot(a.id, '2031-01-01', 500);
    await lot(b.id, '2031-01-01', 100);
    await lot(null, '2031-01-01', 300);
    await lot(null, '2031-01-02', 200);
    // One lot of no venue a day: the primary key names it by lot_venue.
    await expect(lot(null, '2031-01-01', 1)).rejects.toMatchObject({ code: '23505' });
    const redeemed = { [`:2031-01-01`]: 50, [`${a.id}:2031-01-01`]: 20, [`${b.id}:2031-01-01`]: 5 };
    await sql`update transactions set redeemed_lots = ${JSON.stringify(redeemed)}::jsonb where chain_id = ${a.chainId} and external_id = 'A-1'`.execute(t.db);
    const recorded = async () =>
      (await sql<{ redeemed_lots: unknown }>`select redeemed_lots from transactions where chain_id = ${a.chainId} and external_id = 'A-1'`.execute(t.db)).rows[0]!.redeemed_lots;

    // Down: the lots of no venue go to A, the first venue (added to A's lot of the same day), and so do the redemptions.
    await migrateTo(t.db, '0019_owners_by_chain');
    expect(await lots()).toEqual([[a.id, '2031-01-01', 800], [b.id, '2031-01-01', 100], [a.id, '2031-01-02', 200]]);
    expect(await recorded()).toEqual({ [`${a.id}:2031-01-01`]: 70, [`${b.id}:2031-01-01`]: 5 });
    await expect(lot(null, '2031-01-03', 1)).rejects.toMatchObject({ code: '23502' });

    // Up again: every lot keeps its venue, and its lot_venue is that venue.
    await migrateToLatest(t.db);
    expect(await lots()).toEqual([[a.id, '2031-01-01', 800], [b.id, '2031-01-01', 100], [a.id, '2031-01-02', 200]]);
    const { rows } = await sql<{ n: string }>`select count(*) as n from cashback_lots where lot_venue is distinct from venue_id`.execute(t.db);
    expect(Number(rows[0]!.n)).toBe(0);
    await lot(null, '2031-01-01', 300);
    const { rows: nil } = await sql<{ lot_venue: string }>`select lot_venue from cashback_lots where venue_id is null`.execute(t.db);
    expect(nil).toEqual([{ lot_venue: '00000000-0000-0000-0000-000000000000' }]);
  });
});
