// Importing members in bulk (D20): a CSV or JSON Lines file read as a stream, each line checked as enrolment checks
// it, good lines written in set-based batches each in its own transaction, idempotent by card number; the CLI's
// run of it with a progress bar and a report of the bad lines.
import { once } from 'node:events';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { Compile } from 'typebox/compile';
import type { Db } from '../../db/database.js';
import { unstorable } from '../../http/input.js';
import { bulkItemErrors } from '../../shared/bulk.js';
import type { Clock } from '../../shared/clock.js';
import { ApiError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { isCalendarDay } from '../../shared/time.js';
import type { ProgramInfo } from '../programs/schemas.js';
import * as repo from './bulk-import-repo.js';
import { openingLots } from './expiry-service.js';
import { erasedCardHasher } from './privacy.js';
import { EnrolMember } from './schemas.js';
import { enrolmentProgram, newSerial, normalisePhone, serialsOfOthers } from './service.js';

/** The columns of a CSV file's header and the keys of a JSON Lines object; only card_number and consent_date are required. */
export const IMPORT_FIELDS = ['card_number', 'phone', 'name', 'consent_date', 'opening_balance', 'total_spend', 'visits', 'stamps'] as const;
type Field = (typeof IMPORT_FIELDS)[number];

export type ImportFormat = 'csv' | 'jsonl';
export const IMPORT_FORMATS: readonly ImportFormat[] = ['csv', 'jsonl'];
/** Lines before the first member: a CSV file's header. */
export const HEADER_LINES: Record<ImportFormat, number> = { csv: 1, jsonl: 0 };
export const IMPORT_BATCH_SIZE = 1000;

/**
 * The largest opening figures a line may carry, so every value fits what the database holds with room to grow: money
 * (bigint, minor units) up to 10 billion in major units; visits and stamps (integer, at most 2,147,483,647) up to a
 * billion, so the member's next visits never overflow.
 */
export const MAX_MONEY = 1_000_000_000_000;
export const MAX_COUNT = 1_000_000_000;
/** The earliest consent date taken: anything older is a typing error, not a guest's agreement. */
const EARLIEST_CONSENT = '1900-01-01';

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

type SourceLine = { line: number; fields: Partial<Record<Field, string>> } | { line: number; problem: string };

const fileError = (message: string) => new ApiError('parameter_invalid', { param: 'file', message });

/** The format a file's name says, else what its first character says (a JSON Lines file starts with `{`). */
export function formatOf(fileName: string, firstBytes: string): ImportFormat {
  if (/\.csv$/i.test(fileName)) return 'csv';
  if (/\.(jsonl|ndjson)$/i.test(fileName)) return 'jsonl';
  return firstBytes.replace(/^\uFEFF/, '').trimStart().startsWith('{') ? 'jsonl' : 'csv';
}

const NUMERIC_FIELDS: ReadonlySet<string> = new Set<Field>(['opening_balance', 'total_spend', 'visits', 'stamps']);

function knownField(name: string): name is Field {
  return (IMPORT_FIELDS as readonly string[]).includes(name);
}

/** csv-parse's records; what it cannot skip past refuses the file (as the file's fault, not a crash). */
async function* readable(parser: AsyncIterable<unknown>): AsyncGenerator<{ record: string[]; info: { lines: number }; raw: string }> {
  try {
    yield* parser as AsyncIterable<{ record: string[]; info: { lines: number }; raw: string }>;
  } catch (err) {
    if (!String((err as { code?: string }).code).startsWith('CSV_')) throw err;
    throw fileError(`The file is not valid CSV: ${(err as Error).message}`);
  }
}

/** Line breaks as both readers count them (csv-parse and readline): \r\n, \n, or a lone \r (old Mac files). */
const LINE_BREAK = /\r\n|\n|\r/g;
const lineBreaks = (text: string) => text.match(LINE_BREAK)?.length ?? 0;

/** Lines `from` to `to`, each reported as part of a record a stray quote opened on line `from`. */
function* unbalanced(from: number, to: number): Generator<SourceLine> {
  for (let line = from; line <= to; line++) yield { line, problem: `The line is not valid CSV: unbalanced quote starting on line ${from}.` };
}

/**
 * The file's chunks with its delimiter: a comma, or a semicolon when the header has more of them than commas (Excel
 * in much of Europe saves CSV so).
 */
async function delimited(source: AsyncIterable<Buffer | string>): Promise<{ delimiter: ',' | ';'; chunks: AsyncIterable<Buffer | string> }> {
  const iterator = source[Symbol.asyncIterator]();
  const head: (Buffer | string)[] = [];
  let text = '';
  while (!/[\r\n]/.test(text) && text.length < 65_536) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
    text += String(next.value);
  }
  const header = text.split(/[\r\n]/)[0]!;
  const count = (c: string) => header.split(c).length - 1;
  async function* chunks() {
    yield* head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { delimiter: count(';') > count(',') ? ';' : ',', chunks: chunks() };
}

async function* csvLines(source: AsyncIterable<Buffer | string>): AsyncGenerator<SourceLine> {
  // A record csv-parse cannot read is skipped and reported with its line, the rest go on. A quote never closed
  // swallows the rest of the file: every line from the record's start is reported.
  const skipped: SourceLine[] = [];
  let lastEnd = 0;
  const { delimiter, chunks } = await delimited(source);
  const parser = parse({
    bom: true,
    trim: true,
    delimiter,
    skip_empty_lines: true,
    relax_column_count: true,
    info: true,
    raw: true,
    skip_records_with_error: true,
    on_record: (record, context) => {
      lastEnd = context.lines;
      return record;
    },
    on_skip: (err) => {
      const line = (err as { lines?: number } | undefined)?.lines ?? lastEnd + 1;
      if ((err as { code?: string } | undefined)?.code === 'CSV_QUOTE_NOT_CLOSED') skipped.push(...unbalanced(lastEnd + 1, line));
      else skipped.push({ line, problem: `The line is not valid CSV: ${err?.message ?? 'unreadable'}` });
    },
  });
  const input = Readable.from(chunks);
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  let header: string[] | undefined;
  let columns = 0;
  for await (const { record, info, raw } of readable(parser)) {
    // The record's first line: its last, less the line breaks inside it (blank lines before it and its own end aside).
    const first = info.lines - lineBreaks(raw.replace(/^(?:[ \t]*(?:\r\n|\n|\r))+/, '').replace(/(?:\r\n|\n|\r)$/, ''));
    while (skipped.length && skipped[0]!.line < first) yield skipped.shift()!;
    // No field of the format holds a line break: one inside a field is a stray quote that swallowed the lines after it.
    const multiLine = first < info.lines && record.some((field) => /[\r\n]/.test(field));
    if (!header) {
      if (multiLine) throw fileError(`The header has an unbalanced quote starting on line ${first}.`);
      header = record.map((name) => name.trim().toLowerCase().replaceAll(' ', '_'));
      columns = header.length;
      // A trailing empty column (a spreadsheet's last comma) is ignored.
      while (header.length && header.at(-1) === '') header.pop();
      const unknown = header.find((name) => !knownField(name));
      if (unknown !== undefined) throw fileError(`The header names an unknown column "${unknown}"; the columns are ${IMPORT_FIELDS.join(', ')}.`);
      const twice = header.find((name, i) => header!.indexOf(name) !== i);
      if (twice !== undefined) throw fileError(`The header names the column "${twice}" twice; name each column once.`);
      const missing = ['card_number', 'consent_date'].find((name) => !header!.includes(name));
      if (missing) throw fileError(`The first line must be a header naming the columns (${IMPORT_FIELDS.join(', ')}); ${missing} is missing.`);
      continue;
    }
    if (multiLine) {
      yield* unbalanced(first, info.lines);
      continue;
    }
    if (record.length !== header.length && !(record.length === columns && record.slice(header.length).every((v) => v === ''))) {
      yield { line: first, problem: `The line has ${record.length} fields; the header has ${header.length}.` };
      continue;
    }
    yield { line: first, fields: Object.fromEntries(header.map((name, i) => [name, record[i]!])) };
  }
  yield* skipped;
  if (!header) throw fileError('The file is empty: it needs a header line and a line per member.');
}

async function* jsonLines(source: AsyncIterable<Buffer | string>): AsyncGenerator<SourceLine> {
  const lines = createInterface({ input: Readable.from(source), crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (!text.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      yield { line, problem: 'The line is not valid JSON.' };
      continue;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      yield { line, problem: 'The line must be a JSON object.' };
      continue;
    }
    const fields: Partial<Record<Field, string>> = {};
    let problem: string | undefined;
    for (const [key, value] of Object.entries(parsed)) {
      if (!knownField(key)) problem ??= `${key} is not a known field; the fields are ${IMPORT_FIELDS.join(', ')}.`;
      else if (typeof value === 'string') fields[key] = value;
      // Figures may be JSON numbers; a card number, name, phone or date is text, as POST /v1/members takes it (a
      // 20-digit card number read as a number has lost its last digits already).
      else if (typeof value === 'number' && NUMERIC_FIELDS.has(key)) fields[key] = String(value);
      else if (value !== null) problem ??= `${key} must be a ${NUMERIC_FIELDS.has(key) ? 'string or a number' : 'string'}.`;
    }
    yield problem ? { line, problem } : { line, fields };
  }
}

/** A whole number from 0 to `max`; empty is 0. */
function amount(fields: Partial<Record<Field, string>>, field: Field, max: number): number | string {
  const text = fields[field]?.trim() ?? '';
  if (text === '') return 0;
  if (!/^\d+$/.test(text) || Number(text) > max) return `${field} must be a whole number from 0 to ${max}${max === MAX_MONEY ? ' in minor units (cents)' : ''}.`;
  return Number(text);
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2})))?$/;

/**
 * A consent date as YYYY-MM-DD (a real calendar date, read as UTC midnight) or an RFC 3339 date and time with its
 * offset (without one it would be read in whatever zone the server runs in), from 1900 to `now`.
 */
function consentDate(text: string | undefined, now: Date): Date | string {
  const value = text?.trim() ?? '';
  if (value === '') return 'consent_date is required: import only guests who agreed to join, with the date they did.';
  const parts = RFC3339.exec(value);
  const day = parts && isCalendarDay(parts[1]!) ? new Date(`${parts[1]}T00:00:00Z`) : null;
  const valid =
    parts &&
    day &&
    (parts[2] === undefined || (Number(parts[2]) < 24 && Number(parts[3]) < 60 && Number(parts[4]) < 60 && Number(parts[5] ?? 0) < 24 && Number(parts[6] ?? 0) < 60));
  if (!valid) return 'consent_date must be a date as YYYY-MM-DD or an RFC 3339 date and time with its offset (2024-03-01T18:30:00+01:00).';
  const at = parts[2] === undefined ? day : new Date(value.replace(' ', 'T'));
  if (at < new Date(`${EARLIEST_CONSENT}T00:00:00Z`)) return `consent_date is before ${EARLIEST_CONSENT}.`;
  if (at > now) return 'consent_date is in the future.';
  return at;
}

const enrolmentCheck = Compile(EnrolMember);

/** A line as the member it stands for, checked as enrolment checks a member, or why it cannot be imported. */
function memberOf(fields: Partial<Record<Field, string>>, program: ProgramInfo, country: string, now: Date): Omit<repo.ImportedMember, 'id' | 'ledger_id' | 'serial' | 'card_hash'> | string {
  for (const field of IMPORT_FIELDS) {
    const reason = fields[field] === undefined ? undefined : unstorable(fields[field]);
    if (reason) return `${field} ${reason}.`;
  }
  // Checked as sent, as POST /v1/members checks them (its schema's lengths count the spaces too); stored trimmed.
  const { phone, name } = fields;
  const enrolment = { card_number: fields.card_number ?? '', consent: true, ...(phone?.trim() ? { phone } : {}), ...(name?.trim() ? { name } : {}) };
  if (!fields.card_number) return 'card_number is required.';
  // Compiled for the good lines (the many); the schema's own message for a bad one.
  if (!enrolmentCheck.Check(enrolment)) return bulkItemErrors(EnrolMember, [enrolment], 'card_number')[0]!.message;
  const consentedAt = consentDate(fields.consent_date, now);
  if (typeof consentedAt === 'string') return consentedAt;
  let e164: string | null = null;
  try {
    e164 = enrolment.phone ? normalisePhone(enrolment.phone, country) : null;
  } catch (err) {
    return (err as Error).message;
  }
  const cashback = amount(fields, 'opening_balance', MAX_MONEY);
  const spend = amount(fields, 'total_spend', MAX_MONEY);
  const visits = amount(fields, 'visits', MAX_COUNT);
  const stamps = amount(fields, 'stamps', MAX_COUNT);
  for (const figure of [cashback, spend, visits, stamps]) if (typeof figure === 'string') return figure;
  if (cashback !== 0 && program.rules.type !== 'cashback') return `opening_balance applies only to a cashback program; ${program.name} is ${program.rules.type}.`;
  if (stamps !== 0 && program.rules.type !== 'stamps') return `stamps apply only to a stamps program; ${program.name} is ${program.rules.type}.`;
  // A full card is a reward the guest has not had: the till would hand it over at the next visit, unasked. The
  // venue decides that, not the import.
  if (program.rules.type === 'stamps' && (stamps as number) >= program.rules.stampsRequired) {
    return `stamps must be fewer than the ${program.rules.stampsRequired} a reward takes; give rewards owed at the till, not as stamps.`;
  }
  return {
    card_number: enrolment.card_number,
    phone: e164,
    name: name?.trim() || null,
    consented_at: consentedAt.toISOString(),
    cashback: cashback as number,
    spend: spend as number,
    visits: visits as number,
    stamps: stamps as number,
  };
}

const SERIAL_AS_CARD = "card_number is another member's serial (the code on their pass); a scan of it would find two members.";

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
  members: Omit<repo.ImportedMember, 'id' | 'ledger_id' | 'serial' | 'card_hash'>[],
  outcome: Omit<BatchOutcome, 'imported' | 'skipped'>,
  inBatch: ImportOptions['inBatch'],
): Promise<BatchOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        await repo.lockVenueImports(trx, target.chainId);
        const erasedHash = await erasedCardHasher(trx, target.chainId);
        const drawn = members.map((m) => ({ ...m, id: newId(), ledger_id: newId(), serial: newSerial(), card_hash: erasedHash(m.card_number) }));
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
  let members: Omit<repo.ImportedMember, 'id' | 'ledger_id' | 'serial' | 'card_hash'>[] = [];
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
      if (serials.size) {
        members.forEach((m, i) => serials.has(m.card_number) && badLines.push({ line: memberLines[i]!, reason: SERIAL_AS_CARD }));
        badLines.sort((a, b) => a.line - b.line);
        members = members.filter((m) => !serials.has(m.card_number));
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
  for await (const item of format === 'csv' ? csvLines(source) : jsonLines(source)) {
    const result = 'problem' in item ? item.problem : memberOf(item.fields, program, target.country, now);
    let bad: string | undefined = typeof result === 'string' ? result : undefined;
    if (typeof result !== 'string') {
      const earlier = seen.get(result.card_number);
      if (earlier === undefined) seen.set(result.card_number, item.line);
      // The number is not quoted: the report outlives a member's erasure, and the line number finds it.
      else bad = `card_number is also on line ${earlier}; a card belongs to one member.`;
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

/** A file's bytes as they are read, counted for the progress bar. */
async function* counted(path: string, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    onBytes(chunk.length);
    yield chunk;
  }
}

/** The report of bad lines: JSON Lines when its name ends in .jsonl or .ndjson, else CSV (line,reason). */
function reportWriter(path: string) {
  const jsonl = /\.(jsonl|ndjson)$/i.test(path);
  const out = createWriteStream(path);
  if (!jsonl) out.write('line,reason\n');
  return {
    async write(lines: BadLine[]) {
      const text = lines.map((b) => (jsonl ? JSON.stringify(b) : `${b.line},"${b.reason.replaceAll('"', '""')}"`) + '\n').join('');
      if (text && !out.write(text)) await once(out, 'drain');
    },
    async close() {
      out.end();
      await once(out, 'finish');
    },
  };
}

export interface FileImport extends ImportTotals {
  format: ImportFormat;
  seconds: number;
  report: string;
}

/**
 * `members import FILE`: the file imported with a progress bar on stderr (lines, rate, ETA by bytes read) and
 * every bad line written to the report as it is found.
 */
export async function importFile(
  db: Db,
  target: ImportTarget,
  path: string,
  options: { clock: Clock; report: string; signal?: AbortSignal },
): Promise<FileImport> {
  const size = statSync(path).size;
  const first = await (async () => {
    for await (const chunk of createReadStream(path, { start: 0, end: 255 })) return String(chunk);
    return '';
  })();
  const format = formatOf(path, first);
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar(
    {
      format: 'Importing |{bar}| {percentage}% | {lines} lines | {rate} lines/s | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 50,
      noTTYOutput: true,
      notTTYSchedule: 5000,
    },
    Presets.shades_classic,
  );
  const report = reportWriter(options.report);
  const started = performance.now();
  let bytes = 0;
  bar.start(Math.max(size, 1), 0, { lines: 0, rate: 0 });
  try {
    const totals = await importMembers(db, target, format, counted(path, (n) => (bytes += n)), {
      clock: options.clock,
      signal: options.signal,
      async afterBatch(outcome) {
        await report.write(outcome.badLines);
        const seconds = (performance.now() - started) / 1000;
        bar.update(bytes, { lines: outcome.lastLine, rate: Math.round(outcome.lastLine / Math.max(seconds, 0.001)) });
      },
    });
    if (!totals.stopped) bar.update(Math.max(size, 1), { lines: totals.lastLine });
    return { ...totals, format, seconds: (performance.now() - started) / 1000, report: options.report };
  } finally {
    bar.stop();
    await report.close();
  }
}
