// Shutting down (D1): close() waits for the request in flight; a request that still arrives is 503 in the envelope.
import { createServer as createHttpServer } from 'node:http';
import inject from 'light-my-request';
import { describe, expect, it, vi } from 'vitest';
import { startTestApp } from '../support/app.js';
import { venueWithKey } from '../support/factories.js';

describe('graceful shutdown', () => {
  it('close() waits for the request in flight; a late request is 503 service_unavailable with Connection: close', async () => {
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
    // preClose has run once the listener is gone; a request that still reaches the router then is refused.
    await vi.waitFor(() => expect(t.app.server.listening).toBe(false));
    expect(closed).toBe(false);
    const late = await inject(t.app.routing, { method: 'GET', url: '/api/v1/account', headers: auth });
    expect(late.statusCode).toBe(503);
    expect(late.headers.connection).toBe('close');
    expect(late.json()).toEqual({
      error: expect.objectContaining({ type: 'api_error', code: 'service_unavailable' }),
      request_id: late.headers['x-request-id'],
    });
    answer();
    expect(await (await inFlight).json()).toMatchObject({ object: 'webhook_test', delivered: true, status_code: 200 });
    await closing;
    expect(closed).toBe(true);
    slow.close();
    await t.testDatabase.close();
  });
});
