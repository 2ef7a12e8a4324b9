// The SSRF guard at delivery time: a host that passed registration but now resolves to a private address is never contacted.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { venueWithKey } from '../../support/factories.js';
import { client } from '../../support/http.js';
import { startReceiver } from '../../support/receiver.js';
import { fastDelivery, raiseEvent, startWorker } from '../../support/webhooks.js';

const t = useTestApp({ config: { webhookAllowPrivateUrls: false, webhooks: fastDelivery() } });
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('delivery-time SSRF guard', () => {
  it('a host name that resolves to 127.0.0.1 at delivery time (after passing at registration) is not contacted', async () => {
    const r = await startReceiver(); // listens on 127.0.0.1: any connection at all would be counted
    cleanups.push(() => r.close());
    const { venue, secret } = await venueWithKey(t);
    const api = client(t, secret);
    t.dns.set('rebind.example.com', ['93.184.216.34']);
    const ep = await api.post('/api/v1/webhook_endpoints', { url: `https://rebind.example.com:${r.port}/hook` });
    expect(ep.status).toBe(201);
    t.dns.set('rebind.example.com', ['127.0.0.1']);

    await raiseEvent(t, venue, 'order.created');
    const delivery = startWorker(t);
    cleanups.push(() => delivery.close());
    await vi.waitFor(async () => {
      const log = await api.get(`/api/v1/webhook_endpoints/${ep.body.id}/deliveries`);
      expect(log.body.data[0]).toMatchObject({
        status_code: 0,
        error: 'Refused to connect: rebind.example.com resolves to 127.0.0.1, which is not a public address.',
      });
    }, { timeout: 15_000 }); // vitest's default second was too short for the worker on a busy machine
    const ping = await api.post(`/api/v1/webhook_endpoints/${ep.body.id}/test`);
    expect(ping.body).toMatchObject({ delivered: false, status_code: 0, error: expect.stringMatching(/^Refused to connect/) });
    expect(r.connections()).toBe(0);
  });
});
