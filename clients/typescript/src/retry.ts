// The fetch every call goes through: an Idempotency-Key per write, kept across its retries, and retries with
// exponential backoff and jitter on what the API says is worth retrying (docs/api.md, contract section 7).
import { VenueLoyaltyConnectionError } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 3); 0 turns retrying off. */
  maxRetries: number;
  /** The first backoff (default 500 ms); it doubles on every retry… */
  initialDelayMs: number;
  /** …up to this (default 8 s). `Retry-After` is honoured as sent, even when longer. */
  maxDelayMs: number;
  fetch: (request: Request) => Promise<Response>;
  sleep: (ms: number) => Promise<void>;
  /** Milliseconds since the epoch, for a `Retry-After` given as a date. */
  now: () => number;
  /** In [0, 1), for the jitter. */
  random: () => number;
  idempotencyKey: () => string;
}

// The writes the API deduplicates by Idempotency-Key; GET and PUT are idempotent by themselves.
const KEYED_METHODS = new Set(['POST', 'PATCH', 'DELETE']);
// 409s that describe the moment, not the request: the same request again can succeed (docs/api.md, Idempotency).
const RETRYABLE_CONFLICTS = new Set(['balance_conflict', 'idempotency_key_in_use']);

/** Sends the request, retrying it with the same Idempotency-Key; answers with the last response. */
export async function sendWithRetries(request: Request, options: RetryOptions): Promise<Response> {
  if (KEYED_METHODS.has(request.method) && !request.headers.has('idempotency-key')) {
    request.headers.set('idempotency-key', options.idempotencyKey());
  }
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await options.fetch(request.clone());
    } catch (err) {
      // The caller's own abort is not a network failure.
      if (request.signal.aborted) throw err;
      if (attempt >= options.maxRetries) throw new VenueLoyaltyConnectionError(request, err);
      await options.sleep(backoff(attempt, options));
      continue;
    }
    if (attempt >= options.maxRetries || !(await isRetryable(response))) return response;
    const wait = retryAfterMs(response, options.now()) ?? backoff(attempt, options);
    await response.body?.cancel();
    await options.sleep(wait);
  }
}

/** Exponential backoff with "equal jitter": half the delay fixed, half random, so retries never arrive in step. */
function backoff(attempt: number, options: Pick<RetryOptions, 'initialDelayMs' | 'maxDelayMs' | 'random'>): number {
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (options.random() * ceiling) / 2);
}

async function isRetryable(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status >= 500) return true;
  if (response.status !== 409) return false;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' && RETRYABLE_CONFLICTS.has(code);
}

/** `Retry-After` in milliseconds: whole seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(response: Response, now: number): number | undefined {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
