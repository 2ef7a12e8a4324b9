// One price per SKU on the Products page (issue 41): a product this venue's menu also has as a dish shows the dish's
// price, marked as the menu's, and never the catalogue's beside it; its form says where to change it. Screenshot:
// test-artifacts/dashboard-products.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { needs } from '../support/services.js';
import { openDashboard, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let baseUrl: string;
let page: Page;

async function dashboardPut(url: string, data: unknown) {
  const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
  const res = await page.request.put(`${baseUrl}${url}`, { data, headers: { 'x-csrf-token': session.csrf_token } });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

chromiumGate.describe('the Products page', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
    expect((await signUpThrough(page.request, baseUrl, { venue_name: 'Price Café', email: newEmail(), password: PASSWORD })).status()).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  chromiumGate.it('shows the menu’s price for a SKU the menu has, the catalogue’s for one it has not, never both', async () => {
    await dashboardPut('/dashboard/api/products/FLAT-WHITE', { name: 'Flat white', category: null, price: 350 });
    await dashboardPut('/dashboard/api/products/TEA', { name: 'Tea', category: null, price: 250 });
    await dashboardPut('/dashboard/api/dishes/FLAT-WHITE', { name: 'Flat white', price: 400 });
    await page.goto(`${baseUrl}/dashboard/products`);
    const flatWhite = page.locator('[data-sku="FLAT-WHITE"]');
    await flatWhite.getByText('€4.00 (menu)').waitFor();
    expect(await flatWhite.textContent()).not.toContain('€3.50');
    expect(await page.locator('[data-sku="TEA"]').textContent()).toContain('€2.50');
    await shot(page, 'products');
    await page.getByRole('button', { name: 'Edit Flat white' }).click();
    expect(await page.getByTestId('menu-price').textContent()).toBe('Priced on this venue’s menu at €4.00: change it under Menu and tables.');
  });
});
