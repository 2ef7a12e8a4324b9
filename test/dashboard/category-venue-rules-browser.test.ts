// A venue's own category rule through the Categories page (D21), in a real browser: a chain of two venues; at the
// second, wine gets a rule of its own (a percent over 100 is refused next to the field, not clamped), the chain's rule
// still applies at the first, and the owner goes back to the chain's rule; each step proven by a calculation through
// the API at each venue. Screenshots go to test-artifacts/ and docs/dashboard/ (category-venue-rule*.png).
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client } from '../support/http.js';
import { needs } from '../support/services.js';
import { ARTIFACTS, L, ROOT, openDashboard, phoneLike, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let page: Page;
let baseUrl: string;
const state: { harbourId?: string; quayId?: string; harbourKey?: string; quayKey?: string; memberId?: string } = {};

async function docShot(p: Page, name: string) {
  await shot(p, name);
  copyFileSync(path.join(ARTIFACTS, `dashboard-${name}.png`), path.join(ROOT, 'docs/dashboard', `${name}.png`));
}

/** Calls the dashboard API as the signed-in browser does (cookie and CSRF token). */
async function dashboardCall(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, data?: unknown) {
  const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
  const res = await page.request.fetch(`${baseUrl}${url}`, { method, data, headers: { 'x-csrf-token': session.csrf_token } });
  return { status: res.status(), body: await res.json() };
}

const newKey = async () => (await dashboardCall('POST', '/dashboard/api/api-keys', { name: 'Till', livemode: false, scopes: [] })).body.secret as string;

/** What a check of 2 glasses of wine at 8.00 and a lunch at 20.00 (no category: the program's 5 %) earns at a venue. */
async function earnedAt(key: string): Promise<number> {
  const res = await client(t, key).post('/api/v1/checks/calculate', {
    member_id: state.memberId,
    line_items: [
      { name: 'House wine', category: 'wine', quantity: 2, unit_price: 800 },
      { name: 'Lunch', quantity: 1, unit_price: 2_000 },
    ],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.earned;
}

async function switchVenue(p: Page, name: string) {
  await p.getByRole('button', { name: 'Switch venue' }).click();
  await p.getByRole('menuitem', { name, exact: true }).click();
  await p.getByTestId('current-venue').getByText(name, { exact: true }).waitFor();
}

const wineRow = () => page.getByRole('table', { name: 'Categories' }).locator('tr[data-category="wine"]');

chromiumGate.describe("a venue's own category rule on the Categories page", () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
    const signup = await signUpThrough(page.request, baseUrl, { venue_name: 'Harbour Café', email: newEmail(), password: PASSWORD });
    expect(signup.status()).toBe(200);
    state.harbourId = (await signup.json()).venue.id;
    state.harbourKey = await newKey();
    // The second venue (Add venue switches the session to it) and its till.
    const added = await dashboardCall('POST', '/dashboard/api/venues', { name: 'Harbour Café Quay', slug: `quay-${Date.now().toString(36)}` });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    state.quayId = added.body.venue.id;
    state.quayKey = await newKey();
    state.memberId = (await client(t, state.harbourKey).post('/api/v1/members', { card_number: 'HC-2001', consent: true })).body.id;
    // The chain's rule: wine earns 10 %. At either venue: 1.60 on the wine + 1.00 on the lunch.
    expect((await dashboardCall('POST', '/dashboard/api/categories', { external_id: 'wine', name: 'Wine', cashback_percent: 10 })).status).toBe(201);
    expect(await earnedAt(state.harbourKey)).toBe(260);
    expect(await earnedAt(state.quayKey)).toBe(260);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  chromiumGate.it('sets a rule for this venue only; a percent over 100 is refused next to the field, not clamped', async () => {
    await page.goto(`${baseUrl}/dashboard/categories`);
    await page.getByTestId('current-venue').getByText('Harbour Café Quay', { exact: true }).waitFor();
    await wineRow().getByText('The chain’s rule').waitFor();
    expect(await page.getByRole('columnheader', { name: 'At Harbour Café Quay' }).count()).toBe(1);

    await page.getByRole('button', { name: 'Rule for wine at Harbour Café Quay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Wine at Harbour Café Quay' });
    expect(await dialog.getByTestId('venue-rule-note').textContent()).toBe(
      'Harbour Café Quay follows the chain’s rule for Wine: earns 10 %, payable with cashback. A rule saved here applies at Harbour Café Quay only; the chain’s other venues keep the chain’s rule.',
    );
    // The form starts from the chain's rule.
    expect(await dialog.getByLabel(L('Own cashback percent')).inputValue()).toBe('10');
    expect(await dialog.getByRole('button', { name: 'Go back to the chain’s rule' }).count()).toBe(0);

    // 150 % stays 150 when the field is left, and the server's reason shows beside it; nothing is written.
    const refused = await dashboardCall('PUT', `/dashboard/api/categories/wine/venue-rules/${state.quayId}`, { cashback_percent: 150 });
    expect(refused.body.error).toMatchObject({ code: 'parameter_invalid', param: 'cashback_percent' });
    await dialog.getByLabel(L('Own cashback percent')).fill('150');
    await dialog.getByLabel(L('Earns cashback')).focus();
    expect(await dialog.getByLabel(L('Own cashback percent')).inputValue()).toBe('150');
    await dialog.getByRole('button', { name: 'Save rule for this venue only' }).click();
    // The server's reason, with the field named as the page names it.
    expect(refused.body.error.message).toBe('cashback_percent must be <= 100.');
    await dialog.getByText('Own cashback percent must be at most 100.', { exact: true }).waitFor();
    expect(await dialog.getByLabel(L('Own cashback percent')).getAttribute('aria-invalid')).toBe('true');
    expect(await earnedAt(state.quayKey!)).toBe(260);
    await shot(page, 'category-venue-rule-refused');

    await dialog.getByLabel(L('Own cashback percent')).fill('2.5');
    expect(await dialog.getByLabel(L('Own cashback percent')).getAttribute('aria-invalid')).not.toBe('true');
    await docShot(page, 'category-venue-rule');
    await dialog.getByRole('button', { name: 'Save rule for this venue only' }).click();
    await dialog.waitFor({ state: 'detached' });
    await wineRow().getByText('Own rule').waitFor();
    expect(await wineRow().getByText('earns 2.5 %, payable with cashback').count()).toBe(1);
    // The chain's rule is unchanged on the page, and applies at the first venue; the quay's own at the quay.
    expect(await wineRow().getByText('10 %', { exact: true }).count()).toBe(1);
    // Quay: 2.5 % of 16.00 + 1.00; Harbour: 10 % of 16.00 + 1.00.
    expect(await earnedAt(state.quayKey!)).toBe(140);
    expect(await earnedAt(state.harbourKey!)).toBe(260);
    await docShot(page, 'categories-chain');
  });

  chromiumGate.it("the first venue shows the chain's rule; back at the quay, the owner goes back to the chain's rule", async () => {
    await switchVenue(page, 'Harbour Café');
    await page.getByRole('columnheader', { name: 'At Harbour Café' }).waitFor();
    await wineRow().getByText('The chain’s rule').waitFor();

    await switchVenue(page, 'Harbour Café Quay');
    await wineRow().getByText('Own rule').waitFor();
    // A change over the quay's own rule: wine earns nothing there now.
    await page.getByRole('button', { name: 'Rule for wine at Harbour Café Quay' }).click();
    let dialog = page.getByRole('dialog', { name: 'Wine at Harbour Café Quay' });
    expect(await dialog.getByLabel(L('Own cashback percent')).inputValue()).toBe('2.5');
    await dialog.getByLabel(L('Earns cashback')).uncheck({ force: true });
    await dialog.getByRole('button', { name: 'Save rule for this venue only' }).click();
    await dialog.waitFor({ state: 'detached' });
    await wineRow().getByText('earns no cashback, payable with cashback').waitFor();
    expect(await earnedAt(state.quayKey!)).toBe(100);

    await page.getByRole('button', { name: 'Rule for wine at Harbour Café Quay' }).click();
    dialog = page.getByRole('dialog', { name: 'Wine at Harbour Café Quay' });
    expect(await dialog.getByTestId('venue-rule-note').textContent()).toBe(
      'Harbour Café Quay has a rule of its own for Wine. The chain’s rule (earns 10 %, payable with cashback) applies at the chain’s other venues.',
    );
    await dialog.getByRole('button', { name: 'Go back to the chain’s rule' }).click();
    await dialog.waitFor({ state: 'detached' });
    await wineRow().getByText('The chain’s rule').waitFor();
    expect(await earnedAt(state.quayKey!)).toBe(260);
    expect((await dashboardCall('GET', '/dashboard/api/categories')).body.data[0].venue_rules).toEqual([]);
  });

  chromiumGate.it("the chain's rule: 150 % is refused next to the field too, not saved as 100 %", async () => {
    const refused = await dashboardCall('PATCH', '/dashboard/api/categories/wine', { cashback_percent: 150 });
    expect(refused.body.error).toMatchObject({ code: 'parameter_invalid', param: 'cashback_percent' });
    await page.getByRole('button', { name: 'Edit wine' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(L('Own cashback percent')).fill('150');
    await dialog.getByRole('button', { name: 'Save category' }).click();
    await dialog.getByText('Own cashback percent must be at most 100.', { exact: true }).waitFor();
    expect(await dialog.getByLabel(L('Own cashback percent')).inputValue()).toBe('150');
    expect(await dialog.getByLabel(L('Own cashback percent')).getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const wine = (await dashboardCall('GET', '/dashboard/api/categories')).body.data[0];
    expect(wine.cashback_percent).toBe(10);
    expect(await earnedAt(state.harbourKey!)).toBe(260);
  });

  chromiumGate.it('fits a 390 px phone', async () => {
    const phone = await phoneLike(browser, page);
    await phone.goto(`${baseUrl}/dashboard/categories`);
    await phone.getByRole('button', { name: 'Rule for wine at Harbour Café Quay' }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await docShot(phone, 'mobile-categories-chain');
    await phone.close();
  });
});
