// `ledger verify`: member totals kept on the row are checked against the ledger, and a difference fails (exit 1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/database.js';
import * as members from '../../../src/modules/members/service.js';
import { TEST_PEPPER, useTestApp } from '../../support/app.js';
import { onPostgres } from '../../support/database.js';
import { createProgram, ledgerSum, newCardNumber, seedLedger, venueWithKey } from '../../support/factories.js';
import { client } from '../../support/http.js';
import { runCli } from '../../support/processes.js';

const t = useTestApp();
const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-verify-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('member totals and the ledger', () => {
  it('totals move with every ledger row; verify finds a total changed behind the ledger', async () => {
    const { venue, secret } = await venueWithKey(t);
    await createProgram(t, venue);
    const api = client(t, secret);
    const member = (await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body;
    await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: 700, spend: 5000, visits: 2 });
    await api.post('/api/v1/checks', { external_id: 'V-1', member_id: member.id, line_items: [{ name: 'Lunch', quantity: 1, unit_price: 1000 }], redeem_amount: 200 });
    expect(await api.get(`/api/v1/members/${member.id}`).then((r) => r.body)).toMatchObject({
      balance: await ledgerSum(t, member.id),
      total_spend: await ledgerSum(t, member.id, 'spend'),
    });
    expect(await members.verifyTotals(t.db, venue.chainId)).toEqual([]);

    await sql`update members set cashback = cashback + 1 where id = ${member.id}`.execute(t.db);
    const stored = (await api.get(`/api/v1/members/${member.id}`)).body.balance;
    expect(await members.verifyTotals(t.db, venue.chainId)).toEqual([
      { chain_id: venue.chainId, member_id: member.id, field: 'cashback', stored, ledger: stored - 1 },
    ]);
    await sql`update members set cashback = cashback - 1 where id = ${member.id}`.execute(t.db);
  });

  it('npm run cli -- ledger verify exits 0 when every total equals the ledger, 1 with the differences otherwise', async () => {
    const env: Record<string, string> = onPostgres() ? { DATABASE_URL: t.testDatabase.url!, API_KEY_PEPPER: TEST_PEPPER } : { DATA_DIR: dataDir, DATABASE_URL: '' };
    expect((await runCli(['demo'], env)).code).toBe(0);
    const clean = await runCli(['ledger', 'verify'], env);
    expect([clean.code, clean.stdout]).toEqual([0, "Every member's totals equal the ledger.\n"]);

    // Change one stored total behind the ledger's back, as a bug or a hand edit would.
    const tamper = async (db: typeof t.db, by: number) => {
      await sql`update members set spend = spend + ${by} where id = (select member_id from ledger_entries order by id limit 1)`.execute(db);
    };
    if (onPostgres()) await tamper(t.db, 5);
    else {
      const embedded = await openDatabase({ kind: 'pglite', dataDir });
      await tamper(embedded.db, 5);
      await embedded.close();
    }
    const broken = await runCli(['ledger', 'verify'], env);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/member [0-9a-f-]{36} {2}spend: stored \d+, ledger \d+\n1 totals differ from the ledger\.\n$/);
    if (onPostgres()) await tamper(t.db, -5);
  }, 120_000);
});
