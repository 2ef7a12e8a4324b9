// Google Wallet (D23): the save link's JWT verified with the service account's public key and its class and object
// checked against the member; after a balance change the worker gets a token from a stub token endpoint (a JWT-bearer
// grant it verifies) and PATCHes the object on a stub walletobjects server; a 404 (never saved) is dropped, a 500
// retried; unconfigured, 409 naming the settings.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, exportJWK, importSPKI, jwtVerify } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GoogleWallet } from '../../../src/modules/wallet/google-wallet.js';
import { WalletUpdates } from '../../../src/modules/wallet/update-worker.js';
import * as updates from '../../../src/modules/wallet/updates-repo.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber, seedLedger } from '../../support/factories.js';
import { client, ok } from '../../support/http.js';
import { googleServiceAccount } from '../../support/wallet.js';

const ISSUER = '3388000000022222222';
const account = googleServiceAccount();
const { email: EMAIL, publicKey } = account;
const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** The stub of Google's token endpoint and walletobjects API: what it received, and answers planned per object. */
const received = { tokens: [] as Record<string, unknown>[], patches: [] as { objectId: string; auth: string; body: Record<string, any> }[] };
const planned = new Map<string, number[]>();
const stub = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', async () => {
    if (req.method === 'POST' && req.url === '/token') {
      const form = new URLSearchParams(body);
      const grant = await jwtVerify(form.get('assertion')!, await importSPKI(publicPem, 'RS256'), { issuer: EMAIL, audience: `${stubUrl}/token` });
      received.tokens.push({ grant_type: form.get('grant_type'), ...grant.payload });
      res.setHeader('content-type', 'application/json').end(JSON.stringify({ access_token: 'stub-access-token', expires_in: 3600, token_type: 'Bearer' }));
      return;
    }
    const objectId = decodeURIComponent(req.url!.replace('/walletobjects/v1/loyaltyObject/', ''));
    if (req.method === 'PATCH') received.patches.push({ objectId, auth: String(req.headers.authorization), body: JSON.parse(body) });
    res.statusCode = planned.get(objectId)?.shift() ?? 200;
    res.end('{}');
  });
});
let stubUrl = '';
const googleWallet = { issuerId: ISSUER, serviceAccountFile: account.file, apiUrl: '' };
beforeAll(async () => {
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  googleWallet.apiUrl = `${stubUrl}/walletobjects/v1`;
  account.write(`${stubUrl}/token`);
});
afterAll(() => new Promise<void>((resolve) => stub.close(() => resolve())));

const t = useTestApp({ config: { googleWallet, publicBaseUrl: 'https://loyalty.example.com' } });
const unconfigured = useTestApp();
let worker: WalletUpdates;
beforeAll(() => {
  const config = { ...t.config.webhooks, retryScheduleMs: [0, 0], retryJitter: 0 };
  worker = new WalletUpdates(t.db, { google: new GoogleWallet(googleWallet), publicBaseUrl: t.config.publicBaseUrl }, config, t.clock, { error: () => undefined });
});

async function memberWithBalance(cashback: number) {
  const venue = await createVenue(t, { currency: 'EUR', locale: 'en-IE' });
  const program = await createProgram(t, venue, 'cashback', { isDefault: true });
  const { secret } = await createKey(t, venue);
  const api = client(t, secret);
  const card = newCardNumber();
  const member = ok(await api.post('/api/v1/members', { card_number: card, consent: true, name: 'Aoife' }), 'enrol').body;
  await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback });
  return { venue, program, api, card, member };
}

const queued = async (memberId: string) =>
  (await sql<{ channel: string; status: string; attempts: number }>`select channel, status, attempts from wallet_updates where member_id = ${memberId}`.execute(t.db)).rows;

describe('Google Wallet', () => {
  it("the save link's JWT is signed by the service account and carries the program's class and the member's object", async () => {
    const { program, api, card, member } = await memberWithBalance(500);
    const link = ok(await api.get(`/api/v1/members/${member.id}/wallet/google`), 'link').body;
    expect(link.object).toBe('google_wallet_link');
    expect(link.save_url.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
    const jwt = link.save_url.slice('https://pay.google.com/gp/v/save/'.length);
    const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), alg: 'RS256' }] });
    const { payload, protectedHeader } = await jwtVerify(jwt, jwks, { issuer: EMAIL, audience: 'google' });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.typ).toBe('savetowallet');
    expect(payload.origins).toEqual(['https://loyalty.example.com']);
    const { loyaltyClasses, loyaltyObjects } = payload.payload as { loyaltyClasses: any[]; loyaltyObjects: any[] };
    expect(loyaltyClasses).toEqual([
      {
        id: `${ISSUER}.${program.id}`,
        issuerName: expect.any(String),
        programName: expect.stringMatching(/ loyalty$/),
        programLogo: { sourceUri: { uri: `https://loyalty.example.com/wallet/programs/${program.id}/logo.png` } },
        hexBackgroundColor: '#1f3a34',
        reviewStatus: 'UNDER_REVIEW',
      },
    ]);
    expect(loyaltyObjects).toEqual([
      {
        id: `${ISSUER}.${member.id}`,
        classId: `${ISSUER}.${program.id}`,
        state: 'ACTIVE',
        accountId: card,
        accountName: 'Aoife',
        loyaltyPoints: { label: 'Balance', balance: { string: '€5.00' } },
        barcode: { type: 'QR_CODE', value: card, alternateText: card },
      },
    ]);
    // The logo the class names is served, without a key: the default icon while the chain has no logo of its own.
    const logo = await t.app.inject({ url: `/wallet/programs/${program.id}/logo.png` });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
  });

  it('a balance change PATCHes the object with the token the JWT-bearer grant gave; the token is kept for the next', async () => {
    const { venue, api, member } = await memberWithBalance(500);
    ok(await api.get(`/api/v1/members/${member.id}/wallet/google`), 'link');
    await seedLedger(t, venue, { memberId: member.id, kind: 'adjustment', cashback: 250 });
    expect(await queued(member.id)).toEqual([{ channel: 'google', status: 'pending', attempts: 0 }]);
    const tokensBefore = received.tokens.length;
    await worker.sendDue();
    const mine = () => received.patches.filter((p) => p.objectId === `${ISSUER}.${member.id}`);
    expect(mine()).toHaveLength(1);
    expect(mine()[0]!.auth).toBe('Bearer stub-access-token');
    expect(mine()[0]!.body.loyaltyPoints).toEqual({ label: 'Balance', balance: { string: '€7.50' } });
    expect(received.tokens.slice(tokensBefore)).toEqual([
      expect.objectContaining({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', scope: 'https://www.googleapis.com/auth/wallet_object.issuer' }),
    ]);
    expect(await queued(member.id)).toEqual([]);

    await seedLedger(t, venue, { memberId: member.id, kind: 'adjustment', cashback: -100 });
    await worker.sendDue();
    expect(mine().map((p) => p.body.loyaltyPoints.balance.string)).toEqual(['€7.50', '€6.50']);
    expect(received.tokens.length).toBe(tokensBefore + 1);
  });

  it('a 404 (the guest never saved the card) is dropped; a 500 is retried; a member without a link is sent nothing', async () => {
    const never = await memberWithBalance(100);
    const flaky = await memberWithBalance(100);
    const unlinked = await memberWithBalance(100);
    for (const m of [never, flaky]) ok(await m.api.get(`/api/v1/members/${m.member.id}/wallet/google`), 'link');
    planned.set(`${ISSUER}.${never.member.id}`, [404]);
    planned.set(`${ISSUER}.${flaky.member.id}`, [500]);
    for (const m of [never, flaky, unlinked]) await seedLedger(t, m.venue, { memberId: m.member.id, kind: 'adjustment', cashback: 50 });
    expect(await queued(unlinked.member.id)).toEqual([]);
    await worker.sendDue();
    expect(await queued(never.member.id)).toEqual([]);
    expect(await queued(flaky.member.id)).toEqual([{ channel: 'google', status: 'pending', attempts: 1 }]);
    await worker.sendDue();
    expect(await queued(flaky.member.id)).toEqual([]);
    const patchedIds = received.patches.map((p) => p.objectId);
    expect(patchedIds.filter((id) => id === `${ISSUER}.${never.member.id}`)).toHaveLength(1);
    expect(patchedIds.filter((id) => id === `${ISSUER}.${flaky.member.id}`)).toHaveLength(2);
  });

  it("a name change is sent; an erased member's object is retired with nothing of theirs on it, and then forgotten", async () => {
    const { api, member } = await memberWithBalance(300);
    ok(await api.get(`/api/v1/members/${member.id}/wallet/google`), 'link');
    ok(await api.patch(`/api/v1/members/${member.id}`, { name: 'Aoife B.' }), 'rename');
    await worker.sendDue();
    const mine = () => received.patches.filter((p) => p.objectId === `${ISSUER}.${member.id}`);
    expect(mine().map((p) => p.body.accountName)).toEqual(['Aoife B.']);

    ok(await api.post(`/api/v1/members/${member.id}/erase`), 'erase');
    expect(await queued(member.id)).toEqual([{ channel: 'google_erased', status: 'pending', attempts: 0 }]);
    await worker.sendDue();
    expect(mine()[1]!.body).toEqual({
      state: 'INACTIVE',
      accountId: '-',
      accountName: '-',
      loyaltyPoints: { label: 'Balance', balance: { string: '-' } },
      barcode: { type: 'QR_CODE', value: '-', alternateText: '-' },
    });
    expect(await queued(member.id)).toEqual([]);
    expect(mine()).toHaveLength(2);
  });

  it("a worker sends only the channels it has settings for: an Apple push waits for a worker that can send it", async () => {
    const { venue, api, member } = await memberWithBalance(300);
    ok(await api.get(`/api/v1/members/${member.id}/wallet/google`), 'link');
    await sql`insert into apple_pass_registrations (chain_id, member_id, device_library_id, push_token, created_at, updated_at)
      values (${venue.chainId}, ${member.id}, 'a-device', 'a-token', now(), now())`.execute(t.db);
    await seedLedger(t, venue, { memberId: member.id, kind: 'adjustment', cashback: 10 });
    await worker.sendDue();
    expect(await queued(member.id)).toEqual([{ channel: 'apple', status: 'pending', attempts: 0 }]);
  });

  it("a worker whose lease ran out writes nothing: the row is the next claim's", async () => {
    const { venue, api, member } = await memberWithBalance(300);
    ok(await api.get(`/api/v1/members/${member.id}/wallet/google`), 'link');
    await seedLedger(t, venue, { memberId: member.id, kind: 'adjustment', cashback: 10 });
    const [claimed] = (await updates.claimDue(t.db, ['google'], 50, 60_000)).filter((u) => u.member_id === member.id);
    // Another worker claims it after the lease: its attempt is the row's now.
    await sql`update wallet_updates set attempts = attempts + 1 where id = ${claimed!.id}`.execute(t.db);
    await updates.remove(t.db, claimed!);
    await updates.markFailed(t.db, claimed!, 'late');
    expect(await queued(member.id)).toEqual([{ channel: 'google', status: 'pending', attempts: 2 }]);
    await sql`delete from wallet_updates where id = ${claimed!.id}`.execute(t.db);
  });

  it('unconfigured: 409 wallet_not_configured naming the settings', async () => {
    const venue = await createVenue(unconfigured);
    await createProgram(unconfigured, venue, 'cashback', { isDefault: true });
    const api = client(unconfigured, (await createKey(unconfigured, venue)).secret);
    const member = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;
    const res = await api.get(`/api/v1/members/${member.id}/wallet/google`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('wallet_not_configured');
    expect(res.body.error.message).toBe('Google Wallet cards need GOOGLE_WALLET_ISSUER_ID, GOOGLE_WALLET_SERVICE_ACCOUNT set on the server (see docs/wallet.md).');
  });
});
