// The soak's own services: a PostgreSQL cluster made with initdb in a temporary directory on a free port (so the
// restart it inflicts touches nothing else on the machine), and a redis-server of its own.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, startProcess, type Started } from '../bench/processes.js';

/** The newest installed PostgreSQL's programs: `pg_config --bindir`, else Debian's /usr/lib/postgresql/<n>/bin. */
function postgresBin(): string {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {
    // no pg_config on PATH
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin/initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('initdb not found (pg_config --bindir, /usr/lib/postgresql/*/bin): install the PostgreSQL server package');
  return path.join(root, versions[0], 'bin');
}

export interface Cluster {
  url: string;
  port: number;
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: connections are cut, as in a restart or a failover. */
  stop(): Promise<void>;
  remove(): Promise<void>;
}

/**
 * initdb refuses to run as root: as root, the cluster belongs to the `postgres` user and its commands run through
 * `runuser -u postgres --`; as anyone else, as that user.
 */
export async function createCluster(): Promise<Cluster> {
  const bin = postgresBin();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'venue-loyalty-soak-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  // Not synchronous: the load keeps going while the server stops and starts.
  const run = async (program: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]] : [path.join(bin, program), args];
    await promisify(execFile)(file, argv);
  };
  const data = path.join(dir, 'data');
  const port = await freePort();
  await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const cluster: Cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']),
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']),
    async remove() {
      await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {}); // may not be running
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

export interface OwnRedis {
  url: string;
  process: Started;
}

/** redis-server on a free port, nothing persisted. */
export async function startRedis(cwd: string): Promise<OwnRedis> {
  const port = await freePort();
  const process = startProcess('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { cwd, env: {} });
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      if (execFileSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === 'PONG') break;
    } catch {
      // not up yet
    }
    if (process.child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start:\n${process.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `redis://127.0.0.1:${port}`, process };
}
