// What one `npm run bench` does, from the environment: sizes, durations, concurrency, which databases.
import path from 'node:path';

export type Mode = 'postgres' | 'pglite';

export interface BenchConfig {
  smoke: boolean;
  modes: Mode[];
  warmupSeconds: number;
  durationSeconds: number;
  concurrency: number;
  /** The service's DATABASE_POOL_SIZE and the ceilings' connection count: the same as the concurrency. */
  poolSize: number;
  /** Bulk syncs run this many at a time (a till syncing its menu), so p50 is a sync's own latency. */
  bulkConcurrency: number;
  venues: number;
  members: number;
  transactions: number;
  /** Ledger entries of each "old" member of the history comparison (two per past check). */
  historyEntries: number;
  /** Old members (and as many new ones) in the history comparison; each side gets half the connections. */
  historyMembers: number;
  keysPerVenue: number;
  /** Members of each chain of the chain comparison (a chain of three venues against a chain of one). */
  chainMembers: number;
  /** API keys of each side of the chain comparison: the chain of one's, and the chain of three's split over its venues. */
  chainKeys: number;
  /** The chain comparison's rounds per side, alternating, and the length of one round (seconds). */
  chainRounds: number;
  chainRoundSeconds: number;
  /** Also start the embedded service once on an empty data directory, for its idle RSS (not in smoke mode). */
  freshIdle: boolean;
  /** Server of DATABASE_URL (or the default); the bench creates and drops its own database there. */
  postgresServerUrl: string;
  postgresDatabase: string;
  out: string;
  keep: boolean;
  pepper: string;
  root: string;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

function num(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return value;
}

export function loadBenchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const smoke = env.BENCH_SMOKE === '1' || env.BENCH_SMOKE === 'true';
  const modes = (env.BENCH_MODES ?? (smoke ? 'pglite' : 'postgres,pglite'))
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  for (const m of modes) if (m !== 'postgres' && m !== 'pglite') throw new Error(`BENCH_MODES: unknown mode "${m}" (postgres, pglite)`);
  const concurrency = Math.round(num(env, 'BENCH_CONCURRENCY', smoke ? 4 : 16));
  const server = new URL(env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  server.pathname = '/postgres';
  return {
    smoke,
    modes: modes as Mode[],
    warmupSeconds: num(env, 'BENCH_WARMUP', smoke ? 0.3 : 3),
    durationSeconds: num(env, 'BENCH_DURATION', smoke ? 1 : 10),
    concurrency,
    poolSize: Math.round(num(env, 'BENCH_POOL_SIZE', concurrency)),
    bulkConcurrency: Math.round(num(env, 'BENCH_BULK_CONCURRENCY', 1)),
    venues: Math.round(num(env, 'BENCH_VENUES', smoke ? 3 : 50)),
    members: Math.round(num(env, 'BENCH_MEMBERS', smoke ? 60 : 20_000)),
    transactions: Math.round(num(env, 'BENCH_TRANSACTIONS', smoke ? 600 : 200_000)),
    historyEntries: Math.round(num(env, 'BENCH_HISTORY_ENTRIES', smoke ? 100 : 10_000)),
    historyMembers: Math.max(1, Math.round(num(env, 'BENCH_HISTORY_MEMBERS', Math.max(1, Math.floor(concurrency / 2))))),
    keysPerVenue: Math.round(num(env, 'BENCH_KEYS_PER_VENUE', smoke ? 20 : 120)),
    chainMembers: Math.round(num(env, 'BENCH_CHAIN_MEMBERS', smoke ? 30 : 2_000)),
    // Each side's look-ups run at the service's full rate for about half a minute: 600 keys keep every key well
    // under the 300 a minute limit; a multiple of 3, so both sides have as many keys.
    chainKeys: 3 * Math.ceil(num(env, 'BENCH_CHAIN_KEYS', smoke ? 30 : 600) / 3),
    chainRounds: Math.max(2, Math.round(num(env, 'BENCH_CHAIN_ROUNDS', smoke ? 2 : 12))),
    chainRoundSeconds: num(env, 'BENCH_CHAIN_ROUND', smoke ? 0.5 : 1),
    freshIdle: (env.BENCH_FRESH_IDLE ?? (smoke ? '0' : '1')) === '1',
    postgresServerUrl: server.href,
    postgresDatabase: env.BENCH_DB_NAME || 'venue_loyalty_bench',
    out: path.resolve(ROOT, env.BENCH_OUT || 'bench/results/latest.json'),
    keep: env.BENCH_KEEP === '1',
    // Fixed, so a kept database can be driven again by hand with the same keys' hashes.
    pepper: env.BENCH_API_KEY_PEPPER || 'bench-pepper-0123456789abcdef0123456789abcdef',
    root: ROOT,
  };
}

export function postgresUrlOf(config: BenchConfig): string {
  const url = new URL(config.postgresServerUrl);
  url.pathname = `/${config.postgresDatabase}`;
  return url.href;
}
