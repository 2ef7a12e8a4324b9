// webhooks.verify against signatures computed by hand from the Standard Webhooks rule, as the server sends them.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { VenueLoyalty, WebhookVerificationError } from '@venue-loyalty/client';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const EVENT = { object: 'event', id: 'evt_1', type: 'transaction.created', data: { object: { object: 'transaction', paid: 1300 } } };
const BODY = JSON.stringify(EVENT);

/** `v1,` + base64 HMAC-SHA256, keyed by the secret's bytes, of `id.timestamp.body` (standardwebhooks.com). */
function signed(body: string, at: Date, secret = SECRET): Record<string, string> {
  const id = 'msg_1';
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

const client = new VenueLoyalty({ baseUrl: 'https://loyalty.example/api', apiKey: 'sk_test_abc' });

describe('webhooks.verify', () => {
  it('answers the event of a delivery signed with the endpoint secret, from Headers or a Node headers object', () => {
    const headers = signed(BODY, new Date());
    assert.deepEqual(client.webhooks.verify(BODY, new Headers(headers), SECRET), EVENT);
    const nodeStyle = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), [value]]));
    assert.deepEqual(client.webhooks.verify(new TextEncoder().encode(BODY), nodeStyle, SECRET), EVENT);
  });

  it('refuses a changed body, another secret, a missing header and an old delivery', () => {
    const headers = signed(BODY, new Date());
    const refused = (verify: () => unknown) => assert.throws(verify, WebhookVerificationError);
    refused(() => client.webhooks.verify(BODY.replace('1300', '9999'), headers, SECRET));
    refused(() => client.webhooks.verify(BODY, headers, `whsec_${randomBytes(32).toString('base64')}`));
    refused(() => client.webhooks.verify(BODY, { ...headers, 'webhook-signature': undefined }, SECRET));
    refused(() => client.webhooks.verify(BODY, signed(BODY, new Date(Date.now() - 10 * 60_000)), SECRET));
  });
});
