// The run's results: ratios against the ceilings, a chain of three against a chain of one, the issue's targets (met
// or missed, by how much), the loud list of problems (non-2xx answers, rate limiting, service errors), the printed
// table and latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { KindSummary, Measured, SideMeasured } from './load.js';
import type { CpuShares } from './processes.js';
import { ratioInterval, round } from './stats.js';

export interface ServiceStats {
  start_seconds: number;
  idle_rss_mb: number | null;
  peak_rss_mb: number;
  peak_rss_mb_by_scenario: Record<string, number>;
  log: { lines: number; by_level: Record<string, number>; samples: string[] };
  exit_code: number | null;
}

export interface CeilingResult {
  req_per_s: number;
  p50_ms: number | null;
  p99_ms: number | null;
  requests: number;
  non2xx?: number;
  errors?: number | Record<string, number>;
  [key: string]: unknown;
}

type KindMeasured = KindSummary & { req_per_s: number };

export interface HistoryPair {
  /** Both kinds together, as autocannon drove them. */
  all: Measured;
  old: KindMeasured | null;
  new: KindMeasured | null;
  /** old ÷ new: above 1 means the member with a long ledger waits longer. */
  mean_latency_ratio: number | null;
  p50_ratio: number | null;
  req_per_s_ratio: number | null;
}

type SideResult = Measured & { req_per_s_by_round: number[] };

/** Look-ups or checks of a chain of three venues against a chain of one, the two taking turns in short rounds (D21). */
export interface ChainComparison {
  rounds: number;
  round_seconds: number;
  chain_of_three: SideResult;
  chain_of_one: SideResult;
  /** three ÷ one, round by round (the two rounds of a pair ran one after the other). */
  req_per_s_ratio_by_round: number[];
  /** Their geometric mean: below 1 means the chain of three serves fewer requests a second. */
  req_per_s_ratio: number | null;
  /** Its 95 % interval: how far noise alone moved it. */
  req_per_s_ratio_95: [number, number] | null;
  /** three ÷ one, over all rounds: above 1 means the chain of three answers more slowly. */
  mean_latency_ratio: number | null;
  /** No cost beyond noise: the interval reaches 1 or lies above it. */
  within_noise: boolean | null;
  /** Over the whole comparison, warm-ups included: "other" is the noise both sides met. */
  cpu: CpuShares;
}

export interface ModeResult {
  database: string;
  seed: { seconds: number; counts: Record<string, number> };
  fresh_data_dir_idle_rss_mb?: number | null;
  service: ServiceStats;
  scenarios: Record<string, Measured & { label: string; flows_per_s?: number; peak_rss_mb?: number; cpu?: CpuShares & { service_us_per_request: number | null; postgres_us_per_request: number | null } }>;
  /** The median-p99 run of three at 80 % of the apply's peak. */
  apply_at_80_percent?: Measured & { offered_rate: number };
  /** All three runs, in the order run: their p99s are reported, and an error in any of them. */
  apply_at_80_percent_runs?: Measured[];
  history: { lookup?: HistoryPair; apply?: HistoryPair };
  /**
   * Apply at a venue with two active bonus campaigns without a budget (`unlimited`), or with one budgeted (`budgeted`),
   * as `old`, against its twin without campaigns as `new`, all three interleaved (D22).
   */
  campaigns?: { unlimited: HistoryPair; budgeted: HistoryPair };
  chain_of_three_vs_chain_of_one: { lookup?: ChainComparison; apply?: ChainComparison };
  ceilings: { bare_apply?: CeilingResult; bare_read?: CeilingResult };
  ratios: Record<string, number | null>;
  ledger_verify: { exit_code: number | null; output: string };
}

export interface Target {
  name: string;
  value: number | null;
  threshold: number | null;
  unit: string;
  /** 'min': value ≥ threshold; 'max': value ≤ threshold; 'noise': value ≥ threshold within its 95 % interval; 'report': no threshold. */
  kind: 'min' | 'max' | 'noise' | 'report';
  met: boolean | null;
  /** How far from the threshold, as a sentence. */
  margin: string;
}

export interface Report {
  schema: 1;
  date: string;
  git: { commit: string | null; changed_files: number | null };
  machine: Record<string, unknown>;
  settings: Record<string, unknown>;
  total_seconds?: number;
  bare_fastify?: CeilingResult;
  modes: Partial<Record<'postgres' | 'pglite', ModeResult>>;
  ratios: Record<string, number | null>;
  targets: Target[];
  problems: string[];
  /** How quiet the machine was (not problems of the service). */
  noise: string[];
}

const ratio = (a: number | null | undefined, b: number | null | undefined) => (a != null && b ? round(a / b, 3) : null);

export function historyPair(all: Measured, oldKind: string, newKind: string): HistoryPair {
  const old = all.kinds?.[oldKind] ?? null;
  const fresh = all.kinds?.[newKind] ?? null;
  const { kinds: _kinds, ...together } = all;
  return {
    all: together,
    old,
    new: fresh,
    mean_latency_ratio: ratio(old?.mean_ms, fresh?.mean_ms),
    p50_ratio: ratio(old?.p50_ms, fresh?.p50_ms),
    req_per_s_ratio: ratio(old?.req_per_s, fresh?.req_per_s),
  };
}

export function chainComparison(three: SideMeasured, one: SideMeasured, rounds: number, roundSeconds: number, cpu: CpuShares): ChainComparison {
  const byRound = three.reqPerSByRound.map((r, i) => ratio(r, one.reqPerSByRound[i]) ?? 0);
  const { ratio: rate, interval } = ratioInterval(byRound);
  return {
    rounds,
    round_seconds: roundSeconds,
    chain_of_three: { ...three.measured, req_per_s_by_round: three.reqPerSByRound },
    chain_of_one: { ...one.measured, req_per_s_by_round: one.reqPerSByRound },
    req_per_s_ratio_by_round: byRound,
    req_per_s_ratio: rate,
    req_per_s_ratio_95: interval,
    mean_latency_ratio: ratio(three.measured.mean_ms, one.measured.mean_ms),
    within_noise: interval ? interval[1] >= 1 : null,
    cpu,
  };
}

export function modeRatios(mode: ModeResult): Record<string, number | null> {
  const s = mode.scenarios;
  const c = mode.ceilings;
  return {
    apply_vs_bare_apply: ratio(s.apply?.req_per_s, c.bare_apply?.req_per_s),
    lookup_vs_bare_read: ratio(s.lookup?.req_per_s, c.bare_read?.req_per_s),
    calculate_vs_bare_read: ratio(s.calculate?.req_per_s, c.bare_read?.req_per_s),
    history_lookup_old_vs_new_mean_latency: mode.history.lookup?.mean_latency_ratio ?? null,
    history_apply_old_vs_new_mean_latency: mode.history.apply?.mean_latency_ratio ?? null,
    campaigns_apply_vs_plain_mean_latency: mode.campaigns?.unlimited.mean_latency_ratio ?? null,
    budgeted_campaigns_apply_vs_plain_mean_latency: mode.campaigns?.budgeted.mean_latency_ratio ?? null,
    chain_of_three_vs_one_lookup: mode.chain_of_three_vs_chain_of_one.lookup?.req_per_s_ratio ?? null,
    chain_of_three_vs_one_apply: mode.chain_of_three_vs_chain_of_one.apply?.req_per_s_ratio ?? null,
  };
}

/** The issue's ratios: on PostgreSQL, and embedded apply against the raw PGlite loop. */
export function headlineRatios(report: Report): Record<string, number | null> {
  const pgr = report.modes.postgres?.ratios ?? {};
  return {
    apply_vs_bare_apply_transaction: pgr.apply_vs_bare_apply ?? null,
    lookup_vs_bare_read: pgr.lookup_vs_bare_read ?? null,
    calculate_vs_bare_read: pgr.calculate_vs_bare_read ?? null,
    embedded_apply_vs_raw_pglite_loop: report.modes.pglite?.ratios.apply_vs_bare_apply ?? null,
    chain_of_three_vs_one_apply: pgr.chain_of_three_vs_one_apply ?? null,
    chain_of_three_vs_one_lookup: pgr.chain_of_three_vs_one_lookup ?? null,
  };
}

function target(name: string, value: number | null | undefined, kind: Target['kind'], threshold: number | null, unit: string): Target {
  const v = value ?? null;
  if (kind === 'report' || v === null || threshold === null) {
    return { name, value: v, threshold, unit, kind, met: kind === 'report' || v === null ? null : false, margin: v === null ? 'not measured' : 'reported' };
  }
  const met = kind === 'min' ? v >= threshold : v <= threshold;
  const factor = kind === 'min' ? v / threshold : threshold / v;
  const margin = met
    ? `met with ${round((factor - 1) * 100, 0)} % to spare`
    : kind === 'min'
      ? `missed: ${round(v, 3)}${unit} against ${threshold}${unit}, ${round((1 - v / threshold) * 100, 0)} % short (needs ${round(threshold / v, 2)}×)`
      : `missed: ${round(v, 1)}${unit} against ${threshold}${unit}, ${round((v / threshold - 1) * 100, 0)} % over`;
  return { name, value: round(v, 3), threshold, unit, kind, met, margin };
}

const interval = (c: ChainComparison) => (c.req_per_s_ratio_95 ? `95 % interval ${c.req_per_s_ratio_95.join('–')}` : 'one round: no interval');

/** Met when the chain of three costs nothing beyond noise: its ratio's 95 % interval reaches 1. */
function chainTarget(name: string, c: ChainComparison | undefined): Target {
  if (!c || c.req_per_s_ratio === null) return { name, value: null, threshold: 1, unit: '×', kind: 'noise', met: null, margin: 'not measured' };
  const margin =
    c.within_noise === null
      ? interval(c)
      : c.within_noise
        ? `no cost beyond noise (${interval(c)})`
        : `a cost of ${round((1 - c.req_per_s_ratio) * 100, 1)} % beyond noise (${interval(c)})`;
  return { name, value: c.req_per_s_ratio, threshold: 1, unit: '×', kind: 'noise', met: c.within_noise, margin };
}

/** Issue 21's floors and ceilings where it names one (the hot path); the earlier issues' elsewhere. */
export function targetsOf(report: Report): Target[] {
  const pg = report.modes.postgres;
  const lite = report.modes.pglite;
  const r = report.ratios;
  const history = (pair: HistoryPair | undefined) => pair?.mean_latency_ratio ?? null;
  return [
    target('PostgreSQL: apply a check ÷ bare apply transaction', r.apply_vs_bare_apply_transaction, 'min', 0.45, '×'),
    target('PostgreSQL: apply p99 at 80 % of peak, median of three runs (ms)', pg?.apply_at_80_percent?.p99_ms, 'max', 25, ' ms'),
    target('PostgreSQL: look-up ÷ bare single-row read', r.lookup_vs_bare_read, 'min', 0.55, '×'),
    target('PostgreSQL: calculate ÷ bare single-row read', r.calculate_vs_bare_read, 'min', 0.3, '×'),
    target('PostgreSQL: bulk sync of 500 dishes p50 (ms)', pg?.scenarios.bulk_sync?.p50_ms, 'max', 100, ' ms'),
    target('PostgreSQL: service RSS idle (MB)', pg?.service.idle_rss_mb, 'max', 120, ' MB'),
    target('PostgreSQL: service peak RSS under the mixed load (MB)', pg?.service.peak_rss_mb_by_scenario.mixed, 'max', 200, ' MB'),
    target('Embedded: service RSS idle on a fresh data directory (MB)', lite?.fresh_data_dir_idle_rss_mb, 'max', 300, ' MB'),
    target('Embedded: service RSS idle on the bench data (MB)', lite?.service.idle_rss_mb, 'report', null, ' MB'),
    target('Embedded: service peak RSS on the bench data (MB)', lite?.service.peak_rss_mb, 'report', null, ' MB'),
    target('Embedded: apply ÷ raw PGlite loop', r.embedded_apply_vs_raw_pglite_loop, 'min', 0.4, '×'),
    target('PostgreSQL: look-up, 10,000-entry member ÷ new member (mean latency)', history(pg?.history.lookup), 'max', 1.2, '×'),
    target('PostgreSQL: apply, 10,000-entry member ÷ new member (mean latency)', history(pg?.history.apply), 'max', 1.2, '×'),
    target('PostgreSQL: apply with two campaigns ÷ without (mean latency)', history(pg?.campaigns?.unlimited), 'max', 1.1, '×'),
    target('PostgreSQL: apply with two campaigns, one budgeted, ÷ without (mean latency)', history(pg?.campaigns?.budgeted), 'report', null, '×'),
    ...(
      [
        ['PostgreSQL', pg],
        ['Embedded', lite],
      ] as const
    ).flatMap(([label, mode]) =>
      mode
        ? (['apply', 'lookup'] as const).map((what) =>
            chainTarget(`${label}: ${what === 'apply' ? 'apply' : 'look-up'}, chain of three venues ÷ chain of one (req/s)`, mode.chain_of_three_vs_chain_of_one[what]),
          )
        : [],
    ),
  ];
}

/** Everything that makes a figure suspect: non-2xx answers, transport errors, rate limiting, service errors. */
export function problemsOf(report: Report): string[] {
  const out: string[] = [];
  for (const [modeName, mode] of Object.entries(report.modes)) {
    if (!mode) continue;
    const check = (what: string, m: Measured | undefined) => {
      if (!m) return;
      if (m.non2xx > 0) {
        const codes = Object.entries(m.errors)
          .sort((a, b) => b[1] - a[1])
          .map(([code, n]) => `${n} × ${code}`)
          .join(', ');
        out.push(`${modeName} ${what}: ${m.non2xx} of ${m.requests} answers were not 2xx (${codes})`);
      }
      if (m.transport_errors > 0 || m.timeouts > 0) out.push(`${modeName} ${what}: ${m.transport_errors} connection errors, ${m.timeouts} timeouts`);
      if (Object.keys(m.errors).some((e) => e.startsWith('429'))) out.push(`${modeName} ${what}: rate limited (429) — more keys are needed (BENCH_KEYS_PER_VENUE)`);
    };
    for (const [name, m] of Object.entries(mode.scenarios)) check(name, m);
    for (const [i, run] of (mode.apply_at_80_percent_runs ?? [mode.apply_at_80_percent]).entries()) check(`apply at 80 % of peak, run ${i + 1}`, run);
    check('history look-ups', mode.history.lookup?.all);
    check('history checks', mode.history.apply?.all);
    check('checks with and without campaigns', mode.campaigns?.unlimited.all);
    for (const [what, c] of Object.entries(mode.chain_of_three_vs_chain_of_one)) {
      check(`${what}, chain of three`, c?.chain_of_three);
      check(`${what}, chain of one`, c?.chain_of_one);
    }
    const bad = (mode.service.log.by_level.error ?? 0) + (mode.service.log.by_level.fatal ?? 0);
    if (bad > 0) out.push(`${modeName} service logged ${bad} error lines, e.g. ${mode.service.log.samples[0] ?? ''}`);
    if (mode.service.exit_code !== 0 && mode.service.exit_code !== null) out.push(`${modeName} service exited with code ${mode.service.exit_code} on SIGTERM`);
    if (mode.ledger_verify.exit_code !== 0) out.push(`${modeName} ledger verify after the run failed (exit ${mode.ledger_verify.exit_code}): ${mode.ledger_verify.output.slice(0, 400)}`);
    for (const [name, c] of Object.entries(mode.ceilings)) {
      if (c && ((typeof c.errors === 'number' && c.errors > 0) || (c.non2xx ?? 0) > 0)) out.push(`${modeName} ceiling ${name} had errors: ${JSON.stringify(c.errors)}`);
    }
  }
  return out;
}

/** Signs that the machine was not quiet: other programs' CPU during the measured scenarios. */
export function noiseNotes(report: Report): string[] {
  const out: string[] = [];
  for (const [modeName, mode] of Object.entries(report.modes)) {
    if (!mode) continue;
    const others = [
      ...Object.entries(mode.scenarios).map(([name, m]) => [name, m.cpu?.other_pct ?? 0] as const),
      ...Object.entries(mode.chain_of_three_vs_chain_of_one).map(([what, c]) => [`the chain comparison's ${what}`, c?.cpu.other_pct ?? 0] as const),
    ];
    const busy = others.filter(([, pct]) => pct > 20);
    if (busy.length) {
      out.push(
        `${modeName}: other programs used more than 20 % of a core during ${busy.map(([n, p]) => `${n} (${round(p, 0)} %)`).join(', ')}: those figures are noisy`,
      );
    }
  }
  return out;
}

const fmt = (v: number | null | undefined, digits = 1) => (v == null ? '—' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r, n) => {
    const line = r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
    return n === 0 ? `${line}\n${widths.map((w) => '─'.repeat(w)).join('  ')}` : line;
  }).join('\n');
}

export function render(report: Report): string {
  const out: string[] = [];
  const header = ['', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'peak RSS MB', 'CPU % svc', 'db', 'client', 'other', 'CPU µs/req svc', 'db'];
  type Cpu = Partial<CpuShares> & { service_us_per_request?: number | null; postgres_us_per_request?: number | null };
  const cpuCells = (cpu: Cpu | undefined) =>
    cpu
      ? [
          fmt(cpu.service_pct, 0),
          cpu.postgres_pct == null ? '' : fmt(cpu.postgres_pct, 0),
          fmt(cpu.load_generator_pct, 0),
          fmt(cpu.other_pct, 0),
          fmt(cpu.service_us_per_request, 0),
          cpu.postgres_us_per_request == null ? '' : fmt(cpu.postgres_us_per_request, 0),
        ]
      : ['', '', '', '', '', ''];
  for (const [modeName, mode] of Object.entries(report.modes)) {
    if (!mode) continue;
    out.push(`\n${modeName === 'postgres' ? 'PostgreSQL' : 'Embedded (PGlite)'}: ${mode.database}`);
    const rows: string[][] = [header];
    for (const s of Object.values(mode.scenarios)) {
      rows.push([
        s.label + (s.flows_per_s !== undefined ? ` (${fmt(s.flows_per_s)} flows/s)` : ''),
        fmt(s.req_per_s),
        fmt(s.p50_ms, 2),
        fmt(s.p99_ms, 2),
        String(s.non2xx),
        fmt(s.peak_rss_mb, 0),
        ...cpuCells(s.cpu),
      ]);
    }
    const a80 = mode.apply_at_80_percent;
    if (a80) rows.push([`apply at 80 % of peak (${fmt(a80.offered_rate)}/s offered; median p99 of ${mode.apply_at_80_percent_runs?.map((r) => fmt(r.p99_ms, 1)).join(' / ') ?? 'one run'})`, fmt(a80.req_per_s), fmt(a80.p50_ms, 2), fmt(a80.p99_ms, 2), String(a80.non2xx), '', ...cpuCells(undefined)]);
    for (const [what, pair] of Object.entries(mode.history)) {
      if (!pair) continue;
      for (const [side, m] of [['10,000-entry members', pair.old], ['new members, interleaved', pair.new]] as const) {
        rows.push([`${what}: ${side}`, fmt(m?.req_per_s), fmt(m?.p50_ms, 2), fmt(m?.p99_ms, 2), String(m?.non2xx ?? '—'), '', ...cpuCells(undefined)]);
      }
    }
    if (mode.campaigns) {
      const { unlimited, budgeted } = mode.campaigns;
      for (const [side, m] of [['apply: two campaigns, no budget', unlimited.old], ['apply: two campaigns, one budgeted', budgeted.old], ['apply: no campaign, interleaved', unlimited.new]] as const) {
        rows.push([side, fmt(m?.req_per_s), fmt(m?.p50_ms, 2), fmt(m?.p99_ms, 2), String(m?.non2xx ?? '—'), '', ...cpuCells(undefined)]);
      }
    }
    for (const [what, c] of Object.entries(mode.chain_of_three_vs_chain_of_one)) {
      if (!c) continue;
      for (const [side, m] of [['chain of three venues', c.chain_of_three], ['chain of one', c.chain_of_one]] as const) {
        rows.push([`${what}: ${side}`, fmt(m.req_per_s), fmt(m.p50_ms, 2), fmt(m.p99_ms, 2), String(m.non2xx), '', ...cpuCells(undefined)]);
      }
    }
    if (mode.ceilings.bare_apply) {
      const c = mode.ceilings.bare_apply;
      rows.push([
        modeName === 'postgres' ? 'ceiling: bare apply transaction (pg, named)' : 'ceiling: raw PGlite loop (apply row work)',
        fmt(c.req_per_s),
        fmt(c.p50_ms, 2),
        fmt(c.p99_ms, 2),
        String(c.errors ?? 0),
        '',
        ...cpuCells(c.cpu as Cpu),
      ]);
    }
    if (mode.ceilings.bare_read) {
      const c = mode.ceilings.bare_read;
      rows.push(['ceiling: bare Fastify + single-row read', fmt(c.req_per_s), fmt(c.p50_ms, 2), fmt(c.p99_ms, 2), String(c.non2xx ?? 0), '', ...cpuCells(c.cpu as Cpu)]);
    }
    if (modeName === Object.keys(report.modes)[0] && report.bare_fastify) {
      const c = report.bare_fastify;
      rows.push(['ceiling: bare Fastify, fixed JSON', fmt(c.req_per_s), fmt(c.p50_ms, 2), fmt(c.p99_ms, 2), String(c.non2xx ?? 0), '', ...cpuCells(c.cpu as Cpu)]);
    }
    out.push(table(rows));
    out.push(
      `service: idle RSS ${fmt(mode.service.idle_rss_mb, 0)} MB after start, peak ${fmt(mode.service.peak_rss_mb, 0)} MB` +
        (mode.fresh_data_dir_idle_rss_mb !== undefined ? `; idle on a fresh data directory ${fmt(mode.fresh_data_dir_idle_rss_mb, 0)} MB` : '') +
        `; started in ${fmt(mode.service.start_seconds, 1)} s; seeded in ${fmt(mode.seed.seconds, 0)} s; ledger verify: ${mode.ledger_verify.exit_code === 0 ? 'ok' : `FAILED (${mode.ledger_verify.exit_code})`}`,
    );
  }
  out.push('\nRatios (one run)');
  out.push(table([['', 'ratio'], ...Object.entries(report.ratios).map(([k, v]) => [k.replaceAll('_', ' '), fmt(v, 3)])]));
  const chains = Object.entries(report.modes).flatMap(([modeName, mode]) =>
    Object.entries(mode?.chain_of_three_vs_chain_of_one ?? {}).map(([what, c]) => ({ modeName, what, c: c! })),
  );
  if (chains.length) {
    const { rounds, round_seconds } = chains[0]!.c;
    out.push(`\nChain of three venues ÷ chain of one: req/s, ${rounds} rounds of ${round_seconds} s each, taking turns`);
    out.push(
      table([
        ['', 'ratio', '95 % interval', 'by round', 'mean latency', ''],
        ...chains.map(({ modeName, what, c }) => [
          `${modeName === 'postgres' ? 'PostgreSQL' : 'Embedded'} ${what}`,
          fmt(c.req_per_s_ratio, 3),
          c.req_per_s_ratio_95 ? c.req_per_s_ratio_95.map((v) => fmt(v, 3)).join('–') : '—',
          c.req_per_s_ratio_by_round.map((v) => fmt(v, 2)).join(' '),
          fmt(c.mean_latency_ratio, 3),
          c.within_noise === null ? '' : c.within_noise ? 'no cost beyond noise' : 'a cost beyond noise',
        ]),
      ]),
    );
  }
  out.push('\nTargets');
  out.push(
    table([
      ['', 'value', 'target', ''],
      ...report.targets.map((t) => [
        t.name,
        fmt(t.value, t.unit.trim() === '×' ? 3 : 1),
        t.threshold === null ? '—' : t.kind === 'noise' ? `≥ ${t.threshold} within noise` : `${t.kind === 'min' ? '≥' : '≤'} ${t.threshold}`,
        t.met === null ? t.margin : `${t.met ? 'MET' : 'MISSED'} — ${t.margin}`,
      ]),
    ]),
  );
  if (report.noise.length) {
    out.push('\nNoise');
    for (const n of report.noise) out.push(`- ${n}`);
  }
  if (report.problems.length) {
    const bar = '!'.repeat(78);
    out.push(`\n${bar}\n!! THIS RUN HAD PROBLEMS: its figures include failed requests or errors\n${bar}`);
    for (const p of report.problems) out.push(`!! ${p}`);
    out.push(bar);
  } else {
    out.push('\nNo non-2xx answers, connection errors or service errors in any measured run.');
  }
  return out.join('\n');
}

export function writeReport(file: string, report: Report): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}
