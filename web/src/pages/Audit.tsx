// The audit log (D24): who changed what in the chain, filtered by what happened, the object and the days, with CSV.
import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { call, client, money, when, type AuditEvent, type Venue } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { LoadMore } from '../components/LoadMore';
import { useChain, useVenue } from '../session';

const PAGE = 50;

const ACTORS = { user: 'Dashboard user', api_key: 'API key', cli: 'Command line', system: 'The service', integration: 'Point-of-sale connection' } as const;

/** What each kind of target is, as a person says it. */
const TARGETS: Record<string, string> = {
  member: 'member',
  user: 'user',
  api_key: 'API key',
  program: 'program',
  campaign: 'campaign',
  webhook_endpoint: 'webhook endpoint',
  integration: 'point-of-sale connection',
  venue: 'venue',
  transaction: 'check',
  category: 'category',
  table: 'table',
  dish: 'dish',
  product: 'product',
};

/** Fields whose figures are money in minor units: shown in the currency. */
const MONEY = new Set(['amount', 'balance', 'budget', 'spent', 'price', 'unit_price', 'min_check_amount', 'referrer_amount', 'referee_amount', 'min_spend', 'max_cashback_per_day']);
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

interface Words {
  venue: Venue;
  venueName: (id: string) => string;
}

/** A value of a change as a person reads it: money in the currency, venues by name, a schedule in days and hours. */
function shown(field: string, value: unknown, words: Words): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' && MONEY.has(field)) return money(value, words.venue);
  if (typeof value === 'string' && (field === 'venue_id' || field === 'home_venue_id')) return words.venueName(value);
  if (Array.isArray(value)) return value.map((v) => shown(field === 'venue_ids' ? 'venue_id' : field, v, words)).join(', ') || 'none';
  if (typeof value === 'object' && field === 'schedule') return schedule(value as { days_of_week?: number[]; from?: string; to?: string });
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A weekly window as "Fri, Sat 22:00–02:00". */
function schedule(s: { days_of_week?: number[]; from?: string; to?: string }): string {
  const days = s.days_of_week?.length ? s.days_of_week.map((d) => DAYS[d % 7]).join(', ') : 'every day';
  return s.from && s.to ? `${days} ${s.from}–${s.to}` : days;
}

/**
 * A day picked (YYYY-MM-DD) as the instants the API filters by: from its start to the next day's start, in the
 * browser's time zone (a day of a clock change is 23 or 25 hours long, all of it included).
 */
const startOf = (day: string, plusDays = 0) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + plusDays).toISOString();
};
const dayStart = (day: string | null) => (day ? startOf(day) : undefined);
const dayAfter = (day: string | null) => (day ? startOf(day, 1) : undefined);

export function AuditPage() {
  const venue = useVenue();
  const chain = useChain();
  const words: Words = { venue, venueName: (id) => chain.venues.find((v) => v.id === id)?.name ?? id };
  const [params, setParams] = useSearchParams();
  const set = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const meta = useQuery({ queryKey: ['meta'], queryFn: () => call(client.GET('/dashboard/api/meta')) });
  const labels = new Map((meta.data?.audit_actions ?? []).map((a) => [a.action, a.label]));
  const filters = {
    action: params.get('action') || undefined,
    target_id: params.get('target_id') || undefined,
    from: dayStart(params.get('from')),
    to: dayAfter(params.get('to')),
  };
  const list = useInfiniteQuery({
    queryKey: ['audit-events', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(client.GET('/dashboard/api/audit-events', { params: { query: { ...filters, limit: PAGE, ...(pageParam ? { starting_after: pageParam } : {}) } } })),
    getNextPageParam: (last) => (last.has_more ? last.data[last.data.length - 1]?.id : undefined),
  });
  const rows = list.data?.pages.flatMap((p) => p.data);
  const csv = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => e[1] !== undefined));
  const columns: Column<AuditEvent>[] = [
    { key: 'when', label: 'When', render: (e) => when(e.created_at, venue) },
    { key: 'what', label: 'What', render: (e) => labels.get(e.action) ?? e.action },
    {
      key: 'who',
      label: 'Who',
      render: (e) => (
        <Stack gap={0}>
          <Text size="sm" title={e.actor.id ?? undefined}>
            {e.actor_name ?? ACTORS[e.actor.type]}
          </Text>
          {(e.actor_name || e.address) && (
            <Text size="xs" c="dimmed">
              {[e.actor_name ? ACTORS[e.actor.type] : null, e.address ? `from ${e.address}` : null].filter(Boolean).join(' · ')}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'target',
      label: 'About',
      render: (e) => (
        <Stack gap={0}>
          <Text size="sm" title={e.target.id ?? undefined} ff={e.target_name ? undefined : 'monospace'}>
            {e.target_name ?? e.target.id ?? '—'}
          </Text>
          <Text size="xs" c="dimmed">
            {TARGETS[e.target.type] ?? e.target.type.replaceAll('_', ' ')}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'changes',
      label: 'Changed',
      render: (e) =>
        Object.keys(e.changes).length === 0 ? (
          '—'
        ) : (
          <Stack gap={0}>
            {Object.entries(e.changes).map(([field, [before, after]]) => (
              <Text size="xs" key={field}>
                {field.replaceAll('_', ' ')}: {shown(field, before, words)} → {shown(field, after, words)}
              </Text>
            ))}
          </Stack>
        ),
    },
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Audit log</Title>
        <Button component="a" href={`/dashboard/api/audit-events/export.csv?${csv.toString()}`} download variant="default">
          Export CSV
        </Button>
      </Group>
      <Text c="dimmed" size="sm">
        Every change to keys, users, venues, the brand, programs, campaigns, categories, dishes, products, tables, webhooks and members, and every failed sign-in or refused change, in the whole chain. Nobody can change or delete an entry.
      </Text>
      <Paper withBorder p="sm">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          <Select
            label="What happened"
            placeholder="Anything"
            clearable
            data={(meta.data?.audit_actions ?? []).map((a) => ({ value: a.action, label: a.label }))}
            value={filters.action ?? null}
            onChange={(v) => set('action', v)}
          />
          <TextInput label="About" description="The id of a member, key, campaign…" value={filters.target_id ?? ''} onChange={(e) => set('target_id', e.currentTarget.value.trim())} />
          <TextInput type="date" label="From" value={params.get('from') ?? ''} onChange={(e) => set('from', e.currentTarget.value)} />
          <TextInput type="date" label="To" description="Included" value={params.get('to') ?? ''} onChange={(e) => set('to', e.currentTarget.value)} />
        </SimpleGrid>
      </Paper>
      {list.error && <Alert color="red">{list.error.message}</Alert>}
      <DataTable label="Audit log" columns={columns} rows={rows} rowKey={(e) => e.id} rowProps={(e) => ({ 'data-action': e.action })} empty="Nothing matches these filters." />
      <LoadMore list={list} />
    </Stack>
  );
}
