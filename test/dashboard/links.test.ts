// Invitations and password reset links (D24): made by the owner (or asked for by e-mail), shown once or e-mailed over
// SMTP, used once with the password chosen, dead after their time (an injected clock) or when replaced or withdrawn.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as accounts from '../../src/modules/accounts/service.js';
import { useTestApp, type TestApp } from '../support/app.js';
import { needs } from '../support/services.js';
import { useSmtpServer } from '../support/smtp.js';
import { PASSWORD, dashboardClient, newEmail, signedUpOwner } from './support.js';

const NEW_PASSWORD = 'a brand new password';
const DAY = 86_400_000;
const smtp = useSmtpServer();
const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000 } });
const mailing = useTestApp({ config: { rateLimitPerMinute: 1_000_000 }, smtp: () => smtp.url });
const postgres = await needs('postgres');

const tokenOf = (link: string) => {
  expect(link).toMatch(/^http:\/\/localhost:3000\/dashboard\/welcome#[A-Za-z0-9_-]{43}$/);
  return link.split('#')[1]!;
};

async function chainOf(app: TestApp, name: string) {
  const { c, venue } = await signedUpOwner(app, name);
  const chainId = (await accounts.findVenue(app.db, venue.id))!.chainId;
  const me = (await c.get('/dashboard/api/session')).body.owner.id as string;
  return { owner: c, chainId, me, venueId: venue.id };
}

async function log(app: TestApp, chainId: string) {
  const { rows } = await sql<{ action: string; actor_id: string | null; target_type: string; target_id: string; changes: unknown }>`
    select action, actor_id, target_type, target_id, changes from audit_events where chain_id = ${chainId} and action like 'user.%' order by id`.execute(app.db);
  return rows.map((r) => [r.action, r.actor_id, `${r.target_type}:${r.target_id}`, typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes]);
}

const inspect = (app: TestApp, token: string) => dashboardClient(app).post('/dashboard/api/links/inspect', { token });

describe('invitations', () => {
  it('shown once without SMTP, accepted once with a password (signed in with the role), then refused as used', async () => {
    const { owner, chainId, me } = await chainOf(t, 'Invite Bistro');
    const email = newEmail().toUpperCase();
    const made = await owner.post('/dashboard/api/invitations', { email, role: 'manager' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ emailed: false, invitation: { email: email.toLowerCase(), role: 'manager' } });
    expect(Date.parse(made.body.invitation.expires_at) - t.clock.now().getTime()).toBe(7 * DAY);
    const token = tokenOf(made.body.link);
    expect((await owner.get('/dashboard/api/invitations')).body.map((i: { id: string }) => i.id)).toEqual([made.body.invitation.id]);

    const seen = await inspect(t, token);
    expect(seen.body).toEqual({ purpose: 'invitation', email: email.toLowerCase(), role: 'manager', chain_name: 'Invite Bistro', expires_at: made.body.invitation.expires_at });

    const guest = dashboardClient(t);
    const short = await guest.post('/dashboard/api/links/accept', { token, password: 'short' });
    expect([short.status, short.body.error.param]).toEqual([400, 'password']);
    const accepted = await guest.post('/dashboard/api/links/accept', { token, password: PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.body.owner).toMatchObject({ email: email.toLowerCase(), role: 'manager' });
    expect((await guest.get('/dashboard/api/session')).status).toBe(200);
    const userId = accepted.body.owner.id;

    const again = await dashboardClient(t).post('/dashboard/api/links/accept', { token, password: NEW_PASSWORD });
    expect([again.status, again.body.error.code]).toEqual([410, 'link_used']);
    expect((await inspect(t, token)).body.error.code).toBe('link_used');
    expect((await dashboardClient(t).post('/dashboard/api/session', { email, password: PASSWORD })).status).toBe(200);
    expect((await owner.get('/dashboard/api/invitations')).body).toEqual([]);
    expect((await owner.get('/dashboard/api/users')).body.map((u: { role: string }) => u.role)).toEqual(['owner', 'manager']);
    expect(await log(t, chainId)).toEqual([
      ['user.invited', me, `invitation:${made.body.invitation.id}`, { role: [null, 'manager'] }],
      ['user.created', userId, `user:${userId}`, { role: [null, 'manager'] }],
    ]);
  });

  it('works until 7 days have passed, not a minute after; an expired one adds no one', async () => {
    const { owner, chainId } = await chainOf(t, 'Expiry Bistro');
    const token = tokenOf((await owner.post('/dashboard/api/invitations', { email: newEmail(), role: 'staff' })).body.link);
    t.clock.advance(7 * DAY - 60_000);
    expect((await inspect(t, token)).status).toBe(200);
    t.clock.advance(2 * 60_000);
    expect([(await inspect(t, token)).status, (await inspect(t, token)).body.error.code]).toEqual([410, 'link_expired']);
    const late = await dashboardClient(t).post('/dashboard/api/links/accept', { token, password: PASSWORD });
    expect([late.status, late.body.error.code]).toEqual([410, 'link_expired']);
    // (The owner's own session has ended too: sessions also last 7 days.)
    expect(await accounts.listUsers(t.db, chainId)).toHaveLength(1);
    expect(await accounts.listInvitations(t.db, chainId, t.clock.now())).toEqual([]);
  });

  it('a newer invitation to the same address replaces the older; a withdrawn one stops working', async () => {
    const { owner, chainId, me } = await chainOf(t, 'Replace Bistro');
    const email = newEmail();
    const first = tokenOf((await owner.post('/dashboard/api/invitations', { email, role: 'staff' })).body.link);
    const second = await owner.post('/dashboard/api/invitations', { email, role: 'manager' });
    expect([(await inspect(t, first)).status, (await inspect(t, first)).body.error.code]).toEqual([404, 'link_not_found']);
    expect((await inspect(t, tokenOf(second.body.link))).body.role).toBe('manager');
    const withdrawn = await owner.delete(`/dashboard/api/invitations/${second.body.invitation.id}`);
    expect(withdrawn.status).toBe(200);
    expect((await inspect(t, tokenOf(second.body.link))).body.error.code).toBe('link_not_found');
    expect((await owner.delete(`/dashboard/api/invitations/${second.body.invitation.id}`)).body.error.code).toBe('link_not_found');
    expect((await owner.delete('/dashboard/api/invitations/nope')).status).toBe(404);
    expect((await log(t, chainId)).map((e) => e[0])).toEqual(['user.invited', 'user.invited', 'user.invitation_withdrawn']);
    expect((await log(t, chainId))[2]).toEqual(['user.invitation_withdrawn', me, `invitation:${second.body.invitation.id}`, { role: ['manager', null] }]);
  });

  it('refused: a manager may not invite (403, access.denied); an address with an account (409); a made-up token (404)', async () => {
    const { owner, chainId, venueId } = await chainOf(t, 'Refuse Bistro');
    const managerEmail = newEmail();
    await accounts.createOwner(t.db, { chainId, venueId, email: managerEmail, password: PASSWORD, role: 'manager' });
    const manager = dashboardClient(t);
    await manager.post('/dashboard/api/session', { email: managerEmail, password: PASSWORD });
    const refused = await manager.post('/dashboard/api/invitations', { email: newEmail(), role: 'owner' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'role_forbidden']);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from user_links where chain_id = ${chainId}`.execute(t.db);
    expect(rows[0]!.n).toBe(0);
    const taken = await owner.post('/dashboard/api/invitations', { email: managerEmail, role: 'staff' });
    expect([taken.status, taken.body.error.code, taken.body.error.param]).toEqual([409, 'email_taken', 'email']);
    const bad = await owner.post('/dashboard/api/invitations', { email: 'not-an-address', role: 'staff' });
    expect([bad.status, bad.body.error.param]).toEqual([400, 'email']);
    expect((await inspect(t, 'A'.repeat(43))).body.error.code).toBe('link_not_found');
    expect((await inspect(t, 'x')).body.error.code).toBe('link_not_found');
    const denied = await sql<{ target_id: string }>`select target_id from audit_events where chain_id = ${chainId} and action = 'access.denied'`.execute(t.db);
    expect(denied.rows.map((r) => r.target_id)).toEqual(['POST /dashboard/api/invitations']);
  });

  it('an owner removed or made manager: the invitations they made stop working', async () => {
    const { owner, chainId, venueId } = await chainOf(t, 'Gone Owner Bistro');
    const email = newEmail();
    await accounts.createOwner(t.db, { chainId, venueId, email, password: PASSWORD, role: 'owner' });
    const other = dashboardClient(t);
    await other.post('/dashboard/api/session', { email, password: PASSWORD });
    const otherId = (await other.get('/dashboard/api/session')).body.owner.id;
    const token = tokenOf((await other.post('/dashboard/api/invitations', { email: newEmail(), role: 'owner' })).body.link);
    expect((await owner.delete(`/dashboard/api/users/${otherId}`)).status).toBe(200);
    expect((await inspect(t, token)).body.error.code).toBe('link_not_found');
  });

  postgres.it('the same address invited by two chains, both accepted at once: one joins, the other is told the address is taken', async () => {
    const email = newEmail();
    const tokens = [];
    for (const name of ['Twin A Bistro', 'Twin B Bistro']) tokens.push(tokenOf((await (await chainOf(t, name)).owner.post('/dashboard/api/invitations', { email, role: 'staff' })).body.link));
    const uses = await Promise.all(tokens.map((token) => dashboardClient(t).post('/dashboard/api/links/accept', { token, password: PASSWORD })));
    expect(uses.map((u) => [u.status, u.body.error?.code]).sort()).toEqual([[200, undefined], [409, 'email_taken']]);
  });

  postgres.it('one link used twice at the same moment: one user added, the other use refused', async () => {
    const { owner } = await chainOf(t, 'Race Links Bistro');
    const token = tokenOf((await owner.post('/dashboard/api/invitations', { email: newEmail(), role: 'staff' })).body.link);
    const uses = await Promise.all([1, 2].map(() => dashboardClient(t).post('/dashboard/api/links/accept', { token, password: PASSWORD })));
    expect(uses.map((u) => u.status).sort()).toEqual([200, 410]);
    expect((await owner.get('/dashboard/api/users')).body).toHaveLength(2);
  });
});

describe('password reset links', () => {
  it("the owner's link: the new password works, the old one and every session of the user end, the link works once", async () => {
    const { owner, chainId, venueId, me } = await chainOf(t, 'Reset Bistro');
    const email = newEmail();
    const staff = await accounts.createOwner(t.db, { chainId, venueId, email, password: PASSWORD, role: 'staff' });
    const signedIn = dashboardClient(t);
    await signedIn.post('/dashboard/api/session', { email, password: PASSWORD });
    const made = await owner.post(`/dashboard/api/users/${staff.id}/password-reset`);
    expect(made.status).toBe(201);
    expect(Date.parse(made.body.expires_at) - t.clock.now().getTime()).toBe(DAY);
    const token = tokenOf(made.body.link);
    expect((await inspect(t, token)).body).toMatchObject({ purpose: 'password_reset', email, role: null });

    const used = dashboardClient(t);
    expect((await used.post('/dashboard/api/links/accept', { token, password: NEW_PASSWORD })).body.owner).toMatchObject({ id: staff.id, role: 'staff' });
    expect((await used.get('/dashboard/api/session')).status).toBe(200);
    expect((await signedIn.get('/dashboard/api/session')).status).toBe(401);
    expect((await dashboardClient(t).post('/dashboard/api/session', { email, password: PASSWORD })).status).toBe(401);
    expect((await dashboardClient(t).post('/dashboard/api/session', { email, password: NEW_PASSWORD })).status).toBe(200);
    expect((await dashboardClient(t).post('/dashboard/api/links/accept', { token, password: PASSWORD })).body.error.code).toBe('link_used');
    expect((await log(t, chainId)).filter((e) => e[0] !== 'user.created')).toEqual([
      ['user.reset_requested', me, `user:${staff.id}`, {}],
      ['user.password_reset', staff.id, `user:${staff.id}`, {}],
    ]);
    expect((await owner.post('/dashboard/api/users/00000000-0000-4000-8000-000000000000/password-reset')).body.error.code).toBe('user_not_found');
    // Not for an owner: a co-owner's link in another owner's hands would let them sign in as the co-owner.
    const coOwner = await accounts.createOwner(t.db, { chainId, venueId, email: newEmail(), password: PASSWORD, role: 'owner' });
    const refused = await owner.post(`/dashboard/api/users/${coOwner.id}/password-reset`);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'role_forbidden']);
  });

  it('expires after 24 hours; a removed user’s link is dead', async () => {
    const { owner, chainId, venueId } = await chainOf(t, 'Reset Expiry Bistro');
    const staff = await accounts.createOwner(t.db, { chainId, venueId, email: newEmail(), password: PASSWORD, role: 'staff' });
    const late = tokenOf((await owner.post(`/dashboard/api/users/${staff.id}/password-reset`)).body.link);
    t.clock.advance(DAY + 1);
    expect((await dashboardClient(t).post('/dashboard/api/links/accept', { token: late, password: NEW_PASSWORD })).body.error.code).toBe('link_expired');
    const orphan = tokenOf((await owner.post(`/dashboard/api/users/${staff.id}/password-reset`)).body.link);
    expect((await owner.delete(`/dashboard/api/users/${staff.id}`)).status).toBe(200);
    const dead = await dashboardClient(t).post('/dashboard/api/links/accept', { token: orphan, password: NEW_PASSWORD });
    expect([dead.status, dead.body.error.code]).toEqual([404, 'link_not_found']);
  });

  it('"Forgot password" without SMTP: 202 emailed false, nothing made', async () => {
    const { chainId } = await chainOf(t, 'Forgot Bistro');
    const { rows: users } = await sql<{ email: string }>`select email from owners where chain_id = ${chainId}`.execute(t.db);
    const res = await dashboardClient(t).post('/dashboard/api/password-reset', { email: users[0]!.email });
    expect([res.status, res.body]).toEqual([202, { emailed: false }]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from user_links where chain_id = ${chainId}`.execute(t.db);
    expect(rows[0]!.n).toBe(0);
  });

  it('a password change is recorded', async () => {
    const { owner, chainId, me } = await chainOf(t, 'Change Bistro');
    expect((await owner.post('/dashboard/api/password', { current_password: PASSWORD, new_password: NEW_PASSWORD })).status).toBe(200);
    expect(await log(t, chainId)).toEqual([['user.password_changed', me, `user:${me}`, {}]]);
  });
});

describe('with SMTP_URL: links are e-mailed over SMTP', () => {
  const mailTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));

  it('an invitation is e-mailed, not shown, and the e-mailed link works', async () => {
    const { owner } = await chainOf(mailing, 'Mail Bistro');
    const email = newEmail();
    const made = await owner.post('/dashboard/api/invitations', { email, role: 'staff' });
    expect(made.body).toMatchObject({ emailed: true, link: null });
    const [mail, ...more] = mailTo(email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('You are invited to Mail Bistro on Venue Loyalty');
    const link = /http:\/\/localhost:3000\/dashboard\/welcome#[A-Za-z0-9_-]{43}/.exec(mail!.text)![0];
    expect((await dashboardClient(mailing).post('/dashboard/api/links/accept', { token: tokenOf(link), password: PASSWORD })).status).toBe(200);
  });

  it('"Forgot password" e-mails a known address only, and answers an unknown one the same', async () => {
    const { chainId } = await chainOf(mailing, 'Forgot Mail Bistro');
    const { rows } = await sql<{ email: string }>`select email from owners where chain_id = ${chainId}`.execute(mailing.db);
    const email = rows[0]!.email;
    const known = await dashboardClient(mailing).post('/dashboard/api/password-reset', { email: email.toUpperCase() });
    const unknown = await dashboardClient(mailing).post('/dashboard/api/password-reset', { email: 'nobody-here@example.com' });
    expect([known.status, known.body]).toEqual([202, { emailed: true }]);
    expect([unknown.status, unknown.body]).toEqual([202, { emailed: true }]);
    // Answered at once; the link is made and sent afterwards.
    for (let i = 0; i < 100 && mailTo(email).length === 1; i++) await new Promise((r) => setTimeout(r, 50));
    expect(mailTo('nobody-here@example.com')).toEqual([]);
    // The owner's own sign-up was mailed first.
    const mail = mailTo(email).at(-1);
    expect(mail!.subject).toBe('Reset your Venue Loyalty password');
    const token = tokenOf(/http:\/\/localhost:3000\/dashboard\/welcome#[A-Za-z0-9_-]{43}/.exec(mail!.text)![0]);
    expect((await dashboardClient(mailing).post('/dashboard/api/links/accept', { token, password: NEW_PASSWORD })).status).toBe(200);
    const audit = await sql<{ actor_id: string | null; address: string | null }>`select actor_id, address from audit_events
      where chain_id = ${chainId} and action = 'user.reset_requested'`.execute(mailing.db);
    expect(audit.rows).toEqual([{ actor_id: null, address: '127.0.0.1' }]);
  });

  it("a reset link whose e-mail the server refuses is shown to the owner instead (an invitation's is refused: enumeration.test.ts)", async () => {
    const { owner, chainId, venueId } = await chainOf(mailing, 'Refused Mail Bistro');
    const staff = await accounts.createOwner(mailing.db, { chainId, venueId, email: newEmail(), password: PASSWORD, role: 'staff' });
    smtp.refusing = true;
    try {
      const made = await owner.post(`/dashboard/api/users/${staff.id}/password-reset`, {});
      expect(made.status).toBe(201);
      expect(made.body.emailed).toBe(false);
      expect((await inspect(mailing, tokenOf(made.body.link))).status).toBe(200);
    } finally {
      smtp.refusing = false;
    }
  });
});
