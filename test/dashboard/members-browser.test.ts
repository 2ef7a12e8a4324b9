// The members directory (D27) in Chromium at 1280 and 390 px: among 100,000 members, an owner finds a guest by
// parts of her name typed without accents, filters and sorts, and opens her page.
// Screenshots: test-artifacts/dashboard-members-search.png and dashboard-members-search-phone.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { useTestApp } from '../support/app.js';
import { seedMembers, seededName } from '../support/members-seed.js';
import { needs } from '../support/services.js';
import { L, openDashboard, phoneLike, pickOption, shot, signUpThrough } from './browser-support.js';
import { PASSWORD, newEmail } from './support.js';

const chromiumGate = await needs('chromium');
const MEMBERS = 100_000;
/** The guest to find: "Aoife Whelan 99960" (the seed's names follow from the number). */
const HER = 99_960;

const t = useTestApp();
let browser: Browser;
let page: Page;
let baseUrl: string;

chromiumGate.describe('the members directory', () => {
  beforeAll(async () => {
    ({ baseUrl, browser } = await openDashboard(t));
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    const signup = await signUpThrough(page.request, baseUrl, { venue_name: 'Directory Café', email: newEmail(), password: PASSWORD });
    expect(signup.status()).toBe(200);
    const session = await signup.json();
    const programs = await (await page.request.get(`${baseUrl}/dashboard/api/programs`)).json();
    expect(programs).toHaveLength(1);
    await seedMembers(t.db, { chainId: session.chain.id, venueId: session.venue.id, programId: programs[0].id }, MEMBERS);
    expect(seededName(HER)).toBe('Aoife Whelan 99960');
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  chromiumGate.it('at 1280 px: "aoif whel 99960" finds Aoife Whelan among 100,000 as it is typed; her page opens from the list', async () => {
    await page.goto(`${baseUrl}/dashboard/members`);
    const table = page.getByRole('table', { name: 'Members' });
    await table.locator('tbody tr').first().waitFor();
    await page.getByLabel(L('Find a member')).fill('aoif whel 99960');
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Members"] tbody tr').length === 1);
    await table.getByRole('link', { name: 'Aoife Whelan 99960' }).waitFor();
    expect(page.url()).toContain('q=aoif+whel+99960');
    await shot(page, 'members-search');

    // Sorted by name, every "Aoife Whelan" comes A–Z (numbers as text); "Not for 180 days" keeps only those.
    await page.getByLabel(L('Find a member')).fill('aoife whelan');
    await pickOption(page, page.getByLabel(L('Sort')).first(), 'Name A–Z');
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Members"] tbody tr').length === 50);
    const names = await table.locator('tbody tr td:first-child a').allTextContents();
    expect(names.every((n) => n.startsWith('Aoife Whelan'))).toBe(true);
    expect(names).toEqual([...names].sort());
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Members"] tbody tr').length > 50);

    await page.getByLabel(L('Find a member')).fill('aoif whel 99960');
    await table.getByRole('link', { name: 'Aoife Whelan 99960' }).click();
    await page.getByRole('heading', { name: /Aoife Whelan 99960/ }).first().waitFor();
  });

  chromiumGate.it('at 390 px: the same search shows her as a card of labelled lines', async () => {
    const phone = await phoneLike(browser, page);
    await phone.goto(`${baseUrl}/dashboard/members?q=${encodeURIComponent('AOIFE WHÉLAN 99960')}`);
    await phone.getByRole('link', { name: 'Aoife Whelan 99960' }).waitFor();
    expect(await phone.locator('table[aria-label="Members"] tbody tr').count()).toBe(1);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await shot(phone, 'members-search-phone');
    await phone.close();
  });
});
