// The dashboard's operational pages in a real browser: transactions (filters, a transaction, CSV), webhooks,
// overview, menu and tables, and the live orders board; each page at 1280 px and on a 390 px phone.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client } from '../support/http.js';
import { startReceiver } from '../support/receiver.js';
import { needs } from '../support/services.js';
import { L, openDashboard, phoneLike, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

// Webhook endpoints point at a receiver on loopback.
const t = useTestApp({ config: { webhookAllowPrivateUrls: true } });
let browser: Browser;
let page: Page;
let baseUrl: string;
const state: { live?: ReturnType<typeof client>; test?: ReturnType<typeof client>; txId?: string; memberId?: string } = {};
/** Phone screenshots taken at the end: route, its heading, the screenshot's name. */
const phonePages: [string, string | RegExp, string][] = [];

/** Calls the dashboard API as the signed-in browser does (cookie and CSRF token). */
async function dashboardCall(method: 'GET' | 'POST', url: string, data?: unknown) {
  const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
  const res = await page.request.fetch(`${baseUrl}${url}`, { method, data, headers: { 'x-csrf-token': session.csrf_token } });
  return { status: res.status(), body: await res.json() };
}

chromiumGate.describe('operational dashboard pages in a browser', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
    // Signed up through the API in the browser's own context, so the page has the session cookie.
    const signup = await signUpThrough(page.request, baseUrl, { venue_name: 'The Quay Kitchen', email: newEmail(), password: PASSWORD });
    expect(signup.status()).toBe(200);
    const key = async (livemode: boolean) =>
      (await dashboardCall('POST', '/dashboard/api/api-keys', { name: livemode ? 'Till live' : 'Till test', livemode, scopes: [] })).body.secret as string;
    state.live = client(t, await key(true));
    state.test = client(t, await key(false));
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  chromiumGate.it('transactions: filters, a transaction with its lines and display text, CSV export', async () => {
    const { live, test } = state as Required<typeof state>;
    const member = await live.post('/api/v1/members', { card_number: 'Q-100', consent: true, name: 'Siobhan Walsh' });
    state.memberId = member.body.id;
    expect((await dashboardCall('POST', '/dashboard/api/categories', { external_id: 'wine', name: 'Wine', cashback_percent: 10 })).status).toBe(201);
    const lines = [
      { sku: 'CHOWDER', name: 'Seafood chowder', quantity: 1, unit_price: 1450 },
      { name: 'Glass of Albariño', category: 'wine', quantity: 2, unit_price: 900 },
    ];
    const checks = [
      await live.post('/api/v1/checks', { external_id: 'Q-0001', register_id: 'bar', closed_at: '2026-11-21T19:30:00.000Z', card_number: 'Q-100', line_items: lines }),
      await live.post('/api/v1/checks', { external_id: 'Q-0002', register_id: 'floor', closed_at: '2026-11-22T09:15:00.000Z', card_number: 'Q-100', line_items: lines.slice(0, 1), redeem_amount: 100 }),
      await test.post('/api/v1/checks', { external_id: 'TEST-1', register_id: 'bar', line_items: lines.slice(0, 1) }),
    ];
    for (const c of checks) expect(c.status).toBe(201);
    state.txId = checks[0]!.body.id;

    await page.goto(`${baseUrl}/dashboard/transactions`);
    const table = page.getByRole('table', { name: 'Transactions' });
    await table.locator('tr[data-external-id="TEST-1"]').waitFor();
    expect(await table.locator('tbody tr').count()).toBe(3);
    await page.locator('.mantine-SegmentedControl-label', { hasText: /^Live$/ }).click();
    await table.locator('tr[data-external-id="TEST-1"]').waitFor({ state: 'detached' });
    await page.getByRole('combobox', { name: 'Register' }).click();
    await page.getByRole('option', { name: 'bar', exact: true }).click();
    await page.waitForURL(/register_id=bar/);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'All registers' }).click();
    await page.waitForURL((u) => !u.searchParams.has('register_id'));
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    await page.getByLabel(L('From')).fill('2026-11-22');
    await page.waitForURL(/from=2026-11-22/);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(await table.locator('tbody tr').first().getAttribute('data-external-id')).toBe('Q-0002');
    await page.getByLabel(L('From')).fill('');
    await page.waitForURL((u) => !u.searchParams.has('from'));
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    await shot(page, 'transactions');

    // The export is the filtered list: live checks only.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
    expect(csv).toHaveLength(3);
    expect(csv[1]).toContain(',Q-0002,floor,');
    expect(csv.join('\n')).not.toContain('TEST-1');

    await table.getByRole('link', { name: 'Q-0001' }).click();
    await page.getByRole('heading', { name: 'Check Q-0001' }).waitFor();
    const linesTable = page.getByRole('table', { name: 'Lines' });
    expect(await linesTable.locator('tbody tr').nth(1).textContent()).toContain('category');
    expect(await linesTable.locator('tbody tr').nth(0).textContent()).toContain('default');
    expect(await page.getByTestId('display-receipt').textContent()).toContain('Cashback earned: +€');
    expect(await page.getByText('Siobhan Walsh, Q-100').count()).toBe(1);
    await shot(page, 'transaction');
    phonePages.push(['transactions?from=2026-11-21', 'Transactions', 'transactions'], [`transactions/${state.txId}`, 'Check Q-0001', 'transactions-detail']);
  });

  chromiumGate.it("overview: today's and this month's figures, a 30-day chart, the outstanding cashback, test traffic apart", async () => {
    const { live } = state as Required<typeof state>;
    // A month of evening checks for the chart (the test's clock says it is 2026-11-22, 10:00 UTC).
    for (let i = 1; i <= 12; i++) {
      const closed = new Date(Date.UTC(2026, 10, 22 - i * 2, 20, 0));
      const res = await live.post('/api/v1/checks', {
        external_id: `EVE-${i}`,
        register_id: 'bar',
        closed_at: closed.toISOString(),
        card_number: 'Q-100',
        line_items: [{ name: 'Dinner', quantity: 1, unit_price: 2000 + i * 350 }],
        ...(i % 4 === 0 ? { redeem_amount: 300 } : {}),
      });
      expect(res.status).toBe(201);
    }
    // Rows take the database's clock; on the test's clock the member joined on the 1st.
    await t.db.updateTable('members').set({ created_at: new Date('2026-11-01T12:00:00Z') }).where('id', '=', state.memberId!).execute();
    const o = (await dashboardCall('GET', '/dashboard/api/overview')).body;
    expect(o.today_figures.live.checks).toBe(1);
    expect(o.today_figures.test.checks).toBe(1);

    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const today = page.getByTestId('today');
    await today.getByText('Checks').waitFor();
    expect(await today.textContent()).toContain(`Checks1Sales€13.50Cashback earned€0.67`);
    expect(await page.getByTestId('liability').textContent()).toBe(`€${(o.balances.live.liability / 100).toFixed(2)}`);
    expect(await page.getByTestId('test-traffic').textContent()).toContain('Checks11');
    await page.locator('.recharts-bar-rectangle').first().waitFor();
    expect(await page.locator('.recharts-bar-rectangle').count()).toBeGreaterThan(10);
    await shot(page, 'overview');
    phonePages.push(['overview', 'Overview', 'overview']);
  });

  chromiumGate.it('webhooks: register an endpoint, see why one is disabled, re-enable it, send test events', async () => {
    const receiver = await startReceiver();
    try {
      await page.goto(`${baseUrl}/dashboard/webhooks`);
      await page.getByText('No endpoints yet.').waitFor();
      await page.getByRole('button', { name: 'New endpoint' }).click();
      await page.getByRole('dialog').getByLabel(L('URL')).fill(`${receiver.url}?screen=kitchen`);
      await page.getByRole('dialog').getByLabel(L('Description')).fill('Kitchen screen');
      await page.getByRole('button', { name: 'Register endpoint' }).click();
      expect((await page.getByTestId('new-endpoint-secret').textContent())!.trim()).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Done' }).click();

      // A second endpoint, disabled for failures as the delivery worker does it.
      const other = await dashboardCall('POST', '/dashboard/api/webhook-endpoints', { url: `${receiver.url}?crm=1`, description: 'CRM sync' });
      const reason = 'Failing since 2026-11-19T08:00:00Z: 14 consecutive failed deliveries and none succeeded.';
      await t.db.updateTable('webhook_endpoints').set({ status: 'disabled', disabled_reason: reason }).where('id', '=', other.body.id).execute();
      receiver.respond((_req, res) => res.writeHead(503).end('busy'));
      await dashboardCall('POST', `/dashboard/api/webhook-endpoints/${other.body.id}/test`);
      receiver.respond((_req, res) => res.writeHead(200).end('ok'));
      await page.reload();
      const crm = page.locator(`[data-endpoint-url="${receiver.url}?crm=1"]`);
      await crm.getByTestId('disabled-reason').getByText(reason).waitFor();
      await crm.getByRole('cell', { name: '503', exact: true }).waitFor();
      await shot(page, 'webhook-disabled');
      await crm.getByRole('button', { name: 'Re-enable' }).click();
      await crm.getByTestId('disabled-reason').waitFor({ state: 'detached' });
      expect(await crm.locator('.mantine-Badge-root').first().textContent()).toBe('enabled');

      const kitchen = page.locator(`[data-endpoint-url="${receiver.url}?screen=kitchen"]`);
      await kitchen.getByRole('button', { name: /^Send test event/ }).click();
      await kitchen.getByTestId('test-result').getByText('Delivered: the endpoint answered 200.').waitFor();
      await kitchen.getByRole('cell', { name: '200', exact: true }).waitFor();
      expect(await kitchen.getByRole('table').textContent()).toMatch(/test\.ping.*\d+ ms/);
      expect(receiver.requests.filter((r) => JSON.parse(r.body).type === 'test.ping')).toHaveLength(2);

      // One more failure for the picture: the CRM's receiver is down again.
      receiver.respond((_req, res) => res.writeHead(503).end('busy'));
      await crm.getByRole('button', { name: /^Send test event/ }).click();
      await crm.getByTestId('test-result').getByText(/Not delivered/).waitFor();
      await shot(page, 'webhooks');
      phonePages.push(['webhooks', 'Webhooks', 'webhooks']);
    } finally {
      await receiver.close();
    }
  });

  chromiumGate.it('menu and tables: a table with its QR code and guest page link; a dish on the stop list', async () => {
    const { live } = state as Required<typeof state>;
    const synced = await live.post('/api/v1/menu/items/bulk', {
      items: [
        { external_id: 'chowder', name: 'Seafood chowder', category: 'Starters', price: 1450 },
        { external_id: 'hake', name: 'Pan-fried hake', category: 'Mains', price: 2600 },
        { external_id: 'tart', name: 'Lemon tart', category: 'Desserts', price: 750 },
      ],
    });
    expect(synced.status).toBe(200);
    await page.getByRole('link', { name: 'Menu and tables' }).click();
    await page.getByRole('heading', { name: 'Menu and tables' }).waitFor();
    for (const [name, code] of [['Window 4', 'window-4'], ['Terrace 1', '']] as const) {
      await page.getByLabel(L('Table name')).fill(name);
      await page.getByLabel(L('Code in the address')).fill(code);
      await page.getByRole('button', { name: 'Add table' }).click();
      await page.getByRole('heading', { name }).waitFor();
    }
    const card = page.locator('[data-table-code="window-4"]');
    const qr = card.getByRole('img', { name: 'QR code of Window 4' });
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    const slug = (await dashboardCall('GET', '/dashboard/api/session')).body.venue.slug;
    expect(await card.getByRole('link', { name: 'Open guest page' }).getAttribute('href')).toBe(`${t.config.publicBaseUrl}/m/${slug}/window-4`);
    expect(await card.getByRole('link', { name: 'PNG' }).getAttribute('href')).toBe('/dashboard/api/tables/window-4/qr.png?download=true');

    await page.getByRole('switch', { name: 'Lemon tart available' }).click({ force: true });
    await page.locator('tr[data-sku="tart"]', { hasText: 'stop list' }).waitFor();
    expect((await live.get('/api/v1/menu/items/tart')).body.available).toBe(false);
    await shot(page, 'menu');
    phonePages.push(['menu', 'Menu and tables', 'menu']);
  });

  chromiumGate.it('an order placed on the public page appears on the board without reload and is moved to accepted', async () => {
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    await page.locator('[data-column="New"]').getByText('None').waitFor();
    // A mark on this document: were the page reloaded, it would be gone.
    await page.evaluate(() => ((window as unknown as { boardMark: string }).boardMark = 'still here'));

    const slug = (await dashboardCall('GET', '/dashboard/api/session')).body.venue.slug;
    // A short phone: the thanks come below the dishes, where the basket bar sits.
    const guest = await browser.newPage({ viewport: { width: 390, height: 560 } });
    await guest.goto(`${baseUrl}/m/${slug}/window-4`);
    expect(await guest.getByText('Lemon tart').count()).toBe(0);
    await guest.getByRole('button', { name: 'Add Seafood chowder' }).click();
    await guest.getByRole('button', { name: 'Add Pan-fried hake' }).click();
    await guest.getByRole('button', { name: 'Add Pan-fried hake' }).click();
    await guest.getByLabel('A note for the staff (optional)').fill('One hake without butter');
    await guest.getByRole('button', { name: 'Send order' }).click();
    const thanks = guest.getByText(/Thank you! Your order/);
    await thanks.waitFor();
    // Whole, above the basket bar (not scrolled to the viewport's bottom edge, under it).
    await guest.waitForTimeout(300);
    const [message, bar] = [await thanks.boundingBox(), await guest.locator('footer').boundingBox()];
    expect(message!.y + message!.height).toBeLessThanOrEqual(bar!.y);
    await guest.close();

    const card = page.locator('[data-column="New"] [data-status="new"]', { hasText: 'Window 4' });
    await card.waitFor({ timeout: 15_000 });
    expect(await card.textContent()).toContain('2 × Pan-fried hake');
    expect(await card.textContent()).toContain('€66.50');
    // The guest's note, on the board.
    expect(await card.textContent()).toContain('One hake without butter');
    await shot(page, 'orders-new');
    await card.getByRole('button', { name: 'Accept: Window 4' }).click();
    await page.locator('[data-column="Accepted"] [data-status="accepted"]', { hasText: 'Window 4' }).waitFor();
    expect(await page.locator('[data-column="New"] [data-status]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { boardMark?: string }).boardMark)).toBe('still here');
    const orders = (await state.live!.get('/api/v1/orders')).body.data;
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'accepted', table_name: 'Window 4', subtotal: 6650 });
    await shot(page, 'orders');
    phonePages.push(['orders', 'Orders', 'orders']);
  });

  chromiumGate.it('every new page fits a 390 px phone', async () => {
    const phone = await phoneLike(browser, page);
    for (const [route, heading, name] of phonePages) {
      await phone.goto(`${baseUrl}/dashboard/${route}`);
      await phone.getByRole('heading', { name: heading }).first().waitFor();
      await phone.waitForTimeout(300);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth), route).toBeLessThanOrEqual(390);
      await shot(phone, `mobile-${name}`);
    }
    await phone.close();
  });
});
