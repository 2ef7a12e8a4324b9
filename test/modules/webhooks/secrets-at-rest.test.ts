// Webhook signing secrets sealed at rest (SECRET_ENCRYPTION_KEY): no `whsec_` in the database, deliveries still
// verify, rotation re-seals, and a key that cannot open what is stored stops the start, not the first delivery.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { ConfigError } from '../../../src/shared/config-error.js';
import * as accounts from '../../../src/modules/accounts/service.js';
import { endpointSecret } from '../../../src/modules/webhooks/sender.js';
import * as webhooks from '../../../src/modules/webhooks/service.js';
import { openStorage } from '../../../src/server.js';
import { keyIdOf, openSecretBox, SecretBox } from '../../../src/shared/secret-box.js';
import { TEST_PEPPER, TEST_SECRET_KEY, useTestApp } from '../../support/app.js';
import { openTestDatabase, onPostgres } from '../../support/database.js';
import { venueWithKey } from '../../support/factories.js';
import { client } from '../../support/http.js';
import { spawnMain } from '../../support/processes.js';
import { startReceiver } from '../../support/receiver.js';
import { fastDelivery, raiseEvent, startWorker } from '../../support/webhooks.js';

const t = useTestApp({ config: { webhookAllowPrivateUrls: true, webhooks: fastDelivery() } });
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const newKey = () => randomBytes(32);
const policy = { allowPrivate: true, resolve: async () => [] };

async function storedRow(id: string) {
  return (await sql<{ secret: string; secret_key_id: string | null; row: string }>`
    select secret, secret_key_id, to_jsonb(e)::text as row from webhook_endpoints e where id = ${id}`.execute(t.db)).rows[0]!;
}

/** An endpoint written straight through the service with `box`, in a venue of its own. */
async function endpointSealedWith(box: SecretBox) {
  const { venue } = await venueWithKey(t);
  const caller = { ...accounts.placeOf(venue), livemode: false } as Parameters<typeof webhooks.createEndpoint>[1];
  return webhooks.createEndpoint(t.db, caller, { url: 'http://127.0.0.1:9/hook' }, policy, box);
}

describe('webhook signing secrets at rest', () => {
  it('the row holds no whsec_ text, the secret is shown once, and deliveries verify with it', async () => {
    const { venue, secret } = await venueWithKey(t);
    const r = await startReceiver();
    cleanups.push(() => r.close());
    const created = await client(t, secret).post('/api/v1/webhook_endpoints', { url: r.url });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const stored = await storedRow(created.body.id);
    expect(stored.row).not.toContain('whsec_');
    expect(stored.row).not.toContain(created.body.secret.slice(6));
    expect(stored.secret_key_id).toBe(keyIdOf(Buffer.from(TEST_SECRET_KEY, 'base64')));
    expect((await client(t, secret).get(`/api/v1/webhook_endpoints/${created.body.id}`)).body.secret).toBeUndefined();

    const event = await raiseEvent(t, venue, 'balance.adjusted', { object: 'member', id: 'm1', balance: 120 });
    const w = startWorker(t);
    cleanups.push(() => w.close());
    await vi.waitFor(() => expect(r.requests).toHaveLength(1), { timeout: 5000 });
    const [req] = r.requests;
    const verified = new Webhook(created.body.secret).verify(req!.body, req!.headers as Record<string, string>) as { id: string };
    expect(verified.id).toBe(event.id);
  });

  it('a sealed secret opens only with its key and only for its own endpoint', async () => {
    const box = new SecretBox([Buffer.from(TEST_SECRET_KEY, 'base64')]);
    const a = await endpointSealedWith(box);
    const b = await endpointSealedWith(box);
    const rowA = await storedRow(a.id);
    const ofA = await t.db.selectFrom('webhook_endpoints').select(['chain_id', 'venue_id', 'id']).where('id', '=', a.id).executeTakeFirstOrThrow();
    const ofB = await t.db.selectFrom('webhook_endpoints').select(['chain_id', 'venue_id', 'id']).where('id', '=', b.id).executeTakeFirstOrThrow();
    expect(box.open(endpointSecret({ ...ofA, ...rowA }))).toBe(a.secret);
    // A's sealed value copied onto B's row does not open there.
    expect(() => box.open(endpointSecret({ ...ofB, ...rowA }))).toThrow();
    expect(() => new SecretBox([newKey()]).open(endpointSecret({ ...ofA, ...rowA }))).toThrow(/does not hold/);
  });

  it('rotation: the new key first, the old after it, re-seals every stored secret; then the old key can go', async () => {
    // This file's database is shared by its tests: start the rotation from what the test app's key sealed.
    const testKey = Buffer.from(TEST_SECRET_KEY, 'base64');
    const oldKey = newKey();
    const newer = newKey();
    await webhooks.sealStoredSecrets(t.db, new SecretBox([oldKey, testKey]));
    const endpoint = await endpointSealedWith(new SecretBox([oldKey]));
    // A secret from before sealing existed: plaintext, no key id.
    const legacy = await endpointSealedWith(new SecretBox([oldKey]));
    await sql`update webhook_endpoints set secret = ${legacy.secret}, secret_key_id = null where id = ${legacy.id}`.execute(t.db);

    const count = Number((await sql<{ n: number }>`select count(*)::int as n from webhook_endpoints`.execute(t.db)).rows[0]!.n);
    expect(await webhooks.sealStoredSecrets(t.db, new SecretBox([newer, oldKey]))).toBe(count);
    const ids = (await sql<{ k: string | null }>`select distinct secret_key_id as k from webhook_endpoints`.execute(t.db)).rows.map((r) => r.k);
    expect(ids).toEqual([keyIdOf(newer)]);
    expect(await webhooks.sealStoredSecrets(t.db, new SecretBox([newer, oldKey]))).toBe(0);
    const onlyNew = new SecretBox([newer]);
    for (const e of [endpoint, legacy]) {
      const row = await t.db.selectFrom('webhook_endpoints').select(['chain_id', 'venue_id', 'id', 'secret', 'secret_key_id']).where('id', '=', e.id).executeTakeFirstOrThrow();
      expect(row.secret).not.toContain('whsec_');
      expect(onlyNew.open(endpointSecret(row))).toBe(e.secret);
    }
    // A key list without the key that sealed them is refused as a configuration error, naming what to do.
    await expect(webhooks.sealStoredSecrets(t.db, new SecretBox([newKey()]))).rejects.toThrow(ConfigError);
    await expect(webhooks.sealStoredSecrets(t.db, new SecretBox([newKey()]))).rejects.toThrow(/SECRET_ENCRYPTION_KEY cannot open the stored webhook signing secrets/);
    // Back to the test app's key, for whatever runs after.
    await webhooks.sealStoredSecrets(t.db, new SecretBox([testKey, newer]));
  });

  it('SECRET_ENCRYPTION_KEY: a list of base64 keys of 32 bytes; anything else is refused with a clear message', () => {
    const [a, b] = [newKey(), newKey()];
    expect(loadConfig({ SECRET_ENCRYPTION_KEY: `${a.toString('base64')}, ${b.toString('base64')}` }).secretEncryptionKeys).toEqual([a, b]);
    expect(() => loadConfig({ SECRET_ENCRYPTION_KEY: randomBytes(16).toString('base64') })).toThrow(/key 1 is not 32 bytes in base64/);
    expect(() => loadConfig({ SECRET_ENCRYPTION_KEY: `${a.toString('base64')},not-a-key` })).toThrow(/key 2 is not 32 bytes/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x/y', API_KEY_PEPPER: TEST_PEPPER, NODE_ENV: 'production' })).toThrow(/SECRET_ENCRYPTION_KEY .* is required/);
  });

  it('without the variable, a key is made once in DATA_DIR (0600) and kept', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-secret-key-'));
    dirs.push(dataDir);
    const first = openSecretBox(loadConfig({ DATA_DIR: dataDir }));
    expect(statSync(path.join(dataDir, 'secret-encryption-key')).mode & 0o777).toBe(0o600);
    expect(openSecretBox(loadConfig({ DATA_DIR: dataDir })).keyId).toBe(first.keyId);
  });

  it('a server started with a key that cannot open the stored secrets exits at start-up, saying why', async () => {
    let env: Record<string, string>;
    let close = async () => {};
    const seed = async (db: typeof t.db) => {
      const venue = await accounts.createVenue(db, { name: 'Wrong Key', slug: `wrong-key-${Date.now().toString(36)}` });
      const caller = { ...accounts.placeOf(venue), livemode: false } as Parameters<typeof webhooks.createEndpoint>[1];
      await webhooks.createEndpoint(db, caller, { url: 'http://127.0.0.1:9/hook' }, policy, new SecretBox([Buffer.from(TEST_SECRET_KEY, 'base64')]));
    };
    if (onPostgres()) {
      const database = await openTestDatabase();
      await seed(database.database.db);
      env = { DATABASE_URL: database.url!, API_KEY_PEPPER: TEST_PEPPER };
      close = () => database.close();
    } else {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-wrong-key-'));
      dirs.push(dataDir);
      const storage = await openStorage(loadConfig({ DATA_DIR: dataDir, SECRET_ENCRYPTION_KEY: TEST_SECRET_KEY }), 'test');
      await seed(storage.database.db);
      await storage.close();
      env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    }
    try {
      const proc = spawnMain({ ...env, REDIS_URL: '', PORT: '0', SECRET_ENCRYPTION_KEY: newKey().toString('base64') });
      const code = await new Promise<number | null>((resolve) => proc.child.once('exit', resolve));
      expect(code).toBe(1);
      expect(proc.output()).toContain('SECRET_ENCRYPTION_KEY cannot open the stored webhook signing secrets');
      expect(proc.output()).not.toContain('failed to start');
    } finally {
      await close();
    }
  }, 120_000);
});
