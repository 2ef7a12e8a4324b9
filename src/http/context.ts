// What every route can reach: the app's dependencies and the authenticated caller.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/database.js';
import type { KeyAuthenticator } from '../modules/accounts/authenticator.js';
import type { Caller, KeyIdentity, PlaceCaller } from '../modules/accounts/schemas.js';
import type { EventRequest } from '../modules/webhooks/events.js';
import type { WebhookSender } from '../modules/webhooks/sender.js';
import type { Clock } from '../shared/clock.js';
import type { HostResolver } from '../shared/host-resolver.js';
import type { Mailer } from '../shared/mailer.js';
import type { SecretBox } from '../shared/secret-box.js';
import type { RateLimiter } from './rate-limit.js';

export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  pepper: string;
  authenticator: KeyAuthenticator;
  limiter: RateLimiter;
  resolveHost: HostResolver;
  webhookSender: WebhookSender;
  /** Seals webhook signing secrets at rest (the sender opens them to sign). */
  secretBox: SecretBox;
  /** Sends invitations and password resets; undefined without SMTP_URL (the dashboard shows the links instead). */
  mailer?: Mailer;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    caller: Caller | null;
    /** The calling key as authenticated, before the route's venue rule picked the venue the call acts at. */
    keyIdentity: KeyIdentity | null;
  }
}

export type App = FastifyInstance<any, any, any, any, TypeBoxTypeProvider>;

/** The caller of a keyed route; authentication has run before any handler of /api/v1. */
export function callerOf(req: FastifyRequest): Caller {
  if (!req.caller) throw new Error(`route ${req.routeOptions.url} ran without authentication`);
  return req.caller;
}

/** The caller of a route that happens at a venue (`at` in ROUTE_VENUES): the venue rule has named it. */
export function placeCallerOf(req: FastifyRequest): PlaceCaller {
  const caller = callerOf(req);
  if (caller.venueId === null) throw new Error(`route ${req.routeOptions.url} acts at a venue but has no venue rule`);
  return caller as PlaceCaller;
}

/** The request an event records as its cause. */
export function eventRequestOf(req: FastifyRequest): EventRequest {
  const key = req.headers['idempotency-key'];
  return { id: req.id, idempotencyKey: typeof key === 'string' ? key : null };
}
