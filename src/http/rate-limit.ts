// Sliding-log rate limiter (D8): at most N requests in any rolling window, in memory or shared through Redis.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Milliseconds until one more request would be allowed (0 when one is allowed now). */
  retryAfterMs: number;
}

export interface RateLimiter {
  /** Counts one more under `key` when it is within the limit. */
  hit(key: string, limit: number, windowMs: number, now: number): Promise<RateDecision>;
  /** Whether one more would be within the limit, counting nothing (a limit on failures is checked before trying). */
  peek(key: string, limit: number, windowMs: number, now: number): Promise<RateDecision>;
}

/** One process: a ring of the last `limit` allowed request times per key. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, number[]>();

  async hit(key: string, limit: number, windowMs: number, now: number): Promise<RateDecision> {
    return this.decide(key, limit, windowMs, now, true);
  }

  async peek(key: string, limit: number, windowMs: number, now: number): Promise<RateDecision> {
    return this.decide(key, limit, windowMs, now, false);
  }

  private decide(key: string, limit: number, windowMs: number, now: number, count: boolean): RateDecision {
    if (this.logs.size > 50_000) this.dropIdle(now - windowMs);
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = []));
    // Oldest first: what has left the window is a prefix.
    let expired = 0;
    while (expired < log.length && log[expired]! <= now - windowMs) expired++;
    if (expired > 0) log.splice(0, expired);
    if (log.length >= limit) {
      return { allowed: false, remaining: 0, retryAfterMs: log[0]! + windowMs - now };
    }
    if (count) log.push(now);
    const remaining = limit - log.length;
    return { allowed: true, remaining, retryAfterMs: remaining > 0 ? 0 : log[0]! + windowMs - now };
  }

  private dropIdle(before: number): void {
    for (const [key, log] of this.logs) if ((log.at(-1) ?? 0) <= before) this.logs.delete(key);
  }
}

// One round trip: trim the window, count, admit (when ARGV[5] is 1) and report, atomically.
const SLIDING_LOG = `
local key, now, window, limit, member, add = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit and add == '0' then
  allowed = 1
elseif count < limit then
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, window)
  count = count + 1
  allowed = 1
end
local oldest = tonumber(redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2])
return {allowed, limit - count, oldest}
`;

/** Several processes: the same log kept in a Redis sorted set per key. */
export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis) {
    redis.defineCommand('slidingLogHit', { numberOfKeys: 1, lua: SLIDING_LOG });
  }

  async hit(key: string, limit: number, windowMs: number, now: number): Promise<RateDecision> {
    return this.decide(key, limit, windowMs, now, true);
  }

  async peek(key: string, limit: number, windowMs: number, now: number): Promise<RateDecision> {
    return this.decide(key, limit, windowMs, now, false);
  }

  private async decide(key: string, limit: number, windowMs: number, now: number, count: boolean): Promise<RateDecision> {
    const hit = (this.redis as Redis & { slidingLogHit(...args: unknown[]): Promise<[number, number, number | null]> }).slidingLogHit;
    const [allowed, remaining, oldest] = await hit.call(this.redis, `ratelimit:${key}`, now, windowMs, limit, `${now}:${randomUUID()}`, count ? '1' : '0');
    const retryAfterMs = allowed === 1 && remaining > 0 ? 0 : Math.max(1, (oldest ?? now) + windowMs - now);
    return { allowed: allowed === 1, remaining, retryAfterMs };
  }
}
