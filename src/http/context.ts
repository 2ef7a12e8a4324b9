// What every route can reach: the app's dependencies and the authenticated caller.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/database.js';
import type { KeyAuthenticator } from '../modules/accounts/authenticator.js';
import type { Caller } from '../modules/accounts/schemas.js';
import type { EventRequest } from '../modules/webhooks/events.js';
import type { WebhookSender } from '../modules/webhooks/sender.js';
import type { Clock } from '../shared/clock.js';
import type { HostResolver } from '../shared/host-resolver.js';
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
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export type App = FastifyInstance<any, any, any, any, TypeBoxTypeProvider>;

/** The caller of a keyed route; authentication has run before any handler of /api/v1. */
export function callerOf(req: FastifyRequest): Caller {
  if (!req.caller) throw new Error(`route ${req.routeOptions.url} ran without authentication`);
  return req.caller;
}

/** The request an event records as its cause. */
export function eventRequestOf(req: FastifyRequest): EventRequest {
  const key = req.headers['idempotency-key'];
  return { id: req.id, idempotencyKey: typeof key === 'string' ? key : null };
}
