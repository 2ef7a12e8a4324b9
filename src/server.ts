// Composition root: opens the database, Redis and the key cache from the configuration, and builds the app.
import { Redis } from 'ioredis';
import type { FastifyServerOptions } from 'fastify';
import { buildApp } from './app.js';
import { resolveApiKeyPepper, type Config } from './config.js';
import { claimDataDir } from './db/data-dir-lock.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import type { App, AppDeps } from './http/context.js';
import { MemoryRateLimiter, RedisRateLimiter } from './http/rate-limit.js';
import { KeyAuthenticator } from './modules/accounts/authenticator.js';
import { systemClock } from './shared/clock.js';
import { dnsResolver } from './shared/host-resolver.js';

export interface Storage {
  database: Database;
  pepper: string;
  close(): Promise<void>;
}

/** Opens (and migrates) the configured database; on PGlite the data directory is claimed for this process. */
export async function openStorage(config: Config, who: string): Promise<Storage> {
  const release = config.databaseUrl ? () => {} : claimDataDir(config.dataDir, who);
  try {
    const pepper = resolveApiKeyPepper(config);
    const database = await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize }
        : { kind: 'pglite', dataDir: config.dataDir },
    );
    await migrateToLatest(database.db);
    return {
      database,
      pepper,
      async close() {
        await database.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

export interface Running {
  app: App;
  close(): Promise<void>;
}

/** Builds the app over an open database; `overrides` lets tests inject a clock, resolver or limiter. */
export async function createServer(
  config: Config,
  database: Database,
  pepper: string,
  overrides: Partial<Pick<AppDeps, 'clock' | 'resolveHost' | 'limiter'>> = {},
  logger: FastifyServerOptions['logger'] = false,
): Promise<Running> {
  const clock = overrides.clock ?? systemClock;
  const redis = !overrides.limiter && config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  const limiter = overrides.limiter ?? (redis ? new RedisRateLimiter(redis) : new MemoryRateLimiter());
  const authenticator = new KeyAuthenticator(database, pepper, clock);
  await authenticator.start();
  const app = await buildApp(
    {
      config,
      database,
      db: database.db,
      clock,
      pepper,
      authenticator,
      limiter,
      resolveHost: overrides.resolveHost ?? dnsResolver,
    },
    logger,
  );
  return {
    app,
    async close() {
      await app.close();
      authenticator.stop();
      await redis?.quit();
    },
  };
}
