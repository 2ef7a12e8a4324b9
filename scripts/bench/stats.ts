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

  summary(): { p50_ms: number | null; p90_ms: number | null; p99_ms: number | null; max_ms: number | null; mean_ms: number | null } {
    if (this.n === 0) return { p50_ms: null, p90_ms: null, p99_ms: null, max_ms: null, mean_ms: null };
    const sorted = this.values.slice(0, this.n).sort();
    const at = (q: number) => round(sorted[Math.min(this.n - 1, Math.ceil(q * this.n) - 1)]!);
    let sum = 0;
    for (const v of sorted) sum += v;
    return { p50_ms: at(0.5), p90_ms: at(0.9), p99_ms: at(0.99), max_ms: round(sorted[this.n - 1]!), mean_ms: round(sum / this.n) };
  }
}

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
