// Entry point of `npm start`: configuration, database, first run, HTTP server, graceful shutdown.
import { loadConfig } from './config.js';
import { ConfigError } from './shared/config-error.js';
import { systemClock } from './shared/clock.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { demoBanner, seedDemoIfEmpty } from './demo.js';
import { createServer, createWalletUpdates, createWebhookWorker, LOG_REDACT, openStorage } from './server.js';
import { startHousekeeping } from './housekeeping.js';
import { startImportWorker } from './modules/imports/worker.js';
import { startIntegrationWorker, workContext } from './integrations/worker.js';
import { armShutdownDeadline } from './shutdown.js';
import { startupWarnings } from './startup-warnings.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const storage = await openStorage(config, 'server');
  const server = await createServer(config, storage.database, storage.pepper, {}, {
    level: config.logLevel,
    redact: LOG_REDACT,
  });
  const { app } = server;
  for (const warning of startupWarnings(config)) app.log.warn(warning);
  const delivery = config.role === 'api' ? undefined : createWebhookWorker(config, storage.database, app.log);
  const housekeeping = config.role === 'api' ? undefined : startHousekeeping(storage.database.db, systemClock, app.log, app.deps.secretBox, config.auditRetentionDays);
  const imports = config.role === 'api' ? undefined : startImportWorker(storage.database.db, systemClock, app.log);
  const wallet = config.role === 'api' ? undefined : createWalletUpdates(config, storage.database, app.log);
  const walletLoop = wallet?.updates.start();
  const connectors =
    config.role === 'api'
      ? undefined
      : startIntegrationWorker(workContext(storage.database.db, app.deps.secretBox, systemClock, config), config.square.reconcileIntervalMs, app.log);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    armShutdownDeadline(config.shutdownTimeoutMs);
    app.log.info({ signal, deadline_ms: config.shutdownTimeoutMs }, 'shutting down: finishing in-flight requests');
    try {
      // Together: the listener closes at once, while the worker finishes the delivery it has under way.
      await Promise.all([delivery?.close(), server.close(), housekeeping?.stop(), imports?.stop(), connectors?.stop(), walletLoop?.stop().then(() => wallet?.close())]);
      await storage.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  delivery?.worker.start();
  if (config.role === 'worker') {
    app.log.info('ROLE=worker: delivering webhooks and wallet updates, running the point-of-sale connectors; no HTTP API is served by this process');
    return;
  }
  await app.listen({ port: config.port, host: config.host });
  // Seeded only once the port is ours, so a failed start never swallows the one-time secrets; never in
  // production, where its banner (an owner password and a key) would land in collected logs.
  const demo = process.env.NODE_ENV === 'production' ? undefined : await seedDemoIfEmpty(storage.database.db, storage.pepper);
  if (demo) process.stdout.write(demoBanner(demo, config.publicBaseUrl) + '\n');
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirInUseError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Venue Loyalty failed to start: ${(err as Error).stack ?? err}\n`);
  }
  process.exit(1);
});
