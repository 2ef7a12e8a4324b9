// Webhook signing secrets, hardened: never stored in the clear by an Idempotency-Key replay, and a process whose key
// cannot open one neither sends nor blames the endpoint.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { down as undoHardening } from '../../../src/db/migrations/0016_hardening.js';
import { startHousekeeping } from '../../../src/housekeeping.js';
import * as accounts from '../../../src/modules/accounts/service.js';
import { endpointSecret } from '../../../src/modules/webhooks/sender.js';
import * as webhooks from '../../../src/modules/webhooks/service.js';
import { createWebhookWorker } from '../../../src/server.js';
import { keyIdOf, SecretBox } from '../../../src/shared/secret-box.js';
import { useTestApp } from '../../support/app.js';
import { venueWithKey } from '../../support/factories.js';
import { client } from '../../support/http.js';
import { startReceiver } from '../../support/receiver.js';
import { fastDelivery, raiseEvent } from '../../support/webhooks.js';

// One failure would disable an endpoint: a failure counted by mistake shows at once.
const t = useTestApp({ config: { webhookAllowPrivateUrls: true, webhooks: fastDelivery({ disableAfterFailures: 1 }) } });
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Every row of the tables that keep answers and messages, as one text. */
async function storedText(): Promise<string> {
  const tables = ['idempotency_keys', 'events', 'webhook_deliveries', 'webhook_endpoints'];
  const texts = await Promise.all(tables.map(async (table) => (await sql<{ t: string | null }>`select jsonb_agg(x)::text as t from ${sql.table(table)} x`.execute(t.db)).rows[0]!.t ?? ''));
  return texts.join('\n');
}

describe('a signing secret is shown once and stored only sealed', () => {
  it('creations with Idempotency-Keys leave no whsec_ nor the API key in the database, and a replay answers without the secret', async () => {
    const { secret: apiKey } = await venueWithKey(t);
    const api = client(t, apiKey);
    const created = [];
    for (const key of ['hook-1', 'hook-2']) {
      const res = await api.post('/api/v1/webhook_endpoints', { url: `http://127.0.0.1:9/${key}` }, { 'idempotency-key': key });
      expect(res.status).toBe(201);
      expect(res.body.secret).toMatch(/^whsec_/);
      created.push(res.body);
    }
    const replay = await api.post('/api/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook-1' }, { 'idempotency-key': 'hook-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(created[0]!.id);
    expect(replay.body).not.toHaveProperty('secret');

    const stored = await storedText();
    expect(stored).toContain(created[0]!.id); // the scan does see the answers
    expect(stored).not.toContain('whsec_');
    for (const endpoint of created) expect(stored).not.toContain(endpoint.secret.slice('whsec_'.length));
    expect(stored).not.toContain(apiKey);
    expect(stored).not.toMatch(/sk_(test|live)_/);
  });
});

describe('a process whose key cannot open an endpoint secret', () => {
  it('does not send, uses up no attempt, leaves the endpoint enabled with no failure, and logs a configuration error', async () => {
    const { venue } = await venueWithKey(t);
    const r = await startReceiver();
    cleanups.push(() => r.close());
    // Sealed by another process's key, which this server's SECRET_ENCRYPTION_KEY does not hold.
    const otherBox = new SecretBox([randomBytes(32)]);
    const caller = { ...accounts.placeOf(venue), livemode: false } as Parameters<typeof webhooks.createEndpoint>[1];
    const endpoint = await webhooks.createEndpoint(t.db, caller, { url: r.url }, { allowPrivate: true, resolve: async () => [] }, otherBox);
    await raiseEvent(t, venue, 'balance.adjusted', { object: 'member', id: 'm1', balance: 120 });

    const log = { error: vi.fn() };
    const delivery = createWebhookWorker(t.config, t.testDatabase.database, log, t.resolveHost);
    cleanups.push(() => delivery.close());
    expect(await delivery.worker.deliverDue()).toBe(1);

    expect(r.requests).toHaveLength(0);
    const row = await t.db.selectFrom('webhook_endpoints').select(['status', 'consecutive_failures', 'failing_since']).where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'enabled', consecutive_failures: 0, failing_since: null });
    const pending = await sql<{ status: string; attempts: number; due_later: boolean }>`
      select status, attempts, next_attempt_at > now() as due_later from webhook_deliveries where endpoint_id = ${endpoint.id}`.execute(t.db);
    expect(pending.rows).toEqual([{ status: 'pending', attempts: 0, due_later: true }]);
    expect(await t.db.selectFrom('webhook_attempts').selectAll().where('endpoint_id', '=', endpoint.id).execute()).toEqual([]);
    expect(log.error).toHaveBeenCalledTimes(1);
    const [fields, message] = log.error.mock.calls[0]!;
    expect(message).toMatch(/SECRET_ENCRYPTION_KEY.*configuration/);
    expect(fields).toMatchObject({ endpoint_id: endpoint.id });
    expect(JSON.stringify(fields) + message).not.toContain(endpoint.secret!.slice('whsec_'.length));

    // Still due: it is claimed again once the pause has passed (300 ms here), and again not counted.
    await vi.waitFor(async () => expect(await delivery.worker.deliverDue()).toBe(1), { timeout: 3000, interval: 100 });
    expect(log.error).toHaveBeenCalledTimes(2);
    const again = await t.db.selectFrom('webhook_endpoints').select(['status', 'consecutive_failures']).where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(again).toEqual({ status: 'enabled', consecutive_failures: 0 });
  });
});

describe('undoing migration 0016', () => {
  const rollback = new Error('rolled back by the test');
  /** Runs the migration's `down` in a transaction that is always rolled back, so the schema stays for other tests. */
  async function tryDown(): Promise<unknown> {
    const err = await t.db
      .transaction()
      .execute(async (trx) => {
        await undoHardening(trx);
        throw rollback;
      })
      .catch((e: unknown) => e);
    return err === rollback ? null : err;
  }

  it('refuses while a sealed secret exists, and goes ahead once none does', async () => {
    await sql`delete from webhook_endpoints`.execute(t.db);
    expect(await tryDown()).toBeNull();

    const { secret } = await venueWithKey(t);
    expect((await client(t, secret).post('/api/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/sealed' })).status).toBe(201);
    const refusal = await tryDown();
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as Error).message).toMatch(/Cannot undo migration 0016_hardening: 1 webhook endpoint\(s\) have signing secrets sealed/);
    // Nothing was undone: the column is still there.
    expect(await t.db.selectFrom('webhook_endpoints').select('secret_key_id').execute()).toHaveLength(1);
  });
});

describe('housekeeping', () => {
  it('seals again with the first key what an older key or no key sealed, and leaves what it cannot open', async () => {
    const [oldKey, newKey, foreignKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const policy = { allowPrivate: true, resolve: async () => [] };
    const sealedWith = async (box: SecretBox) => {
      const { venue } = await venueWithKey(t);
      const caller = { ...accounts.placeOf(venue), livemode: false } as Parameters<typeof webhooks.createEndpoint>[1];
      return webhooks.createEndpoint(t.db, caller, { url: 'http://127.0.0.1:9/hook' }, policy, box);
    };
    const underOld = await sealedWith(new SecretBox([oldKey]));
    const plain = await sealedWith(new SecretBox([oldKey]));
    // As a version before sealing wrote it.
    await t.db.updateTable('webhook_endpoints').set({ secret: plain.secret!, secret_key_id: null }).where('id', '=', plain.id).execute();
    const foreign = await sealedWith(new SecretBox([foreignKey]));
    const foreignBefore = await t.db.selectFrom('webhook_endpoints').select(['secret', 'secret_key_id']).where('id', '=', foreign.id).executeTakeFirstOrThrow();

    const log = { error: vi.fn() };
    const box = new SecretBox([newKey, oldKey]);
    await startHousekeeping(t.db, t.clock, log, box).stop();

    expect(log.error).not.toHaveBeenCalled();
    for (const endpoint of [underOld, plain]) {
      const row = await t.db.selectFrom('webhook_endpoints').select(['chain_id', 'venue_id', 'id', 'secret', 'secret_key_id']).where('id', '=', endpoint.id).executeTakeFirstOrThrow();
      expect(row.secret_key_id).toBe(keyIdOf(newKey));
      expect(new SecretBox([newKey]).open(endpointSecret(row))).toBe(endpoint.secret);
    }
    expect(await t.db.selectFrom('webhook_endpoints').select(['secret', 'secret_key_id']).where('id', '=', foreign.id).executeTakeFirstOrThrow()).toEqual(foreignBefore);
  });
});
