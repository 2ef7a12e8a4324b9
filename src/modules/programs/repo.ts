// SQL for programs.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ProgramsTable } from '../../db/schema.js';

export type ProgramRow = Selectable<ProgramsTable>;

export async function insertProgram(db: Db, row: Insertable<ProgramsTable>): Promise<ProgramRow> {
  return db.insertInto('programs').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function listPrograms(db: Db, venueId: string): Promise<ProgramRow[]> {
  return db.selectFrom('programs').selectAll().where('venue_id', '=', venueId).orderBy('created_at').execute();
}

export async function clearDefault(db: Db, venueId: string): Promise<void> {
  await db.updateTable('programs').set({ is_default: false }).where('venue_id', '=', venueId).where('is_default', '=', true).execute();
}

export async function updateProgram(db: Db, venueId: string, id: string, changes: Updateable<ProgramsTable>): Promise<ProgramRow | undefined> {
  return db.updateTable('programs').set(changes).where('venue_id', '=', venueId).where('id', '=', id).returningAll().executeTakeFirst();
}
