// A chain with test traffic only (D27): the overview and the liability page open on the test figures and say so;
// once a live key sends a check, both show live again, test traffic in its own box.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client, ok } from '../support/http.js';
import { needs } from '../support/services.js';
import { openDashboard, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let baseUrl: string;
let page: Page;

async function keyOf(livemode: boolean) {
  const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
  const created = await page.request.post(`${baseUrl}/dashboard/api/api-keys`, { data: { name: livemode ? 'Live till' : 'Test till', livemode, scopes: [] }, headers: { 'x-csrf-token': session.csrf_token } });
  return client(t, (await created.json()).secret);
}

const tea = (externalId: string, cardNumber: string) => ({ external_id: externalId, card_number: cardNumber, line_items: [{ name: 'Tea', quantity: 1, unit_price: 1_200 }] });

chromiumGate.describe('a chain with test traffic only', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
    expect((await signUpThrough(page.request, baseUrl, { venue_name: 'Trial Café', email: newEmail(), password: PASSWORD })).status()).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  chromiumGate.it('opens the overview and the liability on the test figures and says so, until live traffic comes', async () => {
    const test = await keyOf(false);
    ok(await test.post('/api/v1/members', { card_number: 'T-1', consent: true }), 'test member');
    ok(await test.post('/api/v1/checks', tea('T-100', 'T-1')), 'test check');

    await page.goto(`${baseUrl}/dashboard/overview`);
    await page.getByTestId('test-only').waitFor();
    expect(await page.getByTestId('month').textContent()).toContain('Checks1');
    expect(await page.getByTestId('test-traffic').count()).toBe(0);
    await shot(page, 'overview-test-only');
    await page.goto(`${baseUrl}/dashboard/liability`);
    await page.getByTestId('test-only').waitFor();
    expect(await page.getByRole('radio', { name: 'Test' }).isChecked()).toBe(true);

    const live = await keyOf(true);
    ok(await live.post('/api/v1/members', { card_number: 'L-1', consent: true }), 'live member');
    ok(await live.post('/api/v1/checks', tea('L-100', 'L-1')), 'live check');
    await page.goto(`${baseUrl}/dashboard/overview`);
    await page.getByTestId('test-traffic').waitFor();
    expect(await page.getByTestId('test-only').count()).toBe(0);
    expect(await page.getByTestId('month').textContent()).toContain('Checks1');
    await page.goto(`${baseUrl}/dashboard/liability`);
    await page.getByRole('table', { name: 'Venue liability' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Live' }).isChecked()).toBe(true);
    expect(await page.getByTestId('test-only').count()).toBe(0);
  });
});
