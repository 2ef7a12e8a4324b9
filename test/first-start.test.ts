// The README's set-up on a fresh copy (issues 21, 45): `npm ci && npm start` in a copy of the working tree without
// node_modules, dist/, web/dist or data/. `npm ci` installs from the lock file (npm's cache makes that offline when it
// is warm) and its `prepare` builds the server and the dashboard, so `npm start` builds nothing: it creates the
// embedded database, seeds the demo and serves it. Both are timed, apart and together, and printed; speed is measured,
// not asserted tightly: the limits are generous (CI machines vary and the run is loaded).
import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { collectLines, logSink } from './support/log-grep.js';
import { freePort } from './support/processes.js';
import { needs } from './support/services.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/** What `npm ci` (with the build in its prepare) may take. */
const INSTALL_LIMIT_SECONDS = 300;
/** What the first start may take, from `npm start` to a working demo key and dashboard: nothing left to build. */
const LIMIT_SECONDS = 60;
/** How long to wait before giving up: past the limit, so a slow start reports its seconds rather than a timeout. */
const GIVE_UP_SECONDS = 120;

// The default embedded data directory, as a new user gets it: the PGlite pass runs this, the PostgreSQL pass skips it.
const embeddedGate = await needs('embedded');

let copy: string | undefined;
let start: ChildProcess | undefined;
afterAll(async () => {
  // Also when the test failed half-way: no server left running, no copy left behind.
  if (start) await stopGroup(start);
  if (copy) rmSync(copy, { recursive: true, force: true });
});

embeddedGate.describe('first start of a fresh copy', () => {
  it(`npm ci builds; npm start then builds nothing, seeds the demo and serves a working key and dashboard within ${LIMIT_SECONDS} s`, async () => {
    // The set-up the README promises, which this test follows.
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toMatch(/^npm ci && npm start\b/m);

    copy = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-first-start-'));
    copyWorkingTree(copy);
    for (const built of ['node_modules', 'dist', 'web/dist', 'data']) expect(existsSync(path.join(copy, built)), `${built} in the fresh copy`).toBe(false);

    const load = loadavg()[0]!.toFixed(1);
    const installStarted = Date.now();
    const install = await npmCi(copy);
    const installed = (Date.now() - installStarted) / 1000;
    // Its prepare built both.
    expect(install).toContain('Compiling the server (src/) once');
    expect(install).toContain('Building the dashboard (web/) once');
    for (const built of ['dist/main.js', 'web/dist/index.html']) expect(existsSync(path.join(copy, built)), `${built} after npm ci`).toBe(true);

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const started = Date.now();
    const seconds = () => (Date.now() - started) / 1000;
    // Its own process group, so the stop reaches npm, the build and the server alike.
    const child = spawn('npm', ['start'], { cwd: copy, env: userEnv(port), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    start = child;
    let out = '';
    let spawnError: Error | undefined;
    child.once('error', (err) => (spawnError = err));
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    keepLogLines(child);

    let index: string | undefined;
    while (index === undefined) {
      if (spawnError) throw new Error(`npm start could not be run: ${spawnError.message}`);
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`npm start ended (${child.exitCode ?? child.signalCode}) before the demo worked:\n${out}`);
      if (seconds() > GIVE_UP_SECONDS) throw new Error(`no working demo key and dashboard after ${GIVE_UP_SECONDS} s:\n${out}`);
      index = await demoWorks(baseUrl, out);
      if (index === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    const took = seconds();

    const timing = (label: RegExp) => label.exec(install)?.[1] ?? '?';
    console.log(
      `Fresh copy, load average ${load} on ${availableParallelism()} cores at the start: npm ci ${installed.toFixed(1)} s ` +
        `(of which the server compiled in ${timing(/Server compiled in ([\d.]+) s/)} s and the dashboard built in ${timing(/Dashboard built in ([\d.]+) s/)} s), ` +
        `then npm start ${took.toFixed(1)} s to a working demo key and dashboard (the embedded database's creation, its migrations and the demo seed): ` +
        `${(installed + took).toFixed(1)} s in all`,
    );
    // The start built nothing: npm ci had.
    expect(out).not.toContain('Compiling the server');
    expect(out).not.toContain('Building the dashboard');
    expect(existsSync(path.join(copy, 'data'))).toBe(true);
    // The page is the built app, whose script answers too (without a build /dashboard answers 503).
    const script = /<script[^>]+src="(\/dashboard\/[^"]+\.js)"/.exec(index)?.[1];
    expect(script, 'the index page loads the bundle').toBeDefined();
    expect((await fetch(`${baseUrl}${script}`)).status).toBe(200);
    expect(took).toBeLessThanOrEqual(LIMIT_SECONDS);

    await stopGroup(child);
    start = undefined;
  }, (INSTALL_LIMIT_SECONDS + GIVE_UP_SECONDS + 60) * 1000);
});

/** `npm ci` as the README has it (from npm's cache when it holds the packages), its output; it fails the test if it fails. */
function npmCi(cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd, env: userEnv(0), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_LIMIT_SECONDS * 1000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`npm ci ended (${code ?? signal}) in the fresh copy:\n${out}`));
    });
  });
}

/** The tracked files and the untracked ones git does not ignore: the working tree as a fresh clone of it would be. */
function copyWorkingTree(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter(Boolean);
  expect(files).toContain('package.json');
  for (const file of files) {
    const from = path.join(ROOT, file);
    if (!existsSync(from)) continue; // deleted in the working tree, not yet in the index
    mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    copyFileSync(from, path.join(to, file));
  }
}

/** This environment as a new user's shell would have it: no test runner, npm or database settings of this run. */
function userEnv(port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(VITEST|npm_|NODE_ENV$|NODE_OPTIONS$|DATABASE_URL$|REDIS_URL$|DATA_DIR$|API_KEY_PEPPER$|SECRET_ENCRYPTION_KEY$|LOG_LEVEL$|ROLE$|PUBLIC_BASE_URL$|HOST$)/.test(name)) continue;
    env[name] = value;
  }
  return { ...env, PORT: String(port) };
}

/** When the demo key from the banner answers GET /api/v1/account with 200 and the dashboard's page does too: the page. */
async function demoWorks(baseUrl: string, out: string): Promise<string | undefined> {
  const key = /Test API key: +(sk_test_\S+)/.exec(out)?.[1];
  if (!key) return undefined;
  try {
    const account = await fetch(`${baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    if (account.status !== 200) return undefined;
    const page = await fetch(`${baseUrl}/dashboard/`);
    if (page.status !== 200) return undefined;
    return await page.text();
  } catch {
    return undefined; // not listening yet
  }
}

/** Under vitest, the server's log lines (pino's, and all of stderr) go to the run's secret grep, as other processes' do. */
function keepLogLines(child: ChildProcess): void {
  const dir = process.env.VL_TEST_LOG_DIR;
  if (!dir) return;
  const sink = logSink(dir, `first-start-${child.pid}`);
  collectLines(child.stdout!, sink, 'log lines');
  collectLines(child.stderr!, sink, 'all');
}

/** SIGTERM to the process group (npm and what it runs), SIGKILL if any of it is still there 15 s later. */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return; // never started
  const signal = (s: NodeJS.Signals | 0) => {
    try {
      process.kill(-pid, s);
      return true;
    } catch {
      return false; // no process of the group is left
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + 15_000;
  while (signal(0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  signal('SIGKILL');
}
