// The dashboard in a real browser (Playwright driving Debian's Chromium): an owner signs up and runs the venue's
// keys, rules, categories, programs and members; the API answers as the dashboard set it up. Screenshots go to test-artifacts/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client, expectError } from '../support/http.js';
import { needs } from '../support/services.js';
import { L, openDashboard, phoneLike, shot as shotOf } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let page: Page;
let baseUrl: string;
const state: { email?: string; till1?: string; till2?: string; memberId?: string } = {};

const shot = (name: string, p: Page = page) => shotOf(p, name);

/** Picks an option of a Mantine Select by the select's label. */
async function choose(label: string, option: string, scope: Page = page) {
  await scope.getByRole('dialog').getByLabel(L(label)).click();
  await scope.getByRole('option', { name: option, exact: true }).click();
}

chromiumGate.describe('owner dashboard in a browser', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  // A failing step leaves a picture of where it stood.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(`failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  chromiumGate.it('signs up a venue and its owner', async () => {
    state.email = newEmail();
    await page.goto(`${baseUrl}/dashboard/`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel(L('Venue name')).fill('The Harbour Bar');
    await page.getByLabel(L('E-mail')).fill(state.email);
    await page.getByLabel(L('Password')).fill('short');
    await page.getByRole('button', { name: 'Create venue' }).click();
    await page.getByText('At least 10 characters.').first().waitFor();
    await page.getByLabel(L('Password')).fill(PASSWORD);
    await shot('signup');
    await page.getByRole('button', { name: 'Create venue' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await expect(page.getByRole('heading', { name: 'The Harbour Bar' }).isVisible()).resolves.toBe(true);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'vl_dashboard')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/dashboard' });
  });

  chromiumGate.it('creates a till key, shows its secret once, and the key works against /api/v1/account', async () => {
    const create = async (name: string) => {
      await page.getByRole('button', { name: 'New API key' }).click();
      await page.getByLabel(L('Name')).fill(name);
      await page.getByRole('button', { name: 'Till', exact: true }).click();
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = (await page.getByTestId('new-key-secret').textContent())!.trim();
      expect(secret).toMatch(/^sk_test_[A-Za-z0-9]{38}$/);
      return secret;
    };
    state.till1 = await create('Till 1');
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
    await shot('key-secret');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.locator('tr[data-key-name="Till 1"]').waitFor();
    expect(await page.content()).not.toContain(state.till1);
    state.till2 = await create('Till 2');
    await page.getByRole('button', { name: 'Done' }).click();

    const account = await client(t, state.till1).get('/api/v1/account');
    expect(account.status).toBe(200);
    expect(account.body.api_key).toMatchObject({ name: 'Till 1', scopes: ['members:read', 'members:write', 'transactions:write'] });
    // The list shows prefix, scopes and last use, never the secret.
    await page.reload();
    const row = page.locator('tr[data-key-name="Till 1"]');
    await row.waitFor();
    expect(await row.textContent()).toContain(state.till1.slice(0, 12));
    expect(await row.textContent()).toContain('members:read, members:write, transactions:write');
    expect(await page.content()).not.toContain(state.till1.slice(12));
    await shot('keys');
  });

  chromiumGate.it("adjusts a member's balance with a reason and sees the history entry", async () => {
    const member = await client(t, state.till1!).post('/api/v1/members', { card_number: 'H-1001', consent: true, name: 'Aoife Byrne' });
    expect(member.status).toBe(201);
    state.memberId = member.body.id;
    await page.getByRole('link', { name: 'Members' }).click();
    // The search runs as it is typed; the list names each member, with their card beside.
    await page.getByLabel(L('Find a member')).fill('H-1001');
    await page.waitForURL(/q=H-1001/);
    await page.getByRole('table', { name: 'Members' }).getByRole('link', { name: 'Aoife Byrne' }).click();
    await page.getByRole('heading', { name: /Aoife Byrne/ }).waitFor();
    await page.getByLabel(L('Amount')).fill('20');
    await page.getByRole('button', { name: 'Adjust balance' }).click();
    await page.getByText('A reason is required.').waitFor();
    await page.getByLabel(L('Reason')).fill('Welcome gift');
    await page.getByRole('button', { name: 'Adjust balance' }).click();
    await page.getByRole('cell', { name: 'Welcome gift' }).waitFor();
    expect(await page.getByRole('table', { name: 'Activity' }).textContent()).toContain('€20.00');
    await shot('member');
    const history = await client(t, state.till1!).get(`/api/v1/members/${state.memberId}/history`);
    expect(history.body.data[0]).toMatchObject({ type: 'adjustment', cashback: 2000, reason: 'Welcome gift' });
  });

  chromiumGate.it("sets a member's birthday on their page: an impossible date is refused next to the field, a real one saved", async () => {
    await page.getByLabel(L('Birthday')).fill('02-30');
    await page.getByRole('button', { name: 'Save birthday' }).click();
    await page.getByText('birthday must be a real date').waitFor();
    expect((await client(t, state.till1!).get(`/api/v1/members/${state.memberId}`)).body.birthday).toBeNull();
    await page.getByLabel(L('Birthday')).fill('07-14');
    await page.getByRole('button', { name: 'Save birthday' }).click();
    await page.getByText('Birthday saved.').waitFor();
    expect((await client(t, state.till1!).get(`/api/v1/members/${state.memberId}`)).body.birthday).toBe('07-14');
  });

  chromiumGate.it("gives the member's card page link and a new one that retires it", async () => {
    const wallet = page.getByRole('region', { name: 'Wallet' });
    const link = wallet.getByRole('link', { name: 'open' });
    const first = (await link.getAttribute('href'))!;
    expect(first).toBe((await client(t, state.till1!).get(`/api/v1/members/${state.memberId}/card_link`)).body.url);
    expect(await wallet.getByText('Apple Wallet: on 0 devices · Google Wallet: not yet').isVisible()).toBe(true);
    // It asks first: cancelled, the link stays; confirmed, it changes.
    await wallet.getByRole('button', { name: 'New link (the old one stops working)' }).click();
    await page.getByRole('dialog', { name: 'Make a new card page link?' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await link.getAttribute('href')).toBe(first);
    await wallet.getByRole('button', { name: 'New link (the old one stops working)' }).click();
    await page.getByRole('dialog', { name: 'Make a new card page link?' }).getByRole('button', { name: 'Make a new link' }).click();
    await expect.poll(() => link.getAttribute('href')).not.toBe(first);
    const renewed = (await link.getAttribute('href'))!;
    expect((await t.app.inject({ url: first.replace(t.config.publicBaseUrl, '') })).statusCode).toBe(404);
    expect((await t.app.inject({ url: renewed.replace(t.config.publicBaseUrl, '') })).statusCode).toBe(200);
  });

  chromiumGate.it('a per-key rule redeem_only_via_holds makes that key alone get hold_required', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Rules of Till 1' }).click();
    const dialog = page.getByRole('dialog');
    await choose('Pay with cashback only through a hold', 'On');
    await shot('key-rules');
    await dialog.getByRole('button', { name: 'Save rules' }).click();
    await page.locator('tr[data-key-name="Till 1"]', { hasText: 'Pay with cashback only through a hold: on' }).waitFor();

    const check = (n: number) => ({ external_id: `T-${n}`, card_number: 'H-1001', line_items: [{ name: 'Lunch', quantity: 1, unit_price: 3000 }], redeem_amount: 500 });
    const refused = await client(t, state.till1!).post('/api/v1/checks', check(1));
    expect(expectError(refused, 400, 'hold_required').param).toBe('redeem_amount');
    const other = await client(t, state.till2!).post('/api/v1/checks', check(2));
    expect(other.status).toBe(201);
    expect(other.body.redeemed).toBe(500);
  });

  chromiumGate.it('changing a category rule changes a calculation', async () => {
    const calculate = async () =>
      (
        await client(t, state.till2!).post('/api/v1/checks/calculate', {
          card_number: 'H-1001',
          line_items: [{ name: 'House wine', category: 'wine', quantity: 2, unit_price: 800 }],
        })
      ).body;
    await page.getByRole('link', { name: 'Categories' }).click();
    await page.getByLabel(L('Code')).fill('wine');
    await page.getByLabel(L('Category name')).fill('Wine');
    await page.getByRole('button', { name: 'Add category' }).click();
    await page.getByRole('button', { name: 'Edit wine' }).waitFor();
    const before = await calculate();
    expect(before.earned).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Edit wine' }).click();
    await page.getByRole('dialog').getByLabel(L('Earns cashback')).uncheck({ force: true });
    await page.getByRole('dialog').getByRole('button', { name: 'Save category' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const after = await calculate();
    expect(after.earned).toBe(0);
    await shot('categories');
  });

  chromiumGate.it("edits a program's levels", async () => {
    await page.getByRole('link', { name: 'Programs' }).click();
    await page.getByRole('button', { name: /^Edit .*Rewards$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Add level' }).click();
    await dialog.getByLabel(L('Level name 2')).fill('Gold');
    // In euros, as the venue writes them: 500 is 50,000 cents.
    await dialog.getByLabel(L('From spend 2')).fill('500');
    await dialog.getByLabel(L('Percent 2')).fill('8');
    await shot('program-edit');
    await dialog.getByRole('button', { name: 'Save program' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Gold 8 % from €500.00').waitFor();
    const account = await client(t, state.till2!).get('/api/v1/account');
    expect(account.body.programs[0].settings.levels).toEqual([
      { name: 'Member', min_spend: 0, percent: 5 },
      { name: 'Gold', min_spend: 50000, percent: 8 },
    ]);
    await shot('programs');
  });

  chromiumGate.it('venue defaults reach the keys; the venue page is saved', async () => {
    await page.getByRole('link', { name: 'Venue and rules' }).click();
    await page.getByLabel(L('How long a hold lasts (seconds)')).fill('600');
    await page.getByRole('button', { name: 'Save venue' }).click();
    await page.getByText(/^Saved\./).waitFor();
    expect((await client(t, state.till2!).get('/api/v1/account')).body.settings.hold_ttl_seconds).toBe(600);
    await shot('venue');
  });

  chromiumGate.it('revokes a key in the UI; its next call gets 401 api_key_revoked', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Revoke Till 1' }).click();
    await page.getByRole('dialog').getByText('stops working at once').waitFor();
    await shot('key-revoke');
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.locator('tr[data-key-name="Till 1"]', { hasText: 'revoked' }).waitFor();
    expectError(await client(t, state.till1!).get('/api/v1/account'), 401, 'api_key_revoked');
    expect((await client(t, state.till2!).get('/api/v1/account')).status).toBe(200);
  });

  chromiumGate.it('every page fits a 390 px phone', async () => {
    const phone = await phoneLike(browser, page);
    for (const [route, heading] of [
      ['keys', 'API keys'],
      ['venue', 'Venue and rules'],
      ['categories', 'Categories'],
      ['programs', 'Programs'],
      ['members', 'Members'],
      [`members/${state.memberId}`, /Aoife Byrne/],
      ['account', 'Account'],
    ] as const) {
      await phone.goto(`${baseUrl}/dashboard/${route}`);
      await phone.getByRole('heading', { name: heading }).first().waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth), route).toBeLessThanOrEqual(390);
      if (route === 'keys') {
        // Rows stack into cards on a phone: a key's buttons are on the screen, not scrolled off to the right.
        for (const name of ['Rules of Till 2', 'Revoke Till 2']) {
          const box = (await phone.getByRole('button', { name }).boundingBox())!;
          expect(box.x + box.width, name).toBeLessThanOrEqual(390);
        }
      }
      await shot(`mobile-${route.split('/')[0]}${route.includes('/') ? '-detail' : ''}`, phone);
    }
    await phone.close();
  });

  chromiumGate.it('signs out and back in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel(L('E-mail')).fill(state.email!);
    await page.getByLabel(L('Password')).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The e-mail address or the password is wrong.').waitFor();
    await shot('signin');
    await page.getByLabel(L('Password')).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  });
});
