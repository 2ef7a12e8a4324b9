// Member imports through the API (D20): the upload stored in chunks as it streams in, the job's view, and a
// worker's run of a job (claimed, resumable after a crash, batches committed only while the claim is held).
import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { formatNullableTimestamp, formatTimestamp } from '../../shared/time.js';
import type { Caller } from '../accounts/schemas.js';
import * as accounts from '../accounts/service.js';
import { HEADER_LINES, type ImportFormat } from '../members/bulk-import-read.js';
import { BatchFailed, importMembers } from '../members/bulk-import.js';
import * as members from '../members/service.js';
import * as repo from './repo.js';
import type { MemberImport } from './schemas.js';

export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** The size of a stored piece of the file: a worker holds one at a time. */
const CHUNK_BYTES = 1024 * 1024;
/** How long a worker's claim lasts without a committed batch; past it, another worker takes the job over. */
export const IMPORT_LEASE_MS = 60_000;
const ERRORS_SHOWN = 100;
const LF = 0x0a;
const CR = 0x0d;
/** Claims of a job without a committed batch before an unexpected error fails it, instead of retrying forever. */
export const MAX_IMPORT_ATTEMPTS = 3;

const notFound = () => new ApiError('member_import_not_found');
const tooLarge = () => new ApiError('request_body_too_large', { message: `A member import is at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB; split the file.` });

async function present(db: Db, row: repo.ImportRow, errorsAfter = 0): Promise<MemberImport> {
  const bad = await repo.listBadLines(db, row.chain_id, row.id, errorsAfter, ERRORS_SHOWN);
  return {
    object: 'member_import',
    id: row.id,
    status: row.status as MemberImport['status'],
    format: row.format,
    program_id: row.program_id,
    total_lines: row.total_lines,
    processed: row.processed,
    imported: row.imported,
    skipped: row.skipped,
    failed: row.failed,
    errors: bad.slice(0, ERRORS_SHOWN),
    has_more_errors: bad.length > ERRORS_SHOWN,
    failure: row.failure,
    livemode: row.livemode,
    created_at: formatTimestamp(row.created_at),
    finished_at: formatNullableTimestamp(row.finished_at),
  };
}

/** An upload stored, not yet claimable: accepted (acceptUpload) or discarded (discardUpload) next. */
export interface StoredUpload {
  id: string;
  totalLines: number;
  /** SHA-256 of the file's bytes, computed as they were stored: what an Idempotency-Key's fingerprint takes. */
  sha256: string;
}

/**
 * Lines as the readers count them (bulk-import.ts): a line ends at \n, \r\n or a lone \r. Fed chunk by chunk;
 * `total` at the end counts a last line without its line break.
 */
function lineCounter() {
  let lines = 0;
  let pendingCr = false;
  let last = LF;
  return {
    add(chunk: Buffer) {
      if (chunk.length === 0) return;
      if (pendingCr && chunk[0] !== LF) lines++;
      pendingCr = false;
      for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, i + 1)) lines++;
      for (let i = chunk.indexOf(CR); i !== -1; i = chunk.indexOf(CR, i + 1)) {
        if (i + 1 === chunk.length) pendingCr = true;
        else if (chunk[i + 1] !== LF) lines++;
      }
      last = chunk[chunk.length - 1]!;
    },
    total() {
      return lines + (pendingCr ? 1 : 0) + (last === LF || last === CR ? 0 : 1);
    },
  };
}

/**
 * Stores the uploaded file as it arrives, in chunks outside any transaction (a 50 MB upload must not hold one
 * open); no worker sees it until acceptUpload. An upload that fails or is too large leaves nothing behind.
 */
export async function receiveUpload(
  db: Db,
  caller: Caller,
  input: { format: ImportFormat; programId?: string; body: AsyncIterable<Buffer>; declaredBytes?: number },
): Promise<StoredUpload> {
  if ((input.declaredBytes ?? 0) > MAX_IMPORT_BYTES) throw tooLarge();
  const program = await members.enrolmentProgram(db, caller.chainId, input.programId);
  const id = newId();
  await repo.insertImport(db, {
    chain_id: caller.chainId,
    id,
    // The venue it is sent at (a chain key may name none): its members' home venue and their entries' (D21).
    venue_id: caller.venueId,
    program_id: program.id,
    livemode: caller.livemode,
    format: input.format,
    status: 'receiving',
    created_at: caller.now,
  });
  try {
    let seq = 0;
    let bytes = 0;
    const lines = lineCounter();
    const hash = createHash('sha256');
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const store = async () => {
      if (pendingBytes === 0) return;
      await repo.insertChunk(db, caller.chainId, id, seq++, Buffer.concat(pending));
      pending = [];
      pendingBytes = 0;
    };
    for await (const chunk of input.body) {
      bytes += chunk.length;
      if (bytes > MAX_IMPORT_BYTES) throw tooLarge();
      lines.add(chunk);
      hash.update(chunk);
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= CHUNK_BYTES) await store();
    }
    await store();
    if (bytes === 0) throw new ApiError('parameter_invalid', { param: 'file', message: 'The file is empty.' });
    // A CSV file's header is not a member's.
    return { id, totalLines: Math.max(0, lines.total() - HEADER_LINES[input.format]), sha256: hash.digest('hex') };
  } catch (err) {
    await repo.deleteImport(db, caller.chainId, id);
    throw err;
  }
}

/** The stored upload made claimable by workers: in the transaction that records the Idempotency-Key's answer. */
export async function acceptUpload(trx: Db, caller: Caller, upload: StoredUpload): Promise<MemberImport> {
  return present(trx, await repo.markReceived(trx, caller.chainId, upload.id, upload.totalLines));
}

/** A stored upload not accepted (its Idempotency-Key replayed an earlier answer, or refused it): deleted. */
export async function discardUpload(db: Db, caller: Caller, upload: StoredUpload): Promise<void> {
  await repo.deleteImport(db, caller.chainId, upload.id);
}

/** How long an upload may take before housekeeping takes it for one whose API process died. */
export const INTERRUPTED_UPLOAD_MS = 60 * 60 * 1000;

/** Deletes uploads still receiving after INTERRUPTED_UPLOAD_MS, with their chunks, `batch` at a time; how many. */
export async function forgetInterruptedUploads(db: Db, now: Date, batch = 10): Promise<number> {
  const before = new Date(now.getTime() - INTERRUPTED_UPLOAD_MS);
  let total = 0;
  for (let deleted = batch; deleted === batch; total += deleted) deleted = await repo.deleteInterruptedUploads(db, before, batch);
  return total;
}

export async function getImport(db: Db, caller: Caller, id: string, errorsAfter?: number): Promise<MemberImport> {
  const row = isUuid(id) ? await repo.findImport(db, caller.chainId, id) : undefined;
  if (!row) throw notFound();
  return present(db, row, errorsAfter);
}

/** The stored file, one chunk read at a time. */
async function* storedFile(db: Db, job: repo.ImportRow): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const chunk = await repo.readChunk(db, job.chain_id, job.id, seq);
    if (!chunk) return;
    yield chunk;
  }
}

/** A batch whose worker no longer holds its job: rolled back, and the run ends. */
class ClaimLost extends Error {}

export type ImportRun = 'succeeded' | 'failed' | 'stopped' | 'lost';

/**
 * Runs a claimed job from where it stands (a job another worker left midway resumes after its last committed
 * batch). Each batch commits with the job's progress and its bad lines, and only while `workerId` holds the job.
 * A file refused as a whole (its header) fails the job; any other error leaves it to be taken over once the claim
 * runs out, unless it is the MAX_IMPORT_ATTEMPTS-th claim in a row without a committed batch: then the job fails
 * with the error and the lines it stopped at.
 */
export async function processImport(db: Db, clock: Clock, job: repo.ImportRow, workerId: string, signal?: AbortSignal): Promise<ImportRun> {
  // The venue that sent the job is its members' home venue and where their `import` entries belong; sent at no venue
  // (a chain key naming none) they have neither, and phone numbers are read in the country of the chain's first venue.
  const { venues } = (await accounts.findChain(db, job.chain_id))!;
  const venue = venues.find((v) => v.id === job.venue_id) ?? venues[0]!;
  const header = HEADER_LINES[job.format];
  const leaseEnd = () => new Date(clock.now().getTime() + IMPORT_LEASE_MS);
  let progressed = false;
  try {
    const totals = await importMembers(
      db,
      { chainId: job.chain_id, venueId: job.venue_id, livemode: job.livemode, programId: job.program_id, country: venue.country, reference: job.id },
      job.format,
      storedFile(db, job),
      {
        clock,
        signal,
        resumeAfterLine: job.processed + header,
        async inBatch(trx, outcome) {
          const progress = { processed: outcome.lastLine - header, imported: outcome.imported, skipped: outcome.skipped, badLines: outcome.badLines };
          if (!(await repo.recordBatch(trx, job, workerId, progress, leaseEnd()))) throw new ClaimLost();
          progressed = true;
        },
      },
    );
    if (totals.stopped) return 'stopped';
    const done = await repo.finishImport(db, job, workerId, { status: 'succeeded', failure: null, processed: job.total_lines ?? undefined, at: clock.now() });
    return done ? 'succeeded' : 'lost';
  } catch (err) {
    if (err instanceof ClaimLost || (err instanceof BatchFailed && err.cause instanceof ClaimLost)) return 'lost';
    const lastTry = !progressed && job.attempts >= MAX_IMPORT_ATTEMPTS;
    if (!(err instanceof ApiError) && !lastTry) throw err;
    const failure = err instanceof ApiError ? err.message : `${(err as Error).message} (after ${job.attempts} attempts)`;
    const done = await repo.finishImport(db, job, workerId, { status: 'failed', failure, at: clock.now() });
    return done ? 'failed' : 'lost';
  }
}

/** Claims the next job for `workerId`; undefined when none waits. */
export async function claimImport(db: Db, clock: Clock, workerId: string): Promise<repo.ImportRow | undefined> {
  const now = clock.now();
  return repo.claimImport(db, workerId, now, new Date(now.getTime() + IMPORT_LEASE_MS));
}

/** One turn of the worker: claims a job and runs it; false when there was none. */
export async function runNextImport(db: Db, clock: Clock, workerId: string, signal?: AbortSignal): Promise<boolean> {
  const job = await claimImport(db, clock, workerId);
  if (!job) return false;
  await processImport(db, clock, job, workerId, signal);
  return true;
}
