// The Campaigns page (D22) in a real browser: a happy-hour bonus set up with its schedule in local time (150 % refused
// beside its field, never clamped), its spent against its budget, paused; a test-mode welcome credit set up here is
// what a guest enrolled through the API then gets; a manager creates one too; a campaign edited (name, end in the
// venue's time, budget, schedule) and its results after a check. Screenshots: test-artifacts/dashboard-campaigns.png,
// dashboard-campaign-results.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { sql } from 'kysely';
import * as accounts from '../../src/modules/accounts/service.js';
import { useTestApp } from '../support/app.js';
import { client } from '../support/http.js';
import { needs } from '../support/services.js';
import { L, openDashboard, phoneLike, seriousViolations, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let page: Page;
let baseUrl: string;

async function dashboardCall(method: 'GET' | 'POST', url: string, data?: unknown) {
  const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
  const res = await page.request.fetch(`${baseUrl}${url}`, { method, data, headers: { 'x-csrf-token': session.csrf_token } });
  return { status: res.status(), body: await res.json() };
}

chromiumGate.describe('the Campaigns page', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    // bypassCSP: axe-core's script runs in the page.
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })).newPage();
    page.setDefaultTimeout(10_000);
    const signup = await signUpThrough(page.request, baseUrl, { venue_name: 'Campaign Café', email: newEmail(), password: PASSWORD });
    expect(signup.status()).toBe(200);
    const program = await dashboardCall('POST', '/dashboard/api/programs', { name: 'Cashback', type: 'cashback', settings: { levels: [{ name: 'Base', min_spend: 0, percent: 3 }] } });
    expect(program.status, JSON.stringify(program.body)).toBe(201);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  chromiumGate.it('sets up a happy hour Monday to Thursday 15:00–18:00; 150 % is refused beside the field; then pauses it', async () => {
    await page.goto(`${baseUrl}/dashboard/campaigns`);
    await page.getByLabel(L('Name')).fill('Happy hour');
    await page.getByLabel(L('Extra percent')).fill('150');
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu']) await page.getByLabel(day, { exact: true }).check();
    await page.getByLabel(L('Budget')).fill('100');
    await page.getByRole('button', { name: 'Create campaign' }).click();
    const percent = page.getByLabel(L('Extra percent'));
    await page.locator('[aria-invalid="true"]').first().waitFor();
    expect(await percent.getAttribute('aria-invalid')).toBe('true');
    expect(await percent.inputValue()).toBe('150');
    expect((await dashboardCall('GET', '/dashboard/api/campaigns')).body.data).toEqual([]);

    await percent.fill('5');
    await page.getByRole('button', { name: 'Create campaign' }).click();
    const table = page.getByRole('table', { name: 'Campaigns' });
    await table.getByText('5 % more cashback Mon, Tue, Wed, Thu 15:00–18:00').waitFor();
    expect(await table.textContent()).toContain('€0.00 of €100.00');
    const [stored] = (await dashboardCall('GET', '/dashboard/api/campaigns')).body.data;
    expect(stored).toMatchObject({ type: 'bonus', percent: 5, budget: 10_000, livemode: true, schedule: { days_of_week: [1, 2, 3, 4], from: '15:00', to: '18:00' } });
    await page.getByRole('button', { name: 'Pause Happy hour' }).click();
    await table.getByText('Paused').waitFor();
    await page.getByRole('button', { name: 'Resume Happy hour' }).waitFor();
    await shot(page, 'campaigns');
  });

  chromiumGate.it('edits the happy hour (name, end in Dublin time, budget, all day), resumes it; its results count a live check', async () => {
    const table = page.getByRole('table', { name: 'Campaigns' });
    await page.getByRole('button', { name: 'Edit Happy hour' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Happy hour' });
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel(L('Name')).fill('Happy days');
    await dialog.getByLabel(L('Ends')).fill('2026-12-31T23:00');
    await dialog.getByLabel(L('Budget')).fill('200');
    await dialog.getByLabel('All day, every day').check();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await table.getByText('5 % more cashback all day').waitFor();
    const [stored] = (await dashboardCall('GET', '/dashboard/api/campaigns')).body.data;
    // The venue is in Dublin: 23:00 on 31 December is 23:00 UTC (winter time).
    expect(stored).toMatchObject({ name: 'Happy days', ends_at: '2026-12-31T23:00:00.000+00:00', budget: 20_000, schedule: null, status: 'paused' });
    expect(await table.textContent()).toContain('to 31 Dec 2026, 23:00');
    expect(await table.textContent()).toContain('Every venue');
    await page.getByRole('button', { name: 'Resume Happy days' }).click();
    await page.getByRole('button', { name: 'Pause Happy days' }).waitFor();

    const key = (await dashboardCall('POST', '/dashboard/api/api-keys', { name: 'Live till', livemode: true, scopes: [] })).body.secret as string;
    const member = await client(t, key).post('/api/v1/members', { card_number: 'CC-LIVE', consent: true });
    expect(member.status, JSON.stringify(member.body)).toBe(201);
    const check = await client(t, key).post('/api/v1/checks', { external_id: 'HD-1', member_id: member.body.id, line_items: [{ name: 'Dinner', quantity: 1, unit_price: 2_000 }] });
    expect(check.body.campaigns, JSON.stringify(check.body)).toEqual([{ campaign_id: stored.id, name: 'Happy days', amount: 100 }]);

    await page.getByRole('button', { name: 'Results of Happy days' }).click();
    const results = page.getByRole('dialog', { name: 'Results of Happy days' });
    await results.getByText('Members reached').waitFor();
    const text = await results.textContent();
    // 5 % of 20.00; one member; their one check of 20.00.
    for (const figure of ['Given€1.00', 'Members reached1', 'Their checks1', 'Their spend€20.00', 'Running since 22 Nov 2026, 10:00, until 31 Dec 2026, 23:00.']) expect(text).toContain(figure);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'campaign-results');
    await page.keyboard.press('Escape');
    await results.waitFor({ state: 'hidden' });
  });

  chromiumGate.it('a test-mode welcome credit set up here is what a guest enrolled through the API gets', async () => {
    await page.getByLabel(L('Name')).fill('Welcome');
    await page.getByLabel(L('Kind')).first().click();
    await page.getByRole('option', { name: 'Welcome credit' }).click();
    await page.getByText('Test', { exact: true }).click();
    await page.getByLabel(L('Cashback given')).fill('2.50');
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('table', { name: 'Campaigns' }).getByText('€2.50 when a guest joins').waitFor();
    const key = (await dashboardCall('POST', '/dashboard/api/api-keys', { name: 'Till', livemode: false, scopes: [] })).body.secret as string;
    const member = await client(t, key).post('/api/v1/members', { card_number: 'CC-1', consent: true });
    expect(member.status, JSON.stringify(member.body)).toBe(201);
    expect(member.body.balance).toBe(250);
  });

  for (const width of [1280, 390]) {
    chromiumGate.it(`at ${width} px, a manager creates a campaign (D24): theirs in the audit log`, async () => {
      const session = (await dashboardCall('GET', '/dashboard/api/session')).body;
      const email = newEmail();
      const manager = await accounts.createOwner(t.db, { chainId: session.chain.id, venueId: session.venue.id, email, password: PASSWORD, role: 'manager' });
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const mp = await context.newPage();
      mp.setDefaultTimeout(10_000);
      expect((await mp.request.post(`${baseUrl}/dashboard/api/session`, { data: { email, password: PASSWORD } })).status()).toBe(200);
      await mp.goto(`${baseUrl}/dashboard/campaigns`);
      await mp.getByLabel(L('Name')).fill(`Manager birthday ${width}`);
      await mp.getByLabel(L('Kind')).first().click();
      await mp.getByRole('option', { name: 'Birthday treat' }).click();
      await mp.getByLabel(L('Cashback given')).fill('3');
      await mp.getByRole('button', { name: 'Create campaign' }).click();
      await mp.getByText(`Manager birthday ${width}`, { exact: true }).waitFor();
      // The owner's pages are not in a manager's menu.
      expect(await mp.locator('nav[aria-label="Pages"] a', { hasText: /^Users$/ }).count()).toBe(0);
      await context.close();
      const { rows } = await sql<{ actor_id: string; changes: unknown }>`select actor_id, changes from audit_events
        where chain_id = ${session.chain.id} and action = 'campaign.created' and actor_id = ${manager.id}`.execute(t.db);
      expect(rows.length).toBeGreaterThan(0);
      expect(JSON.stringify(rows.map((r) => r.changes))).toContain(`Manager birthday ${width}`);
    });
  }

  chromiumGate.it('fits a 390 px phone, the list included', async () => {
    const phone = await phoneLike(browser, page);
    await phone.goto(`${baseUrl}/dashboard/campaigns`);
    await phone.getByText('€2.50 when a guest joins').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone, 'mobile-campaigns');
    // 150 % on the phone too: refused beside the field, kept as typed, nothing saved.
    const count = (await dashboardCall('GET', '/dashboard/api/campaigns')).body.data.length;
    await phone.getByLabel(L('Name')).fill('Phone happy hour');
    await phone.getByLabel(L('Extra percent')).fill('150');
    await phone.getByLabel('All day, every day').check();
    await phone.getByRole('button', { name: 'Create campaign' }).click();
    const percent = phone.getByLabel(L('Extra percent'));
    await phone.locator('[aria-invalid="true"]').first().waitFor();
    expect([await percent.getAttribute('aria-invalid'), await percent.inputValue()]).toEqual(['true', '150']);
    expect((await dashboardCall('GET', '/dashboard/api/campaigns')).body.data).toHaveLength(count);
    await phone.close();
  });
});
