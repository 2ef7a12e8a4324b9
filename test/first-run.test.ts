// npm start on an empty data directory (D18) prints the demo venue and a working test key once; SIGTERM stops cleanly.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { runCli, startServerProcess } from './support/processes.js';
import { needs } from './support/services.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-first-run-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
// The PGlite pass runs it; the PostgreSQL pass skips it with a printed line.
const embeddedGate = await needs('embedded');

embeddedGate.describe('first run on the embedded database', () => {
  it('prints the demo venue, owner sign-in and a test key that works; the second start prints none', async () => {
    const first = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' });
    let key: string;
    try {
      // The banner follows readiness by a moment: it is printed once the demo venue exists.
      // Generous: a guard against a hang, not a speed check (the seed writes a whole venue on a loaded machine).
      await vi.waitFor(() => expect(first.output()).toContain('Test API key'), { timeout: 60_000 });
      const out = first.output();
      expect(out).toContain('Owner sign-in:  owner@demo.test / ');
      expect(out).toMatch(/QR menus: +http:\/\/localhost:\d+\/m\/demo\/t1 \(Table 1\), http:\/\/localhost:\d+\/m\/demo\/t2 \(Window 2\)/);
      key = /Test API key: +(sk_test_\S+)/.exec(out)![1]!;
      const res = await fetch(`${first.baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      const account = (await res.json()) as { slug: string; programs: { type: string; settings: { levels: unknown[] } }[] };
      expect(account.slug).toBe('demo');
      expect(account.programs.map((p) => [p.type, p.settings.levels.length])).toEqual([['cashback', 3]]);
      const gold = await fetch(`${first.baseUrl}/api/v1/members/lookup?card_number=DEMO-0003`, { headers: { authorization: `Bearer ${key}` } });
      expect(((await gold.json()) as { level: { name: string } }).level.name).toBe('Gold');
      await expectLivingDemo(first.baseUrl, key);
    } finally {
      expect(await first.stop('SIGTERM')).toBe(0);
    }
    expect(existsSync(path.join(dataDir, 'in-use.pid'))).toBe(false);

    const second = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' });
    try {
      const res = await fetch(`${second.baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect(second.output()).not.toContain('Test API key');
    } finally {
      await second.stop();
    }
  }, 240_000);

  it('seeds no demo venue in production (its banner would put an owner password and a key in the logs)', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-production-'));
    try {
      const server = await startServerProcess({ DATA_DIR: empty, DATABASE_URL: '', REDIS_URL: '', NODE_ENV: 'production' });
      expect(await server.stop('SIGTERM')).toBe(0);
      expect(server.output()).not.toContain('Test API key');
      const venues = await runCli(['venue', 'list'], { DATA_DIR: empty, DATABASE_URL: '', REDIS_URL: '' });
      expect(venues.code).toBe(0);
      expect(venues.stdout.trim()).toBe('');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a bad configuration value with a clear message', async () => {
    await expect(startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '', ROLE: 'chef' })).rejects.toThrow(
      /Invalid configuration: .*ROLE/,
    );
  }, 120_000);
});

/** Something on every page (D18): a menu with a stop-listed dish, tables, categories with rules, members with history. */
async function expectLivingDemo(baseUrl: string, key: string): Promise<void> {
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  type List<T> = { data: T[] };

  const stopList = await get<List<{ external_id: string }>>('/menu/items?available=false');
  expect(stopList.data.map((d) => d.external_id)).toEqual(['CHOWDER']);
  const guestPage = await (await fetch(`${baseUrl}/m/demo/t1`)).text();
  expect(guestPage).toContain('Flat white');
  expect(guestPage).not.toContain('Seafood chowder');
  expect((await fetch(`${baseUrl}/m/demo/t2`)).status).toBe(200);

  const categories = await get<List<{ external_id: string; earns_cashback: boolean; payable_with_cashback: boolean; cashback_percent: number | null }>>(
    '/catalog/categories',
  );
  const rules = Object.fromEntries(categories.data.map((c) => [c.external_id, [c.earns_cashback, c.payable_with_cashback, c.cashback_percent]]));
  expect(rules).toEqual({ coffee: [true, true, 10], food: [true, true, null], wine: [false, false, null] });

  // A first check shows the rules: coffee at its own 10 %, wine earning nothing, food at the member's level.
  const calc = await fetch(`${baseUrl}/api/v1/checks/calculate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      card_number: 'DEMO-0001',
      line_items: ['FLAT-WHITE', 'SCONE', 'HOUSE-RED'].map((sku) => ({ sku, name: sku, quantity: 1, unit_price: 1000 })),
    }),
  });
  expect(calc.status).toBe(200);
  const lines = ((await calc.json()) as { line_items: { sku: string; cashback_percent: number; rule_source: string }[] }).line_items;
  expect(lines.map((l) => [l.sku, l.cashback_percent, l.rule_source])).toEqual([
    ['FLAT-WHITE', 10, 'product'],
    ['SCONE', 3, 'product'],
    ['HOUSE-RED', 0, 'product'],
  ]);

  // A week of them, every day, so the overview has something to show (D25).
  const week = await get<List<{ external_id: string; closed_at: string }>>('/transactions?limit=100');
  expect(week.data.map((t) => t.external_id).sort()).toEqual(Array.from({ length: 9 }, (_, i) => `DEMO-CHECK-${i + 1}`).sort());
  const daysAgo = new Set(week.data.map((t) => Math.floor((Date.now() - Date.parse(t.closed_at)) / 86_400_000)));
  expect([...daysAgo].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  const board = await get<List<{ table_code: string; status: string; comment: string | null }>>('/orders');
  expect(board.data.map((o) => [o.table_code, o.status, o.comment]).sort()).toEqual([
    ['t1', 'new', 'One flat white with oat milk, please'],
    ['t2', 'accepted', null],
  ]);
  const emma = await get<{ id: string; balance: number }>('/members/lookup?card_number=DEMO-0005');
  const history = await get<List<{ type: string; reason: string | null }>>(`/members/${emma.id}/history`);
  expect(history.data.map((h) => [h.type, h.reason])).toEqual([
    ['adjustment', 'Birthday treat'],
    ['import', 'Imported from the previous loyalty system'],
  ]);
  expect(emma.balance).toBe(144 + 250);
}
