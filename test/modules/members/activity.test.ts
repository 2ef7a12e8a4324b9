// A member's activity (D27): one row per check with its void and refunds in it, one per other change, against the
// figures each call answered; the rows sum to the member's balance, spend and visits; paging; entries written before
// migration 0040 are grouped alike.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { nameChecksOfEntries } from '../../../src/db/migrations/0040_ledger_checks.js';
import { runExpiry } from '../../../src/modules/members/expiry-service.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, expectError, ok } from '../../support/http.js';

const t = useTestApp();
const HOUR = 3600_000;

type Row = { id: string; type: string; reference: string | null; status: string | null; cashback: number; spend: number; visits: number; earned: number; redeemed: number; campaign_cashback: number; refunds: { external_id: string; amount: number; earned_reversed: number; redeemed_returned: number }[]; at: string };

async function everything(api: ReturnType<typeof client>, memberId: string, limit: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (let after: string | undefined; ; ) {
    const page = ok(await api.get(`/api/v1/members/${memberId}/activity?limit=${limit}${after ? `&starting_after=${after}` : ''}`), 'activity').body;
    rows.push(...page.data);
    if (!page.has_more) return rows;
    after = page.data[page.data.length - 1].id;
  }
}

describe("a member's activity", () => {
  it('groups a scripted mix of checks, a refund, a void, campaigns, an adjustment and expiry; the rows sum to the totals', async () => {
    const venue = await createVenue(t, { timezone: 'Europe/Berlin', locale: 'en-IE', currency: 'EUR', country: 'DE', settings: { manual_adjustments_allowed: true } });
    await createProgram(t, venue, 'cashback', { settings: { levels: [{ name: 'Base', min_spend: 0, percent: 10 }], cashback_expires_after_days: 30 } });
    const api = client(t, (await createKey(t, venue)).secret);
    ok(await api.post('/api/v1/campaigns', { name: 'Welcome', type: 'welcome', amount: 500 }), 'welcome');
    ok(await api.post('/api/v1/campaigns', { name: 'Happy hour', type: 'bonus', percent: 5 }), 'bonus');
    const member = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, name: 'Aoife Byrne' }), 'enrol').body;
    const dinner = (externalId: string, amount: number, extra: Record<string, unknown> = {}) =>
      api.post('/api/v1/checks', { external_id: externalId, member_id: member.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: amount }], ...extra });

    // E1 closed half an hour before the enrolment's welcome credit: it sorts below it.
    t.clock.advance(HOUR);
    const e1 = ok(await dinner('E1', 10_000, { closed_at: '2026-11-22T09:30:00Z' }), 'E1').body;
    expect(e1).toMatchObject({ earned: 1_000, campaigns: [{ name: 'Happy hour', amount: 500 }] });
    t.clock.advance(HOUR);
    const e2 = ok(await dinner('E2', 5_000, { redeem_amount: 300 }), 'E2').body;
    expect(e2.redeemed).toBe(300);
    t.clock.advance(HOUR);
    const refund = ok(await api.post('/api/v1/transactions/E1/refunds', { external_id: 'R1', amount: 4_000 }), 'refund').body;
    expect(refund).toMatchObject({ earned_reversed: 400, redeemed_returned: 0 });
    t.clock.advance(HOUR);
    ok(await api.post('/api/v1/transactions/E2/void'), 'void');
    t.clock.advance(HOUR);
    ok(await api.post(`/api/v1/members/${member.id}/adjustments`, { amount: 250, reason: 'goodwill' }), 'adjustment');
    t.clock.advance(32 * 24 * HOUR);
    await runExpiry(t.db, t.clock.now());

    const rows = await everything(api, member.id, 100);
    expect(rows.map((r) => `${r.type} ${r.reference ?? ''}`.trim())).toEqual(['expiry', 'adjustment', 'check E2', 'campaign', 'check E1']);
    const [expiry, , voided, welcome, first] = rows;
    // E1: 100.00 less the 40.00 refunded; 10 % earned and the 5 % bonus, each less its share of the refund.
    const bonusBack = 500 * 4_000 / 10_000;
    expect(first).toMatchObject({ status: 'completed', spend: 6_000, visits: 1, earned: 600, redeemed: 0, campaign_cashback: 500 - bonusBack, cashback: 600 + 500 - bonusBack });
    expect(Date.parse(first!.at)).toBe(Date.parse('2026-11-22T09:30:00Z'));
    expect(first!.refunds).toMatchObject([{ external_id: 'R1', amount: 4_000, earned_reversed: 400, redeemed_returned: 0 }]);
    // E2 voided: everything it did, undone.
    expect(voided).toMatchObject({ status: 'voided', spend: 0, visits: 0, earned: 0, redeemed: 0, campaign_cashback: 0, cashback: 0, refunds: [] });
    expect(welcome).toMatchObject({ status: null, cashback: 500, campaign_cashback: 500, refunds: [] });
    // 22 November's lot expired: the welcome's 500 and E1's 1,500 less the 600 its refund took back. E2's void gave
    // its 300 back to where it came from. The adjustment is in no lot and stays.
    expect(expiry!.cashback).toBe(-(500 + 1_500 - 600));

    const tally = 500 + (600 + 500 - bonusBack) + 0 + 250 - 1_400;
    expect(tally).toBe(250);
    const now = ok(await api.get(`/api/v1/members/${member.id}`), 'member').body;
    const sum = (f: 'cashback' | 'spend' | 'visits') => rows.reduce((s, r) => s + r[f], 0);
    expect(sum('cashback')).toBe(tally);
    expect(sum('cashback')).toBe(now.balance);
    expect(sum('spend')).toBe(now.total_spend);
    expect(sum('visits')).toBe(now.visits);

    // Pages of two give the same rows, once each.
    expect((await everything(api, member.id, 2)).map((r) => r.id)).toEqual(rows.map((r) => r.id));

    // Entries written before migration 0040 named no check: its fill groups them the same.
    await sql`update ledger_entries set transaction_id = null where member_id = ${member.id}`.execute(t.db);
    await nameChecksOfEntries(t.db);
    expect(await everything(api, member.id, 100)).toEqual(rows);
  });

  it('refuses a cursor from elsewhere, and another chain finds no member', async () => {
    const venue = await createVenue(t);
    await createProgram(t, venue, 'cashback');
    const api = client(t, (await createKey(t, venue)).secret);
    const member = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;
    const other = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;
    ok(await api.post('/api/v1/checks', { external_id: 'A1', member_id: member.id, line_items: [{ name: 'Tea', quantity: 1, unit_price: 300 }] }), 'check');
    ok(await api.post('/api/v1/checks', { external_id: 'B1', member_id: other.id, line_items: [{ name: 'Tea', quantity: 1, unit_price: 300 }] }), 'check');
    const [theirs] = (await api.get(`/api/v1/members/${other.id}/activity`)).body.data;
    expect(expectError(await api.get(`/api/v1/members/${member.id}/activity?starting_after=${theirs.id}`), 400, 'parameter_invalid').param).toBe('starting_after');
    // An entry of a check is in its check's row, not a cursor of its own.
    const { rows } = await sql<{ id: string }>`select id from ledger_entries where member_id = ${member.id} and kind = 'check'`.execute(t.db);
    expect(expectError(await api.get(`/api/v1/members/${member.id}/activity?starting_after=${rows[0]!.id}`), 400, 'parameter_invalid').param).toBe('starting_after');

    const elsewhere = await createVenue(t);
    const stranger = client(t, (await createKey(t, elsewhere)).secret);
    expectError(await stranger.get(`/api/v1/members/${member.id}/activity`), 404, 'member_not_found');
  });

  it("migration 0040's fill groups what older releases wrote as they do now, and leaves apart what no instant decides", async () => {
    const venue = await createVenue(t);
    await createProgram(t, venue, 'cashback');
    const api = client(t, (await createKey(t, venue)).secret);
    const perRegister = client(t, (await createKey(t, venue, { rules: { checks_numbered_per_register: true } })).secret);
    ok(await api.post('/api/v1/campaigns', { name: 'Bring a friend', type: 'referral', referrer_amount: 500, referee_amount: 300, min_check_amount: 2_000 }), 'referral');
    const anna = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'anna').body;
    const ben = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true, referred_by: anna.referral_code }), 'ben').body;
    // C1 gives Ben the referee's credit; a hold is captured into it an hour later.
    ok(await api.post('/api/v1/checks', { external_id: 'C1', member_id: ben.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: 2_500 }] }), 'C1');
    t.clock.advance(HOUR);
    const hold = ok(await api.post('/api/v1/holds', { member_id: ben.id, amount: 100 }), 'hold').body;
    ok(await api.post(`/api/v1/holds/${hold.id}/capture`, { external_id: 'C1' }), 'capture');
    t.clock.advance(HOUR);
    ok(await api.post('/api/v1/checks', { external_id: 'C2', member_id: ben.id, line_items: [{ name: 'Lunch', quantity: 1, unit_price: 1_000 }] }), 'C2');
    t.clock.advance(HOUR);
    // C1's refund is numbered like Ben's other check.
    ok(await api.post('/api/v1/transactions/C1/refunds', { external_id: 'C2', amount: 500 }), 'refund');
    t.clock.advance(HOUR);
    // The void takes the referral credit back.
    ok(await api.post('/api/v1/transactions/C1/void'), 'void');
    t.clock.advance(HOUR);

    const live = await everything(api, ben.id, 100);
    expect(live.map((r) => `${r.type} ${r.reference ?? ''}`.trim())).toEqual(['check C2', 'check C1']);
    await sql`update ledger_entries set transaction_id = null where member_id = ${ben.id}`.execute(t.db);
    await nameChecksOfEntries(t.db);
    expect(await everything(api, ben.id, 100)).toEqual(live);

    // Two registers numbered a check alike at the same instant: neither instant nor number tells their entries apart.
    ok(await perRegister.post('/api/v1/checks', { external_id: 'N-1', register_id: 'till-1', member_id: ben.id, line_items: [{ name: 'Tea', quantity: 1, unit_price: 300 }] }), 'till-1');
    ok(await perRegister.post('/api/v1/checks', { external_id: 'N-1', register_id: 'till-2', member_id: ben.id, line_items: [{ name: 'Tea', quantity: 1, unit_price: 400 }] }), 'till-2');
    await sql`update ledger_entries set transaction_id = null where member_id = ${ben.id} and reference = 'N-1'`.execute(t.db);
    await nameChecksOfEntries(t.db);
    const rows = await everything(api, ben.id, 100);
    expect(rows.filter((r) => r.type === 'check_entry')).toHaveLength(2);
    expect(rows.filter((r) => r.type === 'check').map((r) => r.reference)).toEqual(['C2', 'C1']);
    const member = ok(await api.get(`/api/v1/members/${ben.id}`), 'ben').body;
    expect(rows.reduce((sum, r) => sum + r.cashback, 0)).toBe(member.balance);
    expect(rows.reduce((sum, r) => sum + r.spend, 0)).toBe(member.total_spend);
  });
});

