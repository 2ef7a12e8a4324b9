// Wallet tests' fixtures (D23): throw-away certificates made with openssl, a pass unzipped, a stand-in for APNs.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const PASS_TYPE = 'pass.com.example.venue-loyalty-test';
export const TEAM = 'ABCDE12345';

/**
 * A root CA, an intermediate standing in for Apple's WWDR, a pass certificate and key it signed, and a server
 * certificate for 127.0.0.1 the root signed (a stand-in for APNs).
 */
export function throwAwayCertificates(): { dir: string; cert: string; key: string; wwdr: string; ca: string; serverCert: string; serverKey: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'vl-pass-certs-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  writeFileSync(
    path.join(dir, 'ext.cnf'),
    '[v3_wwdr]\nbasicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid:always\n' +
      '[v3_signer]\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid:always\n' +
      '[v3_server]\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1\n',
  );
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Test Root CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'wwdr.key', '-out', 'wwdr.csr', '-subj', '/CN=Test WWDR/OU=G4/O=Test');
  ssl('x509', '-req', '-in', 'wwdr.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'wwdr.pem', '-days', '2', '-sha256', '-extfile', 'ext.cnf', '-extensions', 'v3_wwdr');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'signer.key', '-out', 'signer.csr', '-subj', `/UID=${PASS_TYPE}/CN=Pass Type ID: ${PASS_TYPE}/OU=${TEAM}/O=Test/C=IE`);
  ssl('x509', '-req', '-in', 'signer.csr', '-CA', 'wwdr.pem', '-CAkey', 'wwdr.key', '-CAcreateserial', '-out', 'signer.pem', '-days', '2', '-sha256', '-extfile', 'ext.cnf', '-extensions', 'v3_signer');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-sha256', '-extfile', 'ext.cnf', '-extensions', 'v3_server');
  const file = (name: string) => path.join(dir, name);
  return { dir, cert: file('signer.pem'), key: file('signer.key'), wwdr: file('wwdr.pem'), ca: file('ca.pem'), serverCert: file('server.pem'), serverKey: file('server.key') };
}

/** Apple Wallet settings of those certificates; pushes go to `apnsUrl` (a stand-in for APNs) trusting their CA. */
export function appleSettings(certs: ReturnType<typeof throwAwayCertificates>, apnsUrl = 'https://127.0.0.1:9') {
  return { passTypeId: PASS_TYPE, teamId: TEAM, certFile: certs.cert, keyFile: certs.key, wwdrFile: certs.wwdr, apnsUrl, apnsCaFile: certs.ca };
}

/** The pass unzipped into a directory of its own: its files by name. */
export function unzip(pkpass: Buffer): { dir: string; files: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'vl-pass-'));
  writeFileSync(path.join(dir, 'card.pkpass'), pkpass);
  execFileSync('unzip', ['-q', 'card.pkpass', '-d', 'x'], { cwd: dir });
  return { dir: path.join(dir, 'x'), files: readdirSync(path.join(dir, 'x')).sort() };
}


export interface ReceivedPush {
  token: string;
  path: string;
  topic: string | undefined;
  body: string;
  /** The subject of the client certificate the push came with. */
  client: string;
}

/**
 * A local HTTP/2 TLS server standing in for APNs: it asks for the pass certificate as the client's, records every
 * push, and answers 200 unless `answers` holds a planned answer for the token (taken in turn).
 */
export async function apnsStandIn(certs: ReturnType<typeof throwAwayCertificates>) {
  const pushes: ReceivedPush[] = [];
  const answers = new Map<string, { status: number; reason?: string }[]>();
  const server = http2.createSecureServer({
    key: readFileSync(certs.serverKey),
    cert: readFileSync(certs.serverCert),
    ca: [readFileSync(certs.ca), readFileSync(certs.wwdr)],
    requestCert: true,
    rejectUnauthorized: true,
  });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const path = String(headers[':path']);
      const token = decodeURIComponent(path.replace('/3/device/', ''));
      const socket = stream.session?.socket as TLSSocket | undefined;
      pushes.push({ token, path, topic: headers['apns-topic'] as string | undefined, body: Buffer.concat(chunks).toString(), client: String(socket?.getPeerCertificate().subject?.CN ?? '') });
      const answer = answers.get(token)?.shift() ?? { status: 200 };
      // Status 0: no answer at all, as from a connection that died without a word.
      if (answer.status === 0) return;
      stream.respond({ ':status': answer.status });
      stream.end(answer.reason ? JSON.stringify({ reason: answer.reason }) : undefined);
    });
  });
  const connections = { count: 0 };
  server.on('session', () => connections.count++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    pushes,
    answers,
    /** HTTP/2 connections opened to it so far. */
    connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A Google service account key file (a fresh RSA key) whose token endpoint is `tokenUri`; its public key to verify with. */
export function googleServiceAccount(tokenUri = 'http://127.0.0.1:9/token') {
  const email = 'wallet@venue-loyalty-test.iam.gserviceaccount.com';
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'vl-google-')), 'service-account.json');
  const write = (uri: string) =>
    writeFileSync(file, JSON.stringify({ type: 'service_account', client_email: email, private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }), token_uri: uri }));
  write(tokenUri);
  return { file, email, publicKey, write };
}
