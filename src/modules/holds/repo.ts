// SQL for holds.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { Read, WriteStep } from '../../db/statement.js';
import type { HoldsTable } from '../../db/schema.js';
import type { Page } from '../../shared/pagination.js';
import { inReach } from '../../db/reach.js';
import type { Place, Reach } from '../accounts/schemas.js';

export type HoldRow = Selectable<HoldsTable>;

/** The step of a write that inserts a new hold (the row as it will read back: every column given). */
export function insertHoldStep(db: Db, row: HoldRow): WriteStep {
  return { name: 'inserted_hold', query: db.insertInto('holds').values(row) };
}

export async function findHold(db: Db, reach: Reach, id: string): Promise<HoldRow | undefined> {
  return db.selectFrom('holds').selectAll().where(inReach(reach)).where('id', '=', id).executeTakeFirst();
}

/** The id of the hold's member, as a scalar sub-query (to lock the member a hold names). */
export function memberOfHold(db: Db, reach: Reach, id: string) {
  return sql<string | null>`(${db.selectFrom('holds').select('member_id').where(inReach(reach)).where('id', '=', id)})`;
}

/** The hold's row as a read of a gather; null when the venue has no such hold. */
export function holdRead(db: Db, reach: Reach, id: string): Read<HoldRow | null> {
  return {
    query: db.selectFrom('holds as h').select(sql`to_jsonb(h)`.as('hold')).where(inReach(reach, 'h')).where('h.id', '=', id),
    parse: (value) => {
      if (value === null || value === undefined) return null;
      const row = value as HoldRow;
      return { ...row, amount: Number(row.amount), expires_at: new Date(row.expires_at), created_at: new Date(row.created_at) };
    },
  };
}

/** The member's holds, newest first; `activeOnly` for those not yet captured or released. */
export async function listHolds(db: Db, reach: Reach, memberId: string, page: Page, activeOnly = false): Promise<HoldRow[]> {
  return db
    .selectFrom('holds')
    .selectAll()
    .where(inReach(reach))
    .where('member_id', '=', memberId)
    .$if(activeOnly, (q) => q.where('status', '=', sql.lit('active'))) // in the text: the index of active holds needs it
    .$call(keysetPage(page))
    .execute();
}

type Finish = { status: 'captured' | 'released'; at: Date; capturedAmount?: number; capturedBy?: string };

/** Marks an active hold captured or released; the step of a larger write. */
export function finishHoldStep(db: Db, place: Place, id: string, change: Finish): WriteStep {
  return { name: 'finished_hold', query: finishing(db, place, id, change) };
}

function finishing(db: Db, reach: Reach, id: string, change: Finish) {
  return db
    .updateTable('holds')
    .set({
      status: change.status,
      finished_at: change.at,
      captured_amount: change.capturedAmount ?? null,
      captured_by: change.capturedBy ?? null,
    })
    .where(inReach(reach))
    .where('id', '=', id)
    .returningAll();
}

export async function finishHold(db: Db, reach: Reach, id: string, change: Finish): Promise<HoldRow> {
  return finishing(db, reach, id, change).executeTakeFirstOrThrow();
}

/**
 * Marks up to `limit` active holds past expiry by `now` expired, in one statement that locks their members first
 * (the lock order of every change to a hold). A member another transaction holds is skipped, not waited for: a
 * till is never slowed by the sweep, and that member's holds wait for the next pass. `status = 'active'` is
 * judged again on the locked row, so a hold captured or released meanwhile is left as it is. Returns how many.
 */
export async function expireHolds(db: Db, now: Date, limit: number): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    with due as (
      select chain_id, id, member_id from holds
      where status = 'active' and expires_at <= ${now}
      order by expires_at
      limit ${limit}
    ), locked as (
      select m.chain_id, m.id from members m
      where (m.chain_id, m.id) in (select chain_id, member_id from due)
      order by m.chain_id, m.id
      for update of m skip locked
    )
    update holds h set status = 'expired', finished_at = h.expires_at
    from due join locked on locked.chain_id = due.chain_id and locked.id = due.member_id
    where h.chain_id = due.chain_id and h.id = due.id and h.status = 'active'
    returning h.id`.execute(db);
  return rows.length;
}
