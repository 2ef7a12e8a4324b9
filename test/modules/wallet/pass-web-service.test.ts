// The Apple pass web service (D23) driven as a device would: register with the pass's token (201, then 200), ask
// which passes changed (200 with the serial and a tag, then 204 until the member changes), fetch the pass (200 with
// Last-Modified, then 304), unregister, send a log; a wrong token, another member's serial or a bad device id refused.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber, seedLedger } from '../../support/factories.js';
import { client } from '../../support/http.js';
import { appleSettings, PASS_TYPE, throwAwayCertificates, unzip } from '../../support/wallet.js';

const certs = throwAwayCertificates();
const t = useTestApp({ config: { appleWallet: appleSettings(certs) } });
const DEVICE = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const BASE = '/wallet/apple/v1';

/** A member with a balance, and the token of the pass their till downloaded for them. */
async function memberWithPass() {
  const venue = await createVenue(t);
  await createProgram(t, venue, 'cashback', { isDefault: true });
  const { secret } = await createKey(t, venue);
  const member = (await client(t, secret).post('/api/v1/members', { card_number: newCardNumber(), consent: true })).body;
  await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: 500 });
  const pass = await t.app.inject({ url: `/api/v1/members/${member.id}/pass.pkpass`, headers: { authorization: `Bearer ${secret}` } });
  const token = JSON.parse(readFileSync(path.join(unzip(pass.rawPayload).dir, 'pass.json'), 'utf8')).authenticationToken as string;
  return { venue, member, token, secret, auth: { authorization: `ApplePass ${token}` } };
}

const registration = (serial: string, device = DEVICE) => `${BASE}/devices/${device}/registrations/${PASS_TYPE}/${serial}`;
const send = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string> = {}, body?: unknown) =>
  t.app.inject({ method, url, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, payload: body === undefined ? undefined : JSON.stringify(body) });

describe('the Apple pass web service', () => {
  it('a device registers, learns what changed, fetches the pass (then 304), and unregisters', async () => {
    const { venue, member, auth } = await memberWithPass();
    expect((await send('POST', registration(member.id), auth, { pushToken: 'push-token-1' })).statusCode).toBe(201);
    expect((await send('POST', registration(member.id), auth, { pushToken: 'push-token-2' })).statusCode).toBe(200);

    const listed = await send('GET', `${BASE}/devices/${DEVICE}/registrations/${PASS_TYPE}`);
    expect(listed.statusCode).toBe(200);
    const { serialNumbers, lastUpdated } = listed.json();
    expect(serialNumbers).toEqual([member.id]);
    // The tag stays a few seconds back (a change stamped earlier but committed later is never missed).
    expect(Number(lastUpdated)).toBeLessThanOrEqual(Date.now() - 4_000);
    const since = (at: number) => send('GET', `${BASE}/devices/${DEVICE}/registrations/${PASS_TYPE}?passesUpdatedSince=${at}`);
    expect((await since(Date.now() + 60_000)).statusCode).toBe(204);
    const beforeChange = Date.now() - 1;
    expect((await since(beforeChange)).statusCode).toBe(204);
    await seedLedger(t, venue, { memberId: member.id, kind: 'import', cashback: 250 });
    const changed = await since(beforeChange);
    expect([changed.statusCode, changed.json().serialNumbers]).toEqual([200, [member.id]]);

    const fetched = await send('GET', `${BASE}/passes/${PASS_TYPE}/${member.id}`, auth);
    expect([fetched.statusCode, fetched.headers['content-type']]).toEqual([200, 'application/vnd.apple.pkpass']);
    const current = JSON.parse(readFileSync(path.join(unzip(fetched.rawPayload).dir, 'pass.json'), 'utf8'));
    expect(current.storeCard.primaryFields[0].value).toBe('€7.50');
    // Last-Modified is never after now: fetched in the second of the change, it is that second (and sending it back
    // is answered 200, as a change later in that second may follow); a later second is answered 304.
    const lastModified = String(fetched.headers['last-modified']);
    expect(Date.parse(lastModified)).toBeLessThanOrEqual(Date.now());
    const later = new Date(Date.parse(lastModified) + 1_000).toUTCString();
    expect((await send('GET', `${BASE}/passes/${PASS_TYPE}/${member.id}`, { ...auth, 'if-modified-since': later })).statusCode).toBe(304);
    const before = new Date(Date.parse(lastModified) - 5_000).toUTCString();
    expect((await send('GET', `${BASE}/passes/${PASS_TYPE}/${member.id}`, { ...auth, 'if-modified-since': before })).statusCode).toBe(200);

    expect((await send('DELETE', registration(member.id), auth)).statusCode).toBe(200);
    expect((await send('GET', `${BASE}/devices/${DEVICE}/registrations/${PASS_TYPE}`)).statusCode).toBe(204);
    expect((await send('POST', `${BASE}/log`, {}, { logs: ['Web service error for pass…'] })).statusCode).toBe(200);
  });

  it('refuses a wrong or missing token, another pass’s token, another pass type, and a device id or push token out of shape', async () => {
    const { member, auth } = await memberWithPass();
    const other = await memberWithPass();
    const refusals = [
      await send('POST', registration(member.id), {}, { pushToken: 'x' }),
      await send('POST', registration(member.id), { authorization: 'ApplePass not-the-token-of-this-pass' }, { pushToken: 'x' }),
      await send('POST', registration(member.id), other.auth, { pushToken: 'x' }),
      await send('POST', `${BASE}/devices/${DEVICE}/registrations/pass.com.example.other/${member.id}`, auth, { pushToken: 'x' }),
      await send('GET', `${BASE}/passes/${PASS_TYPE}/${other.member.id}`, auth),
      await send('GET', `${BASE}/passes/${PASS_TYPE}/not-a-serial`, auth),
    ];
    // A token of 43 characters of more than one byte each: compared as bytes, refused alike.
    refusals.push(await send('POST', registration(member.id), { authorization: `ApplePass ${'\u00e9'.repeat(43)}` }, { pushToken: 'x' }));
    // The same answer whatever was wrong.
    expect(refusals.map((r) => [r.statusCode, r.json().error.code])).toEqual(Array(7).fill([401, 'pass_unauthorized']));
    const longToken = await send('POST', registration(member.id), auth, { pushToken: 'a'.repeat(257) });
    expect([longToken.statusCode, longToken.json().error.param]).toEqual([400, 'pushToken']);
    const badDevice = await send('POST', registration(member.id, 'not%20a%20device'), auth, { pushToken: 'x' });
    expect([badDevice.statusCode, badDevice.json().error.param]).toEqual([400, 'deviceLibraryIdentifier']);
    expect((await send('GET', `${BASE}/devices/${DEVICE}-none/registrations/${PASS_TYPE}`)).statusCode).toBe(204);
  });

  it('a pass is registered on ten devices at most: the eleventh replaces the one renewed longest ago', async () => {
    const { member, auth } = await memberWithPass();
    for (let i = 0; i < 11; i++) expect((await send('POST', registration(member.id, `phone-${i}`), auth, { pushToken: `push-${i}` })).statusCode).toBe(201);
    const held = await Promise.all(Array.from({ length: 11 }, (_, i) => send('GET', `${BASE}/devices/phone-${i}/registrations/${PASS_TYPE}`)));
    expect(held.map((r) => r.statusCode)).toEqual([204, ...Array(10).fill(200)]);
  });

  it('erasing the member unregisters their devices; their pass is 401 from then on', async () => {
    const { member, auth, secret } = await memberWithPass();
    expect((await send('POST', registration(member.id, 'erased-device'), auth, { pushToken: 'push' })).statusCode).toBe(201);
    expect((await client(t, secret).post(`/api/v1/members/${member.id}/erase`)).status).toBe(200);
    expect((await send('GET', `${BASE}/devices/erased-device/registrations/${PASS_TYPE}`)).statusCode).toBe(204);
    expect((await send('GET', `${BASE}/passes/${PASS_TYPE}/${member.id}`, auth)).statusCode).toBe(401);
  });

  it('revoking the pass unregisters its devices and retires its token; a pass downloaded since has a new one that works', async () => {
    const { member, auth, secret } = await memberWithPass();
    expect((await send('POST', registration(member.id, 'revoked-device'), auth, { pushToken: 'push' })).statusCode).toBe(201);
    const revoked = await client(t, secret).post(`/api/v1/members/${member.id}/pass/revoke`);
    expect([revoked.status, revoked.body]).toEqual([200, { object: 'pass_revocation', member_id: member.id }]);
    expect((await send('GET', `${BASE}/devices/revoked-device/registrations/${PASS_TYPE}`)).statusCode).toBe(204);
    expect((await send('GET', `${BASE}/passes/${PASS_TYPE}/${member.id}`, auth)).statusCode).toBe(401);
    expect((await send('POST', registration(member.id, 'revoked-device'), auth, { pushToken: 'push' })).statusCode).toBe(401);

    const pass = await t.app.inject({ url: `/api/v1/members/${member.id}/pass.pkpass`, headers: { authorization: `Bearer ${secret}` } });
    const token = JSON.parse(readFileSync(path.join(unzip(pass.rawPayload).dir, 'pass.json'), 'utf8')).authenticationToken as string;
    expect(`ApplePass ${token}`).not.toBe(auth.authorization);
    expect((await send('GET', `${BASE}/passes/${PASS_TYPE}/${member.id}`, { authorization: `ApplePass ${token}` })).statusCode).toBe(200);
  });
});
