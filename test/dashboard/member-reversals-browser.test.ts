// Refunding and voiding a check from a member's page in a real browser, at 1280 and 390 px: the confirmation, the
// receipt, the refund under its check in the activity, the void's badge, and both in the audit log; axe finds no
// serious violation with the dialog open or after. Screenshots go to
// docs/dashboard/ (member-refund.png, mobile-member-refund.png, member-activity.png).
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { client, ok } from '../support/http.js';
import { needs } from '../support/services.js';
import { ARTIFACTS, L, ROOT, openDashboard, seriousViolations, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');

const t = useTestApp();
let browser: Browser;
let baseUrl: string;
let api: ReturnType<typeof client>;
let page: Page;
const OWNER = newEmail();

async function docShot(p: Page, name: string) {
  await shot(p, name);
  copyFileSync(path.join(ARTIFACTS, `dashboard-${name}.png`), path.join(ROOT, 'docs/dashboard', `${name}.png`));
}

chromiumGate.describe("refund and void from a member's page", () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    // bypassCSP: axe-core's script runs in the page.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    expect((await signUpThrough(page.request, baseUrl, { venue_name: 'The Harbour Bar', email: OWNER, password: PASSWORD })).status()).toBe(200);
    const session = await (await page.request.get(`${baseUrl}/dashboard/api/session`)).json();
    const created = await page.request.post(`${baseUrl}/dashboard/api/api-keys`, { data: { name: 'Till', livemode: true, scopes: [] }, headers: { 'x-csrf-token': session.csrf_token } });
    api = client(t, (await created.json()).secret);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  for (const width of [1280, 390]) {
    chromiumGate.it(`at ${width} px: refunds part of a check, voids another, and the audit log names both`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const member = ok(await api.post('/api/v1/members', { card_number: `HB-${width}`, consent: true, name: `Aoife Byrne ${width}` }), 'member').body;
      const dinner = (externalId: string, amount: number) =>
        api.post('/api/v1/checks', { external_id: externalId, member_id: member.id, line_items: [{ name: 'Chowder', quantity: 1, unit_price: amount }] });
      ok(await dinner(`C-${width}`, 4_000), 'check');
      ok(await dinner(`D-${width}`, 1_500), 'check');

      await page.goto(`${baseUrl}/dashboard/members/${member.id}`);
      const activity = page.getByRole('table', { name: 'Activity' });
      await activity.getByText(`Check C-${width}`).waitFor();
      await page.getByRole('button', { name: `Refund check C-${width}` }).click();
      const dialog = page.getByRole('dialog', { name: `Refund check C-${width}?` });
      await dialog.getByLabel(L('Amount to refund')).fill('50');
      await dialog.getByRole('button', { name: 'Refund' }).click();
      // The till's refusal, in words beside the action; nothing refunded.
      await dialog.getByText('Only €40.00 of this check can still be refunded').waitFor();
      await dialog.getByLabel(L('Amount to refund')).fill('10');
      if (width === 1280) await docShot(page, 'member-refund');
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Refund' }).click();
      const done = page.getByRole('dialog', { name: 'Refunded' });
      await done.getByText('Refund').first().waitFor();
      if (width === 390) await docShot(page, 'mobile-member-refund');
      await done.getByRole('button', { name: 'Done' }).click();
      await activity.getByText(/Refund dash-[0-9a-f]{8}: €10\.00/).waitFor();
      expect((await api.get(`/api/v1/transactions/C-${width}`)).body.refunded_amount).toBe(1_000);

      await page.getByRole('button', { name: `Void check D-${width}` }).click();
      await page.getByRole('dialog', { name: `Void check D-${width}?` }).getByRole('button', { name: 'Void check' }).click();
      await page.getByRole('dialog', { name: 'Voided' }).getByRole('button', { name: 'Done' }).click();
      await activity.getByText('Voided').waitFor();
      expect(await page.getByRole('button', { name: `Void check D-${width}` }).count()).toBe(0);
      expect((await api.get(`/api/v1/transactions/D-${width}`)).body.status).toBe('voided');
      if (width === 1280) await docShot(page, 'member-activity');
      expect(await seriousViolations(page)).toEqual([]);

      // The audit log says it in words: who by e-mail, which check by its number, the amount in the currency.
      await page.goto(`${baseUrl}/dashboard/audit`);
      const log = page.getByRole('table', { name: 'Audit log' });
      await log.getByText(`check C-${width}`).waitFor();
      await log.getByText(`check D-${width}`).waitFor();
      const text = await log.textContent();
      for (const words of ['Check refunded', 'Check voided', OWNER, 'amount: none → €10.00']) expect(text).toContain(words);
    });
  }
});
