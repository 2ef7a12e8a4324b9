// Load from this process: autocannon for closed-loop scenarios (a warm-up run, then the measured run, or short
// rounds of two sides taking turns), and a paced open-loop driver for "latency at a given rate". Every answer is
// counted by kind and status, with the error code of every non-2xx answer, and latencies are kept exactly per kind.
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { Latencies, round } from './stats.js';

export interface RequestSpec {
  kind: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export type Context = Record<string, unknown>;

/** One request of a scenario's sequence; a sequence repeats per connection (hold, then the check capturing it). */
export interface Step {
  make(ctx: Context): RequestSpec | null;
  after?(status: number, body: string, ctx: Context): void;
}

interface KindTally {
  statuses: Record<string, number>;
  errors: Record<string, number>;
  latencies: Latencies;
}

export interface KindSummary {
  requests: number;
  non2xx: number;
  statuses: Record<string, number>;
  errors: Record<string, number>;
  p50_ms: number | null;
  p90_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  mean_ms: number | null;
}

export interface Measured extends KindSummary {
  seconds: number;
  req_per_s: number;
  transport_errors: number;
  timeouts: number;
  connections: number;
  /** Per kind of request, when a scenario sends more than one kind. */
  kinds?: Record<string, KindSummary & { req_per_s: number }>;
}

/** What the answers were: counts per kind and status, error codes, latencies. */
export class Tally {
  private readonly kinds = new Map<string, KindTally>();
  transportErrors = 0;
  timeouts = 0;

  private of(kind: string): KindTally {
    let t = this.kinds.get(kind);
    if (!t) {
      t = { statuses: {}, errors: {}, latencies: new Latencies() };
      this.kinds.set(kind, t);
    }
    return t;
  }

  answer(kind: string, status: number, body: string | undefined): void {
    const t = this.of(kind);
    t.statuses[status] = (t.statuses[status] ?? 0) + 1;
    if (status < 200 || status >= 300) {
      let code = 'no error code';
      try {
        code = (JSON.parse(body ?? '') as { error?: { code?: string } }).error?.code ?? code;
      } catch {
        // not the error envelope
      }
      const key = `${status} ${code}`;
      t.errors[key] = (t.errors[key] ?? 0) + 1;
    }
  }

  /** Answers counted so far, of every kind. */
  get answers(): number {
    let n = 0;
    for (const t of this.kinds.values()) for (const count of Object.values(t.statuses)) n += count;
    return n;
  }

  latency(kind: string, ms: number): void {
    this.of(kind).latencies.push(ms);
  }

  private static summarise(list: KindTally[]): KindSummary {
    const statuses: Record<string, number> = {};
    const errors: Record<string, number> = {};
    const all = new Latencies();
    for (const t of list) {
      for (const [s, n] of Object.entries(t.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
      for (const [e, n] of Object.entries(t.errors)) errors[e] = (errors[e] ?? 0) + n;
      t.latencies.forEach((v) => all.push(v));
    }
    const requests = Object.values(statuses).reduce((a, b) => a + b, 0);
    const ok = Object.entries(statuses)
      .filter(([s]) => Number(s) >= 200 && Number(s) < 300)
      .reduce((a, [, n]) => a + n, 0);
    return { requests, non2xx: requests - ok, statuses, errors, ...all.summary() };
  }

  summary(seconds: number, connections: number): Measured {
    const total = Tally.summarise([...this.kinds.values()]);
    const measured: Measured = {
      ...total,
      seconds: round(seconds, 3),
      req_per_s: round(total.requests / seconds, 1),
      transport_errors: this.transportErrors,
      timeouts: this.timeouts,
      connections,
    };
    if (this.kinds.size > 1) {
      measured.kinds = Object.fromEntries(
        [...this.kinds.entries()].map(([kind, t]) => {
          const s = Tally.summarise([t]);
          return [kind, { ...s, req_per_s: round(s.requests / seconds, 1) }];
        }),
      );
    }
    return measured;
  }
}

interface CannonOptions {
  url: string;
  connections: number;
  seconds: number;
}

/** One autocannon run of `steps` repeated on every connection; answers go to `tally`. */
function cannonRun(options: CannonOptions, steps: Step[], tally: Tally): Promise<{ seconds: number }> {
  let lastKind = '?';
  const requests: autocannon.Request[] = steps.map((step) => ({
    setupRequest: ((req: autocannon.Request, ctx: Context) => {
      const spec = step.make(ctx);
      if (!spec) return null;
      ctx.kind = spec.kind;
      return { ...req, method: spec.method, path: spec.path, headers: { ...spec.headers }, body: spec.body ?? '' };
    }) as unknown as autocannon.Request['setupRequest'],
    onResponse: ((status: number, body: string, ctx: Context) => {
      lastKind = String(ctx.kind);
      tally.answer(lastKind, status, body);
      step.after?.(status, body, ctx);
    }) as autocannon.Request['onResponse'],
  }));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const instance = autocannon(
      { url: options.url, connections: options.connections, duration: options.seconds, requests, timeout: 30 },
      (err: unknown, result: autocannon.Result) => {
        if (err) return reject(err);
        tally.transportErrors += result.errors - result.timeouts;
        tally.timeouts += result.timeouts;
        resolve({ seconds: (performance.now() - started) / 1000 });
      },
    );
    // autocannon reports each answer right after onResponse, so lastKind is this answer's kind.
    instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => tally.latency(lastKind, ms));
  });
}

/** A warm-up run (answers counted apart), then the measured run; `around` brackets the measured run alone. */
export async function cannon<T>(
  url: string,
  steps: Step[],
  connections: number,
  warmupSeconds: number,
  seconds: number,
  around: () => () => T = () => () => undefined as T,
) {
  const warm = new Tally();
  if (warmupSeconds > 0) await cannonRun({ url, connections, seconds: warmupSeconds }, steps, warm);
  const tally = new Tally();
  const done = around();
  const run = await cannonRun({ url, connections, seconds }, steps, tally);
  const during = done();
  return { measured: tally.summary(run.seconds, connections), warmup: warm.summary(Math.max(warmupSeconds, 0.001), connections), during };
}

export interface SideMeasured {
  /** Its answers over all its rounds, over the seconds of its rounds. */
  measured: Measured;
  /** Its rate in each round. */
  reqPerSByRound: number[];
}

/**
 * Sides taking turns in short closed-loop rounds after a warm-up of each — A B, B A, A B… so neither always goes
 * first — so that whatever else the machine does meanwhile falls on every side alike; round r of each side is
 * next to round r of the others, which makes their rates comparable round by round.
 */
export async function alternating<S extends string>(
  url: string,
  sides: Record<S, Step[]>,
  connections: number,
  warmupSeconds: number,
  rounds: number,
  roundSeconds: number,
): Promise<Record<S, SideMeasured>> {
  const names = Object.keys(sides) as S[];
  if (warmupSeconds > 0) for (const name of names) await cannonRun({ url, connections, seconds: warmupSeconds }, sides[name], new Tally());
  const tallies = new Map(names.map((name) => [name, { tally: new Tally(), seconds: 0, byRound: [] as number[] }]));
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) {
      const side = tallies.get(name)!;
      const before = side.tally.answers;
      const { seconds } = await cannonRun({ url, connections, seconds: roundSeconds }, sides[name], side.tally);
      side.seconds += seconds;
      side.byRound.push(round((side.tally.answers - before) / seconds, 1));
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const side = tallies.get(name)!;
      return [name, { measured: side.tally.summary(side.seconds, connections), reqPerSByRound: side.byRound }];
    }),
  ) as Record<S, SideMeasured>;
}

/**
 * Open loop at a fixed rate: request k is due at start + k / rate whatever came back before, over at most
 * `connections` connections; its latency counts from when it was due, so queueing shows (no coordinated omission).
 */
export async function paced(url: string, make: () => RequestSpec, rate: number, connections: number, warmupSeconds: number, seconds: number) {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const phase = async (length: number, tally: Tally) => {
    const start = performance.now();
    const total = Math.floor(rate * length);
    const inFlight = new Set<Promise<void>>();
    let issued = 0;
    while (issued < total) {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      for (; issued < due; issued++) {
        const dueAt = start + (issued * 1000) / rate;
        const spec = make();
        const p = pool
          .request({ method: spec.method, path: spec.path, headers: spec.headers, body: spec.body })
          .then(async (res) => {
            const body = await res.body.text();
            tally.answer(spec.kind, res.statusCode, body);
            tally.latency(spec.kind, performance.now() - dueAt);
          })
          .catch(() => {
            tally.transportErrors++;
          })
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(inFlight);
    return (performance.now() - start) / 1000;
  };
  try {
    if (warmupSeconds > 0) await phase(warmupSeconds, new Tally());
    const tally = new Tally();
    const elapsed = await phase(seconds, tally);
    return { ...tally.summary(elapsed, connections), offered_rate: round(rate, 1) };
  } finally {
    await pool.close();
  }
}
