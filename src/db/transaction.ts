// Transactions that retry what PostgreSQL asks to be retried (serialization failures, deadlocks, a prepared
// statement a migration made stale), a duplicate caught by a unique constraint and a campaign budget passed by checks
// written at once, then give up with 409 balance_conflict so the client retries with the same external_id or
// Idempotency-Key (D11).
import { ApiError } from '../shared/errors.js';
import { isStalePlan, type Db } from './database.js';

const RETRYABLE = new Set(['40001', '40P01']);
/** A campaign's budget that checks writing their credits with themselves passed together: run again, they take turns. */
const BUDGET_PASSED = 'campaigns_within_budget';
/**
 * Unique constraints that catch the same request sent twice at once: the loser read before the winner committed,
 * and its retry finds the winner's row and answers it as a replay (or, for a dashboard user's e-mail taken by a
 * sign-up or invitation accepted at the same moment, as 409 email_taken).
 */
const DUPLICATE_REQUEST = new Set(['transactions_external_id_key', 'transactions_register_external_id_key', 'owners_email_key']);
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
