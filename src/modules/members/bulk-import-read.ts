// A members file read as lines (D20): CSV (a header naming the columns; comma or semicolon) or JSON Lines (an object a
// line), streamed; each line as its fields, or why it cannot be read, with its line number in the file.
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { undefused } from '../../shared/csv.js';
import { ApiError } from '../../shared/errors.js';
import { csvParse } from '../../shared/on-first-use.js';

/** The columns of a CSV file's header and the keys of a JSON Lines object; only card_number and consent_date are required. */
export const IMPORT_FIELDS = ['card_number', 'phone', 'email', 'name', 'consent_date', 'opening_balance', 'total_spend', 'visits', 'stamps'] as const;
export type Field = (typeof IMPORT_FIELDS)[number];

export type ImportFormat = 'csv' | 'jsonl';
export const IMPORT_FORMATS: readonly ImportFormat[] = ['csv', 'jsonl'];
/** Lines before the first member: a CSV file's header. */
export const HEADER_LINES: Record<ImportFormat, number> = { csv: 1, jsonl: 0 };

export type SourceLine = { line: number; fields: Partial<Record<Field, string>> } | { line: number; problem: string };

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
  const parser = csvParse().parse({
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
    yield { line: first, fields: Object.fromEntries(header.map((name, i) => [name, undefused(record[i]!)])) };
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

/** The file's lines in order, read in its format. */
export function sourceLines(format: ImportFormat, source: AsyncIterable<Buffer | string>): AsyncGenerator<SourceLine> {
  return format === 'csv' ? csvLines(source) : jsonLines(source);
}
