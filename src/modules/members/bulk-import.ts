// Importing members in bulk (D20): the lines of a file (bulk-import-read.ts), each checked as enrolment checks a
// member (bulk-import-check.ts), good ones written in set-based batches each in its own transaction, idempotent by
// card number; a job resumes after the lines an earlier run committed.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { ApiError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { memberOf, type LineMember } from './bulk-import-check.js';
import { sourceLines, type ImportFormat } from './bulk-import-read.js';
import * as repo from './bulk-import-repo.js';
import { erasedCardHasher } from './erased-cards.js';
import { openingLots } from './expiry-service.js';
import { enrolmentProgram, newReferralCode, newSerial, serialsOfOthers } from './service.js';

/** The chain's import lock (see bulk-import-repo.ts): what must not meet a batch half-way takes it too. */
export { lockVenueImports } from './bulk-import-repo.js';

export const IMPORT_BATCH_SIZE = 1000;

export interface ImportTarget {
  chainId: string;
  /**
   * The venue importing: its members' home venue, where their `import` entries belong, whose day opening lots start
   * on. Null: no venue (a chain key naming none) — no home venue, entries of no venue, lots of the chain's first venue.
   */
  venueId: string | null;
  livemode: boolean;
  /** The chain's default program when not given. */
  programId?: string;
  /** The venue's country, for phone numbers written without one. */
  country: string;
  /** What each `import` ledger entry names as its source. */
  reference: string;
}

/** A line of the file that was not imported; `line` counts from 1, a CSV file's header being line 1. */
export interface BadLine {
  line: number;
  reason: string;
}

export interface BatchOutcome {
  /** The last line of the file this batch covers. */
  lastLine: number;
  imported: number;
  /** Good lines whose card number the chain has already (imported before), or whose member was erased on request. */
  skipped: number;
  failed: number;
  badLines: BadLine[];
}

export interface ImportOptions {
  clock: Clock;
  batchSize?: number;
  /** Lines up to this one were committed by an earlier run of the same job: read again (for duplicates), not written. */
  resumeAfterLine?: number;
  /** Runs inside each batch's transaction once its members are written: a job records its progress there. */
  inBatch?(trx: Db, outcome: BatchOutcome): Promise<void>;
  /** After each batch commits. */
  afterBatch?(outcome: BatchOutcome): void | Promise<void>;
  /** Stops between batches: what is committed stays, and a later run resumes. */
  signal?: AbortSignal;
}

export interface ImportTotals {
  lastLine: number;
  imported: number;
  skipped: number;
  failed: number;
  /** Stopped by the signal before the end of the file. */
  stopped: boolean;
}

const SERIAL_AS_CARD = "card_number is another member's serial (the code on their pass); a scan of it would find two members.";
const EMAIL_TAKEN = 'email is another member\'s of this chain; an e-mail address names one member.';

/**
 * A batch the database refused for a reason no line check foresaw (or could not write): the batches before it are
 * committed, this one and those after it are not. `cause` is the error itself.
 */
export class BatchFailed extends Error {
  constructor(
    readonly firstLine: number,
    readonly lastLine: number,
    override readonly cause: unknown,
  ) {
    super(`Lines ${firstLine} to ${lastLine} could not be imported (${(cause as Error)?.message ?? String(cause)}); the lines before them are imported.`);
  }
}

/** Writes one batch in its own transaction; a card number or serial taken meanwhile by another writer retries it. */
async function writeBatch(
  db: Db,
  target: repo.ImportBatchTarget,
  members: LineMember[],
  outcome: Omit<BatchOutcome, 'imported' | 'skipped'>,
  inBatch: ImportOptions['inBatch'],
): Promise<BatchOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        await repo.lockVenueImports(trx, target.chainId);
        const erasedHash = await erasedCardHasher(trx, target.chainId);
        const drawn = members.map((m) => ({ ...m, id: newId(), ledger_id: newId(), serial: newSerial(), referral_code: newReferralCode(), card_hash: erasedHash(m.card_number) }));
        const imported = await repo.insertImportedMembers(trx, target, drawn);
        const result = { ...outcome, imported: imported.size, skipped: members.length - imported.size };
        await inBatch?.(trx, result);
        return result;
      });
    } catch (err) {
      if ((err as { code?: string }).code !== '23505' || attempt === 3) throw err;
    }
  }
}

/** Reads the file and imports its good lines, batch by batch; see ImportOptions for resuming and stopping. */
export async function importMembers(
  db: Db,
  target: ImportTarget,
  format: ImportFormat,
  source: AsyncIterable<Buffer | string>,
  options: ImportOptions,
): Promise<ImportTotals> {
  const program = await enrolmentProgram(db, target.chainId, target.programId);
  const openingLot = await openingLots(db, target.chainId, target.venueId, program);
  const batchSize = options.batchSize ?? IMPORT_BATCH_SIZE;
  const resumeAfter = options.resumeAfterLine ?? 0;
  const totals: ImportTotals = { lastLine: resumeAfter, imported: 0, skipped: 0, failed: 0, stopped: false };
  /** The line of each good card number so far: a second line with one is bad. */
  const seen = new Map<string, number>();
  /** Likewise of each good line's e-mail. */
  const seenEmails = new Map<string, number>();
  let members: LineMember[] = [];
  /** The line of each of `members`. */
  let memberLines: number[] = [];
  let badLines: BadLine[] = [];
  let firstLine = resumeAfter + 1;
  let lastLine = resumeAfter;

  const flush = async () => {
    if (members.length + badLines.length === 0) return;
    const now = options.clock.now();
    const batchTarget = { chainId: target.chainId, venueId: target.venueId, programId: program.id, livemode: target.livemode, reference: target.reference, at: now, lot: openingLot(now) };
    let outcome: BatchOutcome;
    try {
      const serials = await serialsOfOthers(db, target.chainId, members.map((m) => m.card_number));
      const withEmail = members.flatMap((m) => (m.email === null ? [] : [{ email: m.email, card_number: m.card_number }]));
      const emails = await repo.emailsTaken(db, target.chainId, withEmail);
      const refused = (m: LineMember) => (serials.has(m.card_number) ? SERIAL_AS_CARD : m.email !== null && emails.has(m.email) ? EMAIL_TAKEN : undefined);
      if (serials.size || emails.size) {
        const kept: LineMember[] = [];
        const keptLines: number[] = [];
        members.forEach((m, i) => {
          const reason = refused(m);
          if (reason) badLines.push({ line: memberLines[i]!, reason });
          else {
            kept.push(m);
            keptLines.push(memberLines[i]!);
          }
        });
        badLines.sort((a, b) => a.line - b.line);
        members = kept;
        memberLines = keptLines;
      }
      outcome = await writeBatch(db, batchTarget, members, { lastLine, failed: badLines.length, badLines }, options.inBatch);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new BatchFailed(firstLine, lastLine, err);
    }
    members = [];
    memberLines = [];
    badLines = [];
    firstLine = lastLine + 1;
    totals.lastLine = outcome.lastLine;
    totals.imported += outcome.imported;
    totals.skipped += outcome.skipped;
    totals.failed += outcome.failed;
    await options.afterBatch?.(outcome);
  };

  const now = options.clock.now();
  for await (const item of sourceLines(format, source)) {
    const result = 'problem' in item ? item.problem : memberOf(item.fields, program, target.country, now);
    let bad: string | undefined = typeof result === 'string' ? result : undefined;
    if (typeof result !== 'string') {
      const earlier = seen.get(result.card_number);
      if (earlier === undefined) seen.set(result.card_number, item.line);
      // The number is not quoted: the report outlives a member's erasure, and the line number finds it.
      else bad = `card_number is also on line ${earlier}; a card belongs to one member.`;
      const sameEmail = result.email === null ? undefined : seenEmails.get(result.email);
      if (bad === undefined && result.email !== null) {
        if (sameEmail === undefined) seenEmails.set(result.email, item.line);
        else bad = `email is also on line ${sameEmail}; an e-mail address names one member.`;
      }
    }
    if (item.line <= resumeAfter) continue;
    if (members.length + badLines.length === 0) firstLine = item.line;
    lastLine = item.line;
    if (bad !== undefined) badLines.push({ line: item.line, reason: bad });
    else {
      members.push(result as Exclude<typeof result, string>);
      memberLines.push(item.line);
    }
    if (members.length + badLines.length >= batchSize) {
      await flush();
      if (options.signal?.aborted) return { ...totals, stopped: true };
    }
  }
  await flush();
  return totals;
}
