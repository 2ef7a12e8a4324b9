// What every rate limiter's peek must do, checked against the memory and the Redis limiter alike.
import { expect } from 'vitest';
import type { RateLimiter } from '../../src/http/rate-limit.js';

/** Peeking counts nothing: three peeks leave all three slots; once they are taken, a peek is refused with the wait. */
export async function peekCountsNothing(limiter: RateLimiter, key: string): Promise<void> {
  for (let i = 0; i < 3; i++) expect(await limiter.peek(key, 3, 1000, 10_000)).toEqual({ allowed: true, remaining: 3, retryAfterMs: 0 });
  for (let i = 0; i < 3; i++) expect((await limiter.hit(key, 3, 1000, 10_000 + i * 100)).allowed).toBe(true);
  expect(await limiter.peek(key, 3, 1000, 10_300)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 700 });
  expect((await limiter.peek(key, 3, 1000, 11_001)).allowed).toBe(true);
}
