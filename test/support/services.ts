// Tests that need PostgreSQL, Redis or Chromium (or the embedded database) ask here whether to run (docs/architecture.md#tests).
//
// The rule: .ci/run runs `npm test` twice, once on PGlite with DATABASE_URL and REDIS_URL unset on purpose, once on
// PostgreSQL with Redis. A service is
// - available: the test runs;
// - not applicable to this run: PostgreSQL in the PGlite run, the embedded database in the PostgreSQL run, Redis in a
//   PGlite run without REDIS_URL. The test is skipped with a printed line saying which run has it, even under CI;
// - missing: REDIS_URL set but Redis does not answer PING, Redis unset in the PostgreSQL run, Chromium not there or
//   not starting. The test is skipped with a printed line; under CI=true it fails instead.
// PostgreSQL itself is never "missing": with DATABASE_URL set, the global setup fails the whole run if it cannot
// connect.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { Redis } from 'ioredis';
import { describe as vitestDescribe, it as vitestIt } from 'vitest';
import { onPostgres } from './database.js';

export type Service = 'postgres' | 'embedded' | 'redis' | 'chromium';

/** The browser the QR menu test drives: Debian's Chromium, as .ci/run installs it. */
export const CHROMIUM = '/usr/bin/chromium';

/** CI=true (or any value but empty, 0 or false): a missing service fails the test instead of skipping it. */
export const underCi = (): boolean => !['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase());

const LABELS: Record<Service, string> = {
  postgres: 'PostgreSQL (DATABASE_URL)',
  embedded: 'the embedded database (DATABASE_URL unset)',
  redis: 'Redis (REDIS_URL)',
  chromium: `Chromium (${CHROMIUM})`,
};

type State = { state: 'available' } | { state: 'not_applicable' | 'missing'; detail: string };

export interface ServiceGate {
  service: Service;
  available: boolean;
  /** Why it does not run, when it does not. */
  detail?: string;
  /** A describe that runs when the service is available; otherwise skips with a printed line, or under CI fails. */
  describe(name: string, fn: () => void): void;
  /** The same for one test. */
  it(name: string, fn: () => unknown, timeout?: number): void;
}

/** Asks once per test file (top-level await) whether `service` is there, and answers with a describe and an it to use. */
export async function needs(service: Service): Promise<ServiceGate> {
  const found = await probe(service);
  const label = LABELS[service];
  if (found.state === 'available') {
    return { service, available: true, describe: vitestDescribe, it: (name, fn, timeout) => vitestIt(name, async () => void (await fn()), timeout) };
  }
  const { detail } = found;
  if (found.state === 'missing' && underCi()) {
    const fail = () => {
      throw new Error(`${label} is required under CI=true: ${detail}`);
    };
    return {
      service,
      available: false,
      detail,
      // The suite's own body is not collected: its hooks would only fail less clearly on the missing service.
      describe: (name) => vitestDescribe(name, () => vitestIt(`needs ${label}`, fail)),
      it: (name) => vitestIt(name, fail),
    };
  }
  const say = (name: string) => console.warn(`SKIPPED: "${name}" needs ${label} — ${detail}`);
  return {
    service,
    available: false,
    detail,
    describe: (name, fn) => {
      say(name);
      vitestDescribe.skip(name, fn);
    },
    it: (name, fn, timeout) => {
      say(name);
      vitestIt.skip(name, async () => void (await fn()), timeout);
    },
  };
}

async function probe(service: Service): Promise<State> {
  switch (service) {
    case 'postgres':
      return onPostgres()
        ? { state: 'available' }
        : { state: 'not_applicable', detail: 'this is the embedded-database (PGlite) run; it runs when DATABASE_URL is set, as in the PostgreSQL pass of .ci/run' };
    case 'embedded':
      return onPostgres()
        ? { state: 'not_applicable', detail: 'this run is on PostgreSQL; it runs without DATABASE_URL, as in the PGlite pass of .ci/run' }
        : { state: 'available' };
    case 'redis':
      return probeRedis();
    case 'chromium':
      return probeChromium();
  }
}

async function probeRedis(): Promise<State> {
  const url = process.env.REDIS_URL;
  if (!url) {
    return onPostgres()
      ? { state: 'missing', detail: 'REDIS_URL is not set; the PostgreSQL run needs Redis too' }
      : { state: 'not_applicable', detail: 'REDIS_URL is not set; it runs in the PostgreSQL pass of .ci/run, which sets it' };
  }
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  let refused: Error | undefined;
  redis.on('error', (err: Error) => (refused ??= err)); // the cause of a failed connect, reported below
  try {
    await redis.connect();
    const answer = await redis.ping();
    if (answer !== 'PONG') return { state: 'missing', detail: `${withoutPassword(url)} answered PING with ${answer}` };
    return { state: 'available' };
  } catch (err) {
    return { state: 'missing', detail: `${withoutPassword(url)} does not answer PING (${(refused ?? (err as Error)).message})` };
  } finally {
    redis.disconnect();
  }
}

function probeChromium(): State {
  try {
    accessSync(CHROMIUM, constants.X_OK);
  } catch {
    return { state: 'missing', detail: `${CHROMIUM} is not there or not executable (apt-get install chromium)` };
  }
  try {
    execFileSync(CHROMIUM, ['--version'], { timeout: 15_000, stdio: 'pipe' });
    return { state: 'available' };
  } catch (err) {
    return { state: 'missing', detail: `${CHROMIUM} --version failed (${(err as Error).message.split('\n')[0]})` };
  }
}

function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href;
  } catch {
    return 'REDIS_URL';
  }
}
