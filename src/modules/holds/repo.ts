// SQL for holds.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Read, WriteStep } from '../../db/statement.js';
import type { HoldsTable } from '../../db/schema.js';

export type HoldRow = Selectable<HoldsTable>;

export async function insertHold(db: Db, row: Insertable<HoldsTable>): Promise<HoldRow> {
  return db.insertInto('holds').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findHold(db: Db, venueId: string, id: string): Promise<HoldRow | undefined> {
  return db.selectFrom('holds').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
}

/** The id of the hold's member, as a scalar sub-query (to lock the member a hold names). */
export function memberOfHold(db: Db, venueId: string, id: string) {
  return sql<string | null>`(${db.selectFrom('holds').select('member_id').where('venue_id', '=', venueId).where('id', '=', id)})`;
}

/** The hold's row as a read of a gather; null when the venue has no such hold. */
export function holdRead(db: Db, venueId: string, id: string): Read<HoldRow | null> {
  return {
    query: db.selectFrom('holds as h').select(sql`to_jsonb(h)`.as('hold')).where('h.venue_id', '=', venueId).where('h.id', '=', id),
    parse: (value) => {
      if (value === null || value === undefined) return null;
      const row = value as HoldRow;
      return { ...row, amount: Number(row.amount), expires_at: new Date(row.expires_at), created_at: new Date(row.created_at) };
    },
  };
}

type Finish = { status: 'captured' | 'released'; at: Date; capturedAmount?: number; capturedBy?: string };

/** Marks an active hold captured or released; the step of a larger write. */
export function finishHoldStep(db: Db, venueId: string, id: string, change: Finish): WriteStep {
  return { name: 'finished_hold', query: finishing(db, venueId, id, change) };
}

function finishing(db: Db, venueId: string, id: string, change: Finish) {
  return db
    .updateTable('holds')
    .set({
      status: change.status,
      finished_at: change.at,
      captured_amount: change.capturedAmount ?? null,
      captured_by: change.capturedBy ?? null,
    })
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .returningAll();
}

export async function finishHold(db: Db, venueId: string, id: string, change: Finish): Promise<HoldRow> {
  return finishing(db, venueId, id, change).executeTakeFirstOrThrow();
}
