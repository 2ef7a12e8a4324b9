// npm start on an empty data directory (D18) prints the demo venue and a working test key once; SIGTERM stops cleanly.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { startServerProcess } from './support/processes.js';
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
      await vi.waitFor(() => expect(first.output()).toContain('Test API key'), { timeout: 10_000 });
      const out = first.output();
      expect(out).toContain('Owner sign-in:  owner@demo.test / ');
      key = /Test API key: +(sk_test_\S+)/.exec(out)![1]!;
      const res = await fetch(`${first.baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      const account = (await res.json()) as { slug: string; programs: { type: string; settings: { levels: unknown[] } }[] };
      expect(account.slug).toBe('demo');
      expect(account.programs.map((p) => [p.type, p.settings.levels.length])).toEqual([['cashback', 3]]);
      const gold = await fetch(`${first.baseUrl}/api/v1/members/lookup?card_number=DEMO-0003`, { headers: { authorization: `Bearer ${key}` } });
      expect(((await gold.json()) as { level: { name: string } }).level.name).toBe('Gold');
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

  it('refuses a bad configuration value with a clear message', async () => {
    await expect(startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '', ROLE: 'chef' })).rejects.toThrow(
      /Invalid configuration: .*ROLE/,
    );
  }, 120_000);
});
