// Transactions that retry what PostgreSQL asks to be retried (serialization failures, deadlocks), then give up
// with 409 balance_conflict so the client retries with the same external_id or Idempotency-Key (D11).
import { ApiError } from '../shared/errors.js';
import type { Db } from './database.js';

const RETRYABLE = new Set(['40001', '40P01']);
export const TRANSACTION_ATTEMPTS = 3;

export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (err) {
      if (!RETRYABLE.has((err as { code?: string }).code ?? '')) throw err;
      if (attempt === TRANSACTION_ATTEMPTS) throw new ApiError('balance_conflict');
    }
  }
}
