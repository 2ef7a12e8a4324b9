// `npm run bench`: seed in bulk, start the service as its own process, drive it with autocannon scenario by
// scenario, then a chain of three venues and a chain of one taking turns, measure the ceilings on the same
// database, and report — on PostgreSQL and on the embedded database.
// Settings by environment (see docs/performance.md): BENCH_DURATION, BENCH_WARMUP, BENCH_CONCURRENCY, BENCH_MODES,
// BENCH_SMOKE, BENCH_OUT, BENCH_KEEP, BENCH_CHAIN_*, DATABASE_URL (its server; the bench creates its own database there).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { loadBenchConfig, postgresUrlOf, type BenchConfig, type Mode } from './config.js';
import { alternating, cannon, paced, type Step } from './load.js';
import { RssSampler, cpuMeter, freePort, type CpuShares, scriptCommand, startProcess, treeRss, waitForLine, waitReady, type Started } from './processes.js';
import { Lifecycle } from './lifecycle.js';
import { Progress } from './progress.js';
import {
  chainComparison,
  headlineRatios,
  historyPair,
  modeRatios,
  noiseNotes,
  problemsOf,
  render,
  targetsOf,
  writeReport,
  type CeilingResult,
  type ModeResult,
  type Report,
} from './report.js';
import { Workload } from './scenarios.js';
import { names, seed, venueOfMember, type SeedResult } from './seed.js';
import { prng, round } from './stats.js';

const config = loadBenchConfig();
const runId = randomBytes(3).toString('hex');
const started = Date.now();
const lifecycle = new Lifecycle();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function estimate(c: BenchConfig): number {
  const step = c.warmupSeconds + c.durationSeconds + 0.7;
  const rows = c.transactions + c.historyMembers * (c.historyEntries / 2) + 2 * c.chainMembers * (c.transactions / c.members);
  let total = 0;
  c.modes.forEach((mode, i) => {
    total += Math.max(4, (mode === 'postgres' ? 28 : 55) * (rows / 240_000)) + (mode === 'pglite' && c.freshIdle ? 8 : 1);
    total += 8 + 8 * step + 2 * step + (mode === 'postgres' ? step : 0);
    total += 2 * (step + 3) + (i === 0 ? step + 2 : 0);
    total += 2 * chainSeconds(c);
    total += mode === 'pglite' ? 14 + 8 : 5;
  });
  return total;
}

/** One of the chain comparison's runs (look-ups, or checks): a warm-up of each side, then its rounds. */
function chainSeconds(c: BenchConfig): number {
  return 2 * (c.warmupSeconds + 0.2) + 2 * c.chainRounds * (c.chainRoundSeconds + 0.2);
}

const progress = new Progress(estimate(config));

function child(file: string, args: string[], env: NodeJS.ProcessEnv): Started {
  return lifecycle.track(startProcess(file, args, { cwd: config.root, env }));
}

function sh(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, { cwd: config.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The service's own defaults, whatever this shell has: the 300 a minute limit stays on; no Redis unless asked.
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'RATE_LIMIT_PER_MINUTE', 'PORT', 'HOST', 'ROLE', 'LOG_LEVEL', 'DATABASE_POOL_SIZE']) delete env[name];
  if (process.env.BENCH_REDIS_URL) env.REDIS_URL = process.env.BENCH_REDIS_URL;
  return env;
}

/** Where a mode's data lives, as the service's environment says it. */
interface Place {
  env: Record<string, string>;
  databaseUrl?: string;
  dataDir?: string;
}

async function adminQuery(sqlText: string): Promise<void> {
  const client = new pg.Client({ connectionString: config.postgresServerUrl });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

async function preparePlace(mode: Mode): Promise<Place> {
  if (mode === 'postgres') {
    const name = config.postgresDatabase;
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`BENCH_DB_NAME must be a plain identifier, not "${name}"`);
    await adminQuery(`drop database if exists ${name} with (force)`);
    await adminQuery(`create database ${name}`);
    if (!config.keep) lifecycle.onCleanUp(() => adminQuery(`drop database if exists ${name} with (force)`).catch(() => {}));
    const url = postgresUrlOf(config);
    return { env: { DATABASE_URL: url }, databaseUrl: url };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'venue-loyalty-bench-'));
  if (!config.keep) lifecycle.onCleanUp(() => rmSync(dir, { recursive: true, force: true }));
  return { env: { DATA_DIR: dir }, dataDir: dir };
}

interface Service {
  url: string;
  process: Started;
  sampler: RssSampler;
  startSeconds: number;
}

async function startService(place: Place): Promise<Service> {
  const port = await freePort();
  const { file, args } = scriptCommand(config.root, 'start');
  const t0 = Date.now();
  const proc = child(file, args, {
    ...baseEnv(),
    ...place.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    ROLE: 'api',
    LOG_LEVEL: 'warn',
    API_KEY_PEPPER: config.pepper,
    DATABASE_POOL_SIZE: String(config.poolSize),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(proc, `${url}/readyz`, 240_000);
  const sampler = new RssSampler(proc.pid);
  sampler.start();
  return { url, process: proc, sampler, startSeconds: (Date.now() - t0) / 1000 };
}

/** RSS a few seconds after start with nothing to do: the median of samples over a second. */
async function idleRss(pid: number): Promise<number | null> {
  await sleep(config.smoke ? 500 : 3000);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const v = treeRss(pid);
    if (v !== undefined) samples.push(v);
    await sleep(200);
  }
  samples.sort((a, b) => a - b);
  return samples.length ? round(samples[Math.floor(samples.length / 2)]!, 1) : null;
}

/** CPU microseconds per request of the measured process (the service, or a ceiling's) and of PostgreSQL. */
function perRequest(cpu: CpuShares, reqPerS: number) {
  const us = (pct: number | null) => (pct === null || !reqPerS ? null : Math.round(((pct / 100) * 1e6) / reqPerS));
  return { service_us_per_request: us(cpu.service_pct), postgres_us_per_request: us(cpu.postgres_pct) };
}

function ceilingProcess(mode: string, options: Record<string, unknown>): Started {
  return child(process.execPath, ['--import', 'tsx', path.join(config.root, 'scripts/bench/ceilings.ts'), mode], {
    ...baseEnv(),
    BENCH_CEILING: JSON.stringify({
      poolSize: config.poolSize,
      concurrency: config.concurrency,
      warmupSeconds: config.warmupSeconds,
      durationSeconds: config.durationSeconds,
      runId,
      ...options,
    }),
  });
}

/** A ceiling served over HTTP (bare Fastify, bare read), driven by autocannon like the service. */
async function serverCeiling(mode: string, options: Record<string, unknown>, steps: Step[], withPostgres: boolean): Promise<CeilingResult> {
  const proc = ceilingProcess(mode, options);
  try {
    const port = await waitForLine(proc, 'READY ', 120_000);
    const { measured, during: cpu } = await cannon(`http://127.0.0.1:${port}`, steps, config.concurrency, config.warmupSeconds, config.durationSeconds, () =>
      cpuMeter(proc.pid, withPostgres),
    );
    return { ...measured, errors: measured.errors, cpu: { ...cpu, ...perRequest(cpu, measured.req_per_s) } };
  } finally {
    await proc.stop();
  }
}

/** A ceiling that is a loop in its own process; the CPU shares are of its measured part (its process: "service"). */
async function loopCeiling(mode: string, options: Record<string, unknown>, withPostgres: boolean): Promise<CeilingResult> {
  const proc = ceilingProcess(mode, options);
  try {
    const limit = (config.warmupSeconds + config.durationSeconds) * 1000 + 180_000;
    await waitForLine(proc, 'MEASURE', limit);
    const meter = cpuMeter(proc.pid, withPostgres);
    const result = JSON.parse(await waitForLine(proc, 'RESULT ', limit)) as CeilingResult;
    const cpu = meter();
    return { ...result, cpu: { ...cpu, ...perRequest(cpu, result.req_per_s) } };
  } finally {
    await proc.stop();
  }
}

function readSteps(seeded: SeedResult): Step[] {
  const rnd = prng(7);
  return [
    {
      make: () => {
        const i = Math.floor(rnd() * config.members);
        const venue = seeded.venues[venueOfMember(config, i)]!;
        return { kind: 'read', method: 'GET', path: `/read?chain=${venue.chainId}&c=${names.card(i)}`, headers: {} };
      },
    },
  ];
}

/**
 * One request with each API key of the seed, before anything is measured: a key's first request reads it from the
 * database (and hashes it); a till sends thousands with the same key a day. Without this the first scenario measured
 * the loading of thousands of keys on a slow host (issue 21's session-14 finding). Any answer will do.
 */
async function useEveryKey(url: string, seeded: SeedResult): Promise<void> {
  const venues = [...seeded.venues, ...seeded.chains.three.venues, ...seeded.chains.one.venues, ...Object.values(seeded.campaignSides).flatMap((c) => c.venues)];
  const keys = [...new Set(venues.flatMap((v) => v.keys))];
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++]!;
      const res = await fetch(`${url}/api/v1/members/lookup?card_number=WARM-UP`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status !== 404) throw new Error(`warming the key cache: ${res.status} for a key of the seed`);
    }
  };
  await Promise.all(Array.from({ length: config.concurrency }, worker));
}

async function ledgerVerify(place: Place): Promise<{ exit_code: number | null; output: string }> {
  const { file, args } = scriptCommand(config.root, 'cli');
  const proc = child(file, [...args, 'ledger', 'verify'], { ...baseEnv(), ...place.env, API_KEY_PEPPER: config.pepper, LOG_LEVEL: 'warn' });
  const code = await new Promise<number | null>((resolve) => proc.child.once('exit', (c) => resolve(c)));
  return { exit_code: code, output: proc.output().trim().slice(-2000) };
}

let bareFastify: CeilingResult | undefined;

async function runMode(mode: Mode): Promise<ModeResult> {
  const label = mode === 'postgres' ? 'PostgreSQL' : 'PGlite';
  let freshIdle: number | null | undefined;
  if (mode === 'pglite' && config.freshIdle) {
    progress.phase(`${label}: service idle on a fresh data directory`, 8);
    const fresh = await preparePlace('pglite');
    const service = await startService(fresh);
    freshIdle = await idleRss(service.process.pid);
    service.sampler.stop();
    await service.process.stop();
  }

  const place = await preparePlace(mode);
  const rows = config.transactions + config.historyMembers * (config.historyEntries / 2);
  progress.phase(`${label}: seeding`, Math.max(4, (mode === 'postgres' ? 28 : 55) * (rows / 240_000)));
  const database = await openDatabase(
    mode === 'postgres' ? { kind: 'postgres', url: place.databaseUrl!, poolSize: 8 } : { kind: 'pglite', dataDir: place.dataDir! },
  );
  let databaseName: string;
  let seeded: SeedResult | undefined;
  try {
    const { rows } = await sql<{ v: string }>`select version() as v`.execute(database.db);
    databaseName = String(rows[0]?.v ?? label).split(' on ')[0]!;
    seeded = await seed(database, config, (step) => progress.detail(`${label}: seeding — ${step}`));
  } finally {
    await database.close();
  }
  if (mode === 'pglite') databaseName += ` (@electric-sql/pglite ${packageVersion('@electric-sql/pglite')})`;

  progress.phase(`${label}: starting the service`, 8);
  const service = await startService(place);
  const idle = await idleRss(service.process.pid);
  const w = new Workload(config, seeded, runId);
  progress.phase(`${label}: every API key used once (the service's key cache warm, as a till's key is all day)`, 10);
  await useEveryKey(service.url, seeded);

  const scenarios: ModeResult['scenarios'] = {};
  let applyAt80: ModeResult['apply_at_80_percent'];
  let applyAt80Runs: ModeResult['apply_at_80_percent_runs'];
  for (const scenario of w.scenarios()) {
    progress.phase(`${label}: ${scenario.label}`, config.warmupSeconds + config.durationSeconds + 0.7);
    service.sampler.setLabel(scenario.name);
    const { measured, during: cpu } = await cannon(service.url, scenario.steps, scenario.connections, config.warmupSeconds, config.durationSeconds, () =>
      cpuMeter(service.process.pid, mode === 'postgres'),
    );
    const entry: ModeResult['scenarios'][string] = {
      label: scenario.label,
      ...measured,
      peak_rss_mb: round(service.sampler.peaks[scenario.name] ?? 0, 1),
      cpu: { ...cpu, ...perRequest(cpu, measured.req_per_s) },
    };
    if (scenario.requestsPerFlow > 1) {
      const captured = measured.kinds?.capture;
      entry.flows_per_s = captured ? round((captured.requests - captured.non2xx) / measured.seconds, 1) : 0;
    }
    scenarios[scenario.name] = entry;
    if (measured.non2xx > 0) progress.note(`!! ${label} ${scenario.label}: ${measured.non2xx} non-2xx answers: ${JSON.stringify(measured.errors)}`);

    if (scenario.name === 'apply' && mode === 'postgres' && measured.req_per_s > 0) {
      const rate = Math.max(1, measured.req_per_s * 0.8);
      progress.phase(`${label}: apply at 80 % of peak (${Math.round(rate)}/s), three runs`, 3 * (config.warmupSeconds + config.durationSeconds + 1));
      service.sampler.setLabel('apply_at_80_percent');
      // Three runs at the same offered rate; the one with the median p99 is reported, and all three are kept (issue 21).
      const runs: Awaited<ReturnType<typeof paced>>[] = [];
      for (let i = 0; i < 3; i++) runs.push(await paced(service.url, () => w.apply(), rate, config.concurrency, config.warmupSeconds, config.durationSeconds));
      const median = [...runs].sort((a, b) => (a.p99_ms ?? Number.MAX_VALUE) - (b.p99_ms ?? Number.MAX_VALUE))[1]!;
      applyAt80 = median;
      applyAt80Runs = runs;
    }
  }

  const history: ModeResult['history'] = {};
  for (const what of ['lookup', 'apply'] as const) {
    progress.phase(`${label}: ${what}, 10,000-entry members and new members interleaved`, config.warmupSeconds + config.durationSeconds + 0.7);
    service.sampler.setLabel(`history_${what}`);
    const { measured } = await cannon(service.url, w.history(what), config.concurrency, config.warmupSeconds, config.durationSeconds);
    history[what] = historyPair(measured, `old_${what}`, `new_${what}`);
  }

  progress.phase(`${label}: apply with two campaigns, with one of them budgeted, and without, interleaved`, config.warmupSeconds + config.durationSeconds + 0.7);
  service.sampler.setLabel('campaigns_apply');
  const sides = (await cannon(service.url, w.campaignSides(), config.concurrency, config.warmupSeconds, config.durationSeconds)).measured;
  const campaigns = { unlimited: historyPair(sides, 'unlimited_apply', 'none_apply'), budgeted: historyPair(sides, 'budgeted_apply', 'none_apply') };

  const chains: ModeResult['chain_of_three_vs_chain_of_one'] = {};
  for (const what of ['lookup', 'apply'] as const) {
    progress.phase(`${label}: ${what}, a chain of three venues and a chain of one taking turns`, chainSeconds(config));
    service.sampler.setLabel(`chains_${what}`);
    const meter = cpuMeter(service.process.pid, mode === 'postgres');
    const sides = await alternating(
      service.url,
      { three: w.chainSide(seeded.chains.three, what), one: w.chainSide(seeded.chains.one, what) },
      config.concurrency,
      config.warmupSeconds,
      config.chainRounds,
      config.chainRoundSeconds,
    );
    chains[what] = chainComparison(sides.three, sides.one, config.chainRounds, config.chainRoundSeconds, meter());
  }

  service.sampler.setLabel('end');
  service.sampler.stop();
  const exitCode = await service.process.stop();
  const serviceStats: ModeResult['service'] = {
    start_seconds: round(service.startSeconds, 2),
    idle_rss_mb: idle,
    peak_rss_mb: round(service.sampler.peak, 1),
    peak_rss_mb_by_scenario: Object.fromEntries(Object.entries(service.sampler.peaks).map(([k, v]) => [k, round(v, 1)])),
    log: { lines: service.process.logged.lines, by_level: service.process.logged.byLevel, samples: service.process.logged.samples },
    exit_code: exitCode,
  };

  const ceilings: ModeResult['ceilings'] = {};
  if (!bareFastify) {
    progress.phase('ceiling: bare Fastify, fixed JSON', config.warmupSeconds + config.durationSeconds + 2);
    bareFastify = await serverCeiling('fastify', {}, [{ make: () => ({ kind: 'fixed', method: 'GET', path: '/fixed', headers: {} }) }], false);
  }
  progress.phase(`${label}: ceiling — bare Fastify + single-row read`, config.warmupSeconds + config.durationSeconds + 3);
  ceilings.bare_read = await serverCeiling(
    mode === 'postgres' ? 'read-pg' : 'read-pglite',
    { databaseUrl: place.databaseUrl, dataDir: place.dataDir },
    readSteps(seeded),
    mode === 'postgres',
  );
  progress.phase(
    `${label}: ceiling — ${mode === 'postgres' ? 'bare apply transaction' : 'raw PGlite loop'}`,
    config.warmupSeconds + config.durationSeconds + 3,
  );
  ceilings.bare_apply = await loopCeiling(
    mode === 'postgres' ? 'apply-pg' : 'apply-pglite',
    { databaseUrl: place.databaseUrl, dataDir: place.dataDir },
    mode === 'postgres',
  );

  progress.phase(`${label}: ledger verify`, mode === 'pglite' ? 14 : 5);
  const verify = await ledgerVerify(place);

  const result: ModeResult = {
    database: databaseName,
    seed: { seconds: round(seeded.seconds, 1), counts: seeded.counts },
    ...(freshIdle !== undefined ? { fresh_data_dir_idle_rss_mb: freshIdle } : {}),
    service: serviceStats,
    scenarios,
    ...(applyAt80 ? { apply_at_80_percent: applyAt80, apply_at_80_percent_runs: applyAt80Runs } : {}),
    history,
    campaigns,
    chain_of_three_vs_chain_of_one: chains,
    ceilings,
    ratios: {},
    ledger_verify: verify,
  };
  result.ratios = modeRatios(result);
  return result;
}

function packageVersion(name: string): string | null {
  try {
    return (JSON.parse(readFileSync(path.join(config.root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  // The service runs as `npm start` runs it: compiled (its prestart builds what is stale; so does this).
  execFileSync(process.execPath, [path.join(config.root, 'scripts/build.mjs'), '--if-stale'], { cwd: config.root, stdio: ['ignore', 'ignore', 'inherit'] });
  const cpus = os.cpus();
  const report: Report = {
    schema: 1,
    date: new Date().toISOString(),
    git: {
      commit: sh('git', ['rev-parse', 'HEAD']),
      changed_files: (() => {
        const s = sh('git', ['status', '--porcelain']);
        return s === null ? null : s.split('\n').filter(Boolean).length;
      })(),
    },
    machine: {
      cpus: cpus.length,
      cpu_model: cpus[0]?.model ?? null,
      memory_gb: round(os.totalmem() / 2 ** 30, 1),
      os: `${os.type()} ${os.release()}`,
      node: process.version,
      load_average_at_start: os.loadavg().map((v) => round(v, 2)),
      autocannon: packageVersion('autocannon'),
    },
    settings: {
      smoke: config.smoke,
      modes: config.modes,
      warmup_seconds: config.warmupSeconds,
      duration_seconds: config.durationSeconds,
      concurrency: config.concurrency,
      service_pool_size: config.poolSize,
      bulk_sync_concurrency: config.bulkConcurrency,
      venues: config.venues,
      members: config.members,
      past_transactions: config.transactions,
      history_members: config.historyMembers,
      history_entries: config.historyEntries,
      api_keys_per_venue: config.keysPerVenue,
      chain_comparison: {
        members_per_chain: config.chainMembers,
        api_keys_per_chain: config.chainKeys,
        rounds: config.chainRounds,
        round_seconds: config.chainRoundSeconds,
      },
      rate_limit_per_minute_per_key: 300,
      service_command: scriptCommand(config.root, 'start').text,
      service_env: 'ROLE=api LOG_LEVEL=warn API_KEY_PEPPER DATABASE_POOL_SIZE=<concurrency>',
    },
    modes: {},
    ratios: {},
    targets: [],
    problems: [],
    noise: [],
  };
  for (const mode of config.modes) report.modes[mode] = await runMode(mode);
  report.bare_fastify = bareFastify;
  report.machine.load_average_at_end = os.loadavg().map((v) => round(v, 2));
  report.total_seconds = round((Date.now() - started) / 1000, 1);
  report.ratios = headlineRatios(report);
  report.targets = targetsOf(report);
  report.problems = problemsOf(report);
  report.noise = noiseNotes(report);
  progress.stop();
  writeReport(config.out, report);
  process.stdout.write(render(report) + '\n');
  process.stdout.write(`\nWrote ${path.relative(process.cwd(), config.out) || config.out} in ${report.total_seconds} s.\n`);
  return 0;
}

lifecycle.run('bench', main, progress, 'stopping the processes the bench started and removing its databases');
