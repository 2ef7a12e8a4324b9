// `npm run bench:connectors` in its smoke mode on the embedded database: the service starts as its own process, Toast
// and Square are connected and answered, and the report has each figure.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { needs } from '../support/services.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-bench-connectors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The embedded database whichever pass runs it: the PGlite pass runs it, the PostgreSQL pass skips it.
const embeddedGate = await needs('embedded');

embeddedGate.it('npm run bench:connectors (smoke mode) measures Toast INQUIRE and ACCRUE and a Square webhook to its check', async () => {
  const out = path.join(dir, 'connectors.json');
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_SMOKE: '1', BENCH_OUT: out };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/bench/connectors.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code, output).toBe(0);
  const report = JSON.parse(readFileSync(out, 'utf8'));
  expect(report).toMatchObject({ smoke: true, database: 'pglite' });
  for (const figure of ['toast_inquire', 'toast_accrue', 'square_webhook_to_applied_check']) {
    expect(report[figure].n, figure).toBeGreaterThan(0);
    expect(report[figure].median_ms, figure).toBeGreaterThan(0);
  }
}, 180_000);
