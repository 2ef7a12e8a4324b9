// A per-address request limit for routes no key authenticates (the pass web service, the guest's card page):
// RATE_LIMIT_PER_MINUTE from one address, counted across processes when Redis is configured.
import { ApiError } from '../shared/errors.js';
import type { App } from './context.js';

/** Adds the limit, under its own name, to every route of the plugin `app` is. */
export function limitPerAddress(app: App, name: string): void {
  const { limiter, config, clock } = app.deps;
  app.addHook('onRequest', async (req) => {
    const decision = await limiter.hit(`${name}:addr:${req.ip}`, config.rateLimitPerMinute, 60_000, clock.now().getTime());
    if (!decision.allowed) throw new ApiError('rate_limited', { headers: { 'retry-after': String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))) } });
  });
}
