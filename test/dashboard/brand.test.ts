// The chain's brand (D25): name and colours changed by the owner (checked, never guessed), a PNG logo within its
// limits, both on the guests' menu page; each change in the audit log (the logo as there or not, never its bytes).
import QRCode from 'qrcode';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as accounts from '../../src/modules/accounts/service.js';
import { SYSTEM } from '../../src/modules/audit/service.js';
import * as menu from '../../src/modules/menu/service.js';
import { useTestApp } from '../support/app.js';
import { PASSWORD, dashboardClient, newEmail, signedUpOwner } from './support.js';

const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000 } });

describe('the brand', () => {
  it('the owner sets name, colours and a logo; the guests’ menu shows them; bad values are refused with their reason', async () => {
    const { c, venue: v } = await signedUpOwner(t, 'Brand Bistro');
    const venue = (await accounts.findVenue(t.db, v.id))!;
    const table = await menu.createTable(t.db, accounts.placeOf(venue), { name: 'Table 1', tableCode: 'b1' }, SYSTEM);
    expect((await c.get('/dashboard/api/brand')).body).toEqual({
      display_name: null,
      background_color: '#1f3a34',
      foreground_color: '#ffffff',
      label_color: '#c9e4da',
      logo_url: null,
      logo_updated_at: null,
    });

    const changed = await c.patch('/dashboard/api/brand', { display_name: ' Brand & Co ', background_color: '#AA3300', foreground_color: '#fffff0' });
    expect(changed.body).toMatchObject({ display_name: 'Brand & Co', background_color: '#aa3300', foreground_color: '#fffff0', label_color: '#c9e4da' });
    const badColour = await c.patch('/dashboard/api/brand', { background_color: 'red' });
    expect([badColour.status, badColour.body.error.param]).toEqual([400, 'background_color']);

    const png = await QRCode.toBuffer('brand', { width: 200 });
    const withLogo = await c.put('/dashboard/api/brand/logo', { png_base64: png.toString('base64') });
    expect(withLogo.body.logo_url).toMatch(/^\/dashboard\/api\/brand\/logo\.png\?v=\d+$/);
    const served = await t.app.inject({ url: '/dashboard/api/brand/logo.png', headers: { cookie: c.cookie! } });
    expect([served.statusCode, served.headers['content-type'], served.rawPayload.equals(png)]).toEqual([200, 'image/png', true]);

    const page = await t.app.inject({ url: `/m/${venue.slug}/${table.tableCode}` });
    expect(page.body).toContain('<header style="background:#aa3300;color:#fffff0">');
    expect(page.body).toContain(`<img src="/m/${venue.slug}/logo.png?v=`);
    const guestLogo = await t.app.inject({ url: `/m/${venue.slug}/logo.png` });
    expect([guestLogo.statusCode, guestLogo.rawPayload.equals(png)]).toEqual([200, true]);

    const notPng = await c.put('/dashboard/api/brand/logo', { png_base64: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64') });
    expect([notPng.status, notPng.body.error.param, notPng.body.error.message]).toEqual([400, 'logo', 'The logo must be a PNG image.']);
    const huge = await c.put('/dashboard/api/brand/logo', { png_base64: (await QRCode.toBuffer('brand', { width: 1200 })).toString('base64') });
    expect([huge.status, huge.body.error.message]).toEqual([400, 'The logo may be at most 1000 × 1000 pixels; this one is 1200 × 1200.']);
    const heavy = await c.put('/dashboard/api/brand/logo', { png_base64: Buffer.concat([png, Buffer.alloc(300 * 1024)]).toString('base64') });
    expect([heavy.status, heavy.body.error.code]).toEqual([400, 'parameter_invalid']);
    // The refused ones changed nothing.
    expect((await c.get('/dashboard/api/brand')).body.logo_url).toBe(withLogo.body.logo_url);

    expect((await c.delete('/dashboard/api/brand/logo')).body.logo_url).toBeNull();
    expect((await t.app.inject({ url: `/m/${venue.slug}/logo.png` })).statusCode).toBe(404);

    const { rows } = await sql<{ changes: unknown }>`select changes from audit_events where chain_id = ${venue.chainId} and action = 'brand.updated' order by id`.execute(t.db);
    expect(rows.map((r) => (typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes))).toEqual([
      { displayName: [null, 'Brand & Co'], backgroundColor: ['#1f3a34', '#aa3300'], foregroundColor: ['#ffffff', '#fffff0'] },
      { hasLogo: [false, true] },
      { hasLogo: [true, false] },
    ]);
  });

  it('a manager may not change it', async () => {
    const { venue: v } = await signedUpOwner(t, 'Brand Manager Bistro');
    const venue = (await accounts.findVenue(t.db, v.id))!;
    const email = newEmail();
    await accounts.createOwner(t.db, { chainId: venue.chainId, venueId: venue.id, email, password: PASSWORD, role: 'manager' });
    const manager = dashboardClient(t);
    await manager.post('/dashboard/api/session', { email, password: PASSWORD });
    expect((await manager.patch('/dashboard/api/brand', { background_color: '#000000' })).body.error.code).toBe('role_forbidden');
  });
});
