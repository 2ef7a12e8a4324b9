// The grep that ends every test run (test/global-setup.ts): what it refuses, what it lets through, what it collects.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { collectLines, failOnSecretsInLogs, logSink } from './support/log-grep.js';

const runDir = (lines: string[]) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-log-grep-'));
  writeFileSync(path.join(dir, 'app-1.log'), lines.map((l) => `${l}\n`).join(''));
  return dir;
};

describe('log grep', () => {
  it.each([
    ['an API key', '{"level":30,"key":"sk_test_abc"}', 'sk_test_'],
    ['a live key', '{"level":30,"msg":"sk_live_abc"}', 'sk_live_'],
    ['a signing secret', '{"level":50,"err":"whsec_abc"}', 'whsec_'],
    // A password some test sends (test/dashboard/secrets-in-logs.test.ts), found in the test sources.
    ['a test password', '{"level":30,"body":"correct horse battery staple 7"}', 'a test password'],
  ])('fails the run on %s, naming the file and line but not the secret', (_what, line, named) => {
    const dir = runDir(['{"level":30,"msg":"request"}', line]);
    expect(() => failOnSecretsInLogs(dir)).toThrow(`app-1.log:2 contains ${named}`);
    expect(existsSync(dir)).toBe(true);
  });

  it('passes clean lines and removes the directory', () => {
    const dir = runDir(['{"level":30,"msg":"request","key_prefix":"sk_"}', '{"level":30,"msg":"whsec"}']);
    failOnSecretsInLogs(dir);
    expect(existsSync(dir)).toBe(false);
  });

  it("collects a process's JSON log lines from stdout and all of stderr, across chunk boundaries", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-log-grep-'));
    const sink = logSink(dir, 'server-1');
    const [stdout, stderr] = [new PassThrough(), new PassThrough()];
    collectLines(stdout, sink, 'log lines');
    collectLines(stderr, sink, 'all');
    stdout.write('Demo key: sk_test_shown_once\n{"level":30,');
    stdout.end('"msg":"listening"}\n');
    stderr.end('shutdown did not finish');
    await Promise.all([stdout, stderr].map((s) => new Promise((resolve) => s.on('end', resolve))));
    expect(readFileSync(path.join(dir, 'server-1.log'), 'utf8')).toBe('{"level":30,"msg":"listening"}\nshutdown did not finish\n');
  });
});
