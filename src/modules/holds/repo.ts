// SQL for holds.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { HoldsTable } from '../../db/schema.js';

export type HoldRow = Selectable<HoldsTable>;

export async function insertHold(db: Db, row: Insertable<HoldsTable>): Promise<HoldRow> {
  return db.insertInto('holds').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findHold(db: Db, venueId: string, id: string, forUpdate = false): Promise<HoldRow | undefined> {
  return db
    .selectFrom('holds')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
}

export async function finishHold(
  db: Db,
  venueId: string,
  id: string,
  change: { status: 'captured' | 'released'; at: Date; capturedAmount?: number; capturedBy?: string },
): Promise<HoldRow> {
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
    .returningAll()
    .executeTakeFirstOrThrow();
}
