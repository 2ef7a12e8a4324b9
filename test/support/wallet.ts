// Apple Wallet tests' fixtures (D23): throw-away certificates made with openssl, and a pass unzipped.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const PASS_TYPE = 'pass.com.example.venue-loyalty-test';
export const TEAM = 'ABCDE12345';

/** A root CA, an intermediate standing in for Apple's WWDR, and a pass certificate and key it signed. */
export function throwAwayCertificates(): { dir: string; cert: string; key: string; wwdr: string; ca: string } {
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


export /** The pass unzipped into a directory of its own: its files by name. */
function unzip(pkpass: Buffer): { dir: string; files: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'vl-pass-'));
  writeFileSync(path.join(dir, 'card.pkpass'), pkpass);
  execFileSync('unzip', ['-q', 'card.pkpass', '-d', 'x'], { cwd: dir });
  return { dir: path.join(dir, 'x'), files: readdirSync(path.join(dir, 'x')).sort() };
}

