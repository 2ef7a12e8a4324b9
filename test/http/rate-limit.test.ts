// Rate limits (D8): 300 per rolling minute per key, the 429 shape, the IETF headers, other keys untouched.
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/http/rate-limit.js';
import { peekCountsNothing } from '../support/limiter-peek.js';
import { useTestApp } from '../support/app.js';
import { createKey, venueWithKey } from '../support/factories.js';
import { client, expectError } from '../support/http.js';

const t = useTestApp();

describe('rate limit per key', () => {
  it('request 301 inside a minute is 429 rate_limited with Retry-After; other keys are unaffected', async () => {
    const { venue, secret } = await venueWithKey(t);
    const { secret: other } = await createKey(t, venue);
    const api = client(t, secret);
    for (let i = 1; i <= 300; i++) {
      const res = await api.get('/api/v1/account');
      if (res.status !== 200) throw new Error(`request ${i} answered ${res.status}`);
      t.clock.advance(100); // 300 requests spread over 30 s: still inside one minute
    }
    const res = await api.get('/api/v1/account');
    const e = expectError(res, 429, 'rate_limited', 'rate_limit_error');
    expect(e.message).toMatch(/300 requests per minute per key/);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.headers.ratelimit).toBe('"default";r=0;t=30');
    expect((await client(t, other).get('/api/v1/account')).status).toBe(200);
  });

  it('is a rolling window, not a fixed one: a burst at a minute boundary does not double the allowance', async () => {
    const { secret } = await venueWithKey(t);
    const api = client(t, secret);
    t.clock.advance(60_000 - (t.clock.now().getTime() % 60_000) - 1000); // one second before a minute turns
    for (let i = 0; i < 300; i++) await api.get('/api/v1/account');
    t.clock.advance(2000); // the minute has turned
    expectError(await api.get('/api/v1/account'), 429, 'rate_limited');
    t.clock.advance(58_001);
    expect((await api.get('/api/v1/account')).status).toBe(200);
  });

  it('sends RateLimit-Policy and RateLimit on every keyed response', async () => {
    const { secret } = await venueWithKey(t);
    const res = await client(t, secret).get('/api/v1/account');
    expect(res.headers['ratelimit-policy']).toBe('"default";q=300;w=60');
    expect(res.headers.ratelimit).toBe('"default";r=299;t=0');
  });
});

describe('MemoryRateLimiter', () => {
  it('admits exactly the limit within the window and reports when the next slot frees', async () => {
    const limiter = new MemoryRateLimiter();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.hit('k', 3, 1000, 10_000 + i * 100));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3]!.retryAfterMs).toBe(700);
    expect((await limiter.hit('k', 3, 1000, 11_001)).allowed).toBe(true);
  });

  it('peek counts nothing, and refuses once the limit is taken', () => peekCountsNothing(new MemoryRateLimiter(), 'p'));
});
