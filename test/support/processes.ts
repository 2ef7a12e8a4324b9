// Real processes (npm start's entry point and the CLI) for tests that need more than one process or a real start.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
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
  /** Sends the signal (default SIGTERM) unless the process has ended; resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs src/main.ts as `npm start` does, with the given environment on top of this one. */
export function spawnMain(env: Record<string, string>): MainProcess {
  const child = spawn(process.execPath, [...NODE_ARGS, path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
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
  const child = spawn(process.execPath, [...NODE_ARGS, path.join(ROOT, 'src/cli.ts'), ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}
