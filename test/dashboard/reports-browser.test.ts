// The Reports page (issue 41) in a real browser at 1280 and 390 px: a test-only chain opens on test and says so; with
// live traffic, its figures, both charts, the venue and campaign tables and the CSV link for the period in the
// address; axe finds nothing serious. Screenshots: test-artifacts/dashboard-reports.png, dashboard-mobile-reports.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client, ok } from '../support/http.js';
import { needs } from '../support/services.js';
import { openDashboard, seriousViolations, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let baseUrl: string;
let page: Page;

async function dashboardPost(url: string, data: unknown) {
  const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
  const res = await page.request.post(`${baseUrl}${url}`, { data, headers: { 'x-csrf-token': session.csrf_token } });
  return res.json();
}

const keyOf = async (livemode: boolean) => client(t, (await dashboardPost('/dashboard/api/api-keys', { name: livemode ? 'Live till' : 'Test till', livemode, scopes: [] })).secret);
const dinner = (externalId: string, cardNumber: string, price: number) => ({ external_id: externalId, card_number: cardNumber, line_items: [{ name: 'Dinner', quantity: 1, unit_price: price }] });

chromiumGate.describe('the Reports page', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    // bypassCSP: axe-core's script runs in the page.
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })).newPage();
    page.setDefaultTimeout(10_000);
    expect((await signUpThrough(page.request, baseUrl, { venue_name: 'Report Café', email: newEmail(), password: PASSWORD })).status()).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  // The server's clock is Sunday 22 November 2026, 10:00 UTC: the period is named in the address.
  const period = 'from=2026-11-16&to=2026-11-22';

  chromiumGate.it('opens on test traffic while there is only test traffic, then shows the live figures, charts and tables', async () => {
    const test = await keyOf(false);
    ok(await test.post('/api/v1/members', { card_number: 'T-1', consent: true }), 'test member');
    ok(await test.post('/api/v1/checks', dinner('T-100', 'T-1', 1_200)), 'test check');
    await page.goto(`${baseUrl}/dashboard/reports?${period}`);
    await page.getByTestId('test-only').waitFor();
    expect(await page.getByRole('radio', { name: 'Test' }).isChecked()).toBe(true);

    const live = await keyOf(true);
    await dashboardPost('/dashboard/api/campaigns', { name: 'Welcome', type: 'welcome', amount: 300, livemode: true });
    for (const card of ['L-1', 'L-2']) ok(await live.post('/api/v1/members', { card_number: card, consent: true }), card);
    ok(await live.post('/api/v1/checks', dinner('L-100', 'L-1', 4_000)), 'live check');
    ok(await live.post('/api/v1/checks', { external_id: 'L-101', line_items: [{ name: 'Coffee', quantity: 1, unit_price: 350 }] }), 'no member');
    await page.goto(`${baseUrl}/dashboard/reports?${period}`);
    await page.getByRole('table', { name: 'Campaign credits' }).getByText('Welcome').waitFor();
    expect(await page.getByTestId('test-only').count()).toBe(0);
    const text = (await page.locator('main').textContent()) ?? '';
    // Two enrolments; two checks, one by a member; 40.00 + 3.50; two welcome credits of 3.00.
    for (const figure of ['Enrolments2', 'Checks2', '1 by members', 'Sales€43.50', '€6.00 of it by campaigns', 'Active members1']) expect(text).toContain(figure);
    expect(await page.getByRole('img', { name: 'Checks, visits by members and enrolments per day' }).count()).toBe(1);
    expect(await page.getByRole('img', { name: 'Cashback per day and what members hold' }).count()).toBe(1);
    expect(await page.getByRole('table', { name: 'Per venue' }).textContent()).toContain('Report Café');
    expect(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe('/dashboard/api/reports/activity.csv?from=2026-11-16&to=2026-11-22&livemode=true');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'reports');
  });

  chromiumGate.it('fits a 390 px phone', async () => {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, storageState: await page.context().storageState() })).newPage();
    await phone.goto(`${baseUrl}/dashboard/reports?${period}`);
    await phone.getByRole('table', { name: 'Campaign credits' }).getByText('Welcome').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone, 'mobile-reports');
    await phone.context().close();
  });
});
