// Venue liability (D21): per venue of the chain, the cashback members were given and spent in a period, the row of no
// venue, the totals, and the same as CSV, for the franchise's settlement of who owes whom.
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { call, client, money, type VenueLiability } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { useChain, useVenue } from '../session';
import { useTraffic } from '../traffic';
import { TestOnlyNotice, TrafficSwitch } from '../components/TrafficSwitch';

type Row = VenueLiability['data'][number];

/** The first of the UTC month `monthsAhead` months from now, YYYY-MM-DD. */
function monthStart(monthsAhead: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsAhead, 1)).toISOString().slice(0, 10);
}

export function LiabilityPage() {
  const venue = useVenue();
  const chain = useChain();
  const [params, setParams] = useSearchParams();
  const from = params.get('from') || monthStart(0);
  const to = params.get('to') || monthStart(1);
  const { livemode, testOnly, ready } = useTraffic(params.get('livemode'));
  const setPeriod = (change: { from?: string; to?: string; livemode?: string }) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  const report = useQuery({
    queryKey: ['venue-liability', from, to, livemode],
    queryFn: () => call(client.GET('/dashboard/api/reports/venue-liability', { params: { query: { from, to, livemode } } })),
    enabled: ready,
  });
  const r = report.data;
  const m = (n: number) => money(n, { currency: r?.currency ?? chain.currency, locale: venue.locale });
  const rows: (Row & { total?: true })[] | undefined = r && [...r.data, { venue_id: null, venue_name: 'Total', ...r.totals, total: true }];
  const figure = (k: Exclude<keyof Row, 'venue_id' | 'venue_name'>) => (row: Row & { total?: true }) =>
    row.total ? <strong>{m(row[k])}</strong> : m(row[k]);
  const columns: Column<Row & { total?: true }>[] = [
    {
      key: 'venue',
      label: 'Venue',
      render: (row) => (row.total ? <strong>Total</strong> : row.venue_name ?? <Text span c="dimmed" inherit>
            No venue (for the chain)
          </Text>),
    },
    { key: 'earned', label: 'Earned', numeric: true, render: figure('earned') },
    { key: 'campaign', label: 'Campaigns', numeric: true, render: figure('campaign') },
    { key: 'redeemed', label: 'Redeemed', numeric: true, render: figure('redeemed') },
    { key: 'expired', label: 'Expired', numeric: true, render: figure('expired') },
    { key: 'adjusted', label: 'Adjusted', numeric: true, render: figure('adjusted') },
    { key: 'imported', label: 'Imported', numeric: true, render: figure('imported') },
    { key: 'net', label: 'Net', numeric: true, render: figure('net') },
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Venue liability</Title>
        <Button component="a" href={`/dashboard/api/reports/venue-liability.csv?${new URLSearchParams({ from, to, livemode: String(livemode) })}`} download variant="default">
          Download CSV
        </Button>
      </Group>
      <Text c="dimmed" size="sm">
        The cashback each venue of {chain.name} gave its members and took from them in the period, whoever’s balance it
        was: a member enrolled at one venue who spends at another counts where they spent. Adjustments and imports made
        for the whole chain are on the “No venue” line. The total of Net is how much what members could still redeem
        grew (or shrank, when negative) over the period.
      </Text>
      <Paper withBorder p="sm">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          <TextInput type="date" label="From" description="Included, from 00:00 UTC" value={from} onChange={(e) => setPeriod({ from: e.currentTarget.value })} />
          <TextInput type="date" label="To" description="Not included: ends at 00:00 UTC" value={to} onChange={(e) => setPeriod({ to: e.currentTarget.value })} />
          <TrafficSwitch livemode={livemode} onChange={(live) => setPeriod({ livemode: String(live) })} />
          <Stack gap={6} justify="flex-end">
            <Group gap="xs">
              <Button size="xs" variant="light" onClick={() => setPeriod({ from: monthStart(0), to: monthStart(1) })}>
                This month
              </Button>
              <Button size="xs" variant="light" onClick={() => setPeriod({ from: monthStart(-1), to: monthStart(0) })}>
                Last month
              </Button>
            </Group>
          </Stack>
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt="xs" data-testid="period-note">
          Days are UTC days, the same instants for every venue whatever its time zone: from 00:00 UTC on From up to, not
          including, 00:00 UTC on To.
        </Text>
      </Paper>
      {testOnly && <TestOnlyNotice />}
      {report.error && <Alert color="red">{report.error.message}</Alert>}
      <DataTable
        label="Venue liability"
        rows={rows}
        rowKey={(row) => (row.total ? 'total' : (row.venue_id ?? 'none'))}
        rowProps={(row) => ({ 'data-venue': row.total ? 'total' : (row.venue_id ?? 'none') })}
        columns={columns}
      />
    </Stack>
  );
}
