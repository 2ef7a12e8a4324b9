// Account enumeration (issue 45, item 3): a sign-up or an invitation is answered alike whether or not the address has a
// dashboard account; only the e-mail sent to the address, or the page of the link made for it, says so.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as accounts from '../../src/modules/accounts/service.js';
import { useTestApp, type TestApp } from '../support/app.js';
import { useSmtpServer } from '../support/smtp.js';
import { PASSWORD, dashboardClient, newEmail, signedUpOwner, tokenOf } from './support.js';

const smtp = useSmtpServer();
const t = useTestApp({ config: { rateLimitPerMinute: 1_000_000 } });
const mailing = useTestApp({ config: { rateLimitPerMinute: 1_000_000 }, smtp: () => smtp.url });

const signUp = (app: TestApp, email: string, password = PASSWORD) => dashboardClient(app).post('/dashboard/api/signup', { venue_name: 'Copy Bar', email, password });
const inspect = (app: TestApp, link: string) => dashboardClient(app).post('/dashboard/api/links/inspect', { token: tokenOf(link) });
const accept = (app: TestApp, link: string, password = PASSWORD) => dashboardClient(app).post('/dashboard/api/links/accept', { token: tokenOf(link), password });
const chainsNamed = async (app: TestApp, name: string) => (await sql<{ n: number }>`select count(*)::int as n from chains where name = ${name}`.execute(app.db)).rows[0]!.n;
/** An answer with its link's token masked: what an outsider can compare between two answers. */
const shapeOf = (res: { status: number; body: Record<string, unknown> }) => [res.status, JSON.stringify(res.body).replace(/#[A-Za-z0-9_-]{43}/, '#<token>')];

describe('sign-up without SMTP', () => {
  it('answers a known and an unknown address alike (202, a link); the known one’s link says the address is taken, and opens nothing', async () => {
    const { email: known } = await signedUpOwner(t);
    const unknown = newEmail();
    const [a, b] = [await signUp(t, known.toUpperCase()), await signUp(t, unknown)];
    expect(shapeOf(a)).toEqual(shapeOf(b));
    const inADay = new Date(t.clock.now().getTime() + 24 * 3_600_000).toISOString().replace('Z', '+00:00');
    expect(a.body).toEqual({ expires_at: inADay, emailed: false, link: expect.stringMatching(/^http:\/\/localhost:3000\/dashboard\/welcome#[A-Za-z0-9_-]{43}$/) });
    expect(a.status).toBe(202);

    expect([(await inspect(t, a.body.link)).status, (await inspect(t, a.body.link)).body.error.code]).toEqual([409, 'email_taken']);
    const refused = await accept(t, a.body.link);
    expect([refused.status, refused.body.error.code]).toEqual([409, 'email_taken']);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await inspect(t, b.body.link)).body).toEqual({ purpose: 'signup', email: unknown, role: 'owner', chain_name: 'Copy Bar', expires_at: inADay });
  });

  it('the link opens the venue only with the password chosen at sign-up, once; nothing exists before', async () => {
    const email = newEmail();
    const sent = await dashboardClient(t).post('/dashboard/api/signup', { venue_name: 'Only Once Bar', email, password: PASSWORD });
    expect(await chainsNamed(t, 'Only Once Bar')).toBe(0);
    const wrong = await accept(t, sent.body.link, 'not the password chosen');
    expect([wrong.status, wrong.body.error.param]).toEqual([400, 'password']);
    const opened = await accept(t, sent.body.link);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ object: 'dashboard_session', owner: { email, role: 'owner' }, venue: { name: 'Only Once Bar' } });
    expect(await chainsNamed(t, 'Only Once Bar')).toBe(1);
    expect((await accept(t, sent.body.link)).body.error.code).toBe('link_used');
  });

  it('works 24 hours, then is forgotten; a second sign-up of the address does not end the first (anyone may sign up with any address)', async () => {
    const email = newEmail();
    const mine = await signUp(t, email);
    const theirs = await signUp(t, email, 'a password someone else chose');
    expect((await inspect(t, mine.body.link)).status).toBe(200);
    expect((await accept(t, mine.body.link)).status).toBe(200);
    // The first link used opened the venue; the other now meets an address that has an account.
    expect((await accept(t, theirs.body.link, 'a password someone else chose')).body.error.code).toBe('email_taken');
    const late = await signUp(t, newEmail());
    t.clock.advance(24 * 3_600_000);
    expect((await accept(t, late.body.link)).body.error.code).toBe('link_expired');
    // Housekeeping then forgets them, with the password hashes they kept.
    const kept = async () => (await sql<{ n: number }>`select count(*)::int as n from signup_requests where expires_at <= ${t.clock.now()}`.execute(t.db)).rows[0]!.n;
    expect(await kept()).toBeGreaterThanOrEqual(3);
    await accounts.forgetExpiredSignUps(t.db, t.clock.now());
    expect(await kept()).toBe(0);
  });

  it('refuses a bad field at once, on the field, whatever the address', async () => {
    const c = dashboardClient(t);
    const bad = async (body: Record<string, unknown>) => {
      const res = await c.post('/dashboard/api/signup', { venue_name: 'X', email: newEmail(), password: PASSWORD, ...body });
      return [res.status, res.body.error.code, res.body.error.param];
    };
    expect(await bad({ password: 'short' })).toEqual([400, 'parameter_invalid', 'password']);
    expect(await bad({ currency: 'XXZ' })).toEqual([400, 'parameter_invalid', 'currency']);
    expect(await bad({ timezone: 'Mars/Olympus' })).toEqual([400, 'parameter_invalid', 'timezone']);
    expect(await bad({ venue_name: '   ' })).toEqual([400, 'parameter_invalid', 'venue_name']);
    expect(await bad({ email: 'not-an-address' })).toEqual([400, 'parameter_invalid', 'email']);
  });

  it('is limited per e-mail address: the fourth sign-up of one address within an hour is refused, known or not', async () => {
    const email = newEmail();
    for (let i = 0; i < 3; i++) expect((await signUp(t, email)).status).toBe(202);
    expect((await signUp(t, email)).body.error.message).toMatch(/^Too many sign-ups for this e-mail address; try again in \d+ s\.$/);
  });
});

describe('links from one address', () => {
  it('are checked or used at most LINK_USES_PER_MINUTE times a minute (429), so tokens cannot be guessed at speed', async () => {
    const { startTestApp } = await import('../support/app.js');
    const limited = await startTestApp({ config: { linkUsesPerMinute: 3 } });
    try {
      const c = dashboardClient(limited);
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await c.post('/dashboard/api/links/inspect', { token: 'A'.repeat(43) })).body.error.code);
      expect(codes).toEqual(['link_not_found', 'link_not_found', 'link_not_found', 'rate_limited']);
      limited.clock.advance(60_000);
      expect((await c.post('/dashboard/api/links/accept', { token: 'A'.repeat(43), password: PASSWORD })).body.error.code).toBe('link_not_found');
    } finally {
      await limited.close();
    }
  });
});

describe('invitations without SMTP', () => {
  it('an address with an account in another chain is invited as an unknown one; its link says the address is taken', async () => {
    const { email: elsewhere } = await signedUpOwner(t, 'Other Chain Bar');
    const { c: owner } = await signedUpOwner(t, 'Inviting Bar');
    const known = await owner.post('/dashboard/api/invitations', { email: elsewhere, role: 'staff' });
    const unknown = await owner.post('/dashboard/api/invitations', { email: newEmail(), role: 'staff' });
    const masked = (res: typeof known) => shapeOf({ ...res, body: { ...res.body, invitation: { ...res.body.invitation, id: '<id>', email: '<email>' } } });
    expect(masked(known)).toEqual(masked(unknown));
    expect(known.status).toBe(201);
    expect([(await inspect(t, known.body.link)).status, (await inspect(t, known.body.link)).body.error.code]).toEqual([409, 'email_taken']);
    expect((await accept(t, known.body.link)).body.error.code).toBe('email_taken');
    expect((await inspect(t, unknown.body.link)).status).toBe(200);
  });

  it("an address already a user of the owner's own chain is refused: the owner sees the chain's users anyway", async () => {
    const { c: owner, email } = await signedUpOwner(t, 'Own Users Bar');
    const again = await owner.post('/dashboard/api/invitations', { email, role: 'staff' });
    expect([again.status, again.body.error.code, again.body.error.param, again.body.error.message]).toEqual([409, 'email_taken', 'email', 'This address is already a user of this chain.']);
  });
});

describe('with SMTP: the address is told, the one who asked is not', () => {
  const mailTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));
  const LINK = /http:\/\/localhost:3000\/dashboard\/welcome#[A-Za-z0-9_-]{43}/;

  it('a sign-up: both answered 202 with no link; the unknown address gets the link, the known one a note without one', async () => {
    const { email: known } = await signedUpOwner(mailing);
    const unknown = newEmail();
    const [a, b] = [await signUp(mailing, known), await signUp(mailing, unknown)];
    expect(shapeOf(a)).toEqual(shapeOf(b));
    expect(a.body).toEqual({ expires_at: expect.any(String), emailed: true, link: null });
    // The last e-mail to each: the known owner's own sign-up was mailed before.
    const note = mailTo(known).at(-1);
    expect(note!.subject).toBe('Confirm your sign-up on Venue Loyalty');
    // The venue name is the signer-up's text: not sent to an address that did not ask.
    expect(note!.text).not.toContain('Copy Bar');
    expect(note!.text).toContain('already has a Venue Loyalty dashboard account');
    expect(note!.text).not.toMatch(LINK);
    const [mail, ...more] = mailTo(unknown);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(note!.subject);
    expect((await accept(mailing, LINK.exec(mail!.text)![0])).status).toBe(200);
  });

  it('an invitation to an address with an account elsewhere: answered as any other; the address gets a note, not a link', async () => {
    const { email: elsewhere } = await signedUpOwner(mailing, 'Elsewhere Bar');
    const { c: owner } = await signedUpOwner(mailing, 'Mail Inviting Bar');
    const made = await owner.post('/dashboard/api/invitations', { email: elsewhere, role: 'manager' });
    expect([made.status, made.body.emailed, made.body.link]).toEqual([201, true, null]);
    const note = mailTo(elsewhere).at(-1);
    expect(note!.subject).toBe('You are invited to Mail Inviting Bar on Venue Loyalty');
    expect(note!.text).toContain('ask them to invite another address of yours');
    expect(note!.text).not.toMatch(LINK);
  });

  it('a sign-up or an invitation whose e-mail the server refuses is 503 for a known and an unknown address alike, no link shown, nothing kept', async () => {
    const { email: known } = await signedUpOwner(mailing);
    const { c: owner } = await signedUpOwner(mailing, 'Refusing Mail Bar');
    const before = async () => (await sql<{ n: number }>`select count(*)::int as n from signup_requests`.execute(mailing.db)).rows[0]!.n;
    const signUps = await before();
    smtp.refusing = true;
    try {
      const answers = [
        await signUp(mailing, known),
        await signUp(mailing, newEmail()),
        await owner.post('/dashboard/api/invitations', { email: known, role: 'staff' }),
        await owner.post('/dashboard/api/invitations', { email: newEmail(), role: 'staff' }),
      ];
      expect(answers.map((a) => [a.status, a.body.error.code, a.body.link])).toEqual(Array(4).fill([503, 'service_unavailable', undefined]));
    } finally {
      smtp.refusing = false;
    }
    expect(await before()).toBe(signUps);
    expect((await owner.get('/dashboard/api/invitations')).body).toEqual([]);
  });
});

describe('invitations are limited per chain', () => {
  it('INVITATIONS_PER_HOUR a chain (429 beyond), so a chain cannot test addresses at speed', async () => {
    const { startTestApp } = await import('../support/app.js');
    const limited = await startTestApp({ config: { invitationsPerHour: 2 } });
    try {
      const { c: owner } = await signedUpOwner(limited);
      const made = [];
      for (let i = 0; i < 3; i++) made.push((await owner.post('/dashboard/api/invitations', { email: newEmail(), role: 'staff' })).status);
      expect(made).toEqual([201, 201, 429]);
      limited.clock.advance(3_600_000);
      expect((await owner.post('/dashboard/api/invitations', { email: newEmail(), role: 'staff' })).status).toBe(201);
    } finally {
      await limited.close();
    }
  });
});
