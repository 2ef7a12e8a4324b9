// The Reports page's figures (issue 41): two days of checks, a refund, a redemption, an adjustment and enrolments,
// against what the test's own requests answered; test traffic apart; the CSV; bad periods refused on their field.
import { describe, expect, it } from 'vitest';
import { client, expectError, ok } from '../support/http.js';
import { useTestApp } from '../support/app.js';
import { signedUpOwner } from './support.js';

const t = useTestApp();
const DAY = 86_400_000;

describe('the activity report', () => {
  it('counts each day’s enrolments, checks, sales and cashback, what members hold after each day, and who was active', async () => {
    // The clock: Sunday 22 November 2026, 10:00 UTC; the venue is in Dublin (UTC+0 in November).
    const { c } = await signedUpOwner(t, 'Report Bistro');
    const key = async (livemode: boolean) => client(t, ok(await c.post('/dashboard/api/api-keys', { name: 'Till', livemode, scopes: [] }), 'key').body.secret as string);
    const [till, testTill] = [await key(true), await key(false)];
    const enrol = async (api: typeof till, card: string) => ok(await api.post('/api/v1/members', { consent: true, card_number: card }), card).body;
    const check = async (api: typeof till, externalId: string, amount: number, extra: Record<string, unknown> = {}) =>
      ok(await api.post('/api/v1/checks', { external_id: externalId, line_items: [{ name: 'Dinner', quantity: 1, unit_price: amount }], ...extra }), externalId).body;

    const m1 = await enrol(till, 'REP-1');
    const first = await check(till, 'D1-1', 4_000, { member_id: m1.id });
    expect(first.earned).toBeGreaterThan(0);
    await check(till, 'D1-2', 1_000); // no member
    const guest = await enrol(testTill, 'REP-T');
    const testCheck = await check(testTill, 'T-1', 9_000, { member_id: guest.id });
    ok(await c.post(`/dashboard/api/members/${m1.id}/adjustments`, { amount: 500, reason: 'Goodwill' }), 'adjustment');

    t.clock.advance(DAY); // Monday the 23rd
    await enrol(till, 'REP-2');
    const second = await check(till, 'D2-1', 3_000, { member_id: m1.id, redeem_amount: 200 });
    expect(second.redeemed).toBe(200);
    const refund = ok(await till.post('/api/v1/transactions/D1-1/refunds', { external_id: 'RF-1', amount: 1_000 }), 'refund').body;

    const report = ok(await c.get('/dashboard/api/reports/activity?from=2026-11-21&to=2026-11-23'), 'report').body;
    const day22 = { enrolments: 1, checks: 2, member_checks: 1, sales: 3_000 + 1_000, earned: first.earned, campaign: 0, redeemed: 0, outstanding: first.earned + 500 };
    const earned23 = second.earned - refund.earned_reversed;
    const day23 = { enrolments: 1, checks: 1, member_checks: 1, sales: 2_800, earned: earned23, campaign: 0, redeemed: 200, outstanding: first.earned + 500 + earned23 - 200 };
    expect(report).toMatchObject({ object: 'activity_report', currency: 'EUR', livemode: true, timezone: 'Europe/Dublin', from: '2026-11-21', to: '2026-11-23', complete: false });
    expect(report.days).toEqual([
      { day: '2026-11-21', enrolments: 0, checks: 0, member_checks: 0, sales: 0, earned: 0, campaign: 0, redeemed: 0, outstanding: 0 },
      { day: '2026-11-22', ...day22 },
      { day: '2026-11-23', ...day23 },
    ]);
    expect(report.totals).toEqual({
      enrolments: 2,
      checks: 3,
      member_checks: 2,
      sales: 6_800,
      earned: first.earned + earned23,
      campaign: 0,
      redeemed: 200,
      outstanding_start: 0,
      outstanding_end: day23.outstanding,
      net: day23.outstanding,
      redemption_rate: Math.round((10_000 * 200) / (first.earned + earned23)) / 10_000,
      active_30: 1,
      active_90: 1,
    });
    // The member's balance is what the last day says members hold.
    expect((await till.get(`/api/v1/members/${m1.id}`)).body.balance).toBe(day23.outstanding);
    expect(report.venues).toMatchObject([{ checks: 3, member_checks: 2, sales: 6_800, earned: first.earned + earned23, redeemed: 200 }]);

    // Test traffic apart: only the test check and member, never added to live.
    const test = ok(await c.get('/dashboard/api/reports/activity?from=2026-11-22&to=2026-11-23&livemode=false'), 'test report').body;
    expect(test.totals).toMatchObject({ enrolments: 1, checks: 1, member_checks: 1, sales: 9_000, earned: testCheck.earned, outstanding_end: testCheck.earned, active_30: 1 });

    // A period that ends before the last entries: what members held after the 22nd, read back from today's balances.
    expect(ok(await c.get('/dashboard/api/reports/activity?from=2026-11-21&to=2026-11-22'), 'ended').body.totals).toMatchObject({ outstanding_start: 0, outstanding_end: day22.outstanding });
    // From the 22nd on, what members held before (nothing) is the start; a day later, the 22nd's end.
    expect(ok(await c.get('/dashboard/api/reports/activity?from=2026-11-23&to=2026-11-23'), 'one day').body.totals).toMatchObject({ outstanding_start: day22.outstanding, outstanding_end: day23.outstanding });

    const csv = await c.get('/dashboard/api/reports/activity.csv?from=2026-11-22&to=2026-11-23');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="activity-2026-11-22-to-2026-11-23.csv"');
    const lines = String(csv.body).trimEnd().split('\r\n');
    expect(lines[0]).toBe('day,mode,currency,enrolments,checks,member_checks,sales,earned,campaign,redeemed,outstanding');
    expect(lines[1]).toBe(`2026-11-22,live,EUR,1,2,1,40.00,${(first.earned / 100).toFixed(2)},0.00,0.00,${((first.earned + 500) / 100).toFixed(2)}`);
  });

  it('refuses a period that is not one, on its field', async () => {
    const { c } = await signedUpOwner(t, 'Report Cafe');
    const param = async (query: string) => expectError(await c.get(`/dashboard/api/reports/activity?${query}`), 400, 'parameter_invalid').param;
    expect(await param('from=2026-02-30&to=2026-03-01')).toBe('from');
    expect(await param('from=2026-03-02&to=2026-03-01')).toBe('to');
    expect(await param('from=2025-01-01&to=2026-01-02')).toBe('from'); // 367 days
    expect(await param('from=2026-01-01')).toBe('to');
    expect(ok(await c.get('/dashboard/api/reports/activity?from=2025-01-01&to=2026-01-01'), 'a year and a day: 366').body.days).toHaveLength(366);
  });
});
