// `npm run cli -- integration list|create|pause|resume` (D26) as an operator scripts point-of-sale connections: the
// connection made through the service as the API makes it (sealed secrets, the CLI as the audit actor), listed in
// words and as JSON, paused and resumed; every mistake a message and exit 2; no secret printed but its last four.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.js';
import { findIntegration } from '../src/integrations/core/repo.js';
import { openSettings } from '../src/integrations/core/service.js';
import { openSecretBox } from '../src/shared/secret-box.js';
import { TEST_PEPPER, TEST_SECRET_KEY, useTestApp } from './support/app.js';
import { onPostgres } from './support/database.js';
import { runCli } from './support/processes.js';

const t = useTestApp();
const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-cli-integration-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const PUBLIC = 'https://loyalty.example.com';
/** On PostgreSQL the CLI shares the test's database; otherwise it gets its own embedded data directory. */
const env = (publicBaseUrl = PUBLIC): Record<string, string> => ({
  ...(onPostgres() ? { DATABASE_URL: t.testDatabase.url!, API_KEY_PEPPER: TEST_PEPPER } : { DATA_DIR: dataDir, DATABASE_URL: '' }),
  PUBLIC_BASE_URL: publicBaseUrl,
});
const cli = (...args: string[]) => runCli(args, env());

/** The database the CLI wrote to, opened once it has exited (the embedded one admits one process at a time). */
async function inCliDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  if (onPostgres()) return work(t.db);
  const embedded = await openDatabase({ kind: 'pglite', dataDir });
  try {
    return await work(embedded.db);
  } finally {
    await embedded.close();
  }
}

/**
 * A secret of letters no id, URL, timestamp or message holds (no hex digit, no digit), so finding any five of its
 * characters in a row in what the CLI printed means it printed more than the masked last four.
 */
const secret = (prefix: string, length: number) => prefix + [...randomBytes(length)].map((b) => 'GHJKMNPQRSTVWXYZ'[b % 16]).join('');
const ACCESS_TOKEN = secret('EAAA', 60);
const SIGNATURE_KEY = secret('', 22);

/** No five characters in a row of either secret in stdout or stderr: at most the last four, after "…". */
function expectNoSecret(result: { stdout: string; stderr: string }): void {
  for (const s of [ACCESS_TOKEN, SIGNATURE_KEY]) {
    for (let i = 0; i + 5 <= s.length; i++) {
      expect(result.stdout, 'stdout shows more of a secret than its last four').not.toContain(s.slice(i, i + 5));
      expect(result.stderr, 'stderr shows more of a secret than its last four').not.toContain(s.slice(i, i + 5));
    }
    const lastFour = s.slice(-4);
    for (const text of [result.stdout, result.stderr]) {
      for (let at = text.indexOf(lastFour); at >= 0; at = text.indexOf(lastFour, at + 1)) expect(text[at - 1]).toBe('…');
    }
  }
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SECRETS = ['--access-token', ACCESS_TOKEN, '--signature-key', SIGNATURE_KEY];

describe('npm run cli -- integration', () => {
  it('explains itself with --help, in the command list too', async () => {
    const top = await cli('--help');
    for (const line of [
      'integration list [--venue V | --chain C] [--json]',
      'integration create --provider square --access-token T [--signature-key K] [--location LOC=V ...] [--name N] [--venue V | --chain C] [--json]',
      'integration pause <integration id> [--venue V | --chain C] [--json]',
      'integration resume <integration id> [--venue V | --chain C] [--json]',
    ]) {
      expect(top.stdout).toContain(`  ${line}`);
    }
    const help = await cli('integration', 'create', '--help');
    expect([help.code, help.stdout]).toEqual([0, expect.stringMatching(/^Usage: npm run cli -- integration create --provider square /)]);
  }, 180_000);

  it('creates, lists (words and JSON), pauses and resumes connections, as the CLI in the audit log, secrets sealed and never shown', async () => {
    const id = Date.now().toString(36);
    const [harbour, quay, elsewhere] = ['harbour', 'quay', 'elsewhere'].map((s) => `pos-${s}-${id}`) as [string, string, string];
    expect((await cli('venue', 'create', '--name', 'Harbour', '--slug', harbour)).code).toBe(0);
    expect((await cli('venue', 'create', '--name', 'Quay', '--slug', quay, '--chain', harbour)).code).toBe(0);
    expect((await cli('venue', 'create', '--name', 'Elsewhere', '--slug', elsewhere)).code).toBe(0);
    const venueIds = new Map(
      (await cli('venue', 'list')).stdout
        .trim()
        .split('\n')
        .map((line) => line.split('  ') as [string, string])
        .map(([venueId, slug]) => [slug, venueId]),
    );

    // At a venue: `--location LOC` is that venue. PUBLIC_BASE_URL on localhost: a warning that Square cannot reach it.
    const atVenue = await runCli(['integration', 'create', '--venue', harbour, '--provider', 'square', ...SECRETS, '--location', 'L88917AVBK2S5'], env('http://localhost:3000'));
    expectNoSecret(atVenue);
    expect(atVenue.code).toBe(0);
    expect(atVenue.stderr).toBe(
      'Warning: PUBLIC_BASE_URL is http://localhost:3000, which Square cannot reach: set PUBLIC_BASE_URL to the public address Square calls ' +
        '(a tunnel in development) and paste the URL "integration list" then shows.\n',
    );
    const venueConnection = new RegExp(`^Created square connection (${UUID}) "Square" for ${harbour}: active\\.\n`).exec(atVenue.stdout)?.[1];
    expect(venueConnection, atVenue.stdout).toBeDefined();
    expect(atVenue.stdout.split('\n').slice(1)).toEqual([
      `Locations: L88917AVBK2S5 → ${harbour}`,
      `Settings: access_token …${ACCESS_TOKEN.slice(-4)}, webhook_signature_key …${SIGNATURE_KEY.slice(-4)}`,
      `Paste into Square (the webhook subscription's URL): http://localhost:3000/integrations/square/${venueConnection}`,
      '',
    ]);

    // For the chain: each location names its venue, by slug or id; a public PUBLIC_BASE_URL: no warning.
    const forChain = await cli('integration', 'create', '--chain', harbour, '--provider', 'square', ...SECRETS, '--name', 'Square tills',
      '--location', `LHARBOUR=${harbour}`, '--location', `LQUAY=${venueIds.get(quay)}`, '--json');
    expectNoSecret(forChain);
    expect([forChain.code, forChain.stderr]).toEqual([0, '']);
    const created = JSON.parse(forChain.stdout);
    expect(created).toMatchObject({
      object: 'integration',
      provider: 'square',
      name: 'Square tills',
      status: 'active',
      locations: { LHARBOUR: venueIds.get(harbour), LQUAY: venueIds.get(quay) },
      settings: { access_token: `…${ACCESS_TOKEN.slice(-4)}`, webhook_signature_key: `…${SIGNATURE_KEY.slice(-4)}` },
      endpoint_url: `${PUBLIC}/integrations/square/${created.id}`,
      failing_since: null,
    });

    const listed = await cli('integration', 'list', '--chain', harbour);
    expectNoSecret(listed);
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    expect(listed.stdout.trimEnd().split('\n')).toEqual([
      `${created.id}  square  Square tills  active  locations: LHARBOUR → ${harbour}, LQUAY → ${quay}  not failing  ${PUBLIC}/integrations/square/${created.id}`,
      `${venueConnection}  square  Square  active  locations: L88917AVBK2S5 → ${harbour}  not failing  ${PUBLIC}/integrations/square/${venueConnection}`,
    ]);
    // A venue sees the connections of its own venue only, as a venue key does (D21).
    expect((await cli('integration', 'list', '--venue', harbour)).stdout).toBe(listed.stdout.split('\n')[1] + '\n');
    expect((await cli('integration', 'list', '--venue', quay)).stdout).toBe('');
    expect((await cli('integration', 'list', '--venue', elsewhere)).stdout).toBe('');
    const asJson = await cli('integration', 'list', '--chain', harbour, '--json');
    expectNoSecret(asJson);
    const listedJson = JSON.parse(asJson.stdout);
    expect(listedJson.map((i: { id: string }) => i.id)).toEqual([created.id, venueConnection]);
    expect(listedJson[0]).toEqual(created);

    const paused = await cli('integration', 'pause', created.id, '--chain', harbour);
    expect([paused.code, paused.stderr]).toEqual([0, '']);
    expect(paused.stdout).toBe(
      `Paused the square connection ${created.id} "Square tills": Square is still answered; nothing is applied until "integration resume ${created.id}".\n`,
    );
    const again = await cli('integration', 'pause', created.id, '--chain', harbour);
    expect([again.code, again.stdout]).toEqual([0, `The square connection ${created.id} "Square tills" is paused already; nothing changed.\n`]);
    expect((await cli('integration', 'list', '--chain', harbour)).stdout).toContain(`${created.id}  square  Square tills  paused  `);
    const pausedAtVenue = await cli('integration', 'pause', venueConnection!, '--venue', harbour, '--json');
    expect([pausedAtVenue.code, JSON.parse(pausedAtVenue.stdout).status]).toEqual([0, 'paused']);
    const resumed = await cli('integration', 'resume', created.id, '--chain', harbour);
    expect([resumed.code, resumed.stdout]).toEqual([0, `Resumed the square connection ${created.id} "Square tills": what Square sends is applied again.\n`]);

    await inCliDatabase(async (db) => {
      const { chain_id: chainId } = await db.selectFrom('venues').select('chain_id').where('slug', '=', harbour).executeTakeFirstOrThrow();
      // Sealed at rest with the server's key: the server opens what the CLI stored; the row holds no secret in the clear.
      const row = (await findIntegration(db, chainId, created.id))!;
      expect(JSON.stringify(row)).not.toContain(ACCESS_TOKEN.slice(0, -4));
      expect(JSON.stringify(row)).not.toContain(SIGNATURE_KEY.slice(0, -4));
      const box = openSecretBox({ secretEncryptionKeys: [Buffer.from(TEST_SECRET_KEY, 'base64')], dataDir });
      expect(openSettings(row, box)).toEqual({ access_token: ACCESS_TOKEN, webhook_signature_key: SIGNATURE_KEY });

      const events = await db
        .selectFrom('audit_events')
        .select(['action', 'actor_type', 'actor_id', 'venue_id', 'changes'])
        .where('chain_id', '=', chainId)
        .where('target_type', '=', 'integration')
        .where('target_id', '=', created.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      expect(events.map((e) => [e.action, e.actor_type, e.actor_id, e.venue_id])).toEqual([
        ['integration.created', 'cli', null, null],
        ['integration.updated', 'cli', null, null],
        ['integration.updated', 'cli', null, null],
      ]);
      expect(events.map((e) => e.changes.status)).toEqual([[null, 'active'], ['active', 'paused'], ['paused', 'active']]);
      expect(JSON.stringify(events)).not.toContain(ACCESS_TOKEN.slice(-8));
      const atHarbour = await db.selectFrom('audit_events').select(['action', 'actor_type', 'venue_id']).where('target_id', '=', venueConnection!).orderBy('created_at').orderBy('id').execute();
      expect(atHarbour).toEqual([
        { action: 'integration.created', actor_type: 'cli', venue_id: venueIds.get(harbour) },
        { action: 'integration.updated', actor_type: 'cli', venue_id: venueIds.get(harbour) },
      ]);
    });
  }, 600_000);

  it('refuses bad input with a message and exit 2, changing nothing and showing no secret', async () => {
    const id = Date.now().toString(36);
    const [mine, sibling, theirs] = ['mine', 'sibling', 'theirs'].map((s) => `pos-bad-${s}-${id}`) as [string, string, string];
    expect((await cli('venue', 'create', '--name', 'Mine', '--slug', mine)).code).toBe(0);
    expect((await cli('venue', 'create', '--name', 'Sibling', '--slug', sibling, '--chain', mine)).code).toBe(0);
    expect((await cli('venue', 'create', '--name', 'Theirs', '--slug', theirs)).code).toBe(0);
    const create = (...args: string[]) => cli('integration', 'create', '--provider', 'square', ...args);

    const cases: [() => ReturnType<typeof cli>, string][] = [
      [() => create('--venue', `no-such-${id}`, ...SECRETS), `No venue with id or slug "no-such-${id}".\n`],
      [() => create('--chain', `no-such-${id}`, ...SECRETS), `No chain with id or slug "no-such-${id}".\n`],
      [() => create('--chain', mine, '--venue', mine, ...SECRETS), 'Give --chain C for the whole chain or --venue V for one venue, not both.\n'],
      [() => cli('integration', 'create', '--chain', mine, '--provider', 'clover', ...SECRETS), '--provider must be one of square, toast.\n'],
      [() => cli('integration', 'create', '--chain', mine, ...SECRETS), '--provider is required.\n'],
      // The signature key can come later: Square shows it once the subscription, made with our URL, exists.
      [() => create('--chain', mine), 'A square connection needs --access-token.\n'],
      [() => create('--chain', mine, ...SECRETS, '--api-key', 'toast-key-0123456789'), '--api-key is not a setting of a square connection.\n'],
      // A venue of another chain is one this chain does not have.
      [() => create('--chain', mine, ...SECRETS, '--location', `L1=${theirs}`), `--location L1: no venue with id or slug "${theirs}" in chain ${mine} (venue not found).\n`],
      [() => create('--chain', mine, ...SECRETS, '--location', `L1=no-such-${id}`), `--location L1: no venue with id or slug "no-such-${id}" in chain ${mine} (venue not found).\n`],
      [
        () => create('--venue', mine, ...SECRETS, '--location', `L1=${sibling}`),
        `--location L1: with --venue ${mine} a location maps to that venue only; give --chain ${mine} to map locations to several venues.\n`,
      ],
      [() => create('--chain', mine, ...SECRETS, '--location', 'L1'), `--location L1: with --chain, name its venue: --location L1=<venue id or slug>.\n`],
      [() => create('--chain', mine, ...SECRETS, '--location', `L1=${mine}`, '--location', `L1=${sibling}`), '--location L1 is given twice.\n'],
      [() => cli('integration', 'create', '--chain', mine, '--provider', 'toast', '--api-key', 'short'), 'settings.api_key must NOT have fewer than 16 characters. (param: settings.api_key; option --api-key)\n'],
      [() => cli('integration', 'pause', '--chain', mine), 'Give the id of one connection: integration pause <integration id> ("integration list" shows them).\n'],
      [() => cli('integration', 'pause', randomUUID(), '--chain', mine), 'No point-of-sale connection with this id in the chain.\n'],
    ];
    for (const [run, stderr] of cases) {
      // One at a time: the embedded database admits one process.
      const result = await run();
      expectNoSecret(result);
      expect([result.code, result.stderr, result.stdout]).toEqual([2, stderr, '']);
    }
    expect((await cli('integration', 'list', '--chain', mine)).stdout).toBe('');
  }, 600_000);
});
