// The dashboard of a chain (D21) over HTTP: the venue switcher, "Add venue", per-venue pages following the session's
// venue while members, programs and categories stay the chain's, and the overview's per-venue breakdown.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client, expectError } from '../support/http.js';
import { dashboardClient, PASSWORD, signedUpOwner, type DashboardClient } from './support.js';

const t = useTestApp();
const slug = (base: string) => `${base}-${randomBytes(3).toString('hex')}`;

/** A signed-up owner whose chain has a second venue (added through the dashboard, which switches to it). */
async function chainOfTwo(timezone = 'Europe/London') {
  const owner = await signedUpOwner(t, 'Harbour Café');
  const added = await owner.c.post('/dashboard/api/venues', { name: 'Harbour Café Quay', slug: slug('quay'), timezone, country: 'gb', locale: 'en-GB' });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return { ...owner, first: owner.venue, second: added.body.venue as { id: string; slug: string; name: string }, added };
}

const switchTo = (c: DashboardClient, venueId: string) => c.put('/dashboard/api/session/venue', { venue_id: venueId });
const keyAt = async (c: DashboardClient, livemode = true) => (await c.post('/dashboard/api/api-keys', { name: 'Till', livemode, scopes: [] })).body.secret as string;

describe('Add venue', () => {
  it('creates a venue in the chain, in its currency, and switches the session to it', async () => {
    const { c, first, second, added } = await chainOfTwo();
    expect(added.body).toMatchObject({
      object: 'dashboard_session',
      venue: { name: 'Harbour Café Quay', currency: 'EUR', timezone: 'Europe/London', country: 'GB', locale: 'en-GB' },
      chain: { currency: 'EUR' },
    });
    expect(added.body.chain.venues.map((v: { id: string }) => v.id)).toEqual([first.id, second.id]);
    expect((await c.get('/dashboard/api/session')).body.venue.id).toBe(second.id);
    expect((await c.get('/dashboard/api/venue')).body.name).toBe('Harbour Café Quay');
  });

  it("takes the current venue's time zone, locale and country when not given", async () => {
    const { c } = await signedUpOwner(t);
    await c.patch('/dashboard/api/venue', { timezone: 'Europe/Berlin', locale: 'de-DE', country: 'DE' });
    const res = await c.post('/dashboard/api/venues', { name: 'Zweite', slug: slug('zweite') });
    expect(res.status).toBe(201);
    expect(res.body.venue).toMatchObject({ timezone: 'Europe/Berlin', locale: 'de-DE', country: 'DE' });
  });

  it('refuses a taken slug, a bad time zone and a currency of its own, naming the field; CSRF as every change', async () => {
    const { c, first } = await chainOfTwo();
    expect(expectError(await c.post('/dashboard/api/venues', { name: 'Again', slug: first.slug }), 400, 'parameter_invalid').param).toBe('slug');
    expect(expectError(await c.post('/dashboard/api/venues', { name: 'Bad', slug: slug('bad'), timezone: 'Mars/Olympus' }), 400, 'parameter_invalid').param).toBe('timezone');
    expectError(await c.post('/dashboard/api/venues', { name: 'Dollars', slug: slug('usd'), currency: 'USD' }), 400, 'parameter_invalid');
    expectError(await c.call('POST', '/dashboard/api/venues', { name: 'No token', slug: slug('x') }, { 'x-csrf-token': 'nope' }), 403, 'csrf_token_invalid');
    expect((await c.get('/dashboard/api/session')).body.chain.venues).toHaveLength(2);
  });
});

describe('the venue switcher', () => {
  it("moves the session between the chain's venues; per-venue pages follow, the chain's members, programs and categories stay", async () => {
    const { c, first, second } = await chainOfTwo();
    // At the second venue (where Add venue left the session): a key, a table, a category.
    const quayKey = await keyAt(c);
    expect((await c.post('/dashboard/api/tables', { name: 'Terrace', table_code: 'terrace' })).status).toBe(201);
    expect((await c.post('/dashboard/api/categories', { external_id: 'wine', name: 'Wine' })).status).toBe(201);
    const member = await client(t, quayKey).post('/api/v1/members', { card_number: 'Q-1', consent: true, name: 'Orla' });
    expect(member.status).toBe(201);
    const check = await client(t, quayKey).post('/api/v1/checks', { external_id: 'QUAY-1', card_number: 'Q-1', line_items: [{ name: 'Lunch', quantity: 1, unit_price: 2000 }] });
    expect(check.status).toBe(201);

    const back = await switchTo(c, first.id);
    expect(back.status).toBe(200);
    expect(back.body.venue.id).toBe(first.id);
    expect((await c.get('/dashboard/api/session')).body.venue.id).toBe(first.id);
    // Per venue: the first venue has none of these.
    expect((await c.get('/dashboard/api/api-keys')).body).toEqual([]);
    expect((await c.get('/dashboard/api/tables')).body).toEqual([]);
    expect((await c.get('/dashboard/api/transactions')).body.data).toEqual([]);
    expectError(await c.get(`/dashboard/api/transactions/${check.body.id}`), 404, 'transaction_not_found');
    // The chain's: the member enrolled at the quay, the category, the program.
    expect((await c.get('/dashboard/api/members?q=Q-1')).body.data.map((m: { id: string }) => m.id)).toEqual([member.body.id]);
    expect((await c.get('/dashboard/api/categories')).body.data.map((x: { external_id: string }) => x.external_id)).toEqual(['wine']);
    expect((await c.get('/dashboard/api/programs')).body).toHaveLength(1);
    // An adjustment from the first venue is written there (the member's history says where).
    expect((await c.post(`/dashboard/api/members/${member.body.id}/adjustments`, { amount: 150, reason: 'Welcome' })).status).toBe(201);
    const history = (await c.get(`/dashboard/api/members/${member.body.id}/history`)).body.data;
    expect(history[0]).toMatchObject({ type: 'adjustment', venue_id: first.id });

    await switchTo(c, second.id);
    expect((await c.get('/dashboard/api/api-keys')).body).toHaveLength(1);
    expect((await c.get('/dashboard/api/tables')).body.map((x: { table_code: string }) => x.table_code)).toEqual(['terrace']);
    expect((await c.get('/dashboard/api/transactions')).body.data.map((x: { external_id: string }) => x.external_id)).toEqual(['QUAY-1']);
  });

  it("refuses another chain's venue exactly like one that does not exist, and needs the CSRF token", async () => {
    const { c, second } = await chainOfTwo();
    const other = await signedUpOwner(t, 'Somebody Else');
    for (const venueId of [other.venue.id, '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'not-an-id']) {
      expect(expectError(await switchTo(c, venueId), 404, 'venue_not_found').param).toBe('venue_id');
    }
    expectError(await c.call('PUT', '/dashboard/api/session/venue', { venue_id: second.id }, { 'x-csrf-token': 'forged' }), 403, 'csrf_token_invalid');
    expectError(await dashboardClient(t).put('/dashboard/api/session/venue', { venue_id: second.id }), 401, 'session_required');
    // Nothing moved: still at the venue Add venue switched to, and the other owner still at theirs.
    expect((await c.get('/dashboard/api/session')).body.venue.id).toBe(second.id);
    expect((await other.c.get('/dashboard/api/session')).body.venue.id).toBe(other.venue.id);
  });

  it('is per session: a second sign-in starts at the home venue; sessions, sign-out and the password work from either venue', async () => {
    const { c, email, first, second } = await chainOfTwo();
    const phone = dashboardClient(t);
    expect((await phone.post('/dashboard/api/session', { email, password: PASSWORD })).body.venue.id).toBe(first.id);
    expect((await c.get('/dashboard/api/session')).body.venue.id).toBe(second.id);
    // Both sessions are listed, whichever venue each is at.
    const sessions = (await c.get('/dashboard/api/sessions')).body;
    expect(sessions).toHaveLength(2);
    // A password change at the second venue signs the other session out.
    expect((await c.post('/dashboard/api/password', { current_password: PASSWORD, new_password: 'a brand new passphrase' })).status).toBe(200);
    expectError(await phone.get('/dashboard/api/session'), 401, 'session_required');
    expect((await c.get('/dashboard/api/session')).status).toBe(200);
    expect((await c.delete('/dashboard/api/session')).status).toBe(200);
    expectError(await c.get('/dashboard/api/session'), 401, 'session_required');
  });
});

describe('the overview of a chain', () => {
  it("shows every venue's checks, sales and cashback on its own days, with the chain's totals, live apart from test", async () => {
    const { c, first, second } = await chainOfTwo('Pacific/Auckland');
    const quayLive = client(t, await keyAt(c));
    await switchTo(c, first.id);
    const harbourLive = client(t, await keyAt(c));
    const harbourTest = client(t, await keyAt(c, false));
    expect((await harbourLive.post('/api/v1/members', { card_number: 'H-1', consent: true })).status).toBe(201);
    expect((await harbourTest.post('/api/v1/members', { card_number: 'T-1', consent: true })).status).toBe(201);
    const lunch = (n: number) => [{ name: 'Lunch', quantity: 1, unit_price: n }];
    // The test's clock: 2026-11-22 10:00 UTC, which is 23:00 on the 22nd in Auckland.
    const sent = [
      await harbourLive.post('/api/v1/checks', { external_id: 'H-1', card_number: 'H-1', closed_at: '2026-11-22T09:00:00Z', line_items: lunch(2000) }),
      await harbourLive.post('/api/v1/checks', { external_id: 'H-2', card_number: 'H-1', closed_at: '2026-11-03T12:00:00Z', line_items: lunch(1000) }),
      await harbourTest.post('/api/v1/checks', { external_id: 'H-T', card_number: 'T-1', closed_at: '2026-11-22T09:30:00Z', line_items: lunch(500) }),
      // The member of the first venue at the second: 08:00 UTC is 21:00 on the 22nd in Auckland, its today.
      await quayLive.post('/api/v1/checks', { external_id: 'Q-1', card_number: 'H-1', closed_at: '2026-11-22T08:00:00Z', line_items: lunch(3000) }),
      // 2026-10-31 12:00 UTC is already 1 November in Auckland: this month there, last month in Dublin.
      await quayLive.post('/api/v1/checks', { external_id: 'Q-2', card_number: 'H-1', closed_at: '2026-10-31T12:00:00Z', line_items: lunch(4000) }),
    ];
    for (const s of sent) expect(s.status, JSON.stringify(s.body)).toBe(201);

    const o = (await c.get('/dashboard/api/overview')).body;
    expect(o.venue_id).toBe(first.id);
    expect(o.venues.map((v: { venue_id: string; today: string; month_start: string }) => [v.venue_id, v.today, v.month_start])).toEqual([
      [first.id, '2026-11-22', '2026-11-01'],
      [second.id, '2026-11-22', '2026-11-01'],
    ]);
    const [harbour, quay] = o.venues;
    expect(harbour.figures.today.live).toMatchObject({ checks: 1, sales: 2000 });
    expect(harbour.figures.month.live).toMatchObject({ checks: 2, sales: 3000 });
    expect(harbour.figures.today.test).toMatchObject({ checks: 1, sales: 500 });
    expect(quay.figures.today.live).toMatchObject({ checks: 1, sales: 3000 });
    expect(quay.figures.month.live).toMatchObject({ checks: 2, sales: 7000 });
    expect(quay.figures.today.test).toMatchObject({ checks: 0, sales: 0 });
    expect(o.chain_totals.today.live).toMatchObject({ checks: 2, sales: 5000 });
    expect(o.chain_totals.month.live).toMatchObject({ checks: 4, sales: 10_000 });
    // The sign-up's program earns 5 % of what is paid: Harbour's 20.00 + 10.00 earn 1.00 + 0.50, Quay's 30.00 + 40.00
    // earn 1.50 + 2.00, the chain's month 5.00.
    expect([harbour.figures.month.live.earned, quay.figures.month.live.earned, o.chain_totals.month.live.earned]).toEqual([150, 350, 500]);
    // The figures above the breakdown stay the session's venue's.
    expect(o.today_figures.live).toMatchObject({ checks: 1, sales: 2000 });
  });
});

describe('the liability page', () => {
  const WIDE = 'from=2000-01-01&to=2100-01-01';

  it('answers the report per venue of the chain, the row of no venue and the totals, live apart from test', async () => {
    const { c, first, second } = await chainOfTwo();
    const quay = client(t, await keyAt(c));
    const quayTest = client(t, await keyAt(c, false));
    await switchTo(c, first.id);
    const harbour = client(t, await keyAt(c));
    const member = (await harbour.post('/api/v1/members', { card_number: 'L-1', consent: true })).body;
    expect((await quayTest.post('/api/v1/members', { card_number: 'L-T', consent: true })).status).toBe(201);
    const lunch = [{ name: 'Lunch', quantity: 1, unit_price: 10_000 }];
    expect((await harbour.post('/api/v1/checks', { external_id: 'L-1', card_number: 'L-1', line_items: lunch })).status).toBe(201);
    expect((await c.post(`/dashboard/api/members/${member.id}/adjustments`, { amount: -150, reason: 'Correction' })).status).toBe(201);
    expect((await quay.post('/api/v1/checks', { external_id: 'L-2', card_number: 'L-1', line_items: lunch, redeem_amount: 200 })).status).toBe(201);
    expect((await quayTest.post('/api/v1/checks', { external_id: 'L-T', card_number: 'L-T', line_items: lunch })).status).toBe(201);

    const res = await c.get(`/dashboard/api/reports/venue-liability?${WIDE}`);
    expect(res.status).toBe(200);
    const r = res.body;
    expect(r).toMatchObject({ object: 'venue_liability', currency: 'EUR', livemode: true, from: '2000-01-01T00:00:00.000+00:00', to: '2100-01-01T00:00:00.000+00:00' });
    expect(r.data.map((row: { venue_id: string | null; venue_name: string | null }) => [row.venue_id, row.venue_name])).toEqual([
      [first.id, 'Harbour Café'],
      [second.id, 'Harbour Café Quay'],
      [null, null],
    ]);
    const [h, q, none] = r.data;
    // 5 % (the sign-up's program) of what each check paid: 100.00 at Harbour earns 5.00; at Quay 2.00 of 100.00 was
    // paid with cashback, and the 98.00 paid earns 4.90.
    expect(h).toMatchObject({ earned: 500, adjusted: -150, redeemed: 0 });
    expect(q).toMatchObject({ earned: 490, redeemed: 200, adjusted: 0 });
    expect(none).toMatchObject({ earned: 0, redeemed: 0, adjusted: 0, imported: 0, net: 0 });
    for (const k of ['earned', 'campaign', 'redeemed', 'expired', 'adjusted', 'imported', 'net']) {
      expect(r.totals[k], k).toBe(r.data.reduce((sum: number, row: Record<string, number>) => sum + row[k]!, 0));
    }
    // The chain's outstanding live cashback is what the period added (everything happened in it).
    const balance = (await c.get(`/dashboard/api/members/${member.id}`)).body.balance;
    expect(r.totals.net).toBe(balance);
    // In the CSV a negative amount is a number, not a formula to defuse.
    const harbourLine = String((await c.get(`/dashboard/api/reports/venue-liability.csv?${WIDE}`)).body).split('\r\n')[1]!;
    expect(harbourLine.split(',').slice(1, 3)).toEqual(['Harbour Café', 'live']);
    expect(harbourLine.split(',')[10]).toBe('-1.50');

    const test = (await c.get(`/dashboard/api/reports/venue-liability?${WIDE}&livemode=false`)).body;
    expect(test.livemode).toBe(false);
    expect(test.data[0].net).toBe(0);
    // The test key's 100.00 at Quay earns 5.00 of test cashback.
    expect(test.data[1].earned).toBe(500);
    // A period with nothing in it: every row, all zeros.
    const empty = (await c.get('/dashboard/api/reports/venue-liability?from=2001-03-01&to=2001-04-01')).body;
    expect(empty.data).toHaveLength(3);
    expect(empty.totals).toEqual({ earned: 0, campaign: 0, redeemed: 0, expired: 0, adjusted: 0, imported: 0, net: 0 });
  });

  it('defaults to this UTC month and refuses a day that does not exist or an empty period', async () => {
    const { c } = await signedUpOwner(t);
    // The test's clock says 2026-11-22.
    expect((await c.get('/dashboard/api/reports/venue-liability')).body).toMatchObject({ from: '2026-11-01T00:00:00.000+00:00', to: '2026-12-01T00:00:00.000+00:00' });
    expect(expectError(await c.get('/dashboard/api/reports/venue-liability?from=2026-02-30&to=2026-03-01'), 400, 'parameter_invalid').param).toBe('from');
    expect(expectError(await c.get('/dashboard/api/reports/venue-liability?from=2026-03-01&to=2026-03-01'), 400, 'parameter_invalid').param).toBe('to');
    expect(expectError(await c.get('/dashboard/api/reports/venue-liability.csv?from=2026-03-02&to=2026-03-01'), 400, 'parameter_invalid').param).toBe('to');
  });

  it('downloads as CSV: a line per venue and one for no venue, decimals, a name that looks like a formula defused', async () => {
    const { c } = await signedUpOwner(t, '=HYPERLINK("http://evil.example")');
    const key = client(t, await keyAt(c));
    const member = (await key.post('/api/v1/members', { card_number: 'CSV-1', consent: true })).body;
    expect((await c.post(`/dashboard/api/members/${member.id}/adjustments`, { amount: 1000, reason: 'Welcome' })).status).toBe(201);
    expect((await c.post(`/dashboard/api/members/${member.id}/adjustments`, { amount: -305, reason: 'Spilt' })).status).toBe(201);

    const res = await c.get(`/dashboard/api/reports/venue-liability.csv?${WIDE}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="venue-liability-2000-01-01-to-2100-01-01.csv"');
    const lines = String(res.body).split('\r\n');
    expect(lines[0]).toBe('venue_id,venue,mode,currency,from,to,earned,campaign,redeemed,expired,adjusted,imported,net');
    expect(lines[1]).toMatch(/^[0-9a-f-]{36},"'=HYPERLINK\(""http:\/\/evil\.example""\)",live,EUR,2000-01-01T00:00:00\.000\+00:00,2100-01-01T00:00:00\.000\+00:00,0\.00,0\.00,0\.00,0\.00,6\.95,0\.00,6\.95$/);
    expect(lines[2]).toBe(',No venue (for the chain),live,EUR,2000-01-01T00:00:00.000+00:00,2100-01-01T00:00:00.000+00:00,0.00,0.00,0.00,0.00,0.00,0.00,0.00');
    expect(lines.slice(3)).toEqual(['']);
    const test = await c.get(`/dashboard/api/reports/venue-liability.csv?${WIDE}&livemode=false`);
    expect(test.headers['content-disposition']).toContain('venue-liability-test-2000-01-01');
  });
});
