// Latencies kept exactly (microsecond resolution), and the summary every measurement reports.

export class Latencies {
  private values = new Float64Array(1 << 14);
  private n = 0;

  push(ms: number): void {
    if (this.n === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.n++] = ms;
  }

  forEach(fn: (ms: number) => void): void {
    for (let i = 0; i < this.n; i++) fn(this.values[i]!);
  }

  get count(): number {
    return this.n;
  }

  /** The q-quantile (nearest rank), rounded to hundredths; null when empty. */
  quantile(q: number): number | null {
    return this.n === 0 ? null : quantileOf(this.values.slice(0, this.n).sort(), q);
  }

  summary(): { p50_ms: number | null; p90_ms: number | null; p99_ms: number | null; max_ms: number | null; mean_ms: number | null } {
    if (this.n === 0) return { p50_ms: null, p90_ms: null, p99_ms: null, max_ms: null, mean_ms: null };
    const sorted = this.values.slice(0, this.n).sort();
    const at = (q: number) => quantileOf(sorted, q);
    let sum = 0;
    for (const v of sorted) sum += v;
    return { p50_ms: at(0.5), p90_ms: at(0.9), p99_ms: at(0.99), max_ms: round(sorted[this.n - 1]!), mean_ms: round(sum / this.n) };
  }
}

const quantileOf = (sorted: Float64Array, q: number) => round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);

export const round = (x: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** A small deterministic generator, so two runs send the same mix of requests. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Two-sided 95 % quantiles of Student's t for 1 to 30 degrees of freedom; 1.96 beyond. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074,
  2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * Paired ratios (one per round) summed up: their geometric mean, and its 95 % interval from Student's t on their
 * logarithms — how far noise alone moves the figure. The interval needs two ratios at least.
 */
export function ratioInterval(ratios: number[]): { ratio: number | null; interval: [number, number] | null } {
  const logs = ratios.filter((r) => r > 0 && Number.isFinite(r)).map(Math.log);
  const n = logs.length;
  if (n === 0) return { ratio: null, interval: null };
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { ratio: round(Math.exp(mean), 3), interval: null };
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const half = (T95[n - 2] ?? 1.96) * (sd / Math.sqrt(n));
  return { ratio: round(Math.exp(mean), 3), interval: [round(Math.exp(mean - half), 3), round(Math.exp(mean + half), 3)] };
}
