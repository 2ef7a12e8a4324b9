// `npm run bench` in its smoke mode (a handful of members, one-second scenarios, embedded database only): the
// service starts as its own process, every scenario, the chain comparison and every ceiling runs, and the report has
// every figure and ratio.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { needs } from '../support/services.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-bench-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCENARIOS = ['lookup', 'calculate', 'scan', 'apply', 'hold_capture', 'refund', 'bulk_sync', 'mixed'];
const HEADLINE_RATIOS = [
  'apply_vs_bare_apply_transaction',
  'lookup_vs_bare_read',
  'calculate_vs_bare_read',
  'embedded_apply_vs_raw_pglite_loop',
  'chain_of_three_vs_one_apply',
  'chain_of_three_vs_one_lookup',
];
const MODE_RATIOS = [
  'apply_vs_bare_apply',
  'lookup_vs_bare_read',
  'calculate_vs_bare_read',
  'history_lookup_old_vs_new_mean_latency',
  'history_apply_old_vs_new_mean_latency',
  'campaigns_apply_vs_plain_mean_latency',
  'budgeted_campaigns_apply_vs_plain_mean_latency',
  'chain_of_three_vs_one_lookup',
  'chain_of_three_vs_one_apply',
];

function runBench(out: string): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_SMOKE: '1', BENCH_MODES: 'pglite', BENCH_OUT: out };
  delete env.BENCH_KEEP;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/bench/main.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

// It runs the embedded database whichever pass runs it: the PGlite pass runs it, the PostgreSQL pass skips it.
const embeddedGate = await needs('embedded');

embeddedGate.describe('npm run bench (smoke mode)', () => {
  it('measures every scenario, the ceilings and the ratios, and writes them to the JSON report', { timeout: 180_000 }, async () => {
    const out = path.join(dir, 'smoke.json');
    const { code, output } = await runBench(out);
    expect(code, output).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.settings.smoke).toBe(true);
    expect(report.git).toHaveProperty('commit');
    // The bench runs on this machine: it counts the same processors.
    expect(report.machine.cpus).toBe(cpus().length);

    const mode = report.modes.pglite;
    expect(Object.keys(mode.scenarios).sort()).toEqual([...SCENARIOS].sort());
    for (const name of SCENARIOS) {
      const s = mode.scenarios[name];
      // How many answers a second brings is measured, not given; the rate is that count over the seconds it took
      // (the report rounds the rate to 0.1 and the seconds to 0.001, so the two agree to well within 0.5).
      expect(s.requests, name).toBeGreaterThan(0);
      expect(s.req_per_s, name).toBeCloseTo(s.requests / s.seconds, 0);
      expect(typeof s.p50_ms, name).toBe('number');
      expect(typeof s.p99_ms, name).toBe('number');
      expect(s.non2xx, `${name}: ${JSON.stringify(s.errors)}`).toBe(0);
    }
    // A second of the mix may not draw its rarest kind (refund, 5 %), but it is a mix.
    const mixed = Object.keys(mode.scenarios.mixed.kinds);
    expect(mixed.length).toBeGreaterThanOrEqual(3);
    for (const kind of mixed) expect(['apply', 'calculate', 'lookup', 'refund', 'scan']).toContain(kind);
    expect(mode.scenarios.hold_capture.flows_per_s).toBeGreaterThan(0);
    for (const what of ['lookup', 'apply']) {
      expect(mode.history[what].old.requests, what).toBeGreaterThan(0);
      expect(mode.history[what].new.requests, what).toBeGreaterThan(0);
    }
    // Checks at venues with two campaigns (without budgets, and one budgeted) and at their twin without, interleaved.
    for (const side of ['unlimited', 'budgeted']) {
      expect(mode.campaigns[side].old.requests, side).toBeGreaterThan(0);
      expect(mode.campaigns[side].new.requests, side).toBeGreaterThan(0);
    }
    // A chain of three venues against a chain of one, round by round, with the ratio's interval.
    const rounds = report.settings.chain_comparison.rounds;
    // Smoke mode's rounds (scripts/bench/config.ts): two per side.
    expect(rounds).toBe(2);
    for (const what of ['lookup', 'apply']) {
      const c = mode.chain_of_three_vs_chain_of_one[what];
      for (const side of [c.chain_of_three, c.chain_of_one]) {
        expect(side.requests, what).toBeGreaterThan(0);
        expect(side.non2xx, `${what}: ${JSON.stringify(side.errors)}`).toBe(0);
        expect(side.req_per_s_by_round, what).toHaveLength(rounds);
      }
      expect(c.req_per_s_ratio_by_round, what).toHaveLength(rounds);
      expect(c.req_per_s_ratio, what).toBeGreaterThan(0);
      const [low, high] = c.req_per_s_ratio_95;
      expect(low, what).toBeLessThanOrEqual(c.req_per_s_ratio);
      expect(high, what).toBeGreaterThanOrEqual(c.req_per_s_ratio);
      expect(c.within_noise, what).toBe(high >= 1);
      expect(c.mean_latency_ratio, what).toBeGreaterThan(0);
    }
    expect(report.targets.filter((t: { name: string }) => t.name.includes('chain of three'))).toHaveLength(2);
    expect(output).toContain('Chain of three venues ÷ chain of one');

    expect(mode.ceilings.bare_apply.req_per_s).toBeGreaterThan(0);
    expect(mode.ceilings.bare_read.req_per_s).toBeGreaterThan(0);
    expect(report.bare_fastify.req_per_s).toBeGreaterThan(0);

    expect(mode.service.idle_rss_mb).toBeGreaterThan(0);
    expect(mode.service.peak_rss_mb).toBeGreaterThanOrEqual(mode.service.idle_rss_mb);
    expect(mode.ledger_verify.exit_code, mode.ledger_verify.output).toBe(0);

    expect(Object.keys(report.ratios).sort()).toEqual([...HEADLINE_RATIOS].sort());
    expect(report.ratios.embedded_apply_vs_raw_pglite_loop).toBeGreaterThan(0);
    expect(Object.keys(mode.ratios).sort()).toEqual([...MODE_RATIOS].sort());
    for (const name of MODE_RATIOS) expect(mode.ratios[name], name).toBeGreaterThan(0);
    // The fifteen targets of scripts/bench/report.ts's targetsOf, and the chain comparison's two (look-ups and checks)
    // of the one mode run here: 17.
    expect(report.targets).toHaveLength(17);
    expect(report.problems).toEqual([]);
  });
});
