// A real server process at its most verbose log level: no password, password hash, link token or key secret in any log line.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { needs } from '../support/services.js';
import { startServerProcess, type ServerProcess } from '../support/processes.js';
import { tokenOf } from './support.js';

const PASSWORD = 'correct horse battery staple 7';
const NEW_PASSWORD = 'another long passphrase 8';
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
});

/** A dashboard session over real HTTP: the cookie it was given and the CSRF token its answers carry. */
function session(baseUrl: string) {
  let cookie = '';
  let csrf = '';
  return async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie } : {}),
        ...(csrf && method !== 'GET' ? { 'x-csrf-token': csrf } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0]!;
    const json = (await res.json().catch(() => null)) as Record<string, any> | null;
    if (json?.csrf_token) csrf = json.csrf_token;
    return { status: res.status, body: json };
  };
}

// Its server runs the embedded database whichever pass runs it: the PGlite pass runs it, the PostgreSQL pass skips it.
const embeddedGate = await needs('embedded');

embeddedGate.describe('secrets in logs', () => {
  it('sign-up, sign-in (wrong and right), a key created and used, a bad key, a password change: none of them logged', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-logs-'));
    server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'trace' });
    const owner = session(server.baseUrl);
    const email = `owner-${Date.now()}@example.com`;
    const sent = await owner('POST', '/dashboard/api/signup', { venue_name: 'Log Bistro', email, password: PASSWORD });
    expect(sent.status).toBe(202);
    const linkToken = tokenOf(sent.body!.link);
    expect((await owner('POST', '/dashboard/api/links/accept', { token: linkToken, password: PASSWORD })).status).toBe(200);
    const key = await owner('POST', '/dashboard/api/api-keys', { name: 'Till', livemode: false, scopes: ['members:read'] });
    expect(key.status).toBe(201);
    const secret: string = key.body!.secret;
    const used = await fetch(`${server.baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${secret}` } });
    expect(used.status).toBe(200);
    const wrongSecret = `${secret.slice(0, -4)}AAAA`;
    expect((await fetch(`${server.baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${wrongSecret}` } })).status).toBe(401);
    const other = session(server.baseUrl);
    expect((await other('POST', '/dashboard/api/session', { email, password: `${PASSWORD}x` })).status).toBe(401);
    expect((await other('POST', '/dashboard/api/session', { email, password: PASSWORD })).status).toBe(200);
    expect((await other('POST', '/dashboard/api/password', { current_password: PASSWORD, new_password: NEW_PASSWORD })).status).toBeLessThan(300);
    await server.stop();

    // The first start's banner prints the demo's own secrets once, by design (D18); log lines are pino's JSON.
    const logLines = server.output().split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.filter((line) => line.includes('"msg":"request"')).length, 'a line per request').toBeGreaterThanOrEqual(7);
    for (const needle of [PASSWORD, NEW_PASSWORD, linkToken, secret, secret.slice(12), wrongSecret, '$argon2']) {
      expect(logLines.filter((line) => line.includes(needle)), `log lines containing ${needle.slice(0, 12)}…`).toEqual([]);
    }
  }, 240_000);
});
