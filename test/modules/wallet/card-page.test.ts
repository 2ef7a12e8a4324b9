// The guest's card page (D23): the link the API gives opens the card with its barcode and balance and both wallet
// buttons, in Chromium at 390 px; its pass and Google buttons work without a key; a tampered or renewed-away token,
// or another member's id, opens nothing; the page sends no referrer.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber, seedLedger } from '../../support/factories.js';
import { client, ok } from '../../support/http.js';
import { CHROMIUM, needs } from '../../support/services.js';
import { appleSettings, googleServiceAccount, throwAwayCertificates } from '../../support/wallet.js';

const ARTIFACTS = path.resolve(import.meta.dirname, '../../../test-artifacts');
const chromiumGate = await needs('chromium');
const certs = throwAwayCertificates();
const t = useTestApp({
  config: {
    appleWallet: appleSettings(certs),
    googleWallet: { issuerId: '3388000000033333333', serviceAccountFile: googleServiceAccount().file, apiUrl: 'http://127.0.0.1:9' },
  },
});

/** Every card link token a test of this file was given: none may reach the log. */
const tokensGiven: string[] = [];

async function memberWithLink() {
  const venue = await createVenue(t, { currency: 'EUR', locale: 'en-IE' });
  await createProgram(t, venue, 'cashback', { isDefault: true });
  const api = client(t, (await createKey(t, venue)).secret);
  const card = newCardNumber();
  const member = ok(await api.post('/api/v1/members', { card_number: card, consent: true }), 'enrol').body;
  await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: 1_234 });
  const link = ok(await api.get(`/api/v1/members/${member.id}/card_link`), 'card link').body;
  const url = new URL(link.url);
  tokensGiven.push(url.searchParams.get('t')!);
  return { api, card, member, link, path: url.pathname, t: url.searchParams.get('t')! };
}

const open = (url: string) => t.app.inject({ url });
const tampered = (token: string) => (token.endsWith('A') ? `${token.slice(0, -1)}B` : `${token.slice(0, -1)}A`);

describe('the card link', () => {
  it('is the same until renewed; a renewed one opens the card and the old one opens nothing', async () => {
    const m = await memberWithLink();
    expect(m.link).toEqual({ object: 'card_link', url: `${t.config.publicBaseUrl}/card/${m.member.id}?t=${m.t}` });
    expect(ok(await m.api.get(`/api/v1/members/${m.member.id}/card_link`), 'again').body).toEqual(m.link);
    const page = await open(`${m.path}?t=${m.t}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');

    const renewed = ok(await m.api.post(`/api/v1/members/${m.member.id}/card_link`), 'renew').body;
    tokensGiven.push(new URL(renewed.url).searchParams.get('t')!);
    expect(renewed.url).not.toBe(m.link.url);
    expect((await open(`${m.path}?t=${m.t}`)).statusCode).toBe(404);
    expect((await open(new URL(renewed.url).pathname + new URL(renewed.url).search)).statusCode).toBe(200);
  });

  it('a tampered token, none, or another member with this token opens nothing, the same page for each', async () => {
    const [m, other] = [await memberWithLink(), await memberWithLink()];
    const refusals = await Promise.all([`${m.path}?t=${tampered(m.t)}`, m.path, `/card/${other.member.id}?t=${m.t}`, `${m.path}/pass.pkpass?t=${tampered(m.t)}`, `${m.path}/google`].map(open));
    for (const res of refusals) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('This card link does not work.');
      expect(res.body).not.toContain(m.card);
    }
  });

  it("its buttons' targets work without a key: the pass, and a redirect to Google's save page", async () => {
    const m = await memberWithLink();
    const pass = await open(`${m.path}/pass.pkpass?t=${m.t}`);
    expect(pass.statusCode).toBe(200);
    expect(pass.headers['content-type']).toBe('application/vnd.apple.pkpass');
    const google = await open(`${m.path}/google?t=${m.t}`);
    expect(google.statusCode).toBe(303);
    expect(String(google.headers.location).startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
  });
});

describe('the log', () => {
  it('has a line for each card page request, and none holds a link token', async () => {
    const lines = readFileSync(path.join(inject('testLogDir'), `app-${process.pid}.log`), 'utf8').split('\n');
    const pageLines = lines.filter((l) => l.includes('"url":"/card/'));
    expect(pageLines.length).toBeGreaterThan(5);
    expect(tokensGiven.length).toBeGreaterThan(3);
    for (const token of tokensGiven) expect(lines.filter((l) => l.includes(token))).toEqual([]);
  });
});

chromiumGate.describe('the card page in a browser', () => {
  let browser: Browser;
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the barcode, the balance and both buttons on a 390 px phone; a tampered token shows neither', async () => {
    const m = await memberWithLink();
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    await page.goto(`${baseUrl}${m.path}?t=${m.t}`);
    expect(await page.locator('#points').textContent()).toBe('€12.34');
    const barcode = page.getByRole('img', { name: `Card barcode ${m.card}` });
    expect(await barcode.locator('svg').isVisible()).toBe(true);
    expect((await barcode.locator('svg').boundingBox())!.width).toBeGreaterThan(150);
    expect(await page.getByRole('link', { name: 'Add to Apple Wallet' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Save to Google Wallet' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'card-page.png'), fullPage: true });

    const refused = await page.goto(`${baseUrl}${m.path}?t=${tampered(m.t)}`);
    expect(refused!.status()).toBe(404);
    expect(await page.getByText('This card link does not work.').isVisible()).toBe(true);
    expect(await page.locator('svg').count()).toBe(0);
    expect(await page.getByRole('link').count()).toBe(0);
    await page.close();
  });
});
