// `npm run bench:directory` and `npm run bench:reports` in their smoke modes on the embedded database: each seeds,
// times every case and writes its report (the import's rate included), so a benchmark that no longer runs fails here.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { needs } from '../support/services.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-bench-reads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The embedded database whichever pass runs it: the PGlite pass runs it, the PostgreSQL pass skips it.
const embeddedGate = await needs('embedded');

async function smoke(script: string): Promise<Record<string, any>> {
  const out = path.join(dir, `${script}.json`);
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_SMOKE: '1', BENCH_OUT: out };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, `scripts/bench/${script}.ts`)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code, output).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8'));
}

embeddedGate.it('npm run bench:directory (smoke mode) imports the generated members and times every directory case', async () => {
  const report = await smoke('directory');
  expect(report).toMatchObject({ smoke: true, database: 'PGlite', members: 2_000, import: { members: 2_000 } });
  expect(report.results.length).toBeGreaterThan(10);
  for (const r of report.results) expect(r.p50_ms, r.case).toBeGreaterThan(0);
}, 180_000);

embeddedGate.it('npm run bench:reports (smoke mode) times the report of 30 days, 90 days and a year', async () => {
  const report = await smoke('reports');
  expect(report).toMatchObject({ smoke: true, database: 'PGlite', checks_per_day: 20, days: 365 });
  // 20 checks a day (a day fewer or more when the venue's today is not UTC's at this hour).
  const [month, quarter, year] = report.results.map((r: { checks: number }) => r.checks);
  expect(Math.abs(month - 600)).toBeLessThanOrEqual(20);
  expect(Math.abs(quarter - 1_800)).toBeLessThanOrEqual(20);
  expect(Math.abs(year - 7_300)).toBeLessThanOrEqual(20);
  for (const r of report.results) expect(r.p50_ms, r.case).toBeGreaterThan(0);
}, 180_000);
