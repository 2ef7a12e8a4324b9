// `npm run soak` in its short form (2 minutes): its own PostgreSQL and Redis, two API processes and a worker under
// the mixed till workload through a killed API process, a PostgreSQL restart and a webhook receiver outage; every
// check of its report passes. PostgreSQL pass only: it needs the PostgreSQL server programs (initdb) on the machine.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, onTestFinished } from 'vitest';
import { needs } from '../support/services.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const postgresGate = await needs('postgres');

function runSoak(out: string): Promise<{ code: number | null; output: string }> {
  // The soak makes its own services: nothing of this run's DATABASE_URL or REDIS_URL is used.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/soak/main.ts'), '--minutes', '2', '--out', out], {
    cwd: ROOT,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('npm run soak (2 minutes)', () => {
  postgresGate.it(
    'loses nothing acknowledged, applies nothing twice, recovers from a PostgreSQL restart without a process restart, delivers every event',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-soak-test-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const out = path.join(dir, 'soak.json');
      const { code, output } = await runSoak(out);
      expect(existsSync(out), output.slice(-4000)).toBe(true);
      const report = JSON.parse(readFileSync(out, 'utf8'));
      for (const check of report.checks) expect(check.ok, `${check.name}: ${check.detail}`).toBe(true);
      expect(code, output.slice(-4000)).toBe(0);
      expect(report.load.acknowledged.checks).toBeGreaterThan(0);
      expect(report.faults.map((f: { fault: string }) => f.fault)).toHaveLength(3);
      expect(report.rss.every((r: { start_mb: number }) => r.start_mb > 0)).toBe(true);
    },
    10 * 60_000,
  );
});
