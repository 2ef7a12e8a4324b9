// The wallet in the dashboard (D23): the owner sees what the server still needs for each wallet (every variable
// named); a member's page gives their card page link and device count, a manager's new link retires the old, and
// a manager's revocation unregisters the pass's devices.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as accounts from '../../src/modules/accounts/service.js';
import { useTestApp } from '../support/app.js';
import { createKey, createProgram, newCardNumber } from '../support/factories.js';
import { client, ok } from '../support/http.js';
import { PASSWORD, dashboardClient, newEmail, signedUpOwner } from './support.js';

const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000, googleWallet: { issuerId: '3388000000044444444', apiUrl: 'http://127.0.0.1:9' } } });

describe('the wallet in the dashboard', () => {
  it('names every setting each wallet still needs', async () => {
    const { c } = await signedUpOwner(t, 'Wallet Bistro');
    expect(ok(await c.get('/dashboard/api/wallet'), 'status').body).toEqual({
      apple: { configured: false, missing: ['APPLE_PASS_TYPE_ID', 'APPLE_TEAM_ID', 'APPLE_PASS_CERT', 'APPLE_PASS_KEY', 'APPLE_WWDR_CERT'], warnings: [] },
      google: { configured: false, missing: ['GOOGLE_WALLET_SERVICE_ACCOUNT'], warnings: [] },
    });
  });

  it("a member's card link and devices; staff may read them, a manager renews the link and the old one opens nothing", async () => {
    const { c, venue: v } = await signedUpOwner(t, 'Wallet Card Bistro');
    const venue = (await accounts.findVenue(t.db, v.id))!;
    await createProgram(t, venue, 'cashback', { isDefault: true });
    const till = client(t, (await createKey(t, venue)).secret);
    const member = ok(await till.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;
    const first = ok(await c.get(`/dashboard/api/members/${member.id}/wallet`), 'wallet').body;
    expect(first).toEqual({ card_link: ok(await till.get(`/api/v1/members/${member.id}/card_link`), 'api link').body.url, apple_devices: 0, google_saved: false });

    const staffEmail = newEmail();
    await accounts.createOwner(t.db, { chainId: venue.chainId, venueId: venue.id, email: staffEmail, password: PASSWORD, role: 'staff' });
    const staff = dashboardClient(t);
    await staff.post('/dashboard/api/session', { email: staffEmail, password: PASSWORD });
    expect(ok(await staff.get(`/dashboard/api/members/${member.id}/wallet`), 'staff reads').body).toEqual(first);
    expect((await staff.post(`/dashboard/api/members/${member.id}/card_link`)).body.error.code).toBe('role_forbidden');

    const renewed = ok(await c.post(`/dashboard/api/members/${member.id}/card_link`), 'renew').body;
    expect(renewed.card_link).not.toBe(first.card_link);
    const path = (url: string) => url.replace(t.config.publicBaseUrl, '');
    expect((await t.app.inject({ url: path(first.card_link) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: path(renewed.card_link) })).statusCode).toBe(200);
    const audited = await sql<{ actor_type: string; changes: unknown }>`select actor_type, changes from audit_events
      where chain_id = ${venue.chainId} and action = 'member.card_link_renewed' and target_id = ${member.id}`.execute(t.db);
    expect(audited.rows).toEqual([{ actor_type: 'user', changes: {} }]);

    // The Apple pass revoked: its devices unregistered, the count says so; staff may not.
    await sql`insert into apple_pass_registrations (chain_id, member_id, device_library_id, push_token, created_at, updated_at)
      values (${venue.chainId}, ${member.id}, 'a-phone', 'a-token', now(), now())`.execute(t.db);
    expect(ok(await c.get(`/dashboard/api/members/${member.id}/wallet`), 'one device').body.apple_devices).toBe(1);
    expect((await staff.post(`/dashboard/api/members/${member.id}/pass/revoke`)).body.error.code).toBe('role_forbidden');
    const afterRevoke = ok(await c.post(`/dashboard/api/members/${member.id}/pass/revoke`), 'revoke').body;
    expect(afterRevoke).toEqual({ card_link: renewed.card_link, apple_devices: 0, google_saved: false });
    const revokedAudit = await sql`select 1 from audit_events where chain_id = ${venue.chainId} and action = 'member.pass_revoked' and target_id = ${member.id}`.execute(t.db);
    expect(revokedAudit.rows).toHaveLength(1);
  });
});
