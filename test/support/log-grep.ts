// Every log line of a test run, collected in one directory per run, and the grep at its end: no API key, webhook
// signing secret or password a test used may appear in any of them (a line that does fails the whole run).
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NEEDLES = ['sk_test_', 'sk_live_', 'whsec_'];

/** A fresh directory for this run's logs (under test-artifacts/, kept when the grep fails so the lines can be read). */
export function openRunLogDir(): string {
  const dir = path.join(ROOT, 'test-artifacts', 'logs', `run-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Where a test app or process writes its log lines: a file of its own in the run's directory (`inject('testLogDir')`). */
export function logSink(dir: string, name: string): { write(text: string): void } {
  const file = path.join(dir, `${name}.log`);
  // Synchronous, so nothing is lost when a test worker ends.
  return { write: (text) => appendFileSync(file, text) };
}

/**
 * Copies a child process's output to `sink` line by line: every line of stderr, and of stdout only pino's JSON
 * lines (stdout also carries what a command answers by design, such as a new key's secret or the demo banner).
 */
export function collectLines(stream: Readable, sink: { write(text: string): void }, only: 'all' | 'log lines'): void {
  let partial = '';
  const keep = (line: string) => only === 'all' || line.startsWith('{');
  stream.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop()!;
    const kept = lines.filter(keep);
    if (kept.length) sink.write(kept.map((l) => `${l}\n`).join(''));
  });
  stream.on('end', () => {
    if (partial && keep(partial)) sink.write(`${partial}\n`);
  });
}

/** The passwords the tests send (owners' and wrong ones), read from the test sources so a new one is covered too. */
function passwordsInTests(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) {
        for (const m of readFileSync(full, 'utf8').matchAll(/(?:PASSWORD[A-Z_]*\s*=|password:)\s*'([^'\n]{6,})'/g)) found.add(m[1]!);
      }
    }
  };
  walk(path.join(ROOT, 'test'));
  return [...found];
}

/**
 * The run's end: throws (which makes `vitest run` exit non-zero) if any collected line holds a key prefix, a
 * signing-secret prefix or a test password; the message names the file, the line and what was found, not the line.
 */
export function failOnSecretsInLogs(dir: string): void {
  const needles = [...NEEDLES, ...passwordsInTests()];
  const found: string[] = [];
  let lines = 0;
  for (const file of readdirSync(dir)) {
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line) lines++;
        const needle = needles.find((n) => line.includes(n));
        if (needle) found.push(`${file}:${i + 1} contains ${needle.startsWith('sk_') || needle === 'whsec_' ? needle : 'a test password'}`);
      });
  }
  if (found.length) {
    throw new Error(`Secrets in the log lines of this test run (${found.length}; the lines are in ${dir}):\n${found.slice(0, 20).join('\n')}`);
  }
  console.log(`Log grep: ${lines} log lines of this run hold no key, signing secret or test password.`);
  rmSync(dir, { recursive: true, force: true });
}
