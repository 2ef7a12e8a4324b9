// Key authentication, scopes and the per-key rate limit for every keyed route under /api (D4, D8).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../shared/errors.js';
import type { App } from './context.js';
import { ROUTE_SCOPES, allows, routeKey } from './route-scopes.js';

const WINDOW_MS = 60_000;

function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^Bearer\s+(\S*)\s*$/i.exec(header);
  if (!match) throw new ApiError('api_key_invalid', { message: 'Send the key as "Authorization: Bearer <API_KEY>".' });
  return match[1] || undefined;
}

export function installKeyAuth(app: App): void {
  // Fail closed: a route under /api (any prefix: /api/v1, /api/pos/v1, one yet to come) that is missing from the
  // scope table cannot even be registered.
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const key = routeKey(method, route.url);
      if (key && !ROUTE_SCOPES[key]) throw new Error(`${key} has no entry in src/http/route-scopes.ts`);
    }
  });

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const key = routeKey(req.method, req.routeOptions.url ?? '');
    const needed = key ? ROUTE_SCOPES[key] : undefined;
    if (!needed || needed === 'public') return;
    const { authenticator, limiter, clock, config } = app.deps;

    const secret = bearerToken(req.headers.authorization);
    if (!secret) throw new ApiError('api_key_missing');
    const result = await authenticator.authenticate(secret);
    if (!result.ok) {
      const limit = config.authFailuresPerMinute;
      const failures = await limiter.hit(`authfail:${req.ip}`, limit, WINDOW_MS, clock.now().getTime());
      if (!failures.allowed) {
        throw new ApiError('rate_limited', {
          message: `Too many requests with invalid API keys from this address (limit ${limit} per minute).`,
          headers: { 'retry-after': String(Math.max(1, Math.ceil(failures.retryAfterMs / 1000))) },
        });
      }
      throw new ApiError(result.code);
    }
    req.caller = { ...result.caller, now: clock.now() };

    const limit = config.rateLimitPerMinute;
    const decision = await limiter.hit(`key:${result.caller.keyId}`, limit, WINDOW_MS, clock.now().getTime());
    const waitSeconds = Math.ceil(decision.retryAfterMs / 1000);
    reply.header('ratelimit-policy', `"default";q=${limit};w=60`);
    reply.header('ratelimit', `"default";r=${decision.remaining};t=${waitSeconds}`);
    if (!decision.allowed) {
      throw new ApiError('rate_limited', {
        message: `Too many requests: the limit is ${limit} requests per minute per key. Retry after ${Math.max(1, waitSeconds)} s.`,
        headers: { 'retry-after': String(Math.max(1, waitSeconds)) },
      });
    }

    if (!allows(result.caller.scopes, needed)) {
      throw new ApiError('missing_scope', {
        message: `This call needs an API key with the scope ${needed.join(' or ')}.`,
      });
    }
  });
}
