// The member's Apple Wallet pass (D23), signed with a throw-away CA, "WWDR" intermediate and pass certificate made
// here with openssl: the archive unzipped, every file's SHA-1 in manifest.json checked, the signature verified by
// openssl against that CA, pass.json checked field by field against the member; unconfigured, 409 naming the settings.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber, seedLedger } from '../../support/factories.js';
import { client } from '../../support/http.js';

const PASS_TYPE = 'pass.com.example.venue-loyalty-test';
const TEAM = 'ABCDE12345';

/** A root CA, an intermediate standing in for Apple's WWDR, and a pass certificate and key it signed. */
function throwAwayCertificates(): { dir: string; cert: string; key: string; wwdr: string; ca: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'vl-pass-certs-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  writeFileSync(
    path.join(dir, 'ext.cnf'),
    '[v3_wwdr]\nbasicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid:always\n' +
      '[v3_signer]\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid:always\n',
  );
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Test Root CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'wwdr.key', '-out', 'wwdr.csr', '-subj', '/CN=Test WWDR/OU=G4/O=Test');
  ssl('x509', '-req', '-in', 'wwdr.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'wwdr.pem', '-days', '2', '-sha256', '-extfile', 'ext.cnf', '-extensions', 'v3_wwdr');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'signer.key', '-out', 'signer.csr', '-subj', `/UID=${PASS_TYPE}/CN=Pass Type ID: ${PASS_TYPE}/OU=${TEAM}/O=Test/C=IE`);
  ssl('x509', '-req', '-in', 'signer.csr', '-CA', 'wwdr.pem', '-CAkey', 'wwdr.key', '-CAcreateserial', '-out', 'signer.pem', '-days', '2', '-sha256', '-extfile', 'ext.cnf', '-extensions', 'v3_signer');
  return { dir, cert: path.join(dir, 'signer.pem'), key: path.join(dir, 'signer.key'), wwdr: path.join(dir, 'wwdr.pem'), ca: path.join(dir, 'ca.pem') };
}

const certs = throwAwayCertificates();
const t = useTestApp({
  config: { appleWallet: { passTypeId: PASS_TYPE, teamId: TEAM, certFile: certs.cert, keyFile: certs.key, wwdrFile: certs.wwdr }, publicBaseUrl: 'https://loyalty.example.com' },
});
const unconfigured = useTestApp();

/** The pass unzipped into a directory of its own: its files by name. */
function unzip(pkpass: Buffer): { dir: string; files: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'vl-pass-'));
  writeFileSync(path.join(dir, 'card.pkpass'), pkpass);
  execFileSync('unzip', ['-q', 'card.pkpass', '-d', 'x'], { cwd: dir });
  return { dir: path.join(dir, 'x'), files: readdirSync(path.join(dir, 'x')).sort() };
}

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
