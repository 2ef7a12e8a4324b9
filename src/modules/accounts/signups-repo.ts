// SQL for sign-ups waiting for their link to be used (issue 45); they belong to no chain yet.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SignupRequestsTable } from '../../db/schema.js';

export type SignUpRow = Selectable<SignupRequestsTable>;

/**
 * Inserts a sign-up. An address's earlier ones stay: anyone may sign up with any address, so a newer one must not end
 * the owner's; the first link used opens the venue, and the others then meet an address that has an account.
 */
export async function insertSignUp(db: Db, row: Insertable<SignupRequestsTable>): Promise<SignUpRow> {
  return db.insertInto('signup_requests').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The sign-up with this token's hash; `lock` to use it: two uses at once are then one use and one refusal. */
export async function signUpByToken(db: Db, tokenHash: string, lock: 'lock' | 'read'): Promise<SignUpRow | undefined> {
  return db.selectFrom('signup_requests').selectAll().where('token_hash', '=', tokenHash).$if(lock === 'lock', (q) => q.forUpdate()).executeTakeFirst();
}

export async function markSignUpUsed(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('signup_requests').set({ used_at: at }).where('id', '=', id).execute();
}

/** Deletes up to `limit` sign-ups whose link has expired (used or not): their password hashes are kept no longer. */
export async function deleteExpiredSignUps(db: Db, now: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('signup_requests')
    .where('id', 'in', (q) => q.selectFrom('signup_requests').select('id').where('expires_at', '<=', now).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
