// Reports (issue 41): a period of the chain's activity — enrolments, checks and visits by members, sales, cashback
// earned, given by campaigns and redeemed, what members hold after each day — in two charts, figures, per venue and
// per campaign, and as CSV. Live and test are never added together; a test-only chain opens on test.
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { call, client, money, type ActivityReport as Report } from '../api';
import { DataTable } from '../components/DataTable';
import { Stat } from '../components/Stat';
import { day } from '../dates';
import { useChain, useVenue } from '../session';
import { useTraffic } from '../traffic';
import { TestOnlyNotice, TrafficSwitch } from '../components/TrafficSwitch';

/** Today in the venue's time zone, and the day `n` days before it, YYYY-MM-DD. */
function daysBack(timezone: string, n: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
}

export function ReportsPage() {
  const venue = useVenue();
  const chain = useChain();
  const [params, setParams] = useSearchParams();
  const from = params.get('from') || daysBack(venue.timezone, 29);
  const to = params.get('to') || daysBack(venue.timezone, 0);
  const { livemode, testOnly, ready } = useTraffic(params.get('livemode'));
  const set = (change: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) next.set(k, v);
    setParams(next, { replace: true });
  };
  const report = useQuery({
    queryKey: ['activity-report', from, to, livemode],
    queryFn: () => call(client.GET('/dashboard/api/reports/activity', { params: { query: { from, to, livemode } } })),
    enabled: ready,
  });
  const r = report.data;
  const m = (n: number) => money(n, { currency: r?.currency ?? chain.currency, locale: venue.locale });
  const last = (n: number) => () => set({ from: daysBack(venue.timezone, n - 1), to: daysBack(venue.timezone, 0) });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Reports</Title>
        <Button component="a" href={`/dashboard/api/reports/activity.csv?${new URLSearchParams({ from, to, livemode: String(livemode) })}`} download variant="default">
          Download CSV
        </Button>
      </Group>
      <Paper withBorder p="sm">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          <TextInput type="date" label="From" description="Included" value={from} onChange={(e) => e.currentTarget.value && set({ from: e.currentTarget.value })} />
          <TextInput type="date" label="To" description="Included" value={to} onChange={(e) => e.currentTarget.value && set({ to: e.currentTarget.value })} />
          <TrafficSwitch livemode={livemode} onChange={(live) => set({ livemode: String(live) })} />
          <Group gap="xs" align="flex-end">
            <Button size="xs" variant="light" onClick={last(30)}>
              30 days
            </Button>
            <Button size="xs" variant="light" onClick={last(90)}>
              90 days
            </Button>
            <Button size="xs" variant="light" onClick={last(365)}>
              A year
            </Button>
          </Group>
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt="xs">
          Checks count on the day they closed at their venue; cashback, enrolments and what members hold on the day in{' '}
          {venue.timezone}.
        </Text>
      </Paper>
      {testOnly && <TestOnlyNotice />}
      {report.error && <Alert color="red">{report.error.message}</Alert>}
      {r && <Figures r={r} m={m} />}
    </Stack>
  );
}

function Figures({ r, m }: { r: Report; m: (n: number) => string }) {
  const venue = useVenue();
  const t = r.totals;
  const data = r.days.map((d) => ({ ...d, label: day(d.day, venue, true) }));
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Stat label="Enrolments" value={t.enrolments} />
        <Stat label="Checks" value={t.checks} hint={`${t.member_checks} by members`} />
        <Stat label="Sales" value={m(t.sales)} hint="less refunds" />
        <Stat label="Active members" value={t.active_30} hint={`in the 30 days to ${day(r.to, venue)}; ${t.active_90} in 90`} />
        <Stat label="Cashback given" value={m(t.earned + t.campaign)} hint={`${m(t.campaign)} of it by campaigns`} />
        <Stat label="Redeemed" value={m(t.redeemed)} hint={t.redemption_rate === null ? 'nothing given' : `${Math.round(t.redemption_rate * 1000) / 10} % of what was given`} />
        <Stat label="Members hold" value={m(t.outstanding_end)} hint={`${m(t.outstanding_start)} at the start`} />
        <Stat label="Net change" value={m(t.net)} hint="expiries, adjustments and imports too" />
      </SimpleGrid>
      <Chart label="Checks, visits by members and enrolments per day" data={data}>
        <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={40} />
        <Tooltip />
        <Bar dataKey="checks" name="Checks" fill="var(--mantine-color-blue-5)" isAnimationActive={false} />
        <Bar dataKey="member_checks" name="Visits by members" fill="var(--mantine-color-teal-6)" isAnimationActive={false} />
        <Line dataKey="enrolments" name="Enrolments" stroke="var(--mantine-color-grape-7)" strokeWidth={2} dot={false} isAnimationActive={false} />
      </Chart>
      <Chart label="Cashback per day and what members hold" data={data}>
        <YAxis yAxisId="day" tickFormatter={(v: number) => m(v)} tick={{ fontSize: 11 }} width={64} />
        <YAxis yAxisId="held" orientation="right" tickFormatter={(v: number) => m(v)} tick={{ fontSize: 11 }} width={72} />
        <Tooltip formatter={(value) => m(Number(value))} />
        <Bar yAxisId="day" dataKey="earned" name="Earned" stackId="given" fill="var(--mantine-color-teal-6)" isAnimationActive={false} />
        <Bar yAxisId="day" dataKey="campaign" name="Campaigns" stackId="given" fill="var(--mantine-color-lime-6)" isAnimationActive={false} />
        <Bar yAxisId="day" dataKey="redeemed" name="Redeemed" fill="var(--mantine-color-orange-5)" isAnimationActive={false} />
        <Line yAxisId="held" dataKey="outstanding" name="Members hold" stroke="var(--mantine-color-blue-7)" strokeWidth={2} dot={false} isAnimationActive={false} />
      </Chart>
      <Title order={3}>Per venue</Title>
      <DataTable
        label="Per venue"
        rows={r.venues}
        rowKey={(v) => v.venue_id}
        columns={[
          { key: 'name', label: 'Venue', render: (v) => v.name },
          { key: 'checks', label: 'Checks', numeric: true, render: (v) => v.checks },
          { key: 'member_checks', label: 'By members', numeric: true, render: (v) => v.member_checks },
          { key: 'sales', label: 'Sales', numeric: true, render: (v) => m(v.sales) },
          { key: 'earned', label: 'Earned', numeric: true, render: (v) => m(v.earned) },
          { key: 'campaign', label: 'Campaigns', numeric: true, render: (v) => m(v.campaign) },
          { key: 'redeemed', label: 'Redeemed', numeric: true, render: (v) => m(v.redeemed) },
        ]}
      />
      <Title order={3}>Campaigns</Title>
      <DataTable
        label="Campaign credits"
        rows={r.campaigns}
        rowKey={(c) => c.campaign_id}
        empty="No campaign credited anyone in this period."
        columns={[
          { key: 'name', label: 'Campaign', render: (c) => c.name },
          { key: 'credited', label: 'Given', numeric: true, render: (c) => (c.unit === 'stamps' ? `${c.credited} stamps` : m(c.credited)) },
          { key: 'members', label: 'Members', numeric: true, render: (c) => c.members },
        ]}
      />
    </>
  );
}

function Chart({ label, data, children }: { label: string; data: object[]; children: ReactNode }) {
  return (
    <Paper withBorder p="sm">
      <Text fw={500} size="sm" mb="xs">
        {label}
      </Text>
      <div style={{ width: '100%', height: 260 }} role="img" aria-label={label}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={16} />
            <Legend />
            {children}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </Paper>
  );
}
