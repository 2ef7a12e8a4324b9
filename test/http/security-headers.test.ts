// The security headers of every surface (src/http/security-headers.ts), and each page loaded in Chromium under its
// Content-Security-Policy with no violation.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../support/app.js';
import { createTable, venueWithKey } from '../support/factories.js';
import { client } from '../support/http.js';
import { needs } from '../support/services.js';
import { L, launchChromium, ROOT } from '../dashboard/browser-support.js';
import { PASSWORD, signedUpOwner } from '../dashboard/support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let menuUrl: string;
let dashboardAssets: string[];

beforeAll(async () => {
  const index = readFileSync(path.join(ROOT, 'web/dist/index.html'), 'utf8');
  dashboardAssets = [...index.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  const { venue, secret } = await venueWithKey(t);
  await client(t, secret).post('/api/v1/menu/items/bulk', { items: [{ external_id: 'soup', name: 'Tomato soup', category: 'Starters', price: 650 }] });
  menuUrl = `/m/${venue.slug}/${(await createTable(t, venue, 'Table 1')).tableCode}`;
}, 120_000);

type Headers = Record<string, string | string[] | number | undefined>;

/** A Content-Security-Policy header as directive → sources. */
function directives(headers: Headers): Record<string, string[]> {
  const csp = headers['content-security-policy'];
  expect(csp, 'Content-Security-Policy').toBeTypeOf('string');
  return Object.fromEntries((csp as string).split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...sources]) => [name!, sources]));
}

/** What every answer carries whatever it is, page or not. */
function expectCommonHeaders(headers: Headers) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(directives(headers)['frame-ancestors']).toEqual(["'none'"]);
  expect(headers['strict-transport-security']).toBeUndefined();
}

/** A page's (or its assets') policy: own scripts only, never inline or eval; nothing embeds it. */
function expectPageHeaders(headers: Headers, referrer = 'no-referrer') {
  expectCommonHeaders(headers);
  expect(headers['referrer-policy']).toBe(referrer);
  const csp = directives(headers);
  expect(csp['script-src']).toEqual(["'self'"]);
  expect(csp['default-src']).toEqual(["'self'"]);
  expect(csp['object-src']).toEqual(["'none'"]);
  expect(csp['base-uri']).toEqual(["'none'"]);
}

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode, url).toBeLessThan(500);
  return res;
};

describe('security headers on every surface', () => {
  it('the dashboard: its page under every path, and its built assets', async () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/members', ...dashboardAssets]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expectPageHeaders(res.headers, 'same-origin');
    }
    expect(dashboardAssets.some((a) => a.endsWith('.js')) && dashboardAssets.some((a) => a.endsWith('.css'))).toBe(true);
  });

  it('the API reference (Swagger UI), its assets and the document it reads', async () => {
    const page = await get('/api/docs/');
    expect(page.headers['content-type']).toContain('text/html');
    const assets = [...page.body.matchAll(/(?:src|href)="\.?(\/static\/[^"]+)"/g)].map((m) => `/api/docs${m[1]}`);
    expect(assets).toEqual(expect.arrayContaining(['/api/docs/static/swagger-ui-bundle.js', '/api/docs/static/swagger-initializer.js', '/api/docs/static/swagger-ui.css']));
    for (const url of ['/api/docs/', '/api/docs', ...assets, '/api/docs/json']) expectPageHeaders((await get(url)).headers);
  });

  it('the error reference at /api/errors', async () => {
    const res = await get('/api/errors');
    expect(res.headers['content-type']).toContain('text/html');
    expectPageHeaders(res.headers);
  });

  it("the guest's QR menu, its script, and its not-found page", async () => {
    for (const url of [menuUrl, '/m/assets/menu.js']) expectPageHeaders((await get(url)).headers);
    const missing = await get('/m/no-such-venue/no-such-table');
    expect(missing.statusCode).toBe(404);
    expectPageHeaders(missing.headers);
  });

  it('JSON answers, errors included: nosniff, a policy that lets nothing load or frame them, and the body as before', async () => {
    const { secret } = await venueWithKey(t);
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: `Bearer ${secret}` } }),
      await get('/api/v1/account'),
      await get('/api/v1/openapi.json'),
      await get('/dashboard/api/session'),
      await get('/api/v1/no-such-route'),
      await get('/healthz'),
      // Refused by the router before any route or hook runs: a path parameter that does not decode.
      await get('/api/v1/members/%zz'),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 200, 401, 404, 200, 400]);
    for (const res of answers) {
      expect(res.headers['content-type']).toContain('application/json');
      expect(() => res.json()).not.toThrow();
      expectCommonHeaders(res.headers);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(directives(res.headers)).toEqual({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
    }
  });

  it('Strict-Transport-Security only when PUBLIC_BASE_URL is https, then on every surface', async () => {
    const https = await startTestApp({ config: { publicBaseUrl: 'https://loyalty.example.com' } });
    try {
      for (const url of ['/dashboard/', '/api/docs/', '/api/errors', menuUrl, '/api/v1/account', '/healthz']) {
        const res = await https.app.inject({ method: 'GET', url });
        expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
        expect((await get(url)).headers['strict-transport-security'], url).toBeUndefined();
      }
    } finally {
      await https.close();
    }
  });
});

// Records every Content-Security-Policy violation: the DOM's event, listened for before any of the page's own
// scripts run, and the report Chromium writes to the console.
interface Watched {
  page: Page;
  console: string[];
}

async function watchedPage(browser: Browser): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(15_000);
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __violations: seen });
    window.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`));
  });
  const console: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) console.push(m.text());
  });
  return { page, console };
}

const violationsIn = (page: Page) => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);

/** Opens `url` and checks the document came with a policy. */
async function open(w: Watched, url: string) {
  const res = await w.page.goto(url);
  expect(res?.headers()['content-security-policy'], url).toContain("script-src 'self'");
}

/**
 * No violation so far, from the event or the console; then an inline script added to the page is refused and
 * counted by both, so the count above was taken under a policy that holds and by listeners that hear.
 */
async function expectNoViolations(w: Watched) {
  expect(await violationsIn(w.page)).toEqual([]);
  expect(w.console).toEqual([]);
  await w.page.evaluate(() => {
    const canary = document.createElement('script');
    canary.textContent = 'window.__inlineRan = true';
    document.head.append(canary);
  });
  await expect.poll(() => violationsIn(w.page)).toHaveLength(1);
  await expect.poll(() => w.console).toHaveLength(1);
  expect(await w.page.evaluate(() => '__inlineRan' in window)).toBe(false);
}

chromiumGate.describe('every page under its Content-Security-Policy in Chromium', () => {
  let browser: Browser;
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the dashboard: sign in, the overview, members, and the menu page with a QR code', async () => {
    const { c, email } = await signedUpOwner(t, 'Policy Bistro');
    expect((await c.post('/dashboard/api/tables', { name: 'Window 4' })).status).toBe(201);
    const w = await watchedPage(browser);
    const { page } = w;
    await open(w, `${baseUrl}/dashboard/`);
    await page.getByLabel(L('E-mail')).fill(email);
    await page.getByLabel(L('Password')).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Members', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Menu and tables' }).click();
    const qr = page.getByRole('img', { name: 'QR code of Window 4' });
    await qr.waitFor();
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expectNoViolations(w);
    await page.close();
  }, 60_000);

  it('the API reference: Swagger UI rendered, an operation opened', async () => {
    const w = await watchedPage(browser);
    const { page } = w;
    await open(w, `${baseUrl}/api/docs/`);
    await page.locator('.swagger-ui .info .title').waitFor();
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock.is-open .responses-wrapper').first().waitFor();
    await page.locator('.models').first().waitFor();
    await expectNoViolations(w);
    await page.close();
  }, 60_000);

  it('the error reference', async () => {
    const w = await watchedPage(browser);
    await open(w, `${baseUrl}/api/errors#route_not_found`);
    await w.page.getByRole('heading', { name: 'Error codes' }).waitFor();
    await expectNoViolations(w);
    await w.page.close();
  });

  it("the guest's QR menu, an order sent", async () => {
    const w = await watchedPage(browser);
    const { page } = w;
    await open(w, `${baseUrl}${menuUrl}`);
    await page.getByRole('button', { name: 'Add Tomato soup' }).click();
    await page.getByRole('button', { name: 'Send order' }).click();
    await page.getByText('Thank you! Your order (€6.50) was sent to the staff.').waitFor();
    await expectNoViolations(w);
    await page.close();
  });
});
