// `npm run soak -- --minutes N`: the bench's mixed till workload at about 70 % of a peak measured first, against two
// API processes and a webhook worker started as `npm start` starts them, on a PostgreSQL cluster and a Redis of the
// soak's own; meanwhile one API process is SIGKILLed and started again, PostgreSQL is restarted, and the webhook
// receiver goes away for a while. At the end it checks that nothing acknowledged was lost or applied twice, that
// the ledger adds up and every event arrived, prints RSS growth, and writes a JSON report. Exit 1 on any failure.
// Options: --minutes N (default 10), --out FILE (default bench/results/soak-latest.json), --rate R (requests a
// second; skips measuring the peak), --keep (leave its PostgreSQL running afterwards, to look into a failure).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { loadBenchConfig } from '../bench/config.js';
import { cannon } from '../bench/load.js';
import { freePort, scriptCommand, startProcess, treeRss, waitReady, type Started } from '../bench/processes.js';
import { Lifecycle } from '../bench/lifecycle.js';
import { Progress } from '../bench/progress.js';
import { Workload } from '../bench/scenarios.js';
import { seed } from '../bench/seed.js';
import { round } from '../bench/stats.js';
import { acknowledgedExactlyOnce, availableNotNegative, everyEventDelivered, noneAppliedTwice, undelivered, type Check } from './checks.js';
import { createCluster, startRedis, type Cluster, type OwnRedis } from './cluster.js';
import { Receiver } from './receiver.js';
import { Till } from './till.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, out: { type: 'string' }, rate: { type: 'string' }, keep: { type: 'boolean', default: false } },
});
const minutes = Number(args.minutes);
if (!(minutes > 0)) throw new Error(`--minutes must be a positive number, not "${args.minutes}"`);
const loadSeconds = minutes * 60;
const out = path.resolve(args.out ?? path.join(ROOT, 'bench/results/soak-latest.json'));
const runId = `soak${randomBytes(3).toString('hex')}`;
/** Given, so no process writes a key file of its own into the working tree. */
const secretKey = randomBytes(32).toString('base64');

// 10 venues, each a chain of one, 20 keys each (the 300 a minute per key limit stays on without being what is met).
// The mixed workload leaves the bench's chain comparison alone: its chains are seeded as small as they go.
const bench = loadBenchConfig({
  BENCH_VENUES: '10',
  BENCH_MEMBERS: '2000',
  BENCH_TRANSACTIONS: '5000',
  BENCH_HISTORY_MEMBERS: '1',
  BENCH_HISTORY_ENTRIES: '2',
  BENCH_KEYS_PER_VENUE: '20',
  BENCH_CHAIN_MEMBERS: '1',
  BENCH_CHAIN_KEYS: '3',
});
const PEAK_CONNECTIONS = 8; // per API process
const PEAK_SECONDS = 5;
/**
 * Deliveries retried quickly enough to catch up within the run after the receiver's outage (at most 60 s).
 */
const RETRY_SCHEDULE = '1s,2s,4s,8s,15s,30s,30s,30s,30s';
const RECOVERY_LIMIT_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();

const progress = new Progress(60 + loadSeconds, 'soak');
const lifecycle = new Lifecycle();

interface ServiceProcess {
  name: string;
  role: 'api' | 'worker';
  url?: string;
  process: Started;
  rssStartMb?: number;
}

let cluster: Cluster;
let redis: OwnRedis;
let databaseUrl: string;

function serviceEnv(role: 'api' | 'worker', port?: number): NodeJS.ProcessEnv {
  // The service's own defaults for what is not set here, whatever this shell (or a test runner) has.
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATA_DIR', 'RATE_LIMIT_PER_MINUTE', 'PUBLIC_BASE_URL', 'NODE_OPTIONS']) delete env[name];
  return {
    ...env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    API_KEY_PEPPER: bench.pepper,
    SECRET_ENCRYPTION_KEY: secretKey,
    ROLE: role,
    PORT: String(port ?? 0),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: '10',
    // The receiver is on loopback.
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE,
  };
}

async function startService(name: string, role: 'api' | 'worker', port?: number): Promise<ServiceProcess> {
  const { file, args: argv } = scriptCommand(ROOT, 'start');
  const proc = lifecycle.track(startProcess(file, argv, { cwd: ROOT, env: serviceEnv(role, port) }));
  const url = port === undefined ? undefined : `http://127.0.0.1:${port}`;
  if (url) await waitReady(proc, `${url}/readyz`, 120_000);
  return { name, role, url, process: proc };
}

const alive = (p: Started) => p.child.exitCode === null && p.child.signalCode === null;

async function createDatabase(serverUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query('create database venue_loyalty_soak');
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = '/venue_loyalty_soak';
  return url.href;
}

/** One answer of `url` to a member look-up: its status and error code (0 when the connection failed). */
async function probe(url: string, key: string): Promise<{ status: number; code?: string }> {
  try {
    const res = await fetch(`${url}/api/v1/members/lookup?card_number=C0`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(5000) });
    const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
    return { status: res.status, code: body.error?.code };
  } catch {
    return { status: 0 };
  }
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  progress.phase('compiling the server if stale (as npm start does)', 5);
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--if-stale'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    // tsc emits JavaScript despite type errors (npm test's own tsc step reports those); without dist/main.js there
    // is nothing to run.
    if (!existsSync(path.join(ROOT, 'dist/main.js'))) throw err;
    const output = `${(err as { stdout?: Buffer }).stdout ?? ''}`.trim().split('\n');
    progress.note(`!! the build reported errors; running dist/ as emitted:\n${output.slice(0, 5).join('\n')}`);
  }

  progress.phase('own PostgreSQL (initdb) and Redis', 4);
  cluster = await createCluster();
  if (args.keep) progress.note(`PostgreSQL kept after the run: psql ${cluster.url.replace(/\/postgres$/, '/venue_loyalty_soak')}`);
  else lifecycle.onCleanUp(() => cluster.remove());
  redis = await startRedis(ROOT);
  lifecycle.track(redis.process);
  databaseUrl = await createDatabase(cluster.url);

  progress.phase('seeding', 12);
  const receiver = new Receiver();
  await receiver.start();
  lifecycle.onCleanUp(() => receiver.stop());
  let database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 4 });
  const seeded = await seed(database, bench, (step) => progress.detail(`seeding — ${step}`));
  // The seed's endpoints point nowhere, with secrets nothing can sign with (the bench never delivers): every venue's
  // goes to the receiver instead, with a proper secret (stored as given: sealing is the endpoints service's work).
  await sql`update webhook_endpoints set url = ${receiver.url} || '/' || venue_id, secret = ${`whsec_${randomBytes(24).toString('base64')}`}`.execute(
    database.db,
  );
  await database.close();

  progress.phase('starting two API processes and a worker', 6);
  const [portA, portB] = [await freePort(), await freePort()];
  const services: ServiceProcess[] = await Promise.all([startService('api-a', 'api', portA), startService('api-b', 'api', portB), startService('worker', 'worker')]);
  const [apiA, apiB] = services as [ServiceProcess, ServiceProcess, ServiceProcess];
  const probeKey = seeded.venues[0]!.keys[0]!;

  const workload = new Workload(bench, seeded, runId);
  let rate = Number(args.rate);
  let peak: { req_per_s: number; non2xx: number; errors: Record<string, number> } | null = null;
  if (!(rate > 0)) {
    progress.phase('measuring the peak of the mixed workload on both API processes', PEAK_SECONDS + 3);
    const runs = await Promise.all(
      [apiA, apiB].map((s) => cannon(s.url!, [{ make: () => workload.mixed() }], PEAK_CONNECTIONS, 2, PEAK_SECONDS)),
    );
    const errors: Record<string, number> = {};
    for (const r of runs) for (const [k, n] of Object.entries(r.measured.errors)) errors[k] = (errors[k] ?? 0) + n;
    peak = { req_per_s: round(runs.reduce((s, r) => s + r.measured.req_per_s, 0), 1), non2xx: runs.reduce((s, r) => s + r.measured.non2xx, 0), errors };
    rate = Math.max(1, peak.req_per_s * 0.7);
  }
  for (const s of services) s.rssStartMb = round(treeRss(s.process.pid) ?? 0, 1);

  // The load and the faults, side by side.
  const till = new Till([apiA.url!, apiB.url!], () => workload.mixed(), 512);
  const loadStart = Date.now();
  const loadEnd = loadStart + loadSeconds * 1000;
  const since = () => round((Date.now() - loadStart) / 1000, 1);
  const faults: Record<string, unknown>[] = [];
  let state = 'steady';
  progress.phase(`soak at ${Math.round(rate)} requests/s for ${minutes} min`, loadSeconds);
  const ticker = setInterval(
    () =>
      progress.detail(
        `soak at ${Math.round(rate)}/s, ${since()} s: ${till.acknowledged.apply.size} checks acknowledged, ${till.retries} retries, ` +
          `${till.pending} in flight${state === 'steady' ? '' : ` — ${state}`}`,
      ),
    process.stderr.isTTY ? 1000 : 15_000,
  );
  const waitUntil = async (fraction: number) => sleep(Math.max(0, loadStart + fraction * loadSeconds * 1000 - Date.now()));
  const restarted: ServiceProcess[] = [];

  const faultPlan = (async () => {
    // 1. SIGKILL one API process; a supervisor starts it again on the same port a few seconds later.
    await waitUntil(0.15);
    state = 'api-b killed';
    progress.note(`[${since()} s] SIGKILL api-b (pid ${apiB.process.pid})`);
    const killedAt = since();
    apiB.process.child.kill('SIGKILL');
    await sleep(Math.max(3000, loadSeconds * 50));
    const again = await startService('api-b (restarted)', 'api', portB);
    again.rssStartMb = round(treeRss(again.process.pid) ?? 0, 1);
    restarted.push(again);
    faults.push({ fault: 'SIGKILL one API process, then start it again', killed_at_s: killedAt, answering_again_at_s: since(), pid_before: apiB.process.pid, pid_after: again.process.pid });
    progress.note(`[${since()} s] api-b answering again (pid ${again.process.pid})`);
    state = 'steady';

    // 2. Restart PostgreSQL: the API processes answer 503 service_unavailable meanwhile, and recover by themselves.
    await waitUntil(0.4);
    const apis = [apiA, again];
    const pids = apis.map((s) => s.process.pid);
    state = 'PostgreSQL down';
    const stoppedAt = since();
    await cluster.stop();
    progress.note(`[${since()} s] PostgreSQL stopped`);
    const whileDown: Record<string, number> = {};
    const downUntil = Date.now() + Math.min(30_000, Math.max(5000, loadSeconds * 50));
    while (Date.now() < downUntil) {
      for (const s of apis) {
        const { status, code } = await probe(s.url!, probeKey);
        const key = `${status} ${code ?? ''}`.trim();
        whileDown[key] = (whileDown[key] ?? 0) + 1;
      }
      await sleep(250);
    }
    await cluster.start();
    const startedAt = since();
    progress.note(`[${since()} s] PostgreSQL started again`);
    state = 'PostgreSQL recovering';
    const recoveredAt: (number | null)[] = apis.map(() => null);
    const limit = Date.now() + RECOVERY_LIMIT_MS;
    while (recoveredAt.includes(null) && Date.now() < limit) {
      await Promise.all(
        apis.map(async (s, i) => {
          if (recoveredAt[i] === null && (await probe(s.url!, probeKey)).status === 200) recoveredAt[i] = since();
        }),
      );
      await sleep(100);
    }
    faults.push({
      fault: 'restart PostgreSQL (pg_ctl stop -m fast, start)',
      stopped_at_s: stoppedAt,
      started_at_s: startedAt,
      answers_while_down: whileDown,
      recovered_at_s: Object.fromEntries(apis.map((s, i) => [s.name, recoveredAt[i]])),
      recovery_seconds: recoveredAt.includes(null) ? null : round(Math.max(...(recoveredAt as number[])) - startedAt, 1),
      same_processes: apis.every((s, i) => s.process.pid === pids[i] && alive(s.process)),
    });
    state = 'steady';

    // 3. The webhook receiver goes away for a while (at most a minute, so the retries catch up within the run).
    await waitUntil(0.6);
    state = 'webhook receiver down';
    const receiverStopped = since();
    await receiver.stop();
    progress.note(`[${since()} s] webhook receiver stopped`);
    await sleep(Math.min(60_000, Math.max(10_000, loadSeconds * 150)));
    await receiver.start();
    progress.note(`[${since()} s] webhook receiver back`);
    faults.push({ fault: 'stop the webhook receiver for a while', stopped_at_s: receiverStopped, started_at_s: since() });
    state = 'steady';
  })();

  await till.run(rate, () => Date.now() >= loadEnd);
  await faultPlan;
  clearInterval(ticker);
  const loadSecondsActual = (Date.now() - loadStart) / 1000;

  progress.phase('waiting for the last webhooks', 15);
  database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 4 });
  const drainLimit = Date.now() + 90_000; // three of the schedule's longest gaps
  for (let last = -1; ; ) {
    const { missing } = await undelivered(database.db, receiver);
    if (missing.length === 0 || Date.now() > drainLimit) break;
    if (missing.length !== last) progress.detail(`waiting for the last webhooks: ${missing.length} not yet delivered`);
    last = missing.length;
    await sleep(1000);
  }

  progress.phase('checks', 10);
  const everyProcess = [...services, ...restarted];
  const rss = everyProcess.map((s) => {
    const end = alive(s.process) ? treeRss(s.process.pid) : undefined;
    const endMb = end === undefined ? null : round(end, 1);
    return {
      process: s.name,
      pid: s.process.pid,
      start_mb: s.rssStartMb ?? null,
      end_mb: endMb,
      growth_mb: endMb === null || s.rssStartMb === undefined ? null : round(endMb - s.rssStartMb, 1),
    };
  });
  const stillRunning = everyProcess.filter((s) => s !== apiB);
  const deadOnes = stillRunning.filter((s) => !alive(s.process)).map((s) => `${s.name} exited ${s.process.child.exitCode ?? s.process.child.signalCode}`);

  const checks: Check[] = [];
  checks.push(await acknowledgedExactlyOnce(database.db, till.acknowledged));
  checks.push(await noneAppliedTwice(database.db, runId));
  // The CLI of the build the processes ran (npm run cli runs the sources, which may have moved on meanwhile).
  const verify = startProcess(process.execPath, ['--enable-source-maps', path.join(ROOT, 'dist/cli.js'), 'ledger', 'verify'], {
    cwd: ROOT,
    env: { ...serviceEnv('api'), LOG_LEVEL: 'warn' },
  });
  const verifyCode = await new Promise<number | null>((resolve) => verify.child.once('exit', resolve));
  checks.push({ name: 'ledger verify is clean', ok: verifyCode === 0, detail: `exit ${verifyCode}: ${verify.output().trim().split('\n').slice(0, 3).join(' | ')}` });
  checks.push(await availableNotNegative(database.db));
  checks.push(await everyEventDelivered(database.db, receiver));
  const pgFault = faults.find((f) => String(f.fault).startsWith('restart PostgreSQL')) as
    | { answers_while_down: Record<string, number>; recovery_seconds: number | null; same_processes: boolean }
    | undefined;
  checks.push({
    name: 'while PostgreSQL is down the API answers 503 service_unavailable, never 500',
    ok: !!pgFault && (pgFault.answers_while_down['503 service_unavailable'] ?? 0) > 0 && !Object.keys(pgFault.answers_while_down).some((k) => k.startsWith('500')),
    detail: `look-ups while down: ${JSON.stringify(pgFault?.answers_while_down ?? {})}`,
  });
  checks.push({
    name: 'after PostgreSQL is back the same API processes answer 2xx again (no restart)',
    ok: !!pgFault && pgFault.same_processes && pgFault.recovery_seconds !== null,
    detail: pgFault?.recovery_seconds == null ? `not recovered within ${RECOVERY_LIMIT_MS / 1000} s` : `recovered ${pgFault.recovery_seconds} s after the start; same processes: ${pgFault.same_processes}`,
  });
  const attempts = till.attempts.summary(loadSecondsActual, 0);
  const internalErrors = Object.entries(attempts.errors).filter(([k]) => k.startsWith('500')).reduce((s, [, n]) => s + n, 0);
  checks.push({ name: 'no 500 internal_error during the whole run', ok: internalErrors === 0, detail: `${internalErrors} answers were 500` });
  checks.push({ name: 'every process still running at the end (api-b once restarted)', ok: deadOnes.length === 0, detail: deadOnes.join(', ') || 'all running' });
  await database.close();

  // Stopped gracefully, so their exit codes say whether shutdown works after all this.
  const exitCodes: Record<string, number | null> = {};
  for (const s of stillRunning) exitCodes[s.name] = await s.process.stop();
  const outcomes = till.outcomes.summary(loadSecondsActual, 0);
  const report = {
    schema: 1,
    date: new Date().toISOString(),
    git: { commit: git(['rev-parse', 'HEAD']) },
    machine: { cpus: os.cpus().length, node: process.version, load_average_at_end: os.loadavg().map((v) => round(v, 2)) },
    settings: {
      minutes,
      venues: bench.venues,
      members: bench.members,
      api_keys_per_venue: bench.keysPerVenue,
      service_command: scriptCommand(ROOT, 'start').text,
      processes: '2 × ROLE=api, 1 × ROLE=worker; PostgreSQL (own cluster, initdb) and Redis (own redis-server)',
      webhook_retry_schedule: RETRY_SCHEDULE,
    },
    peak,
    rate_per_s: round(rate, 1),
    load: {
      seconds: round(loadSecondsActual, 1),
      requests: outcomes.requests,
      req_per_s: outcomes.req_per_s,
      answers: outcomes.statuses,
      refusals: outcomes.errors,
      p50_ms: outcomes.p50_ms,
      p99_ms: outcomes.p99_ms,
      max_ms: outcomes.max_ms,
      retries: till.retries,
      gave_up: till.gaveUp,
      shed: till.shed,
      attempts: { statuses: attempts.statuses, errors: attempts.errors, transport_errors: till.attempts.transportErrors },
      acknowledged: { checks: till.acknowledged.apply.size, refunds: till.acknowledged.refund.size },
    },
    faults,
    rss,
    logs: Object.fromEntries(everyProcess.map((s) => [s.name, { lines: s.process.logged.lines, by_level: s.process.logged.byLevel, samples: s.process.logged.samples }])),
    exit_codes: exitCodes,
    checks,
    passed: checks.every((c) => c.ok),
    total_seconds: round((Date.now() - t0) / 1000, 1),
  };
  progress.stop();
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(report, null, 2) + '\n');

  const lines = [
    `Soak: ${minutes} min at ${report.rate_per_s} requests/s${peak ? ` (70 % of a measured peak of ${peak.req_per_s}/s)` : ''}; ` +
      `${outcomes.requests} requests, p50 ${outcomes.p50_ms} ms, p99 ${outcomes.p99_ms} ms; ${till.retries} retries, ${till.gaveUp} gave up, ${till.shed} shed.`,
    ...faults.map((f) => `  fault: ${JSON.stringify(f)}`),
    'RSS (MB, after warm-up → end):',
    ...rss.map((r) => `  ${r.process.padEnd(18)} ${r.start_mb} → ${r.end_mb ?? 'gone'}${r.growth_mb === null ? '' : ` (${r.growth_mb >= 0 ? '+' : ''}${r.growth_mb})`}`),
    'Checks:',
    ...checks.map((c) => `  ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`),
    `${report.passed ? 'PASSED' : 'FAILED'} in ${report.total_seconds} s; wrote ${path.relative(process.cwd(), out) || out}.`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return report.passed ? 0 : 1;
}

lifecycle.run('soak', main, progress, "stopping the soak's processes, PostgreSQL and Redis");
