// A real app over a real database for one test file, with a manual clock and a DNS table the test controls.
import { afterAll, beforeAll, inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import type { Db } from '../../src/db/database.js';
import type { App } from '../../src/http/context.js';
import type { RateLimiter } from '../../src/http/rate-limit.js';
import * as members from '../../src/modules/members/service.js';
import { createServer, LOG_REDACT } from '../../src/server.js';
import { ManualClock } from '../../src/shared/clock.js';
import { appendFileSync } from 'node:fs';
import { contractStats, installContractChecks } from './contract.js';
import { openTestDatabase, type TestDatabase } from './database.js';
import { logSink } from './log-grep.js';
import { TEST_SECRET_KEY } from './processes.js';

export const TEST_PEPPER = 'test-pepper-0123456789abcdef0123456789abcdef';
export { TEST_SECRET_KEY };

export interface TestApp {
  app: App;
  db: Db;
  clock: ManualClock;
  config: Config;
  pepper: string;
  testDatabase: TestDatabase;
  /** Host name → addresses, read by the app's resolver on every look-up. */
  dns: Map<string, string[]>;
  resolveHost: (host: string) => Promise<string[]>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<Config>;
  limiter?: RateLimiter;
  /** Start with the app's mailer over this SMTP server (test/support/smtp.ts). */
  smtp?: () => string;
  /** The app's connections to PostgreSQL (test/support/database.ts). */
  poolSize?: number;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  // Test files sign many owners up from one address, each using its sign-up's link: these limits are tested with their own settings.
  const base = loadConfig({ API_KEY_PEPPER: TEST_PEPPER, PUBLIC_BASE_URL: 'http://localhost:3000', SECRET_ENCRYPTION_KEY: TEST_SECRET_KEY });
  return { ...base, signupLimits: { perAddress: 1_000_000, total: 1_000_000 }, linkUsesPerMinute: 1_000_000, invitationsPerHour: 1_000_000, ...overrides };
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDatabase = await openTestDatabase({ poolSize: options.poolSize });
  const config = testConfig({ ...options.config, ...(options.smtp ? { smtpUrl: options.smtp() } : {}) });
  const clock = new ManualClock();
  const dns = new Map<string, string[]>([['hooks.example.com', ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']]]);
  const resolveHost = async (host: string) => {
    const addresses = dns.get(host);
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses;
  };
  const server = await createServer(config, testDatabase.database, TEST_PEPPER, {
    clock,
    resolveHost,
    limiter: options.limiter,
    // At the most verbose level, into the run's log directory: the run fails if a secret reaches any line.
  }, { level: 'trace', redact: LOG_REDACT, stream: logSink(inject('testLogDir'), `app-${process.pid}`) });
  // Every response a test receives through inject is checked against the OpenAPI documents (test/support/contract.ts).
  installContractChecks(server.app);
  const checkedBefore = { ...contractStats };
  return {
    app: server.app,
    db: testDatabase.database.db,
    clock,
    config,
    pepper: TEST_PEPPER,
    testDatabase,
    dns,
    resolveHost,
    async close() {
      await server.close();
      await testDatabase.close();
      // Set by whoever wants the contract figures of a run: one line per app, with the answers checked while it ran.
      if (process.env.CONTRACT_STATS_FILE) {
        const during = Object.fromEntries(Object.entries(contractStats).map(([k, v]) => [k, v - checkedBefore[k as keyof typeof contractStats]]));
        appendFileSync(process.env.CONTRACT_STATS_FILE, `${JSON.stringify(during)}\n`);
      }
    },
  };
}

/**
 * Starts one app for the whole file; the returned object is filled in before the first test runs. After the
 * file, every member's stored totals are checked against the ledger (`ledger verify`): a difference fails it.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await startTestApp(options));
  });
  afterAll(async () => {
    if (!t.close) return;
    try {
      const differences = await members.verifyTotals(t.db);
      if (differences.length) throw new Error(`member totals differ from the ledger: ${JSON.stringify(differences.slice(0, 5))}`);
    } finally {
      await t.close();
    }
  });
  return t;
}
