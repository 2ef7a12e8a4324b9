// Transactions that retry what PostgreSQL asks to be retried (serialization failures, deadlocks, a prepared
// statement a migration made stale), a duplicate caught by a unique constraint and a campaign budget passed by checks
// written at once, then give up with 409 balance_conflict so the client retries with the same external_id or
// Idempotency-Key (D11); and the savepoints and rolled-back transactions that judge a change as if it were made.
import { sql } from 'kysely';
import { ApiError } from '../shared/errors.js';
import { isStalePlan, type Db } from './database.js';

const RETRYABLE = new Set(['40001', '40P01']);
/** A campaign's budget that checks writing their credits with themselves passed together: run again, they take turns. */
const BUDGET_PASSED = 'campaigns_within_budget';
/**
 * Unique constraints that catch the same request sent twice at once: the loser read before the winner committed,
 * and its retry finds the winner's row and answers it as a replay (or, for a dashboard user's e-mail taken by a
 * sign-up or invitation accepted at the same moment, as 409 email_taken; for a member's e-mail given to two members
 * at once, as 409 member_email_taken).
 */
const DUPLICATE_REQUEST = new Set(['transactions_external_id_key', 'transactions_register_external_id_key', 'owners_email_key', 'members_email']);
export const TRANSACTION_ATTEMPTS = 3;

function retryable(err: unknown): boolean {
  const { code, constraint } = err as { code?: string; constraint?: string };
  return (
    RETRYABLE.has(code ?? '') ||
    (code === '23505' && DUPLICATE_REQUEST.has(constraint ?? '')) ||
    (code === '23514' && constraint === BUDGET_PASSED) ||
    isStalePlan(err)
  );
}

export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (err) {
      if (!retryable(err)) throw err;
      if (attempt === TRANSACTION_ATTEMPTS) throw new ApiError('balance_conflict');
    }
  }
}

/**
 * Runs `work` inside a savepoint of the transaction `trx`: what it wrote is undone when it throws (and the error goes
 * on) or when it answers `undo`; the transaction carries on either way.
 */
export async function inSavepoint<T>(trx: Db, work: () => Promise<{ value: T; undo: boolean }>): Promise<T> {
  await sql`savepoint work`.execute(trx);
  try {
    const { value, undo } = await work();
    await sql.raw(undo ? 'rollback to savepoint work' : 'release savepoint work').execute(trx);
    return value;
  } catch (err) {
    await sql`rollback to savepoint work`.execute(trx);
    throw err;
  }
}

/** What `work` would answer, in a transaction rolled back whatever it wrote: a judgement made as if a change were made. */
export async function asIf<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  let answer: { value: T } | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      answer = { value: await work(trx) };
      throw new UndoAll();
    })
    .catch((err: unknown) => {
      if (!(err instanceof UndoAll)) throw err;
    });
  return answer!.value;
}

class UndoAll extends Error {}
