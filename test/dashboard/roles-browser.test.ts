// Staff in a real browser (D24), at 1280 and 390 px: the pages show no balance adjustment and no owner's page, and an
// adjustment forced past the page is refused (403 role_forbidden) with the balance unchanged; the owner makes them a
// manager on the Users page. Screenshots: test-artifacts/dashboard-staff-member*.png, dashboard-users.png.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import * as accounts from '../../src/modules/accounts/service.js';
import { useTestApp } from '../support/app.js';
import { client } from '../support/http.js';
import { needs } from '../support/services.js';
import { openDashboard, pickOption, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let baseUrl: string;
let memberId: string;
let staffEmail: string;
let ownerEmail: string;

/** A browser context signed in as `email`, with a page of `width` px. */
async function signedIn(email: string, width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const res = await page.request.post(`${baseUrl}/dashboard/api/session`, { data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
  return { context, page };
}

chromiumGate.describe('staff in the dashboard', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    const owner = await browser.newContext();
    ownerEmail = newEmail();
    const signup = await signUpThrough(owner.request, baseUrl, { venue_name: 'Staff Café', email: ownerEmail, password: PASSWORD });
    expect(signup.status()).toBe(200);
    const { csrf_token: csrf, venue } = await signup.json();
    const key = await owner.request.post(`${baseUrl}/dashboard/api/api-keys`, { data: { name: 'Till', livemode: true, scopes: [] }, headers: { 'x-csrf-token': csrf } });
    const member = await client(t, (await key.json()).secret).post('/api/v1/members', { card_number: 'STAFF-1', consent: true, name: 'Ola' });
    memberId = member.body.id;
    staffEmail = newEmail();
    await accounts.createOwner(t.db, { chainId: (await accounts.findVenue(t.db, venue.id))!.chainId, venueId: venue.id, email: staffEmail, password: PASSWORD, role: 'staff' });
    await owner.close();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  for (const width of [1280, 390]) {
    chromiumGate.it(`at ${width} px: the member's page offers no adjustment; a forced one is refused`, async () => {
      const { context, page } = await signedIn(staffEmail, width);
      await page.goto(`${baseUrl}/dashboard/members/${memberId}`);
      await page.getByRole('heading', { name: /Ola/ }).waitFor();
      await page.getByRole('heading', { name: 'Activity' }).waitFor();
      expect(await page.getByRole('button', { name: 'Adjust balance' }).count()).toBe(0);
      expect(await page.getByText('Adjust cashback').count()).toBe(0);
      if (width > 600) {
        const nav = page.getByRole('navigation', { name: 'Pages' });
        expect(await nav.getByText('Members').count()).toBe(1);
        expect(await nav.getByText('API keys').count()).toBe(0);
      }
      await shot(page, width > 600 ? 'staff-member' : 'staff-member-phone');

      const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
      const forced = await page.request.post(`${baseUrl}/dashboard/api/members/${memberId}/adjustments`, {
        data: { amount: 5_000, reason: 'a friend' },
        headers: { 'x-csrf-token': session.csrf_token },
      });
      expect(forced.status()).toBe(403);
      expect((await forced.json()).error.code).toBe('role_forbidden');
      expect((await (await page.request.get(`${baseUrl}/dashboard/api/members/${memberId}`)).json()).balance).toBe(0);

      // A page the role may not open says so, instead of an empty page.
      await page.goto(`${baseUrl}/dashboard/keys`);
      await page.getByRole('heading', { name: 'Not open to your role' }).waitFor();
      await page.getByText(/You are staff of .*, and your role does not open API keys\./).waitFor();
      await page.getByRole('link', { name: 'Back to your pages' }).click();
      await page.waitForURL((url) => !url.pathname.endsWith('/keys'));
      await context.close();
    });
  }

  chromiumGate.it('the owner makes the staff member a manager on the Users page; their menu then lists Programs', async () => {
    const owner = await signedIn(ownerEmail, 1280);
    await owner.page.goto(`${baseUrl}/dashboard/users`);
    await pickOption(owner.page, owner.page.getByLabel(`Role of ${staffEmail}`).first(), /^Manager/);
    await owner.page.waitForFunction(
      async (email) => ((await (await fetch('/dashboard/api/users')).json()) as { email: string; role: string }[]).some((u) => u.email === email && u.role === 'manager'),
      staffEmail,
    );
    await shot(owner.page, 'users');
    await owner.context.close();
    const manager = await signedIn(staffEmail, 1280);
    await manager.page.goto(`${baseUrl}/dashboard/members/${memberId}`);
    await manager.page.getByRole('button', { name: 'Adjust balance' }).waitFor();
    expect(await manager.page.getByRole('navigation', { name: 'Pages' }).getByText('Programs').count()).toBe(1);
    await manager.context.close();
  });
});
