// Liveness, readiness and metrics (D1); no CORS headers on the API (D4).
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { venueWithKey } from '../support/factories.js';
import { client } from '../support/http.js';

const t = useTestApp();

describe('operations endpoints', () => {
  it('/healthz and /readyz answer while the database is reachable', async () => {
    expect((await client(t, null).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await client(t, null).get('/readyz')).body).toEqual({ status: 'ready' });
  });

  it('/metrics counts requests by route and status in Prometheus text', async () => {
    const { secret } = await venueWithKey(t);
    await client(t, secret).get('/api/v1/account');
    const res = await client(t, null).get('/metrics');
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/account",status="200"\} \d+/);
    expect(res.body).toContain('process_cpu_seconds_total');
  });

  it('the API sends no CORS headers, so browsers cannot use a key', async () => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).get('/api/v1/account', { origin: 'https://evil.example' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
