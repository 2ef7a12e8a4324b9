// Live updates of Apple passes (D23): a change of the member's card queues, in its own transaction, one push per
// registered device, which the worker sends over HTTP/2 to a local TLS stand-in for APNs with the pass certificate:
// path /3/device/<token>, topic the pass type, body {}. 410 and 400 BadDeviceToken unregister the device, 500 is
// retried (only that device's push), 403 is not; a change no ledger entry makes (a brand, a card) is pushed too.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApnsClient } from '../../../src/modules/wallet/apns.js';
import { WalletUpdates } from '../../../src/modules/wallet/update-worker.js';
import { useTestApp } from '../../support/app.js';
import { createKey, createProgram, createVenue, newCardNumber } from '../../support/factories.js';
import { client, ok } from '../../support/http.js';
import { apnsStandIn, appleSettings, PASS_TYPE, throwAwayCertificates, unzip } from '../../support/wallet.js';

const certs = throwAwayCertificates();
const settings = appleSettings(certs);
let apns: Awaited<ReturnType<typeof apnsStandIn>>;
beforeAll(async () => {
  apns = await apnsStandIn(certs);
  settings.apnsUrl = apns.url;
});
const t = useTestApp({ config: { appleWallet: settings } });
let worker: WalletUpdates;
let session: ApnsClient;
beforeAll(() => {
  session = new ApnsClient({ url: apns.url, passTypeId: PASS_TYPE, certFile: certs.cert, keyFile: certs.key, caFile: certs.ca, timeoutMs: 5000 });
  // Retries due at once: the test sends again instead of waiting out a schedule.
  const config = { ...t.config.webhooks, retryScheduleMs: [0, 0], retryJitter: 0 };
  worker = new WalletUpdates(t.db, { apns: session, publicBaseUrl: t.config.publicBaseUrl }, config, t.clock, { error: () => undefined });
});
afterAll(async () => {
  session.close();
  await apns.close();
});

const dinner = (price: number) => [{ name: 'Dinner', quantity: 1, unit_price: price }];
const BASE = '/wallet/apple/v1';

/** A member (of a cashback program, unless said) with a pass registered on one device per token given. */
async function memberOnDevices(...tokens: string[]) {
  return memberOf('cashback', ...tokens);
}

async function memberOf(type: 'cashback' | 'vip', ...tokens: string[]) {
  const venue = await createVenue(t);
  await createProgram(t, venue, type, { isDefault: true });
  const { secret } = await createKey(t, venue);
  const api = client(t, secret);
  const member = ok(await api.post('/api/v1/members', { card_number: newCardNumber(), consent: true }), 'enrol').body;
  const pass = await t.app.inject({ url: `/api/v1/members/${member.id}/pass.pkpass`, headers: { authorization: `Bearer ${secret}` } });
  expect(pass.statusCode).toBe(200);
  const token = JSON.parse(readFileSync(path.join(unzip(pass.rawPayload).dir, 'pass.json'), 'utf8')).authenticationToken as string;
  const devices = tokens.map(() => randomBytes(16).toString('hex'));
  for (const [i, device] of devices.entries()) {
    const res = await t.app.inject({
      method: 'POST',
      url: `${BASE}/devices/${device}/registrations/${PASS_TYPE}/${member.id}`,
      headers: { authorization: `ApplePass ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ pushToken: tokens[i] }),
    });
    expect(res.statusCode).toBe(201);
  }
  return { venue, api, member, devices };
}

const tokenOf = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;
const pushedTo = (tokens: string[]) => apns.pushes.filter((p) => tokens.includes(p.token));
const pending = async (memberId: string) =>
  (await sql<{ push_token: string; status: string; attempts: number }>`select push_token, status, attempts from wallet_updates where member_id = ${memberId} order by push_token`.execute(t.db)).rows;

describe('pushes to APNs', () => {
  it('a check queues one push per registered device, sent with the pass certificate, topic and an empty payload', async () => {
    const tokens = [tokenOf('phone'), tokenOf('watch')];
    const { api, member } = await memberOnDevices(...tokens);
    expect(await pending(member.id)).toEqual([]);
    ok(await api.post('/api/v1/checks', { external_id: `C-${randomBytes(4).toString('hex')}`, member_id: member.id, line_items: dinner(2_000) }), 'check');
    // Queued with the check, not sent on its path.
    expect((await pending(member.id)).map((p) => p.push_token)).toEqual([...tokens].sort());
    expect(pushedTo(tokens)).toEqual([]);

    await worker.sendDue();
    const pushes = pushedTo(tokens);
    expect(pushes.map((p) => p.token).sort()).toEqual([...tokens].sort());
    for (const push of pushes) {
      expect(push).toMatchObject({ path: `/3/device/${push.token}`, topic: PASS_TYPE, body: '{}', client: `Pass Type ID: ${PASS_TYPE}` });
    }
    expect(await pending(member.id)).toEqual([]);
    await worker.sendDue();
    expect(pushedTo(tokens)).toHaveLength(2);
  });

  it('410 and 400 BadDeviceToken unregister the device; 403 is given up at once; 500 is retried for that device alone', async () => {
    const [gone, bad, refused, flaky, fine] = ['gone', 'bad', 'refused', 'flaky', 'fine'].map(tokenOf) as [string, string, string, string, string];
    apns.answers.set(gone, [{ status: 410, reason: 'Unregistered' }]);
    apns.answers.set(bad, [{ status: 400, reason: 'BadDeviceToken' }]);
    apns.answers.set(refused, [{ status: 403, reason: 'BadCertificate' }]);
    apns.answers.set(flaky, [{ status: 500, reason: 'InternalServerError' }]);
    const { api, member } = await memberOnDevices(gone, bad, refused, flaky, fine);
    ok(await api.post('/api/v1/checks', { external_id: `C-${randomBytes(4).toString('hex')}`, member_id: member.id, line_items: dinner(1_500) }), 'check');

    await worker.sendDue();
    const registered = await sql<{ push_token: string }>`select push_token from apple_pass_registrations where member_id = ${member.id} order by push_token`.execute(t.db);
    expect(registered.rows.map((r) => r.push_token)).toEqual([fine, flaky, refused].sort());
    expect(await pending(member.id)).toEqual(
      [
        { push_token: flaky, status: 'pending', attempts: 1 },
        { push_token: refused, status: 'failed', attempts: 1 },
      ].sort((a, b) => a.push_token.localeCompare(b.push_token)),
    );

    await worker.sendDue();
    expect(pushedTo([gone, bad, refused, flaky, fine]).map((p) => p.token).sort()).toEqual([bad, fine, flaky, flaky, gone, refused].sort());
    expect(await pending(member.id)).toEqual([{ push_token: refused, status: 'failed', attempts: 1 }]);
  });

  it('a brand change and a card added, which write no ledger entry, push too; the export shows the device; an erased member is pushed nothing', async () => {
    const token = tokenOf('brand');
    const { venue, api, member, devices } = await memberOnDevices(token);
    await sql`insert into chain_brands (chain_id, display_name, background_color, foreground_color, label_color, updated_at)
      values (${venue.chainId}, 'Brand new', '#000000', '#ffffff', '#cccccc', now())
      on conflict (chain_id) do update set display_name = excluded.display_name`.execute(t.db);
    await worker.sendDue();
    expect(pushedTo([token])).toHaveLength(1);
    // Saved again as it is (the dashboard writes the whole row): nothing to tell.
    await sql`update chain_brands set display_name = 'Brand new', updated_at = now() where chain_id = ${venue.chainId}`.execute(t.db);
    expect(await pending(member.id)).toEqual([]);

    ok(await api.post(`/api/v1/members/${member.id}/cards`, { card_number: newCardNumber() }), 'card');
    await worker.sendDue();
    expect(pushedTo([token])).toHaveLength(2);

    // The export shows that the pass is on a device and since when, never which device: Apple's id for it would let
    // anyone list every pass on it (Apple's serial list asks no credential), nor its push token. The erasure forgets it.
    const exported = ok(await api.get(`/api/v1/members/${member.id}/export`), 'export').body;
    expect(exported.wallet).toEqual({ apple_devices: [{ registered_at: expect.any(String), renewed_at: expect.any(String) }], google_object_since: null });
    expect(JSON.stringify(exported)).not.toContain(token);
    expect(JSON.stringify(exported)).not.toContain(devices[0]);
    ok(await api.post(`/api/v1/members/${member.id}/erase`), 'erase');
    expect(await pending(member.id)).toEqual([]);
    expect(ok(await api.get(`/api/v1/members/${member.id}/export`), 'export after erasure').body.wallet).toEqual({ apple_devices: [], google_object_since: null });
    await worker.sendDue();
    expect(pushedTo([token])).toHaveLength(2);
  });

  it('a VIP level set by hand, which writes no ledger entry, pushes once; setting it again as it is pushes nothing', async () => {
    const token = tokenOf('vip');
    const { api, member } = await memberOf('vip', token);
    ok(await api.patch(`/api/v1/members/${member.id}`, { vip_level: 'Black' }), 'vip');
    await worker.sendDue();
    expect(pushedTo([token])).toHaveLength(1);
    ok(await api.patch(`/api/v1/members/${member.id}`, { vip_level: 'Black' }), 'same again');
    expect(await pending(member.id)).toEqual([]);
  });

  it('one connection carries every push; one that gives no answer in time is replaced', async () => {
    const [silent, next] = [tokenOf('silent'), tokenOf('next')];
    apns.answers.set(silent, [{ status: 0 }]);
    const client = new ApnsClient({ url: apns.url, passTypeId: PASS_TYPE, certFile: certs.cert, keyFile: certs.key, caFile: certs.ca, timeoutMs: 500 });
    const before = apns.connections.count;
    expect(await client.push(tokenOf('first'))).toEqual({ kind: 'sent' });
    expect(await client.push(tokenOf('second'))).toEqual({ kind: 'sent' });
    expect(apns.connections.count).toBe(before + 1);
    expect(await client.push(silent)).toEqual({ kind: 'retry', error: 'APNs unreachable: timed out' });
    expect(await client.push(next)).toEqual({ kind: 'sent' });
    expect(apns.connections.count).toBe(before + 2);
    client.close();
  });

  it('an APNs that cannot be reached is retried, and never holds up the check', async () => {
    const token = tokenOf('down');
    const { api, member } = await memberOnDevices(token);
    const down = new ApnsClient({ url: 'https://127.0.0.1:9', passTypeId: PASS_TYPE, certFile: certs.cert, keyFile: certs.key, caFile: certs.ca, timeoutMs: 1000 });
    const unreachable = new WalletUpdates(t.db, { apns: down, publicBaseUrl: t.config.publicBaseUrl }, { ...t.config.webhooks, retryScheduleMs: [0], retryJitter: 0 }, t.clock, { error: () => undefined });
    ok(await api.post('/api/v1/checks', { external_id: `C-${randomBytes(4).toString('hex')}`, member_id: member.id, line_items: dinner(900) }), 'check');
    await unreachable.sendDue();
    expect(await pending(member.id)).toEqual([{ push_token: token, status: 'pending', attempts: 1 }]);
    down.close();
    await worker.sendDue();
    expect(pushedTo([token])).toHaveLength(1);
    expect(await pending(member.id)).toEqual([]);
  });
});
