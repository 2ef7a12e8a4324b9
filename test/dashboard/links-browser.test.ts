// Invitations in a real browser (D24): the owner invites a manager on the Users page (1280 px) and copies the link
// shown once; the invitee opens it on a phone (390 px), chooses a password and is signed in as manager; the link
// opened again says it was used; "Forgot your password?" without SMTP says to ask the owner. A sign-up on a server that
// sends e-mail says to look in the inbox; the e-mailed link, with the password chosen, opens the dashboard.
// Screenshots: test-artifacts/dashboard-invite.png, dashboard-welcome.png, dashboard-link-used.png, dashboard-forgot.png,
// dashboard-signup-inbox.png, dashboard-signup-confirm.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { useSmtpServer } from '../support/smtp.js';
import { needs } from '../support/services.js';
import { L, openDashboard, pickOption, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const smtp = useSmtpServer();
const t = useTestApp();
const mailing = useTestApp({ smtp: () => smtp.url });
let browser: Browser;
let baseUrl: string;
let ownerEmail: string;

chromiumGate.describe('invitations in the dashboard', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    ownerEmail = newEmail();
    const owner = await browser.newContext();
    expect((await signUpThrough(owner.request, baseUrl, { venue_name: 'Links Café', email: ownerEmail, password: PASSWORD })).status()).toBe(200);
    await owner.close();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  chromiumGate.it('the owner invites a manager; the invitee sets a password on a phone and is signed in; the link then says it was used', async () => {
    const owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await owner.newPage();
    page.setDefaultTimeout(10_000);
    expect((await page.request.post(`${baseUrl}/dashboard/api/session`, { data: { email: ownerEmail, password: PASSWORD } })).status()).toBe(200);
    await page.goto(`${baseUrl}/dashboard/users`);
    const invitee = newEmail();
    await page.getByLabel(L('E-mail')).fill(invitee);
    await pickOption(page, page.getByLabel(L('Role')).first(), /^Manager/);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = (await page.locator('code').filter({ hasText: '/dashboard/welcome#' }).textContent())!;
    await page.getByRole('table', { name: 'Invitations waiting' }).getByText(invitee).waitFor();
    await shot(page, 'invite');
    await owner.close();

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    const p = await phone.newPage();
    p.setDefaultTimeout(10_000);
    // The link names the test server's address, not the configured public one.
    const here = `${baseUrl}/dashboard/welcome#${link.split('#')[1]}`;
    await p.goto(here);
    await p.getByRole('heading', { name: 'Join Links Café' }).waitFor();
    await p.getByLabel(L('New password')).fill('a new manager password');
    await p.getByLabel(L('The same password again')).fill('a new manager password');
    await shot(p, 'welcome');
    await p.getByRole('button', { name: 'Join and sign in' }).click();
    await p.waitForURL(/\/dashboard\/?(overview)?$/);
    const session = await (await p.request.get(`${baseUrl}/dashboard/api/session`)).json();
    expect(session.owner).toMatchObject({ email: invitee, role: 'manager' });
    await phone.close();

    const again = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await again.goto(here);
    await again.getByText('This link has already been used').waitFor();
    await shot(again, 'link-used');
    await again.close();
  });

  chromiumGate.it('"Forgot your password?" on a server without e-mail says to ask the owner', async () => {
    const p = await browser.newPage({ viewport: { width: 390, height: 844 } });
    p.setDefaultTimeout(10_000);
    await p.goto(`${baseUrl}/dashboard/`);
    await p.getByRole('link', { name: 'Forgot your password?' }).click();
    await p.getByLabel(L('E-mail')).fill(ownerEmail);
    await p.getByRole('button', { name: 'Send me a link' }).click();
    await p.getByText('This server does not send e-mail').waitFor();
    await shot(p, 'forgot');
    await p.close();
  });

  chromiumGate.it('a sign-up on a server that sends e-mail: "check your inbox"; the e-mailed link and the password open the dashboard', async () => {
    const mailingUrl = (await openDashboardUrl());
    const p = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    p.setDefaultTimeout(10_000);
    const email = newEmail();
    await p.goto(`${mailingUrl}/dashboard/signup`);
    await p.getByLabel(L('Venue name')).fill('Inbox Bar');
    await p.getByLabel(L('E-mail')).fill(email);
    await p.getByLabel(L('Password')).fill(PASSWORD);
    await p.getByRole('button', { name: 'Create venue' }).click();
    await p.getByText(`We sent a link to ${email}`).waitFor();
    await shot(p, 'signup-inbox');
    const mail = smtp.received.find((m) => m.to.includes(email))!;
    const token = /\/dashboard\/welcome#([A-Za-z0-9_-]{43})/.exec(mail.text)![1];
    await p.goto(`${mailingUrl}/dashboard/welcome#${token}`);
    await p.getByRole('heading', { name: 'Open Inbox Bar' }).waitFor();
    await p.getByLabel(L('Password')).fill('not the password chosen');
    await p.getByRole('button', { name: 'Open my dashboard' }).click();
    await p.getByText('This is not the password chosen at sign-up.').waitFor();
    await p.getByLabel(L('Password')).fill(PASSWORD);
    await shot(p, 'signup-confirm');
    await p.getByRole('button', { name: 'Open my dashboard' }).click();
    await p.waitForURL(/\/dashboard\/?(overview)?$/);
    const session = await (await p.request.get(`${mailingUrl}/dashboard/api/session`)).json();
    expect(session).toMatchObject({ owner: { email, role: 'owner' }, venue: { name: 'Inbox Bar' } });
    await p.close();
  });
});

/** The mailing server's address, listening on its own port. */
const openDashboardUrl = () => mailing.app.listen({ port: 0, host: '127.0.0.1' });
