// Composition root: opens the database, Redis and the key cache from the configuration, and builds the app.
import type { Redis } from 'ioredis';
import type { FastifyServerOptions } from 'fastify';
import { buildApp } from './app.js';
import { answerBackupRequests } from './backup.js';
import { resolveApiKeyPepper, type Config } from './config.js';
import { claimDataDir } from './db/data-dir-lock.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { keepStatistics } from './db/statistics.js';
import type { App, AppDeps } from './http/context.js';
import { MemoryRateLimiter, RedisRateLimiter } from './http/rate-limit.js';
import { KeyAuthenticator } from './modules/accounts/authenticator.js';
import { listenForProgramChanges } from './modules/programs/cache.js';
import { WebhookSender } from './modules/webhooks/sender.js';
import { sealStoredSecrets } from './modules/webhooks/service.js';
import { sealConnectionsAgain } from './integrations/core/service.js';
import { WebhookWorker } from './modules/webhooks/worker.js';
import { missingAppleSettings } from './modules/wallet/apple-pass.js';
import { ApnsClient } from './modules/wallet/apns.js';
import { GoogleWallet } from './modules/wallet/google-wallet.js';
import { WalletUpdates } from './modules/wallet/update-worker.js';
import { systemClock } from './shared/clock.js';
import { dnsResolver, type HostResolver } from './shared/host-resolver.js';
import { smtpMailer } from './shared/mailer.js';
import { openSecretBox, type SecretBox } from './shared/secret-box.js';

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
    // Before anything is served: a key that cannot open the stored webhook or connection secrets stops the start here.
    const box = openSecretBox(config);
    // One after the other: a refusal closes the database, which must not be in use by the other.
    await (async () => {
      await sealStoredSecrets(database.db, box);
      await sealConnectionsAgain(database.db, box);
    })().catch(async (err: unknown) => {
      await database.close();
      throw err;
    });
    // Whoever holds the embedded directory makes its backups (`npm run cli -- backup`): no other process can open it.
    const stopBackups = database.dumpDataDir ? answerBackupRequests(config.dataDir, database.dumpDataDir) : async () => {};
    const statistics = keepStatistics(database);
    return {
      database,
      pepper,
      async close() {
        await statistics.stop();
        await stopBackups();
        await database.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

/** What no log line may carry, whatever the level: credentials in request headers. */
export const LOG_REDACT = ['req.headers.authorization', 'req.headers.cookie'];

export interface Running {
  app: App;
  close(): Promise<void>;
}

/** Builds the app over an open database; `overrides` lets tests inject a clock, resolver, limiter or mailer. */
export async function createServer(
  config: Config,
  database: Database,
  pepper: string,
  overrides: Partial<Pick<AppDeps, 'clock' | 'resolveHost' | 'limiter' | 'mailer'>> = {},
  logger: FastifyServerOptions['logger'] = false,
): Promise<Running> {
  const clock = overrides.clock ?? systemClock;
  // Loaded only when configured: a process without Redis need not carry the client.
  const redis: Redis | undefined =
    !overrides.limiter && config.redisUrl ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  const limiter = overrides.limiter ?? (redis ? new RedisRateLimiter(redis) : new MemoryRateLimiter());
  const authenticator = new KeyAuthenticator(database, pepper, clock);
  await authenticator.start();
  await listenForProgramChanges(database);
  const resolveHost = overrides.resolveHost ?? dnsResolver;
  const secretBox = openSecretBox(config);
  const webhookSender = createWebhookSender(config, resolveHost, secretBox);
  const mailer = overrides.mailer ?? (config.smtpUrl ? await smtpMailer(config.smtpUrl, config.mailFrom) : undefined);
  const app = await buildApp(
    {
      config,
      database,
      db: database.db,
      clock,
      pepper,
      authenticator,
      limiter,
      resolveHost,
      webhookSender,
      secretBox,
      mailer,
    },
    logger,
  );
  return {
    app,
    async close() {
      await app.close();
      authenticator.stop();
      await webhookSender.close();
      if (!overrides.mailer) mailer?.close();
      await redis?.quit();
    },
  };
}

export function createWebhookSender(config: Config, resolveHost: HostResolver = dnsResolver, secretBox: SecretBox = openSecretBox(config)): WebhookSender {
  return new WebhookSender({ allowPrivate: config.webhookAllowPrivateUrls, resolve: resolveHost }, config.webhooks.timeoutMs, secretBox);
}

/** The wallet updates' worker, with an APNs session when Apple Wallet is configured; `main` runs it unless ROLE=api. */
export function createWalletUpdates(config: Config, database: Database, log: { error(obj: object, msg: string): void }): { updates: WalletUpdates; close(): void } {
  const apple = config.appleWallet;
  const apns = missingAppleSettings(apple).length
    ? undefined
    : new ApnsClient({ url: apple.apnsUrl, passTypeId: apple.passTypeId!, certFile: apple.certFile!, keyFile: apple.keyFile!, keyPassphrase: apple.keyPassphrase, caFile: apple.apnsCaFile, timeoutMs: config.webhooks.timeoutMs });
  const updates = new WalletUpdates(database.db, { apns, google: new GoogleWallet(config.googleWallet, config.webhooks.timeoutMs), publicBaseUrl: config.publicBaseUrl }, config.webhooks, systemClock, log);
  return { updates, close: () => apns?.close() };
}

/** The delivery worker with a sender of its own; `main` runs it unless ROLE=api, tests start it themselves. */
export function createWebhookWorker(
  config: Config,
  database: Database,
  log: { error(obj: object, msg: string): void },
  resolveHost: HostResolver = dnsResolver,
): { worker: WebhookWorker; close(): Promise<void> } {
  const sender = createWebhookSender(config, resolveHost);
  const worker = new WebhookWorker(database.db, sender, config.webhooks, log);
  return {
    worker,
    async close() {
      await worker.stop();
      await sender.close();
    },
  };
}
