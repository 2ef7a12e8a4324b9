// `npm run cli -- backup` and `restore` of the embedded database, against a real server process serving writes.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { runCli, startServerProcess, type ServerProcess } from './support/processes.js';
import { needs } from './support/services.js';

const embedded = await needs('embedded');
const work = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-backup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The embedded database in `dir`, whatever this run's database: backup and restore are about DATA_DIR. */
const embeddedEnv = (dir: string): Record<string, string> => ({ DATA_DIR: dir, DATABASE_URL: '', REDIS_URL: '', API_KEY_PEPPER: '', SECRET_ENCRYPTION_KEY: '' });
const dirOf = (name: string) => path.join(work, name);

/** What a restore must bring back exactly: members with their totals, the ledger, the transactions, the venues. */
async function contentsOf(dir: string): Promise<Record<string, unknown[]>> {
  const database = await openDatabase({ kind: 'pglite', dataDir: dir });
  try {
    const db = database.db;
    return {
      venues: await db.selectFrom('venues').select(['venue_id', 'slug', 'name']).orderBy('venue_id').execute(),
      members: await db.selectFrom('members').selectAll().orderBy('id').execute(),
      ledger: await db.selectFrom('ledger_entries').selectAll().orderBy('id').execute(),
      transactions: await db.selectFrom('transactions').selectAll().orderBy('id').execute(),
    };
  } finally {
    await database.close();
  }
}

/** The member's cashback total as stored (the balance before holds). */
const cashbackOf = (contents: Record<string, unknown[]>, memberIds: Map<string, string>, card: string) =>
  (contents.members as Array<{ id: string; cashback: number }>).find((m) => m.id === memberIds.get(card))?.cashback;

describe('backup and restore of the embedded database', () => {
  embedded.it(
    'backs up while the server serves writes, restores into a stopped directory, refuses while running and refuses a damaged file',
    async () => {
      const live = dirOf('live');
      let server: ServerProcess | undefined = await startServerProcess({ ...embeddedEnv(live), RATE_LIMIT_PER_MINUTE: '100000' });
      try {
        const key = /Test API key: +(sk_test_\S+)/.exec(server.output())![1]!;
        const post = async (url: string, body: object) => {
          const res = await fetch(`${server!.baseUrl}/api/v1${url}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          expect(res.status, `${url} ${await res.clone().text()}`).toBeLessThan(300);
          return (await res.json()) as { id: string };
        };
        // One member, one check: a flat white at 10.00 earns the coffee category's 10 %, 1.00 (hand-computed).
        const memberIds = new Map<string, string>();
        const enrolAndBuy = async (card: string) => {
          memberIds.set(card, (await post('/members', { card_number: card, consent: true })).id);
          await post('/checks', { external_id: `CHK-${card}`, card_number: card, line_items: [{ sku: 'FLAT-WHITE', name: 'Flat white', quantity: 1, unit_price: 1000 }] });
        };

        // Writes keep arriving while the backup is taken.
        const acknowledged: string[] = [];
        let writing = true;
        const writer = (async () => {
          for (let i = 0; writing; i++) {
            await enrolAndBuy(`LOOP-${i}`);
            acknowledged.push(`LOOP-${i}`);
          }
        })();
        while (acknowledged.length < 5) await new Promise((r) => setTimeout(r, 50));
        const beforeBackup = [...acknowledged];
        const during = dirOf('during.tar.gz');
        const backedUp = await runCli(['backup', during], embeddedEnv(live));
        const afterBackup = [...acknowledged];
        writing = false;
        await writer;
        expect(backedUp.stderr).toBe('');
        expect(backedUp.code).toBe(0);
        expect(backedUp.stdout).toMatch(/Backed up .* taken by the running server \(process \d+\)\./);
        expect(afterBackup.length).toBeGreaterThan(beforeBackup.length); // the writes really ran alongside

        // Quiet now: this copy must equal the directory exactly.
        const quiet = dirOf('quiet.tar.gz');
        expect((await runCli(['backup', quiet], embeddedEnv(live))).code).toBe(0);

        const refused = await runCli(['restore', quiet], embeddedEnv(live));
        expect(refused.code).toBe(2);
        expect(refused.stderr).toMatch(/^Restore needs the server stopped: process \d+ holds .*Nothing was changed\.\n$/);
        expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);

        expect(await server.stop()).toBe(0);
        server = undefined;
        const original = await contentsOf(live);

        // Into a directory that does not exist yet: exactly the original.
        const restored = dirOf('restored');
        const restoredRun = await runCli(['restore', quiet], embeddedEnv(restored));
        expect(restoredRun.stderr).toBe('');
        expect(restoredRun.stdout).toContain(`${original.members!.length} members, ${original.ledger!.length} ledger entries; every member's totals equal the ledger.`);
        expect(restoredRun.stdout).toContain('There was no previous data directory.');
        expect(await contentsOf(restored)).toEqual(original);
        expect(cashbackOf(original, memberIds, 'LOOP-0')).toBe(100);
        expect(readFileSync(path.join(restored, 'api-key-pepper'), 'utf8')).toBe(readFileSync(path.join(live, 'api-key-pepper'), 'utf8'));
        expect(existsSync(path.join(restored, 'in-use.pid'))).toBe(false);

        // The copy taken during the writes: everything acknowledged before it began, nothing half-written.
        const other = dirOf('other');
        expect((await runCli(['restore', during], embeddedEnv(other))).code).toBe(0);
        const duringContents = await contentsOf(other);
        for (const card of beforeBackup) expect(cashbackOf(duringContents, memberIds, card), card).toBe(100);
        expect(duringContents.members!.length).toBeLessThanOrEqual(original.members!.length);
        expect((duringContents.transactions as unknown[]).length).toBeGreaterThanOrEqual(beforeBackup.length);
        const verified = await runCli(['ledger', 'verify'], embeddedEnv(other));
        expect([verified.code, verified.stdout]).toEqual([0, "Every member's totals equal the ledger.\n"]);

        // Over existing data: the old directory is kept aside, renamed.
        const over = await runCli(['restore', quiet], embeddedEnv(other));
        expect(over.code).toBe(0);
        const aside = /previous data directory is kept at (\S+);/.exec(over.stdout)![1]!;
        expect(await contentsOf(other)).toEqual(original);
        expect(await contentsOf(aside)).toEqual(duringContents);

        // A damaged file (truncated) and a foreign one: refused, the data as it was, nothing left behind.
        const truncated = dirOf('truncated.tar.gz');
        writeFileSync(truncated, readFileSync(quiet).subarray(0, 4000));
        const foreign = dirOf('foreign.tar.gz');
        writeFileSync(foreign, 'not a backup at all');
        for (const file of [truncated, foreign]) {
          const res = await runCli(['restore', file], embeddedEnv(restored));
          expect(res.code, res.stderr).toBe(2);
          expect(res.stderr).toContain('is not a Venue Loyalty backup, or it is damaged');
        }
        expect(await contentsOf(restored)).toEqual(original);
        expect(readdirSync(work).filter((n) => n.includes('.restoring-'))).toEqual([]);

        // The restored directory serves, with the keys of the original (the pepper came along).
        server = await startServerProcess(embeddedEnv(restored));
        const looked = await fetch(`${server.baseUrl}/api/v1/members/lookup?card_number=LOOP-1`, { headers: { authorization: `Bearer ${key}` } });
        expect(looked.status).toBe(200);
        expect(((await looked.json()) as { balance: number }).balance).toBe(100);
      } finally {
        await server?.stop();
      }
    },
    420_000,
  );

  embedded.it('backs up a stopped directory itself, and refuses one without a database or a copy inside it', async () => {
    const dir = dirOf('stopped');
    expect((await runCli(['demo'], embeddedEnv(dir))).code).toBe(0);
    const file = dirOf('stopped.tar.gz');
    const res = await runCli(['backup', file], embeddedEnv(dir));
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(res.stdout).not.toContain('running server');
    expect(existsSync(path.join(dir, 'in-use.pid'))).toBe(false);
    const inside = await runCli(['backup', path.join(dir, 'copy.tar.gz')], embeddedEnv(dir));
    expect([inside.code, inside.stderr]).toEqual([2, `Write the backup outside ${dir} (DATA_DIR): a copy inside it would be lost with it.\n`]);
    const empty = await runCli(['backup', dirOf('empty.tar.gz')], embeddedEnv(dirOf('nothing-here')));
    expect([empty.code, empty.stderr]).toEqual([2, `${dirOf('nothing-here')} (DATA_DIR) holds no embedded database to back up.\n`]);
    expect(existsSync(dirOf('nothing-here'))).toBe(false);
  }, 120_000);
});

describe('backup and restore on PostgreSQL', () => {
  it('names PostgreSQL\'s own tools and exits 2; --help shows each command', async () => {
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none', API_KEY_PEPPER: 'p'.repeat(32) };
    for (const command of ['backup', 'restore']) {
      const res = await runCli([command, dirOf('pg.dump')], env);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('pg_dump --format=custom --file=FILE "$DATABASE_URL"');
      expect(res.stderr).toContain('docs/deploy.md#8-backups-of-postgresql');
      const help = await runCli([command, '--help'], env);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: npm run cli -- ${command} FILE +\\S`));
    }
    expect((await runCli(['--help'], env)).stdout).toContain('restore FILE');
  }, 60_000);
});
