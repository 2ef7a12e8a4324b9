// With REDIS_URL, the limit is shared: the Redis limiter itself, and two server processes counting one key together.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../src/http/rate-limit.js';
import { peekCountsNothing } from '../support/limiter-peek.js';
import { TEST_PEPPER, useTestApp } from '../support/app.js';
import { venueWithKey } from '../support/factories.js';
import { startServerProcess, type ServerProcess } from '../support/processes.js';
import { needs } from '../support/services.js';

const redisUrl = process.env.REDIS_URL;
const t = useTestApp();
const redisGate = await needs('redis');
const postgresGate = await needs('postgres');

redisGate.describe('Redis rate limit', () => {
  const redis = new Redis(redisUrl ?? '', { lazyConnect: true });
  afterAll(() => redis.quit());

  it('admits exactly the limit within the window and reports when the next slot frees', async () => {
    const limiter = new RedisRateLimiter(redis);
    const key = `test:${randomUUID()}`;
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.hit(key, 3, 1000, 10_000 + i * 100));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(decisions[3]!.retryAfterMs).toBe(700);
    expect((await limiter.hit(key, 3, 1000, 11_001)).allowed).toBe(true);
  });

  it('peek counts nothing, and refuses once the limit is taken', () => peekCountsNothing(new RedisRateLimiter(redis), `test:${randomUUID()}`));

  // Two processes can share a database only on PostgreSQL (an embedded data directory admits one process).
  postgresGate.it(
    'two server processes share one count: request 301 across both is 429',
    async () => {
      const { secret } = await venueWithKey(t);
      const env = {
        DATABASE_URL: t.testDatabase.url!,
        REDIS_URL: redisUrl!,
        API_KEY_PEPPER: TEST_PEPPER,
      };
      const servers: ServerProcess[] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 301; i++) {
          const server = servers[i % 2]!;
          const res = await fetch(`${server.baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${secret}` } });
          statuses.push(res.status);
          if (i === 300) {
            const body = (await res.json()) as { error: { code: string; message: string } };
            expect(body.error.code).toBe('rate_limited');
            expect(body.error.message).toMatch(/300 requests per minute per key/);
            expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
          } else {
            await res.arrayBuffer();
          }
        }
        expect(statuses.slice(0, 300).every((s) => s === 200)).toBe(true);
        expect(statuses[300]).toBe(429);
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
    },
    60_000,
  );
});
