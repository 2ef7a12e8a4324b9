// Idempotency-Key (D6): a POST/PATCH/DELETE and the record of its response commit in one transaction.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../modules/accounts/schemas.js';
import stringify from 'safe-stable-stringify';
import type { Db } from '../db/database.js';
import type { FoldedKey, WriteStep } from '../db/statement.js';
import { inTransaction } from '../db/transaction.js';
import { ApiError, isErrorCode, type ErrorBody } from '../shared/errors.js';
import { callerOf } from './context.js';
import { currentPathOf } from './route-scopes.js';
import * as store from './idempotency-store.js';

/** How long an Idempotency-Key's answer is replayed (D6). */
export const REMEMBER_MS = 24 * 60 * 60 * 1000;
// D6: 1 to 255 printable ASCII characters. Not a leading space: HTTP strips it, so the key would not arrive as sent.
const KEY_SHAPE = /^[\x21-\x7e][\x20-\x7e]{0,254}$/;

/**
 * Refuses an Idempotency-Key outside D6's shape. Called at the edge for every request that carries one (src/http/
 * input.ts), so a route that does not use it still refuses a malformed key instead of silently ignoring it.
 */
export function checkIdempotencyKey(key: string | string[] | undefined): asserts key is string | undefined {
  if (key === undefined) return;
  if (typeof key !== 'string' || !KEY_SHAPE.test(key)) {
    throw new ApiError('parameter_invalid', {
      param: 'Idempotency-Key',
      message: 'Idempotency-Key must be 1 to 255 printable ASCII characters.',
    });
  }
}

/**
 * Method, path, query (parsed, so the order of its parameters does not matter) and canonical body. A path under the
 * legacy POS prefix counts as its /api/v1 twin: one route, so a till moving over mid-retry gets its replay. A chain
 * key's `venue_id` has left the body by now (src/http/auth.ts): the venue it named counts, so the same key sent for
 * another venue is another request (a venue key's venue is its namespace already).
 */
function fingerprintOf(req: FastifyRequest): string {
  const path = currentPathOf(req.url.split('?')[0]!);
  const venue = req.keyIdentity?.keyVenueId === null && req.caller?.venueId ? `\nat ${req.caller.venueId}` : '';
  const request = `${req.method} ${path}\n${stringify(req.query ?? {})}\n${stringify(req.body ?? null)}${venue}`;
  return createHash('sha256').update(request).digest('hex');
}

/**
 * Refusals that describe this moment, not the request: the client is told to retry them, so a retry with the
 * same key must run again rather than get them replayed. (5xx answers are never stored either.)
 */
const TRANSIENT = new Set(['balance_conflict', 'idempotency_key_in_use', 'rate_limited']);

function replayError(body: Record<string, unknown>): ApiError {
  const { type: _type, code, message, param, doc_url: _doc, ...details } = body.error as ErrorBody;
  if (!isErrorCode(code)) return new ApiError('internal_error');
  return new ApiError(code, { message, param, details });
}

/** Runs a change in a transaction and answers `status` with its result (see runMutationWithStatus; `folded`: its write keeps the answer). */
export function runMutation<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  work: (trx: Db, key: FoldedKey | null) => Promise<T>,
  options: Omit<MutationOptions<T>, 'folded'> & { folded?: boolean } = {},
): Promise<T> {
  const { folded, ...rest } = options;
  return runMutationWithStatus(req, reply, async (trx, key) => ({ status, body: await work(trx, key) }), { ...rest, ...(folded ? { folded: { status } } : {}) });
}

/**
 * Deletes answers older than REMEMBER_MS, `batch` at a time, until none is left; how many it deleted. Reads
 * never replay an older one anyway: this only keeps the table from growing.
 */
export async function forgetExpiredAnswers(db: Db, now: Date, batch = 1000): Promise<number> {
  const before = new Date(now.getTime() - REMEMBER_MS);
  let total = 0;
  for (let deleted = batch; deleted === batch; total += deleted) deleted = await store.forgetBefore(db, before, batch);
  return total;
}

/**
 * Runs a change that the work makes in one statement: without an Idempotency-Key that statement is its own
 * transaction (no BEGIN and COMMIT around it); with one, the key's record needs a transaction as usual.
 */
export function runSingleStatement<T>(req: FastifyRequest, reply: FastifyReply, status: number, work: (db: Db) => Promise<T>): Promise<T> {
  if (req.headers['idempotency-key'] !== undefined) return runMutation(req, reply, status, work);
  return work(req.server.deps.db).then((body) => {
    reply.code(status);
    return body;
  });
}

/** What a change answers; `replayed` marks an answer repeated by the domain's own key (external_id). */
export interface MutationResult<T> {
  status: number;
  body: T;
  replayed?: boolean;
}

/** Whose keys these are: by default the calling key's venue (D21); a route without a key names the venue itself. */
export interface IdempotencyScope {
  chainId: string;
  venueId: string;
  /** Keys of anonymous callers (guests), kept apart from the venue's own keys. */
  namespace?: string;
}

/** Whose Idempotency-Keys a caller's are: its venue's, shared by the venue's keys; a chain key's own (D21). */
const namespaceOf = (caller: Caller): IdempotencyScope => ({ chainId: caller.chainId, venueId: caller.keyVenueId ?? caller.keyId });

/** The answer kept for the key, to be replayed: thrown by KeyClaim.settle, answered by runMutationWithStatus. */
class KeptAnswer extends Error {
  constructor(readonly stored: store.StoredResponse) {
    super('kept answer');
  }
}

/**
 * A request's Idempotency-Key, claimed and answered inside the request's transaction. By default the claim is a
 * statement of its own before the work and the answer one after it; a work on the hot path (a check) folds both
 * into its own statements instead — `steps` and `outcome` into its first, `recordStep` into its write — so a
 * check with a key costs no round trip more than one without.
 */
class KeyClaim implements FoldedKey {
  /** The key is this request's and no answer is kept: the work has begun. */
  started = false;
  recorded = false;

  constructor(
    private readonly place: store.KeyPlace,
    private readonly fingerprint: string,
    private readonly at: Date,
    private readonly notBefore: Date,
    private readonly storedAs: (body: never) => unknown,
    /** The status a folded work's write answers with. */
    private readonly foldedStatus = 0,
  ) {}

  /** The CTEs that claim the key, for the work's first statement, which reads `outcome` along and gives it to `settle`. */
  steps(): WriteStep[] {
    return store.claimSteps(this.place, this.fingerprint, this.at, this.notBefore);
  }

  readonly outcome = store.claimOutcome;

  /** Goes on when the key is this request's and nothing is kept for it; throws otherwise (in use, reused, kept). */
  settle(value: unknown): void {
    const { locked, prior } = store.claimedOf(value);
    if (!locked) throw new ApiError('idempotency_key_in_use');
    if (prior) {
      if (prior.fingerprint !== this.fingerprint) throw new ApiError('idempotency_key_reused');
      throw new KeptAnswer(prior);
    }
    this.started = true;
  }

  /** Claims the key in a statement of its own. */
  async claim(trx: Db): Promise<void> {
    const claimed = await store.claimKey(trx, this.place, this.fingerprint, this.at, this.notBefore);
    this.settle(claimed);
  }

  /** The step of the work's write that keeps its answer. */
  recordStep<T>(trx: Db, body: T): WriteStep {
    this.recorded = true;
    return store.recordStep(trx, this.place, this.foldedStatus, (this.storedAs as (body: T) => T)(body));
  }

  /** Keeps the answer in a statement of its own (unless the work's write kept it). */
  async record<T>(trx: Db, result: MutationResult<T>): Promise<void> {
    if (!this.recorded) await store.recordAnswer(trx, this.place, result.status, (this.storedAs as (body: T) => T)(result.body));
  }
}

interface MutationOptions<T> {
  /** Whose keys (default: the calling key's namespace). */
  scope?: IdempotencyScope;
  /** The answer as kept for replays (see runMutationWithStatus). */
  storedAs?: (body: T) => T;
  /**
   * The work claims the key in its first statement and keeps its answer, with this status, in its write (FoldedKey);
   * otherwise the claim and the answer are statements of their own around the work.
   */
  folded?: { status: number };
}

/**
 * Runs a change in a transaction; the work says which status its answer has (PUT: 201 created, 200 replaced).
 * With an Idempotency-Key, a retry of the same request replays the stored answer, and a crash can never leave
 * the change without its record. `storedAs` is the answer as kept for replays, for an answer that shows a secret
 * once (a webhook endpoint's signing secret): the table of answers must not become a second copy of it.
 */
export async function runMutationWithStatus<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  work: (trx: Db, key: FoldedKey | null) => Promise<MutationResult<T>>,
  options: MutationOptions<T> = {},
): Promise<T> {
  const { db, clock } = req.server.deps;
  const key = req.headers['idempotency-key'];
  const answer = ({ status, body, replayed }: MutationResult<T>): T => {
    reply.code(status);
    if (replayed) reply.header('idempotent-replayed', 'true');
    return body;
  };
  if (key === undefined) return answer(await inTransaction(db, (trx) => work(trx, null)));
  checkIdempotencyKey(key);
  const { scope } = options;
  const { chainId, venueId } = scope ?? namespaceOf(callerOf(req));
  // Keys of anonymous callers live apart from the venue's own keys, so neither can replay the other's answer:
  // '§' is not ASCII, so no key a caller can send is spelled like a namespaced one.
  const place = { chainId, namespace: venueId, key: scope?.namespace ? `${scope.namespace}§${key}` : key };
  const fingerprint = fingerprintOf(req);
  const at = clock.now();
  const notBefore = new Date(at.getTime() - REMEMBER_MS);
  const claimOf = () => new KeyClaim(place, fingerprint, at, notBefore, options.storedAs ?? ((body: T) => body), options.folded?.status);
  let claim = claimOf();
  try {
    const result = await inTransaction(db, async (trx) => {
      claim = claimOf();
      if (!options.folded) await claim.claim(trx);
      const result = await work(trx, options.folded ? claim : null);
      if (!claim.started) throw new Error('The work did not claim its Idempotency-Key.');
      await claim.record(trx, result);
      return result;
    });
    return answer(result);
  } catch (err) {
    if (err instanceof KeptAnswer) return replayKept(reply, err);
    // A refusal is an answer too (D6): remember it, so a retry with the same key gets the same one. A folded work
    // may refuse before its first statement claimed the key (a body naming two members, a hold id of no shape):
    // that refusal is kept too, claimed afresh below like any other — and that claim is where a retry of such a
    // request meets the answer kept for the key, or learns the key was another request's.
    if ((claim.started || options.folded) && err instanceof ApiError && err.status < 500 && !TRANSIENT.has(err.code)) {
      const body = { error: err.toBody(req.server.deps.config.publicBaseUrl) };
      let met: unknown;
      await db.transaction().execute(async (trx) => {
        const again = claimOf();
        try {
          await again.claim(trx);
        } catch (claimed) {
          // Claimed since the rollback by a retry, which owns the key or has kept its answer, and that counts.
          met = claimed;
          return;
        }
        await again.record(trx, { status: err.status, body });
      });
      if (!claim.started && met instanceof KeptAnswer) return replayKept(reply, met);
      if (!claim.started && met instanceof ApiError && met.code === 'idempotency_key_reused') throw met;
    }
    throw err;
  }
}

/** Answers with the kept answer of the key, as it was (a refusal: its error, with this request's id). */
function replayKept<T>(reply: FastifyReply, kept: KeptAnswer): T {
  reply.header('idempotent-replayed', 'true');
  const { status_code, response_body } = kept.stored;
  if (status_code >= 400) throw replayError(response_body);
  reply.code(status_code);
  return response_body as T;
}
