// SQL for programs.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ProgramsTable } from '../../db/schema.js';

export type ProgramRow = Selectable<ProgramsTable>;

export async function insertProgram(db: Db, row: Insertable<ProgramsTable>): Promise<ProgramRow> {
  return db.insertInto('programs').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function listPrograms(db: Db, chainId: string): Promise<ProgramRow[]> {
  return db.selectFrom('programs').selectAll().where('chain_id', '=', chainId).orderBy('created_at').execute();
}

export async function clearDefault(db: Db, chainId: string): Promise<void> {
  await db.updateTable('programs').set({ is_default: false }).where('chain_id', '=', chainId).where('is_default', '=', true).execute();
}

export async function updateProgram(db: Db, chainId: string, id: string, changes: Updateable<ProgramsTable>): Promise<ProgramRow | undefined> {
  return db.updateTable('programs').set(changes).where('chain_id', '=', chainId).where('id', '=', id).returningAll().executeTakeFirst();
}
