// Real processes (npm start's entry point and the CLI) for tests that need more than one process or a real start.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { collectLines, logSink } from './log-grep.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
// Here rather than in app.ts (which re-exports it): this file stays free of vitest, so scripts (the bench, the soak)
// can import it.
/** Seals webhook secrets in test apps (base64 of 32 bytes), so no test writes a key file into the working tree. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
// One process, not tsx's launcher: a SIGKILL must hit the program itself, not leave it running as an orphan.
const NODE_ARGS = ['--import', 'tsx'];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface MainProcess {
  child: ChildProcess;
  output(): string;
  /** The JSON log lines written so far (pino's), parsed; other output is left out. */
  logLines(): Array<{ level: number; msg?: string } & Record<string, unknown>>;
  /**
   * Sends the signal (default SIGTERM) unless the process has ended, and SIGKILL if it is still there 15 s later
   * (a test must never leave a server behind); resolves with its exit code.
   */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Under vitest (the global setup sets VL_TEST_LOG_DIR), the process's log lines go to the run's log directory for the grep. */
function keepLogLines(child: ChildProcess, kind: string): void {
  const dir = process.env.VL_TEST_LOG_DIR;
  if (!dir) return;
  const sink = logSink(dir, `${kind}-${child.pid}`);
  collectLines(child.stdout!, sink, 'log lines');
  collectLines(child.stderr!, sink, 'all');
}

/** Runs src/main.ts as `npm start` does, with the given environment on top of this one. */
export function spawnMain(env: Record<string, string>): MainProcess {
  const child = spawn(process.execPath, [...NODE_ARGS, path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    // The test apps' key, so a process opens the webhook secrets they sealed in a shared database.
    env: { ...process.env, LOG_LEVEL: 'warn', SECRET_ENCRYPTION_KEY: TEST_SECRET_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  keepLogLines(child, 'server');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    logLines: () =>
      out.split('\n').flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line)];
        } catch {
          return []; // a line still being written
        }
      }),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill(signal);
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(kill);
      return code;
    },
  };
}

export interface ServerProcess extends MainProcess {
  baseUrl: string;
}

/** A server process on a free port, once /readyz answers. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const main = spawnMain({ ...env, PORT: String(port), HOST: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (main.child.exitCode !== null) throw new Error(`server exited early:\n${main.output()}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not become ready:\n${main.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ...main, baseUrl };
}

/** A delivery worker process (ROLE=worker serves no HTTP): started, not waited for. */
export function startWorkerProcess(env: Record<string, string>): MainProcess {
  return spawnMain({ ...env, ROLE: 'worker' });
}

/** Runs the operator CLI to completion. */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...NODE_ARGS, path.join(ROOT, 'src/cli.ts'), ...args], { cwd: ROOT, env: { ...process.env, SECRET_ENCRYPTION_KEY: TEST_SECRET_KEY, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  keepLogLines(child, 'cli');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}
