// `npm run cli -- chain merge <venue> --into <chain>` (D21) as an operator runs it: conflicts listed with exit 1 and
// nothing changed, a refusal with exit 2 and its reason, a merge that a running server's keys see at once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { TEST_PEPPER, useTestApp } from './support/app.js';
import { onPostgres } from './support/database.js';
import { createKey, createProgram, createVenue, newCardNumber } from './support/factories.js';
import { client } from './support/http.js';
import { runCli } from './support/processes.js';
import { needs } from './support/services.js';

const t = useTestApp();
const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-cli-merge-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const postgresGate = await needs('postgres');

/** On PostgreSQL the CLI shares the test's database; otherwise it gets its own embedded data directory. */
const env = (): Record<string, string> => (onPostgres() ? { DATABASE_URL: t.testDatabase.url!, API_KEY_PEPPER: TEST_PEPPER } : { DATA_DIR: dataDir, DATABASE_URL: '' });
const cli = (...args: string[]) => runCli(args, env());

describe('npm run cli -- chain merge', () => {
  it('explains itself with --help', async () => {
    const help = await cli('chain', 'merge', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run cli -- chain merge <venue> --into <chain>');
    const missing = await cli('chain', 'merge', 'some-venue');
    expect([missing.code, missing.stderr]).toEqual([2, '--into is required.\n']);
  }, 180_000);

  it('lists a conflict (exit 1, nothing changed), refuses another currency (exit 2), then merges', async () => {
    const id = Date.now().toString(36);
    const [target, clash, clean, pounds] = ['tgt', 'clash', 'clean', 'gbp'].map((s) => `merge-${s}-${id}`) as [string, string, string, string];
    for (const slug of [target, clash, clean]) {
      expect((await cli('venue', 'create', '--name', slug, '--slug', slug)).code).toBe(0);
      expect((await cli('program', 'create', '--venue', slug, '--type', 'cashback', '--name', 'Cashback', '--settings', '{"levels":[{"name":"Bronze","min_spend":0,"percent":3}]}')).code).toBe(0);
    }
    expect((await cli('venue', 'create', '--name', pounds, '--slug', pounds, '--currency', 'GBP')).code).toBe(0);
    const shared = newCardNumber();
    const own = newCardNumber();
    const file = (name: string, lines: string[]) => {
      const p = path.join(dataDir, `${name}.csv`);
      writeFileSync(p, ['card_number,consent_date,opening_balance', ...lines, ''].join('\n'));
      return p;
    };
    expect((await cli('members', 'import', file(target, [`${shared},2024-05-01,500`]), '--venue', target)).code).toBe(0);
    expect((await cli('members', 'import', file(clash, [`${shared},2024-05-01,300`]), '--venue', clash)).code).toBe(0);
    expect((await cli('members', 'import', file(clean, [`${own},2024-05-01,700`]), '--venue', clean)).code).toBe(0);

    const conflict = await cli('chain', 'merge', clash, '--into', target);
    expect(conflict.code).toBe(1);
    const lines = conflict.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^card number ${shared}: the card number of member [0-9a-f-]{36} of ${clash} and the card number of member [0-9a-f-]{36} of ${target}$`));
    expect(lines[1]).toBe(`1 conflict between ${clash} and chain ${target}: nothing was changed. Resolve them and run the merge again.`);

    const currency = await cli('chain', 'merge', pounds, '--into', target);
    expect(currency.code).toBe(2);
    expect(currency.stderr).toBe(`The venue "${pounds}" counts in GBP and the chain "${target}" in EUR: balances cannot change currency. Nothing was changed.\n`);

    const merged = await cli('chain', 'merge', clean, '--into', target);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain(`Merged venue ${clean} into chain ${target} (venues: ${target}, ${clean}): 1 members with 1 cards and 1 ledger entries, 1 programs`);
    expect(merged.stdout).toContain(`chain ${clean} is deleted.`);
    expect(merged.stdout).toContain('is no longer a default');

    const chains = (await cli('chain', 'list')).stdout.split('\n');
    expect(chains.find((l) => l.includes(`  ${target}  `))).toContain(`venues: ${target}, ${clean}`);
    expect(chains.find((l) => l.includes(`  ${clash}  `))).toContain(`venues: ${clash}`);
    expect(chains.some((l) => l.includes(`  ${clean}  `))).toBe(false);
    const verify = await cli('ledger', 'verify', '--venue', clean);
    expect([verify.code, verify.stdout]).toEqual([0, "Every member's totals equal the ledger.\n"]);
  }, 600_000);

  postgresGate.it("a running server's keys see the merge at once: each venue's key finds the other's members", async () => {
    const target = await createVenue(t);
    const source = await createVenue(t);
    await createProgram(t, target, 'cashback');
    await createProgram(t, source, 'cashback');
    const atTarget = client(t, (await createKey(t, target)).secret);
    const atSource = client(t, (await createKey(t, source)).secret);
    const targetCard = newCardNumber();
    const sourceCard = newCardNumber();
    expect((await atTarget.post('/api/v1/members', { card_number: targetCard, consent: true })).status).toBe(201);
    const member = (await atSource.post('/api/v1/members', { card_number: sourceCard, consent: true })).body;
    // Both keys are cached by the server now, with their chains.
    expect((await atSource.get('/api/v1/account')).body.chain.id).toBe(source.chainId);
    expect((await atTarget.get(`/api/v1/members/lookup?card_number=${sourceCard}`)).status).toBe(404);

    const merged = await runCli(['chain', 'merge', source.slug, '--into', target.slug], env());
    expect([merged.code, merged.stderr]).toEqual([0, '']);
    await vi.waitFor(async () => expect((await atSource.get('/api/v1/account')).body.chain.id).toBe(target.chainId), { timeout: 2000, interval: 20 });
    expect((await atSource.get(`/api/v1/members/lookup?card_number=${targetCard}`)).status).toBe(200);
    expect((await atTarget.get(`/api/v1/members/lookup?card_number=${sourceCard}`)).body.id).toBe(member.id);
  }, 180_000);
});
