// A member's data requests in a real browser: the owner downloads a member's export from their page, then erases
// them after typing the card number; the API no longer finds them. Screenshots at 1280 and 390 px go to
// docs/dashboard/ (member-privacy*.png).
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client, expectError } from '../support/http.js';
import { needs } from '../support/services.js';
import { ARTIFACTS, L, ROOT, openDashboard, phoneLike, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let page: Page;
let baseUrl: string;

const CARD = 'HB-4471';
const NAME = 'Róisín Gallagher';
const PHONE = '+353861112233';

/** A screenshot in test-artifacts/, kept in docs/dashboard/ too: the pictures the docs show. */
async function docShot(p: Page, name: string) {
  await shot(p, name);
  copyFileSync(path.join(ARTIFACTS, `dashboard-${name}.png`), path.join(ROOT, 'docs/dashboard', `${name}.png`));
}

chromiumGate.describe("a member's export and erasure in the dashboard", () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page.setDefaultTimeout(10_000);
    const signup = await signUpThrough(page.request, baseUrl, { venue_name: 'The Harbour Bar', email: newEmail(), password: PASSWORD });
    expect(signup.status()).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  chromiumGate.it('exports the member as a JSON file, then erases them after the card number is typed', async () => {
    const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
    const created = await page.request.post(`${baseUrl}/dashboard/api/api-keys`, {
      data: { name: 'Till', livemode: false, scopes: [] },
      headers: { 'x-csrf-token': session.csrf_token },
    });
    const api = client(t, (await created.json()).secret);
    const member = (await api.post('/api/v1/members', { card_number: CARD, consent: true, name: NAME, phone: PHONE })).body;
    expect((await api.post('/api/v1/checks', { external_id: 'HB-1', card_number: CARD, line_items: [{ name: 'Chowder', quantity: 2, unit_price: 1250 }] })).status).toBe(201);
    expect((await api.post('/api/v1/holds', { member_id: member.id, amount: 10 })).status).toBe(201);

    await page.goto(`${baseUrl}/dashboard/members/${member.id}`);
    await page.getByRole('heading', { name: 'Personal data' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export data' }).click()]);
    expect(download.suggestedFilename()).toBe(`member-${member.id}.json`);
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(exported).toMatchObject({ object: 'member_export', member: { id: member.id, name: NAME, phone: PHONE, cards: [{ card_number: CARD }] } });
    expect(exported.transactions.map((x: { external_id: string }) => x.external_id)).toEqual(['HB-1']);
    expect(exported.holds).toHaveLength(1);
    await page.getByRole('heading', { name: 'Personal data' }).scrollIntoViewIfNeeded();
    await docShot(page, 'member-privacy');

    // The phone layout of the same page and its confirmation, before anything is erased.
    const phone = await phoneLike(browser, page);
    await phone.goto(`${baseUrl}/dashboard/members/${member.id}`);
    await phone.getByRole('heading', { name: 'Personal data' }).waitFor();
    await docShot(phone, 'mobile-member-privacy');
    await phone.getByRole('button', { name: 'Erase member' }).click();
    await phone.getByRole('dialog').waitFor();
    await docShot(phone, 'mobile-member-erase');
    await phone.close();

    await page.getByRole('button', { name: 'Erase member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this member?' });
    const confirm = dialog.getByRole('button', { name: 'Erase member' });
    await dialog.getByLabel(L(`Type the card number ${CARD} or ERASE to confirm`)).fill('HB-0000');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(L(`Type the card number ${CARD} or ERASE to confirm`)).fill(CARD);
    expect(await confirm.isEnabled()).toBe(true);
    await docShot(page, 'member-erase');
    await confirm.click();
    await page.getByText('The member was erased.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/members');
    // The venue's only member is gone from the list.
    await page.getByText('No members yet.').waitFor();
    expect(await page.content()).not.toContain(NAME);
    await docShot(page, 'member-erased');

    // The API finds them no more; their export keeps the check, anonymised.
    expectError(await api.get(`/api/v1/members/lookup?card_number=${CARD}`), 404, 'member_not_found');
    expectError(await api.get(`/api/v1/members/lookup?phone=${encodeURIComponent(PHONE)}`), 404, 'member_not_found');
    const after = await api.get(`/api/v1/members/${member.id}/export`);
    expect(after.body.transactions).toHaveLength(1);
    expect(after.body.holds).toMatchObject([{ status: 'released' }]);
    for (const s of [NAME, PHONE, CARD]) expect(JSON.stringify(after.body)).not.toContain(s);
  });

  chromiumGate.it('the dashboard refuses an erasure without the typed confirmation', async () => {
    const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
    const created = await page.request.post(`${baseUrl}/dashboard/api/api-keys`, {
      data: { name: 'Till 2', livemode: false, scopes: [] },
      headers: { 'x-csrf-token': session.csrf_token },
    });
    const api = client(t, (await created.json()).secret);
    const member = (await api.post('/api/v1/members', { card_number: 'HB-5000', consent: true, name: NAME })).body;
    const erase = (confirm: string) =>
      page.request.post(`${baseUrl}/dashboard/api/members/${member.id}/erase`, { data: { confirm }, headers: { 'x-csrf-token': session.csrf_token } });
    const refused = await erase('HB-5001');
    expect(refused.status()).toBe(400);
    expect((await refused.json()).error).toMatchObject({ code: 'parameter_invalid', param: 'confirm' });
    expect((await api.get(`/api/v1/members/${member.id}`)).body.name).toBe(NAME);
    const done = await erase('ERASE');
    expect(done.status()).toBe(200);
    expect(await done.json()).toMatchObject({ object: 'member_erasure', member_id: member.id, already_erased: false });
  });
});
