// A chain's dashboard in a real browser (D21): the owner adds a venue, switches between the chain's venues from the
// header, sees every venue side by side on the overview, and opens the venue liability page and downloads its CSV.
// Screenshots at 1280 and 390 px go to test-artifacts/ and docs/dashboard/ (venue-*.png, overview-chain.png, liability*.png).
import { copyFileSync, readFileSync } from 'node:fs';
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
const state: { harbourId?: string; quayId?: string; memberId?: string } = {};

/** A screenshot in test-artifacts/, kept in docs/dashboard/ too: the pictures the docs show. */
async function docShot(p: Page, name: string) {
  await shot(p, name);
  copyFileSync(path.join(ARTIFACTS, `dashboard-${name}.png`), path.join(ROOT, 'docs/dashboard', `${name}.png`));
}

/** Calls the dashboard API as the signed-in browser does (cookie and CSRF token). */
async function dashboardCall(method: 'GET' | 'POST', url: string, data?: unknown) {
  const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
  const res = await page.request.fetch(`${baseUrl}${url}`, { method, data, headers: { 'x-csrf-token': session.csrf_token } });
  return { status: res.status(), body: await res.json() };
}

const liveKey = async () => (await dashboardCall('POST', '/dashboard/api/api-keys', { name: 'Till', livemode: true, scopes: [] })).body.secret as string;
const lunch = (amount: number) => [{ name: 'Lunch', quantity: 1, unit_price: amount }];

async function switchVenue(p: Page, name: string) {
  await p.getByRole('button', { name: 'Switch venue' }).click();
  await p.getByRole('menuitem', { name, exact: true }).click();
  await p.getByTestId('current-venue').getByText(name, { exact: true }).waitFor();
}

chromiumGate.describe("a chain's venues in the dashboard", () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page.setDefaultTimeout(10_000);
    const signup = await signUpThrough(page.request, baseUrl, { venue_name: 'Harbour Café', email: newEmail(), password: PASSWORD });
    expect(signup.status()).toBe(200);
    state.harbourId = (await signup.json()).venue.id;
    // The first venue's till: a member and two of today's checks (the test's clock: 2026-11-22, 10:00 UTC).
    const harbour = client(t, await liveKey());
    state.memberId = (await harbour.post('/api/v1/members', { card_number: 'HC-1001', consent: true, name: 'Aoife Byrne' })).body.id;
    for (const [id, amount] of [['HC-1', 2450], ['HC-2', 1800]] as const) {
      expect((await harbour.post('/api/v1/checks', { external_id: id, card_number: 'HC-1001', closed_at: '2026-11-22T09:00:00Z', line_items: lunch(amount) })).status).toBe(201);
    }
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  chromiumGate.it('adds a venue to the chain from the switcher, in the chain’s currency, and switches to it', async () => {
    await page.goto(`${baseUrl}/dashboard/overview`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // A chain of one: no breakdown yet.
    expect(await page.getByTestId('venue-breakdown').count()).toBe(0);
    await page.getByRole('button', { name: 'Switch venue' }).click();
    await page.getByRole('menuitem', { name: 'Add venue' }).click();
    await page.getByRole('heading', { name: 'Add venue' }).waitFor();
    expect(await page.getByLabel(L('Currency')).inputValue()).toBe('EUR');
    expect(await page.getByLabel(L('Currency')).isDisabled()).toBe(true);
    await page.getByLabel(L('Name')).fill('Harbour Café Quay');
    // The short name follows the name until typed over.
    expect(await page.getByLabel(L('Short name in addresses')).inputValue()).toBe('harbour-cafe-quay');
    await page.getByLabel(L('Short name in addresses')).fill('harbour-quay');
    await page.getByLabel(L('Time zone')).fill('Europe/London');
    await page.getByLabel(L('Country')).fill('GB');
    await page.getByLabel(L('Locale')).fill('en-GB');
    await docShot(page, 'venue-add');
    await page.getByRole('button', { name: 'Add venue' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByText('Harbour Café Quay was added to Harbour Café; you are now working in it.').waitFor();
    await page.getByTestId('current-venue').getByText('Harbour Café Quay', { exact: true }).waitFor();
    const session = (await dashboardCall('GET', '/dashboard/api/session')).body;
    expect(session.venue).toMatchObject({ name: 'Harbour Café Quay', slug: 'harbour-quay', currency: 'EUR', timezone: 'Europe/London', country: 'GB' });
    state.quayId = session.venue.id;
    // A slug taken is refused next to its field.
    await page.goto(`${baseUrl}/dashboard/venues/new`);
    await page.getByLabel(L('Name')).fill('Again');
    await page.getByLabel(L('Short name in addresses')).fill('harbour-quay');
    await page.getByRole('button', { name: 'Add venue' }).click();
    await page.getByText('A venue with slug "harbour-quay" exists.').waitFor();
  });

  chromiumGate.it("switches venue from the header: per-venue pages follow, the chain's members stay", async () => {
    // At the quay (where Add venue left the session): its own till, and the first venue's member coming in.
    const quay = client(t, await liveKey());
    const sent = [
      await quay.post('/api/v1/checks', { external_id: 'QY-1', card_number: 'HC-1001', closed_at: '2026-11-22T08:30:00Z', line_items: lunch(3200) }),
      await quay.post('/api/v1/checks', { external_id: 'QY-2', card_number: 'HC-1001', closed_at: '2026-11-04T19:00:00Z', line_items: lunch(5400), redeem_amount: 150 }),
    ];
    for (const s of sent) expect(s.status, JSON.stringify(s.body)).toBe(201);

    await page.goto(`${baseUrl}/dashboard/transactions`);
    const table = page.getByRole('table', { name: 'Transactions' });
    await table.locator('tr[data-external-id="QY-1"]').waitFor();
    expect(await table.locator('tbody tr').count()).toBe(2);
    await page.getByRole('button', { name: 'Switch venue' }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Harbour Café Quay' }).waitFor();
    expect(await menu.getByRole('menuitem', { name: 'Harbour Café Quay' }).getAttribute('aria-current')).toBe('true');
    await docShot(page, 'venue-switcher');
    await menu.getByRole('menuitem', { name: 'Harbour Café', exact: true }).click();
    await page.getByTestId('current-venue').getByText('Harbour Café', { exact: true }).waitFor();
    await table.locator('tr[data-external-id="HC-1"]').waitFor();
    expect(await table.locator('tr[data-external-id^="QY-"]').count()).toBe(0);
    // The chain's member is found from either venue, with the cashback earned at both.
    await page.getByRole('link', { name: 'Members' }).click();
    // In the Members table: the Transactions page just left names her on each of her checks too.
    const members = page.getByRole('table', { name: 'Members' });
    await members.getByRole('link', { name: 'Aoife Byrne' }).waitFor();
    await switchVenue(page, 'Harbour Café Quay');
    await members.getByRole('link', { name: 'Aoife Byrne' }).click();
    // The member's page says where each check and change of their activity happened, and where they joined.
    const history = page.getByRole('table', { name: 'Activity' });
    await history.getByRole('cell', { name: 'Harbour Café Quay', exact: true }).first().waitFor();
    expect(await history.getByRole('cell', { name: 'Harbour Café', exact: true }).count()).toBeGreaterThan(0);
    await page.getByText(/joined .* at Harbour Café$/).waitFor();
    await page.getByRole('link', { name: 'Transactions' }).click();
    await table.locator('tr[data-external-id="QY-1"]').waitFor();
    expect(await table.locator('tr[data-external-id^="HC-"]').count()).toBe(0);
  });

  chromiumGate.it('the overview shows every venue of the chain side by side with the chain total', async () => {
    await switchVenue(page, 'Harbour Café');
    await page.getByRole('link', { name: 'Overview' }).click();
    const breakdown = page.getByTestId('venue-breakdown');
    await breakdown.getByRole('table', { name: 'Venues of the chain' }).waitFor();
    const row = (id: string) => breakdown.locator(`tr[data-venue="${id}"]`);
    await row(state.harbourId!).getByText('current').waitFor();
    expect(await row(state.harbourId!).textContent()).toContain('2€42.50');
    expect(await row(state.quayId!).textContent()).toContain('1€32.00');
    expect(await row('total').textContent()).toContain('Chain total3€74.50');
    await docShot(page, 'overview-chain');
    await breakdown.locator('.mantine-SegmentedControl-label', { hasText: /^This month$/ }).click();
    await expect.poll(() => row(state.quayId!).textContent()).toContain('2€84.50');
    expect(await row('total').textContent()).toContain('Chain total4€127.00');
    await breakdown.locator('.mantine-SegmentedControl-label', { hasText: /^Test$/ }).click();
    await expect.poll(() => row('total').textContent()).toContain('Chain total0€0.00');
  });

  chromiumGate.it('the liability page: per venue, no venue, totals, live apart from test; CSV download', async () => {
    // An adjustment from the first venue, so its row has more than checks.
    expect((await dashboardCall('POST', `/dashboard/api/members/${state.memberId}/adjustments`, { amount: 500, reason: 'Sorry for the wait' })).status).toBe(201);
    await page.getByRole('link', { name: 'Venue liability' }).click();
    await page.getByRole('heading', { name: 'Venue liability' }).waitFor();
    // The page opens on this month by the browser's clock; the test's checks are of the test's clock's month.
    const at = t.clock.now();
    const month = (ahead: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + ahead, 1)).toISOString().slice(0, 10);
    await page.goto(`${page.url().split('?')[0]}?from=${month(0)}&to=${month(1)}`);
    await page.getByRole('heading', { name: 'Venue liability' }).waitFor();
    expect(await page.getByTestId('period-note').textContent()).toContain('UTC');
    const table = page.getByRole('table', { name: 'Venue liability' });
    const row = (id: string) => table.locator(`tr[data-venue="${id}"]`);
    await row('total').waitFor();
    const api = (await dashboardCall('GET', `/dashboard/api/reports/venue-liability?${new URL(page.url()).searchParams}`)).body;
    const [harbour, quay, none] = api.data;
    expect(quay.redeemed).toBe(150);
    expect(harbour.adjusted).toBe(500);
    const euro = (minor: number) => `${minor < 0 ? '-' : ''}€${(Math.abs(minor) / 100).toFixed(2)}`;
    expect(await row(state.harbourId!).textContent()).toBe(
      ['Harbour Café', harbour.earned, 0, 0, 0, 500, 0, harbour.net].map((v, i) => (i === 0 ? v : euro(v as number))).join(''),
    );
    expect(await row(state.quayId!).textContent()).toContain(`€1.50`);
    expect(await row('none').textContent()).toContain('No venue (for the chain)');
    expect(none.net).toBe(0);
    expect(await row('total').textContent()).toBe(`Total${euro(api.totals.earned)}€0.00€1.50€0.00€5.00€0.00${euro(api.totals.net)}`);
    // The member's balance is what the period added: they joined in it.
    const member = (await dashboardCall('GET', `/dashboard/api/members/${state.memberId}`)).body;
    expect(api.totals.net).toBe(member.balance);
    await docShot(page, 'liability');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^venue-liability-\d{4}-\d{2}-01-to-\d{4}-\d{2}-01\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
    expect(csv).toHaveLength(4);
    expect(csv[0]).toBe('venue_id,venue,mode,currency,from,to,earned,campaign,redeemed,expired,adjusted,imported,net');
    expect(csv[1]).toContain(`${state.harbourId},Harbour Café,live,EUR,`);
    expect(csv[1]!.endsWith(',5.00,0.00,' + (harbour.net / 100).toFixed(2))).toBe(true);
    expect(csv[2]).toContain(`${state.quayId},Harbour Café Quay,live,EUR,`);
    expect(csv[3]).toMatch(/^,No venue \(for the chain\),live,EUR,/);

    // Test traffic is its own report: nothing here.
    await page.locator('.mantine-SegmentedControl-label', { hasText: /^Test$/ }).click();
    await page.waitForURL(/livemode=false/);
    await expect.poll(() => row('total').textContent()).toBe('Total€0.00€0.00€0.00€0.00€0.00€0.00€0.00');
    // A period that ends before it starts is refused with the reason.
    await page.getByLabel(L('To')).fill('2020-01-01');
    await page.getByText('to must be a later day than from').waitFor();
  });

  chromiumGate.it('fits a 390 px phone: the switcher, add venue, the chain overview, the liability page', async () => {
    const phone = await phoneLike(browser, page);
    const fits = async (name: string) => {
      expect(await phone.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(390);
      await docShot(phone, `mobile-${name}`);
    };
    await phone.goto(`${baseUrl}/dashboard/overview`);
    await phone.getByTestId('venue-breakdown').getByRole('table').waitFor();
    await fits('overview-chain');
    await phone.goto(`${baseUrl}/dashboard/liability`);
    await phone.getByRole('table', { name: 'Venue liability' }).locator('tr[data-venue="total"]').waitFor();
    await fits('liability');
    // The switcher opened over a short page (the header's menu, then Add venue from it).
    await phone.goto(`${baseUrl}/dashboard/account`);
    await phone.getByRole('heading', { name: 'Account' }).waitFor();
    await phone.getByRole('button', { name: 'Switch venue' }).click();
    await phone.getByRole('menuitem', { name: 'Add venue' }).waitFor();
    await fits('venue-switcher');
    await phone.getByRole('menuitem', { name: 'Add venue' }).click();
    await phone.getByRole('heading', { name: 'Add venue' }).waitFor();
    await fits('venue-add');
    await phone.close();
  });
});
