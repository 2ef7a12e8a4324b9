// Child processes of the bench: the service started as `npm start` starts it, the ceilings, the CLI; the
// resident memory of a process and its children from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

// The tests' helper: the bench starts processes the way the process tests do.
export { freePort } from '../../test/support/processes.js';

/** VmRSS of one process in MB, undefined once it is gone. */
function rssOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

/** Resident memory of a process and all its descendants (one process when started with `node …`), MB. */
export function treeRss(pid: number): number | undefined {
  const own = rssOf(pid);
  if (own === undefined) return undefined;
  let total = own;
  for (const child of childrenOf(pid)) total += treeRss(child) ?? 0;
  return total;
}

/** `npm run <script>`'s command line from package.json: a `node …` command runs directly, anything else under sh. */
export function scriptCommand(root: string, script: string): { file: string; args: string[]; text: string } {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const text = pkg.scripts[script];
  if (!text) throw new Error(`package.json has no "${script}" script`);
  const words = text.trim().split(/\s+/);
  const simple = !/[;&|<>$`'"()]/.test(text);
  if (words[0] === 'node' && simple) return { file: process.execPath, args: words.slice(1), text };
  // A single command replaces the shell (exec), so its pid is the program's; a compound one runs under sh, and
  // the RSS counted is the whole process tree's.
  return { file: '/bin/sh', args: ['-c', simple ? `exec ${text}` : text], text };
}

export interface Logged {
  lines: number;
  /** pino levels: 40 warn, 50 error, 60 fatal; "other" for lines that are not JSON logs. */
  byLevel: Record<string, number>;
  samples: string[];
}

export interface Started {
  child: ChildProcess;
  pid: number;
  logged: Logged;
  output(): string;
  stop(): Promise<number | null>;
}

const LEVEL_NAMES: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/** Spawns a program, keeping the last of its output and counting its log lines by level. */
export function startProcess(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Started {
  // Its own process group, so a stop reaches a program started under a shell too.
  const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let tail = '';
  const logged: Logged = { lines: 0, byLevel: {}, samples: [] };
  let partial = '';
  const onData = (d: Buffer) => {
    const text = d.toString();
    tail = (tail + text).slice(-20_000);
    partial += text;
    const lines = partial.split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (!line.trim() || line.startsWith('READY ') || line.startsWith('RESULT ') || line === 'MEASURE') continue;
      logged.lines++;
      let level = 'other';
      try {
        const parsed = JSON.parse(line) as { level?: number };
        if (typeof parsed.level === 'number') level = LEVEL_NAMES[parsed.level] ?? String(parsed.level);
      } catch {
        // not a JSON log line
      }
      logged.byLevel[level] = (logged.byLevel[level] ?? 0) + 1;
      if (logged.samples.length < 5 && level !== 'info' && level !== 'debug') logged.samples.push(line.slice(0, 600));
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    pid: child.pid!,
    logged,
    output: () => tail,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const signal = (sig: NodeJS.Signals) => {
          try {
            process.kill(-child.pid!, sig);
          } catch {
            child.kill(sig);
          }
        };
        signal('SIGTERM');
        const timer = setTimeout(() => signal('SIGKILL'), 15_000);
        const code = await exited;
        clearTimeout(timer);
        return code;
      }
      return exited;
    },
  };
}

/** Resolves with the first line starting with `prefix` (its remainder), or rejects when the process ends. */
export function waitForLine(started: Started, prefix: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => finish(new Error(`no "${prefix}" within ${timeoutMs / 1000} s:\n${started.output()}`)), timeoutMs);
    const onData = (d: Buffer) => {
      buffer += d.toString();
      const line = buffer.split('\n').find((l) => l.startsWith(prefix));
      if (line !== undefined) finish(undefined, line.slice(prefix.length).trim());
    };
    const onExit = () => setTimeout(() => finish(new Error(`exited before "${prefix}":\n${started.output()}`)), 50);
    function finish(err?: Error, value?: string) {
      clearTimeout(timer);
      started.child.stdout!.off('data', onData);
      started.child.off('exit', onExit);
      if (err) reject(err);
      else resolve(value!);
    }
    started.child.stdout!.on('data', onData);
    started.child.once('exit', onExit);
  });
}

/** Polls `url` until it answers 2xx. */
export async function waitReady(started: Started, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (started.child.exitCode !== null || started.child.signalCode !== null) throw new Error(`exited before ready:\n${started.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`not ready within ${timeoutMs / 1000} s:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Samples a process tree's RSS every `everyMs`, keeping the peak per label. */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  private label = 'start';
  readonly peaks: Record<string, number> = {};
  peak = 0;

  constructor(private readonly pid: number, private readonly everyMs = 200) {}

  start(): void {
    this.timer = setInterval(() => this.sample(), this.everyMs);
    this.timer.unref();
  }

  setLabel(label: string): void {
    this.label = label;
    this.sample();
  }

  sample(): number | undefined {
    const rss = treeRss(this.pid);
    if (rss === undefined) return undefined;
    this.peak = Math.max(this.peak, rss);
    this.peaks[this.label] = Math.max(this.peaks[this.label] ?? 0, rss);
    return rss;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on Linux

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may itself hold spaces), from field 3 (state) on.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far; with `reaped`, also its children that have exited. */
function cpuOf(pid: number, reaped = false): number {
  const f = statFields(pid);
  if (!f) return 0;
  const own = Number(f[11]) + Number(f[12]);
  return (reaped ? own + Number(f[13]) + Number(f[14]) : own) / TICKS_PER_SECOND;
}

/** A process tree's CPU seconds: every live process, plus what exited children left in their parents' counts. */
function treeCpu(pid: number): number {
  return cpuOf(pid, true) + childrenOf(pid).reduce((sum, c) => sum + treeCpu(c), 0);
}

/**
 * CPU seconds of the PostgreSQL servers on this machine (the local server the bench uses): each postmaster's tree,
 * so backends that exit meanwhile (a pool closing idle connections) still count.
 */
function postgresCpu(): number {
  const postgres = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') postgres.set(Number(entry), Number(statFields(Number(entry))?.[1]));
    } catch {
      // gone
    }
  }
  let total = 0;
  for (const [pid, parent] of postgres) if (!postgres.has(parent)) total += treeCpu(pid);
  return total;
}

/** CPU seconds the whole machine has been busy (all cores, everything but idle and I/O wait). */
function machineBusy(): number {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const n = fields.slice(0, 8).map(Number);
    const total = n.reduce((a, b) => a + b, 0);
    return (total - n[3]! - n[4]!) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export interface CpuShares {
  /** Percent of one core over the measured interval: 100 is one core busy all the time (this machine has 2). */
  service_pct: number;
  postgres_pct: number | null;
  load_generator_pct: number;
  /** Everything else on the machine meanwhile (other programs, the kernel): noise when it is more than a few %. */
  other_pct: number;
}

/** Where the CPU went during a measurement: the service process, PostgreSQL, and this process (autocannon). */
export function cpuMeter(servicePid: number, withPostgres: boolean): () => CpuShares {
  const t0 = performance.now();
  const service0 = treeCpu(servicePid);
  const pg0 = withPostgres ? postgresCpu() : 0;
  const self0 = process.cpuUsage();
  const machine0 = machineBusy();
  return () => {
    const wall = (performance.now() - t0) / 1000;
    const self = process.cpuUsage(self0);
    const pct = (seconds: number) => Math.round((seconds / wall) * 1000) / 10;
    const service = treeCpu(servicePid) - service0;
    const postgres = withPostgres ? postgresCpu() - pg0 : 0;
    const client = (self.user + self.system) / 1e6;
    return {
      service_pct: pct(service),
      postgres_pct: withPostgres ? pct(postgres) : null,
      load_generator_pct: pct(client),
      other_pct: Math.max(0, pct(machineBusy() - machine0 - service - postgres - client)),
    };
  };
}
