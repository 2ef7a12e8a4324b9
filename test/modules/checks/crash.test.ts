// Crash safety: SIGKILL the server while a till replays 500 checks with retries; every check is applied exactly once.
import { SYSTEM } from '../../../src/modules/audit/service.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import type { Db } from '../../../src/db/database.js';
import * as accounts from '../../../src/modules/accounts/service.js';
import * as members from '../../../src/modules/members/service.js';
import * as programs from '../../../src/modules/programs/service.js';
import { openStorage } from '../../../src/server.js';
import { TEST_PEPPER, useTestApp } from '../../support/app.js';
import { onPostgres } from '../../support/database.js';
import { startServerProcess, type ServerProcess } from '../../support/processes.js';

const t = useTestApp();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const MEMBERS = 10;
const CHECKS = 500;

/** A venue, a key and ten members with 100.00 each, written through the domain services. */
async function seed(db: Db, pepper: string) {
  const venue = await accounts.createVenue(db, { name: 'Crash Bar', slug: `crash-${Date.now().toString(36)}` });
  await programs.createProgram(db, venue.chainId, { name: 'Cashback', type: 'cashback', settings: { levels: [{ name: 'A', min_spend: 0, percent: 5 }] } });
  const { secret } = await accounts.createApiKey(db, pepper, { venueId: venue.id, name: 'till', livemode: false, by: SYSTEM });
  const owner = { ...accounts.ownerCaller(venue), livemode: false };
  const ids: string[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const m = await members.enrolMember(db, owner, { card_number: `CRASH-${i}`, consent: true }, null);
    await members.appendLedger(db, owner, [{ memberId: m.id, kind: 'import', cashback: 10_000 }]);
    ids.push(m.id);
  }
  return { secret, memberIds: ids };
}

async function getJson(server: ServerProcess, key: string, url: string) {
  const res = await fetch(`${server.baseUrl}${url}`, { headers: { authorization: `Bearer ${key}` } });
  return (await res.json()) as any;
}

async function allPages(server: ServerProcess, key: string, url: string): Promise<any[]> {
  const items: any[] = [];
  let cursor = '';
  for (;;) {
    const page = await getJson(server, key, `${url}${url.includes('?') ? '&' : '?'}limit=100${cursor}`);
    items.push(...page.data);
    if (!page.has_more) return items;
    cursor = `&starting_after=${page.data.at(-1).id}`;
  }
}

describe('crash safety', () => {
  it('a SIGKILL mid-replay loses nothing and applies nothing twice', async () => {
    let env: Record<string, string>;
    let seeded: Awaited<ReturnType<typeof seed>>;
    if (onPostgres()) {
      env = { DATABASE_URL: t.testDatabase.url!, API_KEY_PEPPER: TEST_PEPPER };
      seeded = await seed(t.db, TEST_PEPPER);
    } else {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-crash-'));
      dirs.push(dataDir);
      const storage = await openStorage(loadConfig({ DATA_DIR: dataDir }), 'test');
      seeded = await seed(storage.database.db, storage.pepper);
      await storage.close();
      env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    }
    env = { ...env, ROLE: 'api', RATE_LIMIT_PER_MINUTE: '100000', REDIS_URL: '' };
    const { secret, memberIds } = seeded;

    let server = await startServerProcess(env);
    const body = (i: number) =>
      JSON.stringify({
        external_id: `CR-${i}`,
        member_id: memberIds[i % MEMBERS],
        line_items: [{ name: 'Coffee', quantity: 1, unit_price: 300 + (i % 7) }],
        redeem_amount: i % 3 === 0 ? 100 : 0,
      });
    const send = (i: number) =>
      fetch(`${server.baseUrl}/api/v1/checks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: body(i),
      });

    let kills = 0;
    try {
      for (let i = 0; i < CHECKS; i++) {
        if (i === 150 || i === 350) {
          // Kill the server while this check is in flight, then retry it against a fresh one, as a till would.
          const inFlight = send(i).catch(() => undefined);
          server.child.kill('SIGKILL');
          await inFlight;
          await server.stop('SIGKILL');
          kills++;
          server = await startServerProcess(env);
        }
        for (let attempt = 0; ; attempt++) {
          const res = await send(i).catch(() => undefined);
          if (res && (res.status === 201 || res.status === 200)) break;
          if (attempt > 20) throw new Error(`check ${i} never went through: ${res?.status} ${await res?.text()}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      expect(kills).toBe(2);

      const transactions = await allPages(server, secret, '/api/v1/transactions');
      expect(transactions).toHaveLength(CHECKS);
      expect(new Set(transactions.map((x) => x.external_id)).size).toBe(CHECKS);
      for (const id of memberIds) {
        const m = await getJson(server, secret, `/api/v1/members/${id}`);
        const history = await allPages(server, secret, `/api/v1/members/${id}/history`);
        expect(history.reduce((sum, e) => sum + e.cashback, 0)).toBe(m.balance);
        const mine = transactions.filter((x) => x.member_id === id);
        expect(m.balance).toBe(10_000 + mine.reduce((sum, x) => sum + x.earned - x.redeemed, 0));
        expect(m.visits).toBe(mine.length);
      }
    } finally {
      await server.stop();
    }
  }, 180_000);
});
