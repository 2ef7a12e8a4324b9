// The Point of sale page (D26) in a real browser, at 1280 and 390 px: an owner connects Square step by step (name, the
// secrets, two Square locations mapped to the chain's two venues, a row added and removed), sees the secrets only as
// …last4 afterwards and replaces one, is refused the URL to paste because the test app's PUBLIC_BASE_URL is
// http://localhost:3000 (Square cannot reach it: said in words, no URL, no copy button) while a public one is shown
// with "Copy URL", pauses and resumes; the connection's log in plain words for every outcome, paged with "Load more",
// the failing banner, and "Try again" on a retryable entry (queued afterwards); a connection deleted after a
// confirmation; staff have no such page in their menu and the API refuses them (403); nothing is wider than a 390 px
// phone, and axe finds no serious violation at either width. Toast, on a server with a public PUBLIC_BASE_URL: connected
// step by step (a key generated, a pasted one too short refused in words, a restaurant id that is not a GUID refused
// beside its row by the server), the URL and the key shown once and copied, the key never on the page again; Toast's
// till then finds a member with that key at that restaurant; a wrong key in the log in Toast's words, pause and resume,
// a new key generated; at 390 px every step fits the screen.
// Screenshots: test-artifacts/dashboard-point-of-sale*.png and dashboard-mobile-point-of-sale*.png.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import * as accounts from '../../src/modules/accounts/service.js';
import { addEntry } from '../../src/integrations/core/queue.js';
import * as integrationRepo from '../../src/integrations/core/repo.js';
import { startTestApp, useTestApp, type TestApp } from '../support/app.js';
import { createKey, newCardNumber } from '../support/factories.js';
import { client } from '../support/http.js';
import { needs } from '../support/services.js';
import { L, openDashboard, phoneLike, pickOption, seriousViolations, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';
import { searchBody, toastHeaders, toastResponseValidator } from '../support/toast-pos.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let page: Page;
let baseUrl: string;
const TOKEN = 'EAAAl-browser-access-token-0123456789-T0K3';
const SIGNATURE_KEY = 'browser-signature-key-S1GN';
const state: { chainId?: string; venueId?: string; quayId?: string; integrationId?: string } = {};

/** What the log says for each outcome: plain words, no code names. */
const WORDS: Record<string, string> = {
  applied: 'Applied: the guest earned on it',
  refunded: 'Refunded',
  reversed: 'Reversed',
  replayed: 'Already done: sent again, nothing changed',
  waiting: "Waiting for the order's other payments",
  queued: 'Queued: it will be done in a moment',
  ignored: 'Nothing applied',
  unmatched_guest: 'No member matches this guest',
  ambiguous_guest: 'More than one member matches this guest',
  unknown_location: 'Square location not mapped to a venue',
  bad_signature: 'Refused: not signed by Square',
  bad_payload: 'Could not be read',
  provider_error: 'Square did not answer: trying again later',
  failed: 'Failed: gave up',
};

/** Calls the dashboard API as the signed-in browser does (cookie and CSRF token). */
async function dashboardCall(p: Page, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, data?: unknown) {
  const session = await (await p.request.get(`${baseUrl}/dashboard/api/session`)).json();
  const res = await p.request.fetch(`${baseUrl}${url}`, { method, data, headers: { 'x-csrf-token': session.csrf_token } });
  return { status: res.status(), body: await res.json() };
}

/** Nothing sticks out of a phone's width: the page does not scroll sideways, and no element ends past its right edge. */
async function overflowing(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = document.documentElement.scrollWidth > width ? [`page ${document.documentElement.scrollWidth} px wide`] : [];
    const sticking = [...document.querySelectorAll<HTMLElement>('main *')]
      .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().right > width + 1 && !el.closest('.data-table-scroll'))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} ends at ${Math.round(el.getBoundingClientRect().right)} px`);
    return [...wide, ...sticking.slice(0, 5)];
  });
}

chromiumGate.describe('the Point of sale page', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page.setDefaultTimeout(10_000);
    const signup = await signUpThrough(page.request, baseUrl, { venue_name: 'Harbour Café', email: newEmail(), password: PASSWORD });
    expect(signup.status()).toBe(200);
    const session = await signup.json();
    state.venueId = session.venue.id;
    state.chainId = session.chain.id;
    // A second venue of the chain, then back to the first: the locations map to either.
    const quay = await dashboardCall(page, 'POST', '/dashboard/api/venues', { name: 'Harbour Quay', slug: `harbour-quay-${Date.now().toString(36)}` });
    expect(quay.status, JSON.stringify(quay.body)).toBe(201);
    state.quayId = quay.body.venue.id;
    expect((await dashboardCall(page, 'PUT', '/dashboard/api/session/venue', { venue_id: state.venueId })).status).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  chromiumGate.it('an owner connects Square step by step: secrets masked afterwards, the localhost URL refused, paused and resumed', async () => {
    await page.goto(`${baseUrl}/dashboard/point-of-sale`);
    await page.locator('nav[aria-label="Pages"] a', { hasText: /^Point of sale$/ }).waitFor();
    await page.getByText('No point of sale connected yet.').waitFor();
    await page.getByRole('button', { name: 'Connect a point of sale' }).click();
    const wizard = page.getByRole('region', { name: 'Connect Square' });

    // 1. Name: Square, the first offered (Toast has its own test below).
    expect(await wizard.getByLabel('Square', { exact: true }).isChecked()).toBe(true);
    expect(await wizard.getByLabel('Toast', { exact: true }).isChecked()).toBe(false);
    await wizard.getByLabel(L('Name')).fill('');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Give the connection a name').waitFor();
    await wizard.getByLabel(L('Name')).fill('Harbour tills');
    await wizard.getByRole('button', { name: 'Next' }).click();

    // 2. The secrets: the access token is needed; the signature key may come once Square's subscription exists.
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Paste the access token from Square.').waitFor();
    await wizard.getByLabel(L('Access token')).fill(TOKEN);
    await wizard.getByLabel(L('Webhook signature key')).fill(SIGNATURE_KEY);
    await wizard.getByRole('button', { name: 'Next' }).click();

    // 3. A row per location: two mapped, a third added and removed; a half-filled row is refused beside its field.
    const rows = wizard.getByTestId('location-row');
    await rows.nth(0).getByLabel(L('Square location ID')).fill('L88917AVBK2S5');
    await wizard.getByRole('button', { name: 'Connect' }).click();
    await wizard.getByText('Choose the venue this location is.').waitFor();
    await pickOption(page, rows.nth(0).getByLabel(L('Venue')), 'Harbour Café');
    await wizard.getByRole('button', { name: 'Add location' }).click();
    await rows.nth(1).getByLabel(L('Square location ID')).fill('LQUAY0000001');
    await pickOption(page, rows.nth(1).getByLabel(L('Venue')), 'Harbour Quay');
    await wizard.getByRole('button', { name: 'Add location' }).click();
    await rows.nth(2).getByLabel(L('Square location ID')).fill('LSPARE');
    await shot(page, 'point-of-sale-connect');
    await wizard.getByRole('button', { name: 'Remove location LSPARE' }).click();
    expect(await rows.count()).toBe(2);
    await wizard.getByRole('button', { name: 'Connect' }).click();

    // 4. The URL: refused, in words, while PUBLIC_BASE_URL is localhost.
    const refused = wizard.getByTestId('endpoint-url-refused');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('http://localhost:3000');
    expect(await refused.textContent()).toContain('it cannot reach localhost');
    expect(await refused.textContent()).toContain('PUBLIC_BASE_URL to the public address');
    expect(await page.getByRole('button', { name: 'Copy URL' }).count()).toBe(0);
    expect(await page.locator('main').textContent()).not.toContain('/integrations/square/');
    await shot(page, 'point-of-sale-url-refused');
    await wizard.getByRole('button', { name: 'Done' }).click();
    await wizard.waitFor({ state: 'detached' });

    const [stored] = (await dashboardCall(page, 'GET', '/dashboard/api/integrations')).body.data;
    state.integrationId = stored.id;
    expect(stored).toMatchObject({
      provider: 'square',
      name: 'Harbour tills',
      status: 'active',
      locations: { L88917AVBK2S5: state.venueId, LQUAY0000001: state.quayId },
      settings: { access_token: '…T0K3', webhook_signature_key: '…S1GN' },
    });

    // The secrets as …last4, never whole; the card refuses the URL too.
    const card = page.getByRole('region', { name: 'Harbour tills' });
    expect(await card.getByTestId('secret-access_token').textContent()).toContain('…T0K3');
    expect(await card.getByTestId('secret-webhook_signature_key').textContent()).toContain('…S1GN');
    expect(await page.content()).not.toContain(TOKEN);
    expect(await page.content()).not.toContain(SIGNATURE_KEY);
    await card.getByTestId('endpoint-url-refused').waitFor();
    expect(await card.getByTestId('location-row').count()).toBe(2);

    // A secret replaced: still write-only.
    await card.getByRole('button', { name: 'Replace access token' }).click();
    await card.getByLabel(L('New access token')).fill('EAAAl-replaced-token-R3PL');
    await card.getByRole('button', { name: 'Save access token' }).click();
    await card.getByTestId('secret-access_token').getByText('…R3PL').waitFor();

    // Paused, then resumed.
    await card.getByRole('button', { name: 'Pause Harbour tills' }).click();
    await card.getByTestId('paused-note').waitFor();
    expect(await card.getByTestId('connection-status').textContent()).toBe('Paused');
    expect((await dashboardCall(page, 'GET', `/dashboard/api/integrations/${state.integrationId}`)).body.status).toBe('paused');
    await shot(page, 'point-of-sale-paused');
    await card.getByRole('button', { name: 'Resume Harbour tills' }).click();
    await card.getByRole('button', { name: 'Pause Harbour tills' }).waitFor();
    expect(await card.getByTestId('connection-status').textContent()).toBe('Active');
    expect((await dashboardCall(page, 'GET', `/dashboard/api/integrations/${state.integrationId}`)).body.status).toBe('active');
  });

  chromiumGate.it('the log in plain words for every outcome, "Load more", the failing banner, and "Try again" on a retryable entry', async () => {
    const row = (await integrationRepo.findIntegration(t.db, state.chainId!, state.integrationId!))!;
    // One for real: Square's call without a valid signature.
    const unsigned = await client(t, null).post(`/integrations/square/${row.id}`, JSON.stringify({ type: 'payment.updated' }), { 'content-type': 'application/json' });
    expect(unsigned.status).toBe(401);
    // The rest as the worker leaves them, one per outcome, the retryable one with its payload.
    const outcomes = ['applied', 'refunded', 'reversed', 'replayed', 'waiting', 'ignored', 'ambiguous_guest', 'unknown_location', 'bad_payload', 'provider_error', 'failed', 'queued', 'unmatched_guest'] as const;
    for (const [n, outcome] of outcomes.entries()) {
      t.clock.advance(1_000);
      await addEntry(
        t.db,
        row,
        {
          kind: outcome === 'refunded' ? 'square.refund' : 'square.payment',
          providerIds: { event_id: `EVT-${n}`, payment_id: `PAYMENT${n}XYZ`, location_id: 'L88917AVBK2S5', ...(outcome === 'unmatched_guest' ? { customer_id: 'CUST-NOBODY' } : {}) },
          dedupKey: `browser:${n}`,
          subject: null,
          payload: { payment: { id: `PAYMENT${n}XYZ` } },
          queued: false,
          outcome,
          message: outcome === 'unmatched_guest' ? 'No member matches Square customer CUST-NOBODY (phone or card in reference_id).' : `Entry ${n} (${outcome}).`,
        },
        t.clock.now(),
      );
    }
    await integrationRepo.updateIntegration(t.db, row.chain_id, row.id, { failing_since: t.clock.now() });

    await page.goto(`${baseUrl}/dashboard/point-of-sale`);
    const card = page.getByRole('region', { name: 'Harbour tills' });
    await card.getByTestId('failing-banner').waitFor();
    expect(await card.getByTestId('failing-banner').textContent()).toContain('Square refuses the access token or keeps failing');
    const log = card.getByRole('table', { name: 'Log of Harbour tills' });
    // Newest first, ten at a time: the newest, unmatched guest, on top; the oldest, the bad signature, after "Load more".
    await log.locator('tbody tr').first().getByText(WORDS.unmatched_guest!).waitFor();
    expect(await log.locator('tbody tr').count()).toBe(10);
    expect(await log.getByText(WORDS.bad_signature!).count()).toBe(0);
    await card.getByRole('button', { name: 'Load more' }).click();
    await log.getByText(WORDS.bad_signature!).waitFor();
    expect(await log.locator('tbody tr').count()).toBe(14);
    expect(await card.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    for (const outcome of [...outcomes, 'bad_signature']) {
      expect(await log.locator(`tr[data-outcome="${outcome}"]`).getByText(WORDS[outcome]!, { exact: true }).count(), outcome).toBe(1);
    }
    // The message and Square's ids.
    const unmatched = log.locator('tr[data-outcome="unmatched_guest"]');
    expect(await unmatched.textContent()).toContain('No member matches Square customer CUST-NOBODY');
    expect(await unmatched.textContent()).toContain('Payment: PAYMENT12XYZ');
    expect(await unmatched.textContent()).toContain('Customer: CUST-NOBODY');
    expect(await unmatched.textContent()).toContain('Location: L88917AVBK2S5');
    // "Try again" exactly where the server says an entry can be queued again (failed, no guest or venue found, …).
    const listed = (await dashboardCall(page, 'GET', `/dashboard/api/integrations/${row.id}/log?limit=100`)).body.data as { outcome: string; retryable: boolean }[];
    expect(listed.filter((e) => e.retryable).map((e) => e.outcome)).toEqual(expect.arrayContaining(['failed', 'unmatched_guest', 'unknown_location']));
    expect(listed.find((e) => e.outcome === 'bad_signature')!.retryable).toBe(false);
    for (const entry of listed) {
      const buttons = log.locator(`tr[data-outcome="${entry.outcome}"]`).getByRole('button', { name: /^Try again/ });
      expect(await buttons.count(), entry.outcome).toBe(entry.retryable ? 1 : 0);
    }
    await shot(page, 'point-of-sale');

    await unmatched.getByRole('button', { name: /^Try again/ }).click();
    await log.locator('tr[data-outcome="queued"]').nth(1).waitFor();
    expect(await log.locator('tr[data-outcome="unmatched_guest"]').count()).toBe(0);
    const entries = (await dashboardCall(page, 'GET', `/dashboard/api/integrations/${row.id}/log?limit=100`)).body.data as { outcome: string; provider_ids: Record<string, string> }[];
    expect(entries.find((e) => e.provider_ids.customer_id === 'CUST-NOBODY')).toMatchObject({ outcome: 'queued' });
    expect(await seriousViolations(page)).toEqual([]);
  });

  chromiumGate.it('fits a 390 px phone: the connection, its log, and the steps of connecting', async () => {
    const phone = await phoneLike(browser, page);
    await phone.goto(`${baseUrl}/dashboard/point-of-sale`);
    const card = phone.getByRole('region', { name: 'Harbour tills' });
    await card.getByTestId('failing-banner').waitFor();
    await card.getByText(WORDS.queued!).first().waitFor();
    await card.getByRole('button', { name: 'Load more' }).click();
    await card.getByText(WORDS.bad_signature!).waitFor();
    expect(await overflowing(phone)).toEqual([]);
    await shot(phone, 'mobile-point-of-sale');

    // Try again works on the phone too (the rows stack into cards).
    const failed = card.locator('tr[data-outcome="failed"]');
    await failed.getByRole('button', { name: /^Try again/ }).click();
    await failed.waitFor({ state: 'detached' });

    await phone.getByRole('button', { name: 'Connect a point of sale' }).click();
    const wizard = phone.getByRole('region', { name: 'Connect Square' });
    await wizard.getByLabel(L('Name')).fill('Phone tills');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByLabel(L('Access token')).fill('EAAAl-phone-token-PH0N');
    await wizard.getByLabel(L('Webhook signature key')).fill('phone-signature-key');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByTestId('location-row').first().getByLabel(L('Square location ID')).fill('LPHONE');
    await pickOption(phone, wizard.getByTestId('location-row').first().getByLabel(L('Venue')), 'Harbour Quay');
    expect(await overflowing(phone)).toEqual([]);
    await shot(phone, 'mobile-point-of-sale-connect');
    await wizard.getByRole('button', { name: 'Connect' }).click();
    await wizard.getByTestId('endpoint-url-refused').waitFor();
    expect(await overflowing(phone)).toEqual([]);
    await shot(phone, 'mobile-point-of-sale-url-refused');
    await wizard.getByRole('button', { name: 'Done' }).click();
    await phone.getByRole('region', { name: 'Phone tills' }).waitFor();
    await phone.close();

    // axe at the phone's width as well.
    const axePage = await browser.newPage({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    await axePage.context().addCookies(await page.context().cookies());
    await axePage.goto(`${baseUrl}/dashboard/point-of-sale`);
    await axePage.getByRole('region', { name: 'Phone tills' }).waitFor();
    await axePage.waitForLoadState('networkidle');
    expect(await seriousViolations(axePage)).toEqual([]);
    await axePage.close();
  });

  chromiumGate.it('with a public PUBLIC_BASE_URL the URL is shown with a copy button (the answer rewritten as such a server gives it)', async () => {
    // The test app is on localhost; its list is answered as a server on the internet would answer it.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    await context.addCookies(await page.context().cookies());
    const p = await context.newPage();
    p.setDefaultTimeout(10_000);
    await p.route('**/dashboard/api/integrations', async (route) => {
      const answer = await route.fetch();
      const body = JSON.parse(await answer.text());
      const publicly = (i: { endpoint_url: string }) => ({
        ...i,
        endpoint_url: i.endpoint_url.replace('http://localhost:3000', 'https://loyalty.example.com'),
        public_base_url: 'https://loyalty.example.com',
        public_base_url_is_local: false,
      });
      await route.fulfill({ response: answer, json: { ...body, public_base_url: 'https://loyalty.example.com', public_base_url_is_local: false, data: body.data.map(publicly) } });
    });
    await p.goto(`${baseUrl}/dashboard/point-of-sale`);
    const card = p.getByRole('region', { name: 'Harbour tills' });
    const url = `https://loyalty.example.com/integrations/square/${state.integrationId}`;
    await card.getByTestId('endpoint-url').getByText(url).waitFor();
    expect(await card.getByTestId('endpoint-url-refused').count()).toBe(0);
    expect(await card.getByTestId('endpoint-url').textContent()).toContain('payment.created');
    await card.getByRole('button', { name: 'Copy URL' }).click();
    await card.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await shot(p, 'point-of-sale-url');
    await context.close();
  });

  chromiumGate.it('deletes a connection after asking; what it applied stays', async () => {
    await page.goto(`${baseUrl}/dashboard/point-of-sale`);
    const card = page.getByRole('region', { name: 'Phone tills' });
    await card.getByRole('button', { name: 'Delete Phone tills' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Phone tills' });
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.getByRole('button', { name: 'Delete Phone tills' }).click();
    await dialog.getByRole('button', { name: 'Delete connection' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Harbour tills' }).waitFor();
    const names = (await dashboardCall(page, 'GET', '/dashboard/api/integrations')).body.data.map((i: { name: string }) => i.name);
    expect(names).toEqual(['Harbour tills']);
  });

  for (const width of [1280, 390]) {
    chromiumGate.it(`at ${width} px, staff have no Point of sale in their menu and the API refuses them`, async () => {
      const email = newEmail();
      await accounts.createOwner(t.db, { chainId: state.chainId!, venueId: state.venueId!, email, password: PASSWORD, role: 'staff' });
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const sp = await context.newPage();
      sp.setDefaultTimeout(10_000);
      expect((await sp.request.post(`${baseUrl}/dashboard/api/session`, { data: { email, password: PASSWORD } })).status()).toBe(200);
      await sp.goto(`${baseUrl}/dashboard/members`);
      if (width < 768) await sp.getByRole('button', { name: 'Menu' }).click();
      await sp.locator('nav[aria-label="Pages"] a', { hasText: /^Members$/ }).waitFor();
      expect(await sp.locator('nav[aria-label="Pages"] a', { hasText: /^Point of sale$/ }).count()).toBe(0);
      const refused = await sp.request.get(`${baseUrl}/dashboard/api/integrations`);
      expect(refused.status()).toBe(403);
      expect((await refused.json()).error.code).toBe('role_forbidden');
      const retry = await dashboardCall(sp, 'POST', `/dashboard/api/integrations/${state.integrationId}/log/${state.integrationId}/retry`);
      expect([retry.status, retry.body.error.code]).toEqual([403, 'role_forbidden']);
      // Opened by its address anyway: the page says the role does not open it, and shows nothing of the connection.
      await sp.goto(`${baseUrl}/dashboard/point-of-sale`);
      await sp.getByRole('heading', { name: 'Not open to your role' }).waitFor();
      await sp.getByText(/your role does not open Point of sale\./).waitFor();
      expect(await sp.getByText('Harbour tills').count()).toBe(0);
      expect(await sp.getByRole('button', { name: 'Connect a point of sale' }).count()).toBe(0);
      if (width === 390) await shot(sp, 'mobile-point-of-sale-staff');
      await context.close();
    });
  }
});

chromiumGate.describe('connecting Toast from the Point of sale page', () => {
  // A server on the internet, as Toast needs: its URL is offered, not refused as localhost's would be.
  const PUBLIC = 'https://loyalty.example.com';
  let app: TestApp;
  let toastBrowser: Browser;
  let owner: Page;
  let url: string;
  const toastState: { venueId?: string; terraceId?: string; restaurant?: string; integrationId?: string; key?: string; phone?: string; memberId?: string } = {};

  /** Toast's till looking a guest up by phone, as Toast sends it. */
  const search = async (key: string, restaurant = toastState.restaurant!) => {
    const headers = toastHeaders({ type: 'LOYALTY_SEARCH', restaurant, authorization: key });
    const res = await client(app, null).post(`/integrations/toast/${toastState.integrationId}`, JSON.stringify(searchBody({ phone: toastState.phone! })), headers);
    expect(toastResponseValidator()(res.body), JSON.stringify(res.body)).toEqual([]);
    return res;
  };

  beforeAll(async () => {
    app = await startTestApp({ config: { publicBaseUrl: PUBLIC } });
    ({ baseUrl: url, browser: toastBrowser } = await openDashboard(app));
    const context = await toastBrowser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'], bypassCSP: true });
    owner = await context.newPage();
    owner.setDefaultTimeout(10_000);
    const signup = await signUpThrough(owner.request, url, { venue_name: 'Quayside Grill', email: newEmail(), password: PASSWORD });
    expect(signup.status()).toBe(200);
    toastState.venueId = (await signup.json()).venue.id;
    const session = await (await owner.request.get(`${url}/dashboard/api/session`)).json();
    const headers = { 'x-csrf-token': session.csrf_token };
    const terrace = await owner.request.post(`${url}/dashboard/api/venues`, { data: { name: 'Quayside Terrace', slug: `quayside-terrace-${Date.now().toString(36)}` }, headers });
    expect(terrace.status()).toBe(201);
    toastState.terraceId = (await terrace.json()).venue.id;
    expect((await owner.request.put(`${url}/dashboard/api/session/venue`, { data: { venue_id: toastState.venueId }, headers })).status()).toBe(200);
    // A member of the Grill with a phone, enrolled as a till would.
    const venue = (await accounts.findVenue(app.db, toastState.venueId!))!;
    const api = client(app, (await createKey(app, venue, { livemode: true })).secret);
    toastState.phone = `087${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
    const member = await api.post('/api/v1/members', { card_number: newCardNumber(), phone: toastState.phone, consent: true, name: 'Ciara Doyle' });
    expect(member.status).toBe(201);
    toastState.memberId = member.body.id;
  }, 300_000);
  afterAll(async () => {
    await toastBrowser?.close();
    await app?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && owner) await shot(owner, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  chromiumGate.it('at 1280 px: Toast step by step, the URL and the generated key once, a restaurant mapped; Toast finds a member with that key', async () => {
    await owner.goto(`${url}/dashboard/point-of-sale`);
    await owner.getByText('No point of sale connected yet.').waitFor();
    await owner.getByRole('button', { name: 'Connect a point of sale' }).click();
    await owner.getByRole('region', { name: 'Connect Square' }).getByLabel('Toast', { exact: true }).check();
    const wizard = owner.getByRole('region', { name: 'Connect Toast' });

    // 1. Toast, and a name (Toast's own until one is typed).
    expect(await wizard.getByLabel(L('Name')).inputValue()).toBe('Toast');
    await wizard.getByLabel(L('Name')).fill('Quayside tills');
    await shot(owner, 'point-of-sale-toast-1-name');
    await wizard.getByRole('button', { name: 'Next' }).click();

    // 2. The API key: a pasted one is held to Toast's limits in words; generated is the default.
    expect(await wizard.getByLabel('Generate a key').isChecked()).toBe(true);
    expect(await wizard.textContent()).toContain('public key (JWT) is deprecated: it is set from the API or the command line only');
    await shot(owner, 'point-of-sale-toast-2-key');
    await wizard.getByLabel('Paste a key').check();
    await wizard.getByLabel(L('Toast API key')).fill('too-short');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('A key is 16 to 255 characters; this one is 9.').waitFor();
    await wizard.getByLabel('Generate a key').check();
    await wizard.getByRole('button', { name: 'Next' }).click();

    // 3. A restaurant: its GUID typed in; one that is not a GUID is refused by the server beside the row.
    const rows = wizard.getByTestId('location-row');
    await rows.nth(0).getByLabel(L('Toast restaurant GUID')).fill('Quayside-1');
    await pickOption(owner, rows.nth(0).getByLabel(L('Venue')), 'Quayside Grill');
    await wizard.getByRole('button', { name: 'Connect' }).click();
    await rows.nth(0).getByText('quayside-1 is not a Toast restaurant GUID').waitFor();
    await shot(owner, 'point-of-sale-toast-3-refused');
    toastState.restaurant = randomUUID();
    // Typed as someone might copy it, in capitals: saved as Toast writes it.
    await rows.nth(0).getByLabel(L('Toast restaurant GUID')).fill(toastState.restaurant.toUpperCase());
    await shot(owner, 'point-of-sale-toast-3-restaurants');
    await wizard.getByRole('button', { name: 'Connect' }).click();

    // 4. What to send Toast: the URL and the key, this once, each with its copy button.
    const endpoint = wizard.getByTestId('endpoint-url');
    await endpoint.waitFor();
    const [stored] = (await (await owner.request.get(`${url}/dashboard/api/integrations`)).json()).data;
    toastState.integrationId = stored.id;
    const endpointUrl = `${PUBLIC}/integrations/toast/${stored.id}`;
    await endpoint.getByText(endpointUrl).waitFor();
    expect(await endpoint.textContent()).toContain('Send this URL to Toast’s integrations team');
    const key = (await wizard.getByTestId('generated-api-key').textContent())!.trim();
    toastState.key = key;
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stored).toMatchObject({ provider: 'toast', name: 'Quayside tills', locations: { [toastState.restaurant]: toastState.venueId }, settings: { api_key: `…${key.slice(-4)}` } });
    await wizard.getByRole('button', { name: 'Copy URL' }).click();
    expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(endpointUrl);
    await wizard.getByRole('button', { name: 'Copy key' }).click();
    expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shot(owner, 'point-of-sale-toast-4-send');
    // Away from the copy button, whose hover shade is not what is read.
    await owner.mouse.move(0, 0);
    expect(await seriousViolations(owner)).toEqual([]);
    await wizard.getByRole('button', { name: 'Done' }).click();
    await wizard.waitFor({ state: 'detached' });

    // Toast's till, with that key at that restaurant, finds the member.
    const found = await search(key);
    expect([found.status, found.body.transactionStatus]).toEqual([200, 'ACCEPT']);
    expect(found.body.searchResponse.accounts).toEqual([expect.objectContaining({ identifier: toastState.memberId, firstName: 'Ciara' })]);

    // The key is never on the page again: …last4 only.
    const card = owner.getByRole('region', { name: 'Quayside tills' });
    expect(await card.getByTestId('secret-api_key').textContent()).toContain(`…${key.slice(-4)}`);
    expect(await owner.content()).not.toContain(key);
    expect(await card.getByTestId('location-row').getByLabel(L('Toast restaurant GUID')).inputValue()).toBe(toastState.restaurant);
    await card.getByTestId('endpoint-url').getByText(endpointUrl).waitFor();
  });

  chromiumGate.it('at 1280 px: a wrong key in the log in Toast’s words, pause and resume reach Toast, a new key generated and shown once', async () => {
    await owner.goto(`${url}/dashboard/point-of-sale`);
    const card = owner.getByRole('region', { name: 'Quayside tills' });
    const wrong = await search('not-the-key-0123456789');
    expect([wrong.status, wrong.body]).toEqual([400, { transactionStatus: 'ERROR_INVALID_TOKEN' }]);
    await card.getByRole('button', { name: 'Refresh' }).click();
    const refused = card.locator('tr[data-outcome="bad_signature"]');
    await refused.getByText('Refused: not sent with this connection’s API key').waitFor();
    expect(await refused.textContent()).toContain('Call from Toast');
    expect(await refused.getByRole('button', { name: /^Try again/ }).count()).toBe(0);

    await card.getByRole('button', { name: 'Pause Quayside tills' }).click();
    await card.getByTestId('paused-note').getByText('Toast’s tills are told the restaurant is not known').waitFor();
    expect((await search(toastState.key!)).body).toEqual({ transactionStatus: 'ERROR_INVALID_RESTAURANT' });
    await card.getByRole('button', { name: 'Resume Quayside tills' }).click();
    await card.getByRole('button', { name: 'Pause Quayside tills' }).waitFor();
    expect((await search(toastState.key!)).status).toBe(200);

    await card.getByRole('button', { name: 'Replace API key' }).click();
    await card.getByRole('button', { name: 'Generate a new key' }).click();
    const dialog = owner.getByRole('dialog', { name: 'New API key for Quayside tills' });
    const newKey = (await dialog.getByTestId('generated-secret').textContent())!.trim();
    expect(newKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await shot(owner, 'point-of-sale-toast-new-key');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.getByTestId('secret-api_key').getByText(`…${newKey.slice(-4)}`).waitFor();
    expect(await owner.content()).not.toContain(newKey);
    expect((await search(toastState.key!)).body).toEqual({ transactionStatus: 'ERROR_INVALID_TOKEN' });
    expect((await search(newKey)).status).toBe(200);
    await shot(owner, 'point-of-sale-toast');
  });

  chromiumGate.it('at 390 px: every step of connecting Toast, and the connection, fit the screen', async () => {
    const phone = await phoneLike(toastBrowser, owner);
    await phone.goto(`${url}/dashboard/point-of-sale`);
    await phone.getByRole('region', { name: 'Quayside tills' }).waitFor();
    expect(await overflowing(phone)).toEqual([]);
    await phone.getByRole('button', { name: 'Connect a point of sale' }).click();
    await phone.getByRole('region', { name: 'Connect Square' }).getByLabel('Toast', { exact: true }).check();
    const wizard = phone.getByRole('region', { name: 'Connect Toast' });
    const step = async (n: number, name: string) => {
      expect(await wizard.getByTestId('wizard-step').textContent()).toContain(`Step ${n} of 4`);
      expect(await overflowing(phone)).toEqual([]);
      await shot(phone, `mobile-point-of-sale-toast-${n}-${name}`);
    };
    await wizard.getByLabel(L('Name')).fill('Terrace tills');
    await step(1, 'name');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByLabel('Generate a key').waitFor();
    await step(2, 'key');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByTestId('location-row').first().getByLabel(L('Toast restaurant GUID')).fill(randomUUID());
    await pickOption(phone, wizard.getByTestId('location-row').first().getByLabel(L('Venue')), 'Quayside Terrace');
    await step(3, 'restaurants');
    await wizard.getByRole('button', { name: 'Connect' }).click();
    await wizard.getByTestId('generated-api-key').waitFor();
    await wizard.getByTestId('endpoint-url').waitFor();
    await step(4, 'send');
    await wizard.getByRole('button', { name: 'Done' }).click();
    const card = phone.getByRole('region', { name: 'Terrace tills' });
    await card.waitFor();
    expect(await overflowing(phone)).toEqual([]);
    await shot(phone, 'mobile-point-of-sale-toast');
    await phone.close();
  });
});
