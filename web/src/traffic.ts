// Whether a chain has had test traffic only (D27): the demo, or a chain still trying things out. Its overview,
// liability and reports open on the test figures and say so, rather than showing zeros.
import { useQuery } from '@tanstack/react-query';
import { call, client, type Overview } from './api';

export function onlyTestTraffic(o: Overview): boolean {
  const live = o.balances.live.members > 0 || o.chain_totals.month.live.checks > 0 || o.month_figures.live.checks > 0;
  const test = o.balances.test.members > 0 || o.chain_totals.month.test.checks > 0 || o.month_figures.test.checks > 0;
  return test && !live;
}

/**
 * The traffic a report page shows: what the address chose (`livemode` 'true' or 'false'), else test while the chain
 * has had only test traffic (`testOnly`: the page says so), else live. `ready` once that is known.
 */
export function useTraffic(chosen: string | null) {
  const overview = useQuery({ queryKey: ['overview'], queryFn: () => call(client.GET('/dashboard/api/overview')) });
  const testOnly = overview.data ? onlyTestTraffic(overview.data) : false;
  return { livemode: chosen === null ? !testOnly : chosen !== 'false', testOnly: testOnly && chosen === null, ready: !overview.isLoading };
}
