// Key authentication, scopes and the per-key rate limit for every keyed route under /api (D4, D8).
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import { callerAt } from '../modules/accounts/service.js';
import { ApiError } from '../shared/errors.js';
import type { App } from './context.js';
import { isLegacyPosPath } from './route-scopes.js';
import { ROUTE_SCOPES, allows, routeKey, venueRuleOf } from './route-scopes.js';

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
      const rule = key ? venueRuleOf(key) : undefined;
      if (rule) acceptVenueId(route, rule);
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
    if (result.caller.keyVenueId === null && isLegacyPosPath(req.url)) throw new ApiError('chain_key_not_accepted');
    req.caller = callerAt(result.caller, null, clock.now(), req.ip);
    req.keyIdentity = result.caller;

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

const VENUE_ID = Type.String({ format: 'uuid', description: 'The venue where this happens (D21): required from a chain key, else its own venue.' });
const VENUE_FILTER = Type.String({ format: 'uuid', description: "A venue of the chain (D21): a chain key's filter; a venue key may name its own venue only." });

/** Adds `venue_id` to the body schema of a route that has one, else to its query schema (shared by every prefix). */
function acceptVenueId(route: RouteOptions, rule: 'at' | 'any'): void {
  const schema = (route.schema ??= {}) as { body?: any; querystring?: any };
  const part = schema.body ? schema.body : (schema.querystring ??= { type: 'object', properties: {} });
  part.properties ??= {};
  part.properties.venue_id ??= rule === 'at' ? VENUE_ID : VENUE_FILTER;
}

/**
 * The venue a call acts at (D21), after validation: a venue key acts at its own venue and may name only that one; a
 * chain key names it with `venue_id` where the call happens at a venue, and may name one where the route allows.
 * `venue_id` is taken out of the body, so services and stored fingerprints see the body as a venue key sends it.
 */
export function installVenueResolution(app: App): void {
  app.addHook('preHandler', (req, _reply, done) => {
    resolveVenue(req);
    done();
  });
}

function resolveVenue(req: FastifyRequest): void {
  const key = routeKey(req.method, req.routeOptions.url ?? '');
  const rule = key ? venueRuleOf(key) : undefined;
  if (!rule || !req.keyIdentity || !req.caller) return;
  const body = req.routeOptions.schema?.body && req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : undefined;
  const source = body ?? ((req.query ?? {}) as Record<string, unknown>);
  const named = typeof source.venue_id === 'string' ? source.venue_id : undefined;
  if (body) delete body.venue_id;
  const own = req.keyIdentity.keyVenueId;
  if (own !== null) {
    if (named !== undefined && named !== own) throw new ApiError('venue_not_allowed', { param: 'venue_id' });
    return;
  }
  if (named === undefined) {
    if (rule === 'at') throw new ApiError('parameter_invalid', { param: 'venue_id', message: 'A chain key names the venue where this happens: send venue_id.' });
    return;
  }
  req.caller = callerAt(req.keyIdentity, named, req.caller.now, req.ip);
}
