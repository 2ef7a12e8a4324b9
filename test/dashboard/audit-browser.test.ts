// The Audit log page (D24) in a real browser, at 1280 and 390 px: the owner's own changes listed in plain words with
// who, from where and what changed; filtered to one kind of change; the CSV link carries the filter.
// Screenshots: test-artifacts/dashboard-audit.png and dashboard-audit-phone.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { needs } from '../support/services.js';
import { L, openDashboard, phoneLike, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let page: Page;
let baseUrl: string;

async function dashboardCall(method: 'GET' | 'POST' | 'PATCH', url: string, data?: unknown) {
  const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
  const res = await page.request.fetch(`${baseUrl}${url}`, { method, data, headers: { 'x-csrf-token': session.csrf_token } });
  return { status: res.status(), body: await res.json() };
}

const OWNER = newEmail();

chromiumGate.describe('the Audit log page', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
    const signup = await signUpThrough(page.request, baseUrl, { venue_name: 'Audit Café', email: OWNER, password: PASSWORD });
    expect(signup.status()).toBe(200);
    expect((await dashboardCall('POST', '/dashboard/api/api-keys', { name: 'Front till', livemode: false, scopes: [] })).status).toBe(201);
    const created = await dashboardCall('POST', '/dashboard/api/campaigns', { name: 'Happy hour', type: 'bonus', percent: 5, livemode: false });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await dashboardCall('PATCH', `/dashboard/api/campaigns/${created.body.id}`, { status: 'paused' })).status).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  chromiumGate.it('lists the owner’s changes in plain words (who by e-mail, what by name), filters to one kind, and the CSV link keeps the filter', async () => {
    await page.goto(`${baseUrl}/dashboard/audit`);
    const table = page.getByRole('table', { name: 'Audit log' });
    await table.getByText('Campaign changed').waitFor();
    const text = await table.textContent();
    // In words: the owner by e-mail, the key and the campaign by name, the budget in the currency.
    for (const words of ['API key created', 'Campaign created', OWNER, 'Front till', 'Happy hour', 'status: active → paused']) expect(text).toContain(words);
    await page.getByLabel(L('What happened')).first().click();
    await page.getByRole('option', { name: 'Campaign changed' }).click();
    await page.waitForFunction(() => document.querySelectorAll('tr[data-action]').length === 1);
    expect(await page.locator('tr[data-action]').getAttribute('data-action')).toBe('campaign.updated');
    expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toContain('action=campaign.updated');
    await shot(page, 'audit');
  });

  chromiumGate.it('on a phone each entry is a card of labelled lines', async () => {
    const phone = await phoneLike(browser, page);
    await phone.goto(`${baseUrl}/dashboard/audit`);
    await phone.getByText('API key created').first().waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(phone, 'audit-phone');
    await phone.close();
  });
});
