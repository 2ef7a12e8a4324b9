// The soak's load: the bench's mixed till workload sent open-loop at a fixed rate, request by request alternating
// between the API processes, retried as a till retries (the same Idempotency-Key and body, on the other process,
// with backoff), and every check and refund acknowledged with 2xx remembered by its external_id.
import type { RequestSpec } from '../bench/load.js';
import { Tally } from '../bench/load.js';

const MAX_ATTEMPTS = 8;
const REQUEST_TIMEOUT_MS = 15_000;
/** 409s that mean "try again": the same key still being answered elsewhere, or a member's balance moved meanwhile. */
const TRANSIENT_CONFLICTS = new Set(['idempotency_key_in_use', 'balance_conflict']);

function errorCode(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

/** Transport failures, 5xx, 429 and the transient 409s are retried; anything else is the request's answer. */
function retryable(status: number, body: string): boolean {
  if (status === 0 || status >= 500 || status === 429) return true;
  return status === 409 && TRANSIENT_CONFLICTS.has(errorCode(body) ?? '');
}

export class Till {
  /** Every attempt's answer (a 503 while PostgreSQL is down shows here even when a retry then succeeded). */
  readonly attempts = new Tally();
  /** Each request's final answer, its latency counted from when it was due. */
  readonly outcomes = new Tally();
  /** External ids answered 2xx, per kind. */
  readonly acknowledged = { apply: new Set<string>(), refund: new Set<string>() };
  /** Requests not sent because `maxInFlight` were already waiting (the service fell behind the rate). */
  shed = 0;
  /** Requests that never got an answer that is not retried, after every attempt. */
  gaveUp = 0;
  retries = 0;
  private inFlight = new Set<Promise<void>>();
  private turn = 0;

  constructor(
    private readonly targets: string[],
    private readonly make: () => RequestSpec,
    private readonly maxInFlight: number,
  ) {}

  get pending(): number {
    return this.inFlight.size;
  }

  /** Sends `rate` requests a second until `until()` says stop, then waits for the ones in flight. */
  async run(rate: number, until: () => boolean): Promise<void> {
    const start = performance.now();
    let issued = 0;
    while (!until()) {
      const due = Math.floor(((performance.now() - start) * rate) / 1000) + 1;
      for (; issued < due; issued++) {
        if (this.inFlight.size >= this.maxInFlight) {
          this.shed++;
          continue;
        }
        const p = this.send(this.make(), start + (issued * 1000) / rate).finally(() => this.inFlight.delete(p));
        this.inFlight.add(p);
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(this.inFlight);
  }

  private async send(spec: RequestSpec, dueAt: number): Promise<void> {
    const first = this.turn++;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const base = this.targets[(first + attempt) % this.targets.length]!;
      let status = 0;
      let body = '';
      try {
        const res = await fetch(base + spec.path, {
          method: spec.method,
          headers: spec.headers,
          body: spec.body,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        status = res.status;
        body = await res.text();
        this.attempts.answer(spec.kind, status, body);
      } catch {
        this.attempts.transportErrors++;
      }
      if (!retryable(status, body)) {
        this.outcomes.answer(spec.kind, status, body);
        this.outcomes.latency(spec.kind, performance.now() - dueAt);
        if (status >= 200 && status < 300 && (spec.kind === 'apply' || spec.kind === 'refund')) {
          this.acknowledged[spec.kind].add((JSON.parse(spec.body!) as { external_id: string }).external_id);
        }
        return;
      }
      this.retries++;
      // 100 ms, 200 ms, … 3.2 s, with jitter so the retries of one moment spread out.
      await new Promise((r) => setTimeout(r, Math.min(3200, 100 * 2 ** attempt) * (0.75 + Math.random() / 2)));
    }
    this.gaveUp++;
  }
}
