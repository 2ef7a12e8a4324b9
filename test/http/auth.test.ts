// Key authentication (D4): the 401 codes, immediate revocation, livemode, last use, and bad-key limiting.
import { describe, expect, it, vi } from 'vitest';
import { generateKeySecret } from '../../src/modules/accounts/api-key-format.js';
import * as accountsRepo from '../../src/modules/accounts/repo.js';
import * as accounts from '../../src/modules/accounts/service.js';
import { startTestApp, useTestApp, type TestApp } from '../support/app.js';
import { createKey, revokeKey, venueWithKey } from '../support/factories.js';
import { client, expectError, request } from '../support/http.js';

const t = useTestApp();
const hook = { url: 'https://hooks.example.com/venue' };

describe('API key authentication', () => {
  it('no Authorization header → 401 api_key_missing', async () => {
    expectError(await client(t, null).get('/api/v1/account'), 401, 'api_key_missing', 'authentication_error');
  });

  it('a header that is not Bearer → 401 api_key_invalid', async () => {
    const res = await request(t, 'GET', '/api/v1/account', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expectError(res, 401, 'api_key_invalid', 'authentication_error');
  });

  it('a malformed key and a key with a wrong checksum → 401 api_key_invalid', async () => {
    expectError(await client(t, 'sk_test_short').get('/api/v1/account'), 401, 'api_key_invalid');
    const { secret } = await venueWithKey(t);
    const typo = secret.slice(0, 10) + (secret[10] === 'a' ? 'b' : 'a') + secret.slice(11);
    expectError(await client(t, typo).get('/api/v1/account'), 401, 'api_key_invalid');
  });

  it('a well-formed key that was never issued → 401 api_key_invalid', async () => {
    expectError(await client(t, generateKeySecret(false)).get('/api/v1/account'), 401, 'api_key_invalid');
  });

  it('revocation takes effect on the very next request', async () => {
    const { key, secret } = await venueWithKey(t);
    expect((await client(t, secret).get('/api/v1/account')).status).toBe(200);
    await revokeKey(t, key);
    expectError(await client(t, secret).get('/api/v1/account'), 401, 'api_key_revoked', 'authentication_error');
  });

  it('a revocation made by another process reaches this process through NOTIFY alone', async () => {
    const { key, secret } = await venueWithKey(t);
    expect((await client(t, secret).get('/api/v1/account')).status).toBe(200); // now cached
    // What a CLI or second server does: change the row and notify; this process's in-memory event never fires.
    await t.db.transaction().execute(async (trx) => {
      const row = await accountsRepo.revokeApiKey(trx, key.chainId, key.id, new Date());
      await accountsRepo.notifyAuthChanged(trx, row!.secret_hash);
    });
    await vi.waitFor(async () => expectError(await client(t, secret).get('/api/v1/account'), 401, 'api_key_revoked'), {
      timeout: 2000,
      interval: 20,
    });
  });

  it('a test key creates objects with livemode false, a live key with livemode true', async () => {
    const { venue, secret: testKey } = await venueWithKey(t);
    const { secret: liveKey } = await createKey(t, venue, { livemode: true });
    const fromTest = await client(t, testKey).post('/api/v1/webhook_endpoints', hook);
    const fromLive = await client(t, liveKey).post('/api/v1/webhook_endpoints', hook);
    expect([fromTest.status, fromLive.status]).toEqual([201, 201]);
    expect(fromTest.body.livemode).toBe(false);
    expect(fromLive.body.livemode).toBe(true);
    expect(liveKey.startsWith('sk_live_')).toBe(true);
    const liveOnly = await client(t, testKey).get('/api/v1/webhook_endpoints?livemode=true');
    expect(liveOnly.body.data.map((e: { id: string }) => e.id)).toEqual([fromLive.body.id]);
  });

  it('records last_used_at on use, at most once a minute', async () => {
    const { venue, key, secret } = await venueWithKey(t);
    expect(key.lastUsedAt).toBeNull();
    await client(t, secret).get('/api/v1/account');
    const first = (await accounts.listApiKeys(t.db, accounts.placeOf(venue)))[0]!.lastUsedAt;
    expect(first).toBe(t.clock.now().toISOString().replace('Z', '+00:00'));
    t.clock.advance(30_000);
    await client(t, secret).get('/api/v1/account');
    expect((await accounts.listApiKeys(t.db, accounts.placeOf(venue)))[0]!.lastUsedAt).toBe(first);
    t.clock.advance(31_000);
    await client(t, secret).get('/api/v1/account');
    expect((await accounts.listApiKeys(t.db, accounts.placeOf(venue)))[0]!.lastUsedAt).not.toBe(first);
  });

  it('stores only a hash of the key', async () => {
    const { key, secret } = await venueWithKey(t);
    const row = await t.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.display_prefix).toBe(secret.slice(0, 12));
  });
});

describe('bad-key attempts', () => {
  it('are limited per client address', async () => {
    const limited = await startTestApp({ config: { authFailuresPerMinute: 5 } });
    try {
      const bad = generateKeySecret(false);
      for (let i = 0; i < 5; i++) expectError(await client(limited, bad).get('/api/v1/account'), 401, 'api_key_invalid');
      const res = await client(limited, bad).get('/api/v1/account');
      expectError(res, 429, 'rate_limited', 'rate_limit_error');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });

  it('are counted per forwarded client behind a trusted proxy (TRUST_PROXY), and per connection otherwise', async () => {
    const bad = generateKeySecret(false);
    const attempt = (t: TestApp, from: string) => client(t, bad).get('/api/v1/account', { 'x-forwarded-for': from });
    const behindProxy = await startTestApp({ config: { authFailuresPerMinute: 2, trustProxy: 'loopback' } });
    const direct = await startTestApp({ config: { authFailuresPerMinute: 2 } });
    try {
      for (let i = 0; i < 2; i++) expectError(await attempt(behindProxy, '203.0.113.1'), 401, 'api_key_invalid');
      expectError(await attempt(behindProxy, '203.0.113.1'), 429, 'rate_limited', 'rate_limit_error');
      expectError(await attempt(behindProxy, '203.0.113.2'), 401, 'api_key_invalid');

      for (let i = 0; i < 2; i++) expectError(await attempt(direct, '203.0.113.1'), 401, 'api_key_invalid');
      // Untrusted, the header is the client's own claim: a new value must not buy new attempts.
      expectError(await attempt(direct, '203.0.113.2'), 429, 'rate_limited', 'rate_limit_error');
    } finally {
      await behindProxy.close();
      await direct.close();
    }
  });
});
