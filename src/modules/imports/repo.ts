// SQL for member imports sent through the API: the job, the uploaded file's chunks and the bad lines found.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { MemberImportsTable } from '../../db/schema.js';

export type ImportRow = Selectable<MemberImportsTable>;

export async function insertImport(db: Db, row: Insertable<MemberImportsTable>): Promise<void> {
  await db.insertInto('member_imports').values(row).execute();
}

export async function insertChunk(db: Db, chainId: string, importId: string, seq: number, bytes: Buffer): Promise<void> {
  await db.insertInto('member_import_chunks').values({ chain_id: chainId, import_id: importId, seq, bytes }).execute();
}

/** The whole file is stored: workers may claim the job. */
export async function markReceived(db: Db, chainId: string, id: string, totalLines: number): Promise<ImportRow> {
  return db
    .updateTable('member_imports')
    .set({ status: 'pending', total_lines: totalLines })
    .where('chain_id', '=', chainId)
    .where('id', '=', id)
    .where('status', '=', 'receiving')
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Up to `batch` uploads still receiving that were started before `before` (their API process died); how many. */
export async function deleteInterruptedUploads(db: Db, before: Date, batch: number): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    delete from member_imports j using (
      select chain_id, id from member_imports where status = 'receiving' and created_at < ${before} order by created_at limit ${batch}
    ) old
    where j.chain_id = old.chain_id and j.id = old.id and j.status = 'receiving'
    returning j.id`.execute(db);
  return rows.length;
}

/** An upload that did not complete; its chunks go with it. */
export async function deleteImport(db: Db, chainId: string, id: string): Promise<void> {
  await db.deleteFrom('member_imports').where('chain_id', '=', chainId).where('id', '=', id).execute();
}

/** A received import (one still being uploaded is nobody's to see yet). */
export async function findImport(db: Db, chainId: string, id: string): Promise<ImportRow | undefined> {
  return db
    .selectFrom('member_imports')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('id', '=', id)
    .where('status', '<>', 'receiving')
    .executeTakeFirst();
}

/** Bad lines after `afterLine`, in file order, `limit + 1` to tell whether more exist. */
export async function listBadLines(db: Db, chainId: string, id: string, afterLine: number, limit: number) {
  return db
    .selectFrom('member_import_errors')
    .select(['line', 'reason'])
    .where('chain_id', '=', chainId)
    .where('import_id', '=', id)
    .where('line', '>', afterLine)
    .orderBy('line')
    .limit(limit + 1)
    .execute();
}

/**
 * Claims the oldest import waiting, or one whose worker's claim ran out (it crashed), for `workerId` until
 * `until`. SKIP LOCKED: two workers claiming at once take different jobs, never one together.
 */
export async function claimImport(db: Db, workerId: string, now: Date, until: Date): Promise<ImportRow | undefined> {
  const { rows } = await sql<ImportRow>`
    update member_imports j set status = 'running', claimed_by = ${workerId}, claimed_until = ${until}, attempts = j.attempts + 1
    from (select chain_id, id from member_imports
          where status = 'pending' or (status = 'running' and claimed_until < ${now})
          order by created_at limit 1 for update skip locked) c
    where j.chain_id = c.chain_id and j.id = c.id
    returning j.*`.execute(db);
  return rows[0];
}

export async function readChunk(db: Db, chainId: string, importId: string, seq: number): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('member_import_chunks')
    .select('bytes')
    .where('chain_id', '=', chainId)
    .where('import_id', '=', importId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.bytes;
}

export interface BatchProgress {
  processed: number;
  imported: number;
  skipped: number;
  badLines: { line: number; reason: string }[];
}

/**
 * A batch's progress, in the batch's transaction, while `workerId` still holds the job (its claim extended to
 * `until`); false when it does not, and the batch must not commit.
 */
export async function recordBatch(trx: Db, job: ImportRow, workerId: string, progress: BatchProgress, until: Date): Promise<boolean> {
  const held = await trx
    .updateTable('member_imports')
    .set((eb) => ({
      processed: progress.processed,
      imported: eb('imported', '+', progress.imported),
      skipped: eb('skipped', '+', progress.skipped),
      failed: eb('failed', '+', progress.badLines.length),
      claimed_until: until,
      // This claim made progress: it is the first since.
      attempts: 1,
    }))
    .where('chain_id', '=', job.chain_id)
    .where('id', '=', job.id)
    .where('status', '=', 'running')
    .where('claimed_by', '=', workerId)
    .returning('id')
    .executeTakeFirst();
  if (!held) return false;
  if (progress.badLines.length) {
    await trx
      .insertInto('member_import_errors')
      .values(progress.badLines.map((b) => ({ chain_id: job.chain_id, import_id: job.id, line: b.line, reason: b.reason })))
      .onConflict((oc) => oc.columns(['chain_id', 'import_id', 'line']).doNothing())
      .execute();
  }
  return true;
}

/** The job's end, if `workerId` still holds it; the stored file is deleted with it. */
export async function finishImport(
  db: Db,
  job: ImportRow,
  workerId: string,
  end: { status: 'succeeded' | 'failed'; failure: string | null; processed?: number; at: Date },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('member_imports')
      .set({
        status: end.status,
        failure: end.failure,
        finished_at: end.at,
        claimed_by: null,
        claimed_until: null,
        ...(end.processed !== undefined ? { processed: end.processed } : {}),
      })
      .where('chain_id', '=', job.chain_id)
      .where('id', '=', job.id)
      .where('status', '=', 'running')
      .where('claimed_by', '=', workerId)
      .returning('id')
      .executeTakeFirst();
    if (done) await trx.deleteFrom('member_import_chunks').where('chain_id', '=', job.chain_id).where('import_id', '=', job.id).execute();
    return done !== undefined;
  });
}
