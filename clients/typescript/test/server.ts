// A real Venue Loyalty server for the package's tests: the root's src/main.ts on a fresh embedded database,
// prepared with the root's operator CLI (both run with the root's dependencies, through tsx).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

export interface Server {
  /** The server URL the client takes: http://127.0.0.1:<port>/api */
  baseUrl: string;
  /** Ends the server (SIGKILL if SIGTERM is not enough) and waits for it to exit. */
  stop(): Promise<void>;
}

function environment(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // Always the embedded database in its own directory, whatever the caller's environment points at.
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...rest } = process.env;
  return { ...rest, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
}

/**
 * Runs `npm run cli -- …` in the root on this data directory; answers its output, throwing on a failure. Only
 * while the server is not running: the embedded database admits one process at a time.
 */
export async function cli(dataDir: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), ...args], { cwd: ROOT, env: environment(dataDir) });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`cli ${args.join(' ')} exited ${code}:\n${output}`);
  return output;
}

export function dataDirectory(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-client-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts the server on a free port and waits for /readyz. */
export async function startServer(dataDir: string, extra: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: environment(dataDir, { PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: origin, ...extra }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(kill);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return { baseUrl: `${origin}/api`, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
