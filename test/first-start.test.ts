// The README's set-up on a fresh copy (issue 21): `npm start` in a copy of the working tree without dist/, web/dist
// or data/ builds what it runs, seeds the demo and serves it. The copy shares this checkout's node_modules (what
// `npm ci` installed), so this measures the start alone. Speed is measured in the benchmark, not asserted tightly
// here: the limit is generous (CI machines vary) and the seconds are printed.
import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { collectLines, logSink } from './support/log-grep.js';
import { freePort } from './support/processes.js';
import { needs } from './support/services.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/** What the first start may take, from `npm start` to a working demo key and dashboard (the issue asks ≤ 30 s). */
const LIMIT_SECONDS = 90;
/** How long to wait before giving up: past the limit, so a slow start reports its seconds rather than a timeout. */
const GIVE_UP_SECONDS = 180;

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
  it(`builds, seeds the demo and serves a working key and dashboard within ${LIMIT_SECONDS} s`, async () => {
    // The set-up the README promises, which this test follows.
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toMatch(/^npm ci && npm start\b/m);

    copy = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-first-start-'));
    copyWorkingTree(copy);
    for (const built of ['dist', 'web/dist', 'data']) expect(existsSync(path.join(copy, built)), `${built} in the fresh copy`).toBe(false);
    expect(existsSync(path.join(ROOT, 'node_modules/.package-lock.json')), 'node_modules installed by npm ci').toBe(true);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');

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

    const timing = (label: RegExp) => label.exec(out)?.[1] ?? '?';
    console.log(
      `First start of a fresh copy: ${took.toFixed(1)} s to a working demo key and dashboard (limit ${LIMIT_SECONDS} s; ` +
        `server compiled in ${timing(/Server compiled in ([\d.]+) s/)} s, dashboard built in ${timing(/Dashboard built in ([\d.]+) s/)} s, ` +
        `the rest is the process start, the embedded database's creation, its migrations and the demo seed)`,
    );
    // It did build both, from nothing: the copy had neither.
    expect(out).toContain('Compiling the server (src/) once');
    expect(out).toContain('Building the dashboard (web/) once');
    expect(existsSync(path.join(copy, 'data'))).toBe(true);
    // The page is the built app, whose script answers too (without a build /dashboard answers 503).
    const script = /<script[^>]+src="(\/dashboard\/[^"]+\.js)"/.exec(index)?.[1];
    expect(script, 'the index page loads the bundle').toBeDefined();
    expect((await fetch(`${baseUrl}${script}`)).status).toBe(200);
    expect(took).toBeLessThanOrEqual(LIMIT_SECONDS);

    await stopGroup(child);
    start = undefined;
  }, (GIVE_UP_SECONDS + 60) * 1000);
});

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
