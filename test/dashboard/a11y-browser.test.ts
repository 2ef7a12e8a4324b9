// The main pages checked by axe-core in Chromium (D25), the four the issue names at 1280 and 390 px, the rest at 1280: no serious or critical violation of WCAG 2.1 A and AA on the
// overview, members, a member, the menu, API keys, users, campaigns and every other page of the menu, with data on
// the main ones; and every form field has a name a screen reader reads and can be reached with the keyboard.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client } from '../support/http.js';
import { needs } from '../support/services.js';
import { openDashboard, seriousViolations, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let page: Page;
let baseUrl: string;
let memberId: string;

/** Form fields with no accessible name, or taken out of the keyboard's reach. */
async function unlabelledOrUnreachable(p: Page): Promise<string[]> {
  return p.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('input:not([type=hidden]), select, textarea, button')]
      .filter((el) => el.offsetParent !== null)
      .flatMap((el) => {
        const named = (el.getAttribute('aria-label') ?? '') || (el.getAttribute('aria-labelledby') ?? '') || (el as HTMLInputElement).labels?.length || el.textContent?.trim() || el.getAttribute('title');
        const problems = [];
        if (!named) problems.push(`${el.outerHTML.slice(0, 80)} has no name`);
        if (el.tabIndex < 0 && !el.closest('[role=listbox], [role=menu]')) problems.push(`${el.outerHTML.slice(0, 80)} cannot be reached with the keyboard`);
        return problems;
      }),
  );
}

chromiumGate.describe('accessibility of the main pages', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    // The dashboard's Content-Security-Policy refuses inline scripts: the test page lets axe-core's own in.
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page.setDefaultTimeout(10_000);
    const signup = await signUpThrough(page.request, baseUrl, { venue_name: 'Axe Café', email: newEmail(), password: PASSWORD });
    expect(signup.status()).toBe(200);
    const csrf = (await signup.json()).csrf_token;
    const key = await page.request.post(`${baseUrl}/dashboard/api/api-keys`, { data: { name: 'Till', livemode: true, scopes: [] }, headers: { 'x-csrf-token': csrf } });
    const till = client(t, (await key.json()).secret);
    memberId = (await till.post('/api/v1/members', { card_number: 'AXE-1', consent: true, name: 'Ada' })).body.id;
    await till.put('/api/v1/menu/items/TEA', { name: 'Tea', category: 'Drinks', price: 250 });
    await till.post('/api/v1/checks', { external_id: 'AXE-CHECK-1', card_number: 'AXE-1', line_items: [{ sku: 'TEA', name: 'Tea', quantity: 2, unit_price: 250 }] });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  const pages: [name: string, path: string, ready: string][] = [
    ['overview', '/overview', 'Overview'],
    ['reports', '/reports', 'Reports'],
    ['members', '/members', 'Members'],
    ['a member', '/members/:member', 'Activity'],
    ['menu', '/menu', 'Dishes'],
    ['API keys', '/keys', 'API keys'],
    ['users', '/users', 'Users'],
    ['campaigns', '/campaigns', 'Campaigns'],
    ['programs', '/programs', 'Programs'],
    ['categories', '/categories', 'Categories'],
    ['products', '/products', 'Products'],
    ['venue and rules', '/venue', 'Venue and rules'],
    ['transactions', '/transactions', 'Transactions'],
    ['webhooks', '/webhooks', 'Webhooks'],
    ['orders', '/orders', 'Orders'],
    ['audit log', '/audit', 'Audit log'],
    ['account', '/account', 'Account'],
    ['brand', '/brand', 'Brand'],
  ];
  const MAIN = ['overview', 'members', 'a member', 'menu', 'API keys', 'brand'];
  for (const [name, path, heading] of pages) {
    for (const width of MAIN.includes(name) ? [1280, 390] : [1280]) {
      chromiumGate.it(`${name} at ${width} px: no serious axe violation; every field named and reachable`, async () => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${baseUrl}/dashboard${path.replace(':member', memberId)}`);
        await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
        await page.waitForLoadState('networkidle');
        expect(await seriousViolations(page)).toEqual([]);
        expect(await unlabelledOrUnreachable(page)).toEqual([]);
        await shot(page, `page-${name.replaceAll(' ', '-')}-${width}`);
      });
    }
  }
});
