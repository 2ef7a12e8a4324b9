// The menu in a real browser (D25), at 1280 and 390 px: the owner of a German venue types a dish's new price the way
// the venue writes euros ("12,50 €"), saves it, and the till's menu (the API) has 1250 cents; a price past the limit is
// refused beside its dish, with the limit in euros, and nothing is saved; removing a dish asks first. Screenshots:
// test-artifacts/dashboard-menu-price*.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client } from '../support/http.js';
import { needs } from '../support/services.js';
import { openDashboard, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let baseUrl: string;
let ownerEmail: string;
let till: ReturnType<typeof client>;

chromiumGate.describe('dish prices in the dashboard', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    ownerEmail = newEmail();
    const owner = await browser.newContext();
    const signup = await signUpThrough(owner.request, baseUrl, { venue_name: 'Café Berlin', email: ownerEmail, password: PASSWORD, currency: 'EUR', locale: 'de-DE', timezone: 'Europe/Berlin', country: 'DE' });
    expect(signup.status()).toBe(200);
    const key = await owner.request.post(`${baseUrl}/dashboard/api/api-keys`, { data: { name: 'Till', livemode: true, scopes: [] }, headers: { 'x-csrf-token': (await signup.json()).csrf_token } });
    till = client(t, (await key.json()).secret);
    for (const [sku, name, price] of [['KAFFEE', 'Kaffee', 280], ['KUCHEN', 'Kuchen', 390]] as const) {
      expect((await till.put(`/api/v1/menu/items/${sku}`, { name, category: 'Café', price })).status).toBe(201);
    }
    await owner.close();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  for (const [width, cents, typed, shown] of [[1280, 1250, '12,50', '12,50 €'], [390, 1375, '13,75', '13,75 €']] as const) {
    chromiumGate.it(`at ${width} px: a price typed in euros reaches the till as ${cents} cents`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      expect((await page.request.post(`${baseUrl}/dashboard/api/session`, { data: { email: ownerEmail, password: PASSWORD } })).status()).toBe(200);
      await page.goto(`${baseUrl}/dashboard/menu`);
      const price = page.getByLabel('Price of Kaffee');
      await price.waitFor();
      await price.fill(typed);
      await price.blur();
      expect((await price.inputValue()).replace(/\s/g, ' ')).toBe(shown);
      await page.getByRole('button', { name: 'Save 1 price' }).click();
      await page.getByRole('button', { name: 'Save 1 price' }).waitFor({ state: 'detached' });
      expect((await till.get('/api/v1/menu/items/KAFFEE')).body.price).toBe(cents);
      await shot(page, width === 1280 ? 'menu-price' : 'menu-price-phone');
      await context.close();
    });
  }

  chromiumGate.it('a price above the limit is refused beside its dish; nothing is saved', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.request.post(`${baseUrl}/dashboard/api/session`, { data: { email: ownerEmail, password: PASSWORD } });
    await page.goto(`${baseUrl}/dashboard/menu`);
    await page.getByLabel('Price of Kuchen').fill('2000000');
    await page.getByLabel('Price of Kaffee').fill('3');
    await page.getByRole('button', { name: 'Save 2 prices' }).click();
    await page.getByText('A dish can cost at most 1.000.000,00 €.').waitFor();
    // Not clamped: what was typed stays.
    expect((await page.getByLabel('Price of Kuchen').inputValue()).replace(/\s/g, ' ')).toBe('2.000.000,00 €');
    expect((await till.get('/api/v1/menu/items/KAFFEE')).body.price).toBe(1375);
    await context.close();
  });

  chromiumGate.it('removing a dish asks first: cancelled, it stays; confirmed, the till no longer finds it', async () => {
    expect((await till.put('/api/v1/menu/items/TORTE', { name: 'Torte', category: 'Café', price: 450 })).status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.request.post(`${baseUrl}/dashboard/api/session`, { data: { email: ownerEmail, password: PASSWORD } });
    await page.goto(`${baseUrl}/dashboard/menu`);
    await page.getByRole('button', { name: 'Remove Torte' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove Torte from the menu?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await till.get('/api/v1/menu/items/TORTE')).status).toBe(200);
    await page.getByRole('button', { name: 'Remove Torte' }).click();
    await dialog.getByRole('button', { name: 'Remove dish' }).click();
    await page.getByRole('button', { name: 'Remove Torte' }).waitFor({ state: 'detached' });
    expect((await till.get('/api/v1/menu/items/TORTE')).status).toBe(404);
    await context.close();
  });
});

