// A category rule or a program changed in one process is what the next check in another process uses (issue 21):
// a server process keeps both in memory; the changes come from the CLI, a process of its own.
import { SYSTEM } from '../../../src/modules/audit/service.js';
import { afterAll, expect } from 'vitest';
import * as accounts from '../../../src/modules/accounts/service.js';
import * as programs from '../../../src/modules/programs/service.js';
import { TEST_PEPPER } from '../../support/app.js';
import { openTestDatabase, type TestDatabase } from '../../support/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../../support/processes.js';
import { needs } from '../../support/services.js';

const postgres = await needs('postgres');
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

postgres.describe('cached rules across processes', () => {
  postgres.it('a category rule changed by the CLI is used by the very next check in the server; a program change reaches it once notified', async () => {
    const database: TestDatabase = await openTestDatabase();
    cleanups.push(() => database.close());
    const { db } = database.database;
    const venue = await accounts.createVenue(db, { name: 'Two Processes', slug: `two-processes-${Date.now().toString(36)}` });
    const program = await programs.createProgram(db, venue.chainId, { name: 'Cashback', type: 'cashback', settings: { levels: [{ name: 'All', min_spend: 0, percent: 5 }] } });
    const { secret } = await accounts.createApiKey(db, TEST_PEPPER, { venueId: venue.id, name: 'till', livemode: false, by: SYSTEM });
    const env = { DATABASE_URL: database.url!, API_KEY_PEPPER: TEST_PEPPER, REDIS_URL: '' };
    const server: ServerProcess = await startServerProcess(env);
    cleanups.push(() => server.stop());

    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = await res.json();
      expect(res.status, JSON.stringify(json)).toBeLessThan(300);
      return json;
    };
    const cli = async (...args: string[]) => {
      const run = await runCli(args, env);
      expect(run.code, run.stderr + run.stdout).toBe(0);
    };
    await call('PUT', '/catalog/products/WINE', { name: 'Rioja', category: 'wine' });
    const member = await call('POST', '/members', { card_number: `TP${Date.now()}`, consent: true });
    let n = 0;
    const earnedBy = async (line: Record<string, unknown>) =>
      (await call('POST', '/checks', { external_id: `TP-${++n}`, member_id: member.id, line_items: [{ quantity: 1, unit_price: 1000, ...line }] })).earned;
    const wine = { sku: 'WINE', name: 'Rioja' };

    // The wine category has no percent of its own: the member's level, 5 % of 1000. This check fills the cache.
    expect(await earnedBy(wine)).toBe(50);
    await cli('category', 'rules', '--category', 'wine', '--percent', '10', '--venue', venue.slug);
    expect(await earnedBy(wine)).toBe(100);
    await cli('category', 'rules', '--category', 'wine', '--percent', '2', '--venue', venue.slug, '--venue-only');
    expect(await earnedBy(wine)).toBe(20);
    await cli('category', 'rules', '--category', 'wine', '--chain-rule', '--venue', venue.slug);
    expect(await earnedBy(wine)).toBe(100);
    await cli('category', 'rules', '--category', 'wine', '--earns', 'false', '--venue', venue.slug);
    expect(await earnedBy(wine)).toBe(0);

    // Programs reach other processes by notification (PostgreSQL NOTIFY), within moments of the commit.
    await cli('program', 'update', program.id, '--settings', JSON.stringify({ levels: [{ name: 'All', min_spend: 0, percent: 7 }] }), '--venue', venue.slug);
    const steak = { name: 'Steak' };
    const deadline = Date.now() + 10_000;
    let calculated = 0;
    while (Date.now() < deadline) {
      calculated = (await call('POST', '/checks/calculate', { member_id: member.id, line_items: [{ quantity: 1, unit_price: 1000, ...steak }] })).earned;
      if (calculated === 70) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(calculated).toBe(70);
    expect(await earnedBy(steak)).toBe(70);
  }, 120_000);
});
