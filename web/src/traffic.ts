// Whether a chain has had test traffic only (D27): the demo, or a chain still trying things out. Its overview and
// liability open on the test figures and say so, rather than showing zeros.
import type { Overview } from './api';

export function onlyTestTraffic(o: Overview): boolean {
  const live = o.balances.live.members > 0 || o.chain_totals.month.live.checks > 0 || o.month_figures.live.checks > 0;
  const test = o.balances.test.members > 0 || o.chain_totals.month.test.checks > 0 || o.month_figures.test.checks > 0;
  return test && !live;
}
