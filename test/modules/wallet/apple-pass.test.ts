// The member's Apple Wallet pass (D23), signed with a throw-away CA, "WWDR" intermediate and pass certificate made
// here with openssl: the archive unzipped, every file's SHA-1 in manifest.json checked, the signature verified by
// openssl against that CA, pass.json checked field by field against the member; unconfigured, 409 naming the settings.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber, seedLedger } from '../../support/factories.js';
import { client } from '../../support/http.js';
import { appleSettings, PASS_TYPE, TEAM, throwAwayCertificates, unzip } from '../../support/wallet.js';

const certs = throwAwayCertificates();
const t = useTestApp({
  config: { appleWallet: appleSettings(certs), publicBaseUrl: 'https://loyalty.example.com' },
});
const unconfigured = useTestApp();

async function memberWithBalance(app: typeof t, cashback: number) {
  const venue = await createVenue(app);
  await createProgram(app, venue, 'cashback', { isDefault: true });
  const { secret } = await createKey(app, venue);
  const api = client(app, secret);
  const card = newCardNumber();
  const member = (await api.post('/api/v1/members', { card_number: card, consent: true })).body;
  await seedLedger(app, venue, { memberId: member.id, kind: 'import', cashback });
  return { venue, api, card, member, auth: { authorization: `Bearer ${secret}` } };
}

describe('the Apple Wallet pass', () => {
  it('is signed by the configured certificate, every file in the manifest, and says what the member has', async () => {
    const { auth, card, member } = await memberWithBalance(t, 1_234);
    const res = await t.app.inject({ url: `/api/v1/members/${member.id}/pass.pkpass`, headers: auth });
    expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'application/vnd.apple.pkpass']);
    const { dir, files } = unzip(res.rawPayload);
    expect(files).toEqual(['icon.png', 'icon@2x.png', 'icon@3x.png', 'logo.png', 'manifest.json', 'pass.json', 'signature']);

    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(manifest).sort()).toEqual(files.filter((f) => f !== 'manifest.json' && f !== 'signature'));
    for (const [file, sha1] of Object.entries(manifest)) expect(createHash('sha1').update(readFileSync(path.join(dir, file))).digest('hex'), file).toBe(sha1);
    // Throws (and fails the test) unless the signature over the manifest verifies against the throw-away CA.
    execFileSync('openssl', ['smime', '-verify', '-binary', '-inform', 'DER', '-in', 'signature', '-content', 'manifest.json', '-CAfile', certs.ca, '-purpose', 'any', '-out', '/dev/null'], { cwd: dir, stdio: 'pipe' });

    const pass = JSON.parse(readFileSync(path.join(dir, 'pass.json'), 'utf8'));
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: PASS_TYPE,
      teamIdentifier: TEAM,
      serialNumber: member.id,
      webServiceURL: 'https://loyalty.example.com/wallet/apple',
      backgroundColor: 'rgb(31, 58, 52)',
      foregroundColor: 'rgb(255, 255, 255)',
      labelColor: 'rgb(201, 228, 218)',
      barcodes: [{ format: 'PKBarcodeFormatQR', message: card, messageEncoding: 'iso-8859-1', altText: card }],
    });
    expect(pass.storeCard.primaryFields).toEqual([{ key: 'balance', label: 'Balance', value: '€12.34' }]);
    expect(pass.storeCard.auxiliaryFields).toEqual([{ key: 'card', label: 'Card', value: card }]);
    expect(pass.authenticationToken).toMatch(/^[\w-]{43}$/);

    // The same pass again has the same token; a new generation revokes it.
    const again = JSON.parse(readFileSync(path.join(unzip((await t.app.inject({ url: `/api/v1/members/${member.id}/pass.pkpass`, headers: auth })).rawPayload).dir, 'pass.json'), 'utf8'));
    expect(again.authenticationToken).toBe(pass.authenticationToken);
    await sql`update members set pass_generation = pass_generation + 1 where id = ${member.id}`.execute(t.db);
    const next = JSON.parse(readFileSync(path.join(unzip((await t.app.inject({ url: `/api/v1/members/${member.id}/pass.pkpass`, headers: auth })).rawPayload).dir, 'pass.json'), 'utf8'));
    expect(next.authenticationToken).not.toBe(pass.authenticationToken);
  });

  it("another chain's member is 404, as any", async () => {
    const { member } = await memberWithBalance(t, 0);
    const other = await createVenue(t);
    const res = await client(t, (await createKey(t, other)).secret).get(`/api/v1/members/${member.id}/pass.pkpass`);
    expect([res.status, res.body.error.code]).toEqual([404, 'member_not_found']);
  });

  it('on a server without the settings: 409 wallet_not_configured naming each', async () => {
    const { api, member } = await memberWithBalance(unconfigured, 0);
    const res = await api.get(`/api/v1/members/${member.id}/pass.pkpass`);
    expect([res.status, res.body.error.code]).toEqual([409, 'wallet_not_configured']);
    expect(res.body.error.message).toBe('Apple Wallet passes need APPLE_PASS_TYPE_ID, APPLE_TEAM_ID, APPLE_PASS_CERT, APPLE_PASS_KEY, APPLE_WWDR_CERT set on the server (see docs/wallet.md).');
  });
});
