// The operator CLI (D18) against a real data directory or database, as an operator runs it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { TEST_PEPPER, useTestApp } from './support/app.js';
import { onPostgres } from './support/database.js';
import { client, expectError } from './support/http.js';
import { runCli, startServerProcess } from './support/processes.js';
import { needs } from './support/services.js';

const t = useTestApp();
const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const postgresGate = await needs('postgres');
const embeddedGate = await needs('embedded');

/** On PostgreSQL the CLI shares the test's database; otherwise it gets its own embedded data directory. */
const env = (): Record<string, string> => (onPostgres() ? { DATABASE_URL: t.testDatabase.url!, API_KEY_PEPPER: TEST_PEPPER } : { DATA_DIR: dataDir, DATABASE_URL: '' });

describe('npm run cli', () => {
  it('creates and changes a venue, a program, a table, a category, an owner and keys, lists and revokes keys', async () => {
    const slug = `cli-${Date.now().toString(36)}`;
    const venue = await runCli(['venue', 'create', '--name', 'CLI Bar', '--slug', slug, '--currency', 'GBP', '--timezone', 'Europe/London', '--country', 'GB', '--locale', 'en-GB'], env());
    expect(venue.stderr).toBe('');
    expect(venue.stdout).toContain(`slug ${slug}`);

    const program = await runCli(
      ['program', 'create', '--venue', slug, '--type', 'stamps', '--name', 'Coffee card', '--settings', '{"stamps_required":8,"reward_name":"Free flat white"}'],
      env(),
    );
    expect(program.stderr).toBe('');
    expect(program.stdout).toMatch(/Created stamps program .* "Coffee card" for cli-\w+ \(the default\)\./);
    expect((await runCli(['program', 'list', '--venue', slug], env())).stdout).toContain('"stamps_required":8');

    const table = await runCli(['table', 'create', '--venue', slug, '--name', 'Table 4', '--code', 't4'], env());
    expect(table.stdout).toContain(`Created Table 4 (code t4); its QR code points to http://localhost:3000/m/${slug}/t4`);
    expect((await runCli(['table', 'list', '--venue', slug], env())).stdout).toContain(`t4  Table 4  http://localhost:3000/m/${slug}/t4`);

    const noCategory = await runCli(['category', 'rules', '--venue', slug, '--category', 'wine', '--earns', 'false'], env());
    expect([noCategory.code, noCategory.stderr]).toEqual([2, 'No category with this external_id in this chain. (param: external_id; option --category)\n']);
    const wine = await runCli(['category', 'create', '--venue', slug, '--category', 'wine', '--name', 'Wine', '--payable', 'false', '--percent', '2.5'], env());
    expect(wine.stdout).toBe('Category wine: Wine: earns cashback yes, payable with cashback no, percent 2.5.\n');

    const programId = /program ([0-9a-f-]{36})/.exec(program.stdout)![1]!;
    const renamed = await runCli(['program', 'update', programId, '--venue', slug, '--name', 'Coffee club', '--settings', '{"stamps_required":6,"reward_name":"Free cake"}'], env());
    expect(renamed.stdout).toMatch(/Updated stamps program .* "Coffee club" \(the default\): \{"stamps_required":6,"reward_name":"Free cake"/);

    // The API's message and param, with the option that sets the field; exit 2.
    const badCurrency = await runCli(['venue', 'set', '--venue', slug, '--currency', 'XYZ'], env());
    expect([badCurrency.code, badCurrency.stderr]).toEqual([2, 'Unknown currency XYZ. (param: currency; option --currency)\n']);
    const badRule = await runCli(['venue', 'set', '--venue', slug, '--rules', '{"hold_ttl_seconds":5}'], env());
    expect([badRule.code, badRule.stderr]).toEqual([2, 'settings.hold_ttl_seconds must be >= 30. (param: settings.hold_ttl_seconds; option --rules)\n']);
    const venueSet = await runCli(['venue', 'set', '--venue', slug, '--name', 'CLI Tavern', '--rules', '{"manual_adjustments_allowed":true}'], env());
    expect(venueSet.stdout).toContain(`Updated ${slug}: CLI Tavern, GBP, en-GB, Europe/London, GB.`);
    expect(venueSet.stdout).toContain('"manual_adjustments_allowed":true');

    const owner = await runCli(['owner', 'create', '--venue', slug, '--email', `${slug}@example.com`], env());
    expect(owner.stdout).toMatch(/Password \(shown once\): \S{16}/);
    const invited = await runCli(['user', 'invite', '--venue', slug, '--email', `staff-${slug}@example.com`, '--role', 'staff'], env());
    expect(invited.stdout).toMatch(new RegExp(`^Invited staff-${slug}@example.com as staff of ${slug}, until .*\nLink \\(shown once; pass it on\\): http://localhost:\\d+/dashboard/welcome#[\\w-]{43}\n$`));
    const reset = await runCli(['user', 'reset-password', '--email', `${slug}@example.com`], env());
    expect(reset.stdout).toMatch(/^Link for .* \(shown once; valid 24 hours\): http:\/\/localhost:\d+\/dashboard\/welcome#[\w-]{43}\n$/);

    const created = await runCli(['key', 'create', '--venue', slug, '--mode', 'live', '--scopes', 'members:read,webhooks:write', '--name', 'Till 1'], env());
    expect(created.code).toBe(0);
    const secret = created.stdout.split('\n').find((l) => /^sk_live_[0-9A-Za-z]{38}$/.test(l));
    expect(secret).toBeDefined();
    const keyId = /key ([0-9a-f-]{36})/.exec(created.stdout)![1]!;

    const withRules = await runCli(['key', 'create', '--venue', slug, '--name', 'Bar till', '--rules', '{"redeem_only_via_holds":true}'], env());
    expect(withRules.stdout).toContain('"Bar till" for ' + slug + ' with full access, its own rules {"redeem_only_via_holds":true}.');

    const listed = await runCli(['key', 'list', '--venue', slug], env());
    expect(listed.stdout).toContain(keyId);
    expect(listed.stdout).toContain('members:read,webhooks:write');
    expect(listed.stdout).toContain('Bar till  full access  rules {"redeem_only_via_holds":true}');
    expect(listed.stdout).not.toContain(secret);

    const revoked = await runCli(['key', 'revoke', keyId, '--venue', slug], env());
    expect(revoked.stdout).toContain(`Revoked key ${keyId}`);
    expect((await runCli(['key', 'list', '--venue', slug], env())).stdout).toMatch(/revoked \d{4}-/);
  }, 600_000);

  postgresGate.it('a key the CLI revokes stops working in a running server at once', async () => {
    const slug = `cli-live-${Date.now().toString(36)}`;
    await runCli(['venue', 'create', '--name', 'Live Bar', '--slug', slug], env());
    const created = await runCli(['key', 'create', '--venue', slug], env());
    const secret = created.stdout.split('\n').find((l) => l.startsWith('sk_test_'))!;
    const keyId = /key ([0-9a-f-]{36})/.exec(created.stdout)![1]!;
    expect((await client(t, secret).get('/api/v1/account')).status).toBe(200); // cached by the server now
    await runCli(['key', 'revoke', keyId, '--venue', slug], env());
    await vi.waitFor(async () => expectError(await client(t, secret).get('/api/v1/account'), 401, 'api_key_revoked'), {
      timeout: 2000,
      interval: 20,
    });
  }, 180_000);

  it('explains mistakes instead of failing with a stack trace', async () => {
    const unknown = await runCli(['key', 'create', '--venue', 'no-such-venue'], env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No venue with id or slug "no-such-venue"');
    const help = await runCli(['key', 'create', '--help'], env());
    expect(help.stdout).toContain('key create [--venue V | --chain C] [--mode test|live]');
    const top = await runCli([], env());
    expect(top.stdout).toContain('Commands:');
  }, 180_000);

  embeddedGate.it('refuses an embedded data directory that a running server holds', async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' });
    try {
      const res = await runCli(['key', 'list'], { DATA_DIR: dataDir, DATABASE_URL: '' });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/data directory .* is in use by process \d+/);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
