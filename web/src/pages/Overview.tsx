// Overview: today's and this month's checks and cashback at the venue, every venue of the chain side by side, members,
// a 30-day chart, the outstanding cashback; test traffic is shown in its own box, never added to live figures, and in
// their place while the chain has had test traffic only.
import { Alert, Badge, Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { call, client, day, money, type Overview } from '../api';
import { Stat } from '../components/Stat';
import { DataTable } from '../components/DataTable';
import { useChain, useVenue } from '../session';
import { onlyTestTraffic } from '../traffic';

type Figures = Overview['today_figures']['live'];

export function OverviewPage() {
  const venue = useVenue();
  const overview = useQuery({ queryKey: ['overview'], queryFn: () => call(client.GET('/dashboard/api/overview')), refetchInterval: 60_000 });
  if (overview.error) return <Alert color="red">{overview.error.message}</Alert>;
  const o = overview.data;
  if (!o) return <Title order={2}>Overview</Title>;
  const m = (n: number) => money(n, venue);
  // Test traffic only: its figures take the live ones' place, and the page says so.
  const mode = onlyTestTraffic(o) ? 'test' : 'live';
  const figures = (f: Figures) => [
    { label: 'Checks', value: String(f.checks) },
    { label: 'Sales', value: m(f.sales) },
    { label: 'Cashback earned', value: m(f.earned) },
    { label: 'Cashback redeemed', value: m(f.redeemed) },
    { label: 'Members enrolled', value: String(f.members_enrolled) },
  ];
  return (
    <Stack>
      <Title order={2}>Overview</Title>
      {mode === 'test' && (
        <Alert color="orange" title="Only test traffic so far" data-testid="test-only">
          These figures are what test keys did. Live figures take their place once a live key sends its first check or enrols a member.
        </Alert>
      )}
      <Text c="dimmed" size="sm">
        {mode === 'live' ? 'Live' : 'Test'} traffic at {venue.name}; days are the venue’s ({venue.timezone}), a check counts on the day it closed. Voids and refunds are
        taken off. Members and outstanding cashback are the whole chain’s.
      </Text>
      <Section title={`Today · ${day(o.today, venue)}`} items={figures(o.today_figures[mode])} testid="today" />
      <Section title={`This month · since ${day(o.month_start, venue)}`} items={figures(o.month_figures[mode])} testid="month" />
      {o.venues.length > 1 && <VenueBreakdown overview={o} format={m} />}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Stat
          label="Outstanding cashback"
          value={<span data-testid="liability">{m(o.balances[mode].liability)}</span>}
          hint={`What ${o.balances[mode].members_with_balance} of ${o.balances[mode].members} members could still redeem (held cashback included)`}
        />
        <Stat label="Members" value={String(o.balances[mode].members)} hint={`Enrolled by ${mode} keys`} />
      </SimpleGrid>
      <Paper withBorder p="md">
        <Title order={4} mb="sm">
          Last 30 days
        </Title>
        <DaysChart days={o.days} mode={mode} format={m} />
      </Paper>
      {mode === 'live' && (
        <Paper withBorder p="md" bg="var(--mantine-color-orange-light)" data-testid="test-traffic">
          <Title order={4}>Test traffic</Title>
          <Text size="sm" c="dimmed" mb="sm">
            What test keys did: kept apart from the figures above.
          </Text>
          <Table.ScrollContainer minWidth={0}>
            <Table aria-label="Test traffic" withRowBorders={false} verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th />
                  <Table.Th ta="right">Today</Table.Th>
                  <Table.Th ta="right">This month</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {figures(o.today_figures.test).map((f, i) => (
                  <Table.Tr key={f.label}>
                    <Table.Td>{f.label}</Table.Td>
                    <Table.Td ta="right">{f.value}</Table.Td>
                    <Table.Td ta="right">{figures(o.month_figures.test)[i]!.value}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr>
                  <Table.Td>Outstanding cashback of test members</Table.Td>
                  <Table.Td ta="right" colSpan={2}>
                    {m(o.balances.test.liability)}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
    </Stack>
  );
}

type VenueFigures = Overview['chain_totals']['today']['live'];

/** Every venue of the chain side by side with the chain's total, for today or this month, live or test. */
function VenueBreakdown({ overview: o, format }: { overview: Overview; format: (minor: number) => string }) {
  const chain = useChain();
  const venue = useVenue();
  const totals = o.chain_totals;
  const [period, setPeriod] = useState<'today' | 'month'>('today');
  // The demo and a chain still trying things out have test traffic only: show that rather than a table of zeros.
  const [mode, setMode] = useState<'live' | 'test'>(totals.month.live.checks === 0 && totals.month.test.checks > 0 ? 'test' : 'live');
  type Row = { id: string; name: string; current: boolean; day: string; f: VenueFigures; total?: true };
  const rows: Row[] = [
    ...o.venues.map((v) => ({
      id: v.venue_id,
      name: v.name,
      current: v.venue_id === o.venue_id,
      day: period === 'today' ? day(v.today, venue) : `since ${day(v.month_start, venue)}`,
      f: v.figures[period][mode],
    })),
    { id: 'total', name: 'Chain total', current: false, day: '', f: totals[period][mode], total: true },
  ];
  const n = (row: Row, value: string) => (row.total ? <strong>{value}</strong> : value);
  return (
    <Paper withBorder p="md" data-testid="venue-breakdown">
      <Group justify="space-between" mb="xs">
        <Title order={4}>Venues of {chain.name}</Title>
        <Group gap="xs">
          <Choice label="Period" value={period} onChange={setPeriod} options={{ today: 'Today', month: 'This month' }} />
          <Choice label="Traffic" value={mode} onChange={setMode} options={{ live: 'Live', test: 'Test' }} />
        </Group>
      </Group>
      <Text size="sm" c="dimmed" mb="xs">
        {mode === 'live' ? 'Live traffic' : 'Test traffic'}; each venue’s day is its own (its time zone), so “today” may be different days at
        venues in different time zones.
      </Text>
      <DataTable
        label="Venues of the chain"
        rows={rows}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ 'data-venue': r.total ? 'total' : r.id })}
        columns={[
          {
            key: 'venue',
            label: 'Venue',
            render: (r) =>
              r.total ? (
                <strong>{r.name}</strong>
              ) : (
                <span>
                  {r.name}{' '}
                  {r.current && (
                    <Badge size="xs" variant="light">
                      current
                    </Badge>
                  )}
                  <Text span size="xs" c="dimmed" ml={6}>
                    {r.day}
                  </Text>
                </span>
              ),
          },
          { key: 'checks', label: 'Checks', numeric: true, render: (r) => n(r, String(r.f.checks)) },
          { key: 'sales', label: 'Sales', numeric: true, render: (r) => n(r, format(r.f.sales)) },
          { key: 'earned', label: 'Cashback earned', numeric: true, render: (r) => n(r, format(r.f.earned)) },
          { key: 'redeemed', label: 'Cashback redeemed', numeric: true, render: (r) => n(r, format(r.f.redeemed)) },
        ]}
      />
    </Paper>
  );
}

/** One of a few values, as a row of small buttons; `options` maps each value to its label, in the order shown. */
function Choice<T extends string>({ label, value, onChange, options }: { label: string; value: T; onChange: (value: T) => void; options: Record<T, string> }) {
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(v) => onChange(v as T)}
      data={Object.entries<string>(options).map(([v, l]) => ({ value: v, label: l }))}
      aria-label={label}
    />
  );
}

function Section({ title, items, testid }: { title: string; items: { label: string; value: string }[]; testid: string }) {
  return (
    <div data-testid={testid}>
      <Text fw={600} mb={6}>
        {title}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
        {items.map((i) => (
          <Stat key={i.label} label={i.label} value={i.value} />
        ))}
      </SimpleGrid>
    </div>
  );
}

/** Bars: cashback earned and redeemed each day (money axis); line: completed checks (count axis). Live only. */
function DaysChart({ days, mode, format }: { days: Overview['days']; mode: 'live' | 'test'; format: (minor: number) => string }) {
  const venue = useVenue();
  const data = days.map((d) => ({ day: day(d.day, venue, true), earned: d[mode].earned, redeemed: d[mode].redeemed, checks: d[mode].checks }));
  return (
    <Group grow>
      <div style={{ width: '100%', height: 280 }} role="img" aria-label="Checks and cashback over the last 30 days">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="day" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={16} />
            <YAxis yAxisId="money" tickFormatter={(v: number) => format(v)} tick={{ fontSize: 11 }} width={64} />
            <YAxis yAxisId="count" orientation="right" allowDecimals={false} tick={{ fontSize: 11 }} width={32} />
            <Tooltip formatter={(value, name) => (name === 'Checks' ? value : format(Number(value)))} />
            <Legend />
            <Bar yAxisId="money" dataKey="earned" name="Cashback earned" fill="var(--mantine-color-teal-6)" isAnimationActive={false} />
            <Bar yAxisId="money" dataKey="redeemed" name="Cashback redeemed" fill="var(--mantine-color-orange-5)" isAnimationActive={false} />
            <Line yAxisId="count" dataKey="checks" name="Checks" stroke="var(--mantine-color-blue-7)" strokeWidth={2} dot={false} isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </Group>
  );
}
