// What the dashboard's browser tests share: the built app served by the test's server, Chromium, screenshots, labels.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type APIRequestContext, type APIResponse, type Browser, type Locator, type Page } from 'playwright-core';
import type { TestApp } from '../support/app.js';
import { CHROMIUM } from '../support/services.js';
import { tokenOf } from './support.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');

/** Debian's Chromium, headless, quiet on the network besides the test's own requests. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Serves the SPA (built by test/global-setup.ts) and starts Chromium. */
export async function openDashboard(t: TestApp): Promise<{ baseUrl: string; browser: Browser }> {
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { baseUrl, browser: await launchChromium() };
}

/** Signs up through a browser's requests as the sign-up page does without e-mail (sign-up, then its link): 200 with the session. */
export async function signUpThrough(request: APIRequestContext, baseUrl: string, data: { venue_name: string; email: string; password: string } & Record<string, unknown>): Promise<APIResponse> {
  const sent = await request.post(`${baseUrl}/dashboard/api/signup`, { data });
  if (sent.status() !== 202) return sent;
  return request.post(`${baseUrl}/dashboard/api/links/accept`, { data: { token: tokenOf((await sent.json()).link), password: data.password } });
}

/** A full-page screenshot in test-artifacts/dashboard-<name>.png. */
export async function shot(p: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Let Mantine's modal and overlay transitions (about 200 ms) finish, so the picture is not half faded in.
  await p.waitForTimeout(400);
  // From the top, so the app's fixed header is where a person sees it.
  await p.evaluate(() => window.scrollTo(0, 0));
  await p.screenshot({ path: path.join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });
}

/** A field's label exactly, with or without the required asterisk Mantine adds to it. */
export const L = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);

/** A 390 px phone page signed in as the same owner as `page`. */
export async function phoneLike(browser: Browser, page: Page): Promise<Page> {
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  await phone.context().addCookies(await page.context().cookies());
  phone.setDefaultTimeout(10_000);
  return phone;
}

/**
 * Opens a Mantine Select and picks an option. A page still loading its data may render again under a list just
 * opened and close it, so the list is opened again, a few times, until the option shows.
 */
export async function pickOption(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  const item = page.getByRole('option', { name: option }).first();
  for (let tries = 1; ; tries++) {
    await select.click();
    try {
      await item.waitFor({ timeout: 2_000 });
      break;
    } catch (err) {
      if (tries === 5) throw err;
    }
  }
  await item.click();
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * axe-core's serious and critical findings (WCAG 2.1 A and AA) on the page as it is now, each with where it is. The
 * page must bypass the dashboard's Content-Security-Policy (`bypassCSP`), which would refuse axe-core's script.
 */
export async function seriousViolations(p: Page): Promise<string[]> {
  await p.addScriptTag({ path: AXE });
  const violations = await p.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary ?? ''}`).join('; ')}`);
}
