// Shutting down (D1): close() waits for the request in flight, which finishes normally.
import { createServer as createHttpServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { venueWithKey } from '../support/factories.js';

describe('graceful shutdown', () => {
  it('close() waits for the request in flight, which is answered normally', async () => {
    const t = await startTestApp({ config: { webhookAllowPrivateUrls: true } });
    const { secret } = await venueWithKey(t);
    // A receiver that holds the webhook test call keeps a request in flight while the app closes.
    let answer!: () => void;
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const slow = createHttpServer((_req, res) => {
      answer = () => res.writeHead(200).end();
      arrived();
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(slow.address() as { port: number }).port}/hook`;
    const auth = { authorization: `Bearer ${secret}` };
    const endpoint = await t.app.inject({ method: 'POST', url: '/api/v1/webhook_endpoints', headers: { ...auth, 'content-type': 'application/json' }, payload: { url: hook } });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const inFlight = fetch(`${base}/api/v1/webhook_endpoints/${endpoint.json().id}/test`, { method: 'POST', headers: auth });
    await reached;

    let closed = false;
    const closing = t.app.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    answer();
    expect(await (await inFlight).json()).toMatchObject({ object: 'webhook_test', delivered: true, status_code: 200 });
    await closing;
    expect(closed).toBe(true);
    slow.close();
    await t.testDatabase.close();
  });
});
