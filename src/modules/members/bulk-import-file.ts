// `members import FILE` (the CLI): a file on disk imported with a progress bar and a report of the bad lines.
import { once } from 'node:events';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatOf, type ImportFormat } from './bulk-import-read.js';
import { importMembers, type BadLine, type ImportTarget, type ImportTotals } from './bulk-import.js';

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
