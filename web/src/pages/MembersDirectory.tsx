// The members directory (D27): find a guest by any part of her name, card, phone or e-mail as you type; filter by
// level, program, home venue and last visit; sort; page with "Load more". Filters live in the address.
import { Alert, Anchor, Badge, Button, Collapse, Group, Paper, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { call, client, money, when, type MemberQuery } from '../api';
import { DataTable } from '../components/DataTable';
import { LoadMore } from '../components/LoadMore';
import { useCan, useChain, useVenue } from '../session';

type Sort = NonNullable<MemberQuery['sort']>;

const PAGE = 50;
const DAY_MS = 86_400_000;
const SORTS: Array<{ value: Sort; label: string }> = [
  { value: 'newest', label: 'Newest first' },
  { value: 'name', label: 'Name A–Z' },
  { value: 'last_visit', label: 'Last visit, latest first' },
  { value: 'balance', label: 'Balance, highest first' },
  { value: 'spend', label: 'Total spend, highest first' },
];
/** Last-visit windows in days: a positive number is "within", a negative one "not for". */
const VISITS = [
  { value: '30', label: 'Came in the last 30 days' },
  { value: '90', label: 'Came in the last 90 days' },
  { value: '-60', label: 'Came, but not in 60 days' },
  { value: '-180', label: 'Came, but not in 180 days' },
];

export function MembersPage() {
  const venue = useVenue();
  const chain = useChain();
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const set = (change: Record<string, string | null | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  const [typed, setTyped] = useState(params.get('q') ?? '');
  // A search per pause in typing, not per key.
  const [q] = useDebouncedValue(typed.trim(), 250);
  // Only when it changed: replacing the address on arrival would drop the notice an erasure left in its state.
  useEffect(() => {
    if (q !== (params.get('q') ?? '')) set({ q });
  }, [q]); // eslint-disable-line react-hooks/exhaustive-deps
  const programs = useQuery({ queryKey: ['programs'], queryFn: () => call(client.GET('/dashboard/api/programs')) });
  const levels = [...new Set((programs.data ?? []).flatMap((p) => ('levels' in p.settings && Array.isArray(p.settings.levels) ? p.settings.levels.map((l: { name: string }) => l.name) : [])))];
  const visit = params.get('visit');
  // Fixed when the window is chosen: a time that moved on each render would change the query and drop loaded pages.
  const visitWindow = useMemo(() => (visit ? lastVisit(Number(visit)) : {}), [visit]);
  const query: MemberQuery = {
    q: params.get('q') || undefined,
    sort: (params.get('sort') as Sort | null) ?? (params.get('q') ? 'name' : 'newest'),
    level: params.get('level') || undefined,
    program_id: params.get('program_id') || undefined,
    venue_id: params.get('venue_id') || undefined,
    ...visitWindow,
  };
  // Set by a member's page after an erasure, which leads here.
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const list = useInfiniteQuery({
    queryKey: ['members', query],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => call(client.GET('/dashboard/api/members', { params: { query: { ...query, limit: PAGE, ...(pageParam ? { starting_after: pageParam } : {}) } } })),
    getNextPageParam: (last) => (last.has_more ? last.data[last.data.length - 1]?.id : undefined),
  });
  const filtered = Boolean(query.q || query.level || query.program_id || query.venue_id || visit);
  // On a phone the filters fold away under a button, so the first result shows under the search box.
  const phone = useMediaQuery('(max-width: 48em)');
  const [showFilters, setShowFilters] = useState(false);
  const chosen = [params.get('sort'), query.level, query.program_id, query.venue_id, visit].filter(Boolean).length;
  const exported = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Members</Title>
        {can('GET /members/export.csv') && (
          <Button component="a" href={`/dashboard/api/members/export.csv?${exported}`} download variant="default">
            Export CSV
          </Button>
        )}
      </Group>
      {notice && <Alert color="green">{notice}</Alert>}
      <Paper withBorder p="sm">
        <Stack gap="sm">
          <TextInput
            label="Find a member"
            description="Any part of a name, or a card number, phone or e-mail"
            placeholder="e.g. Aoife, 0871234567"
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            maxLength={200}
          />
          {phone && (
            <Group>
              <Button variant="default" size="compact-sm" onClick={() => setShowFilters((v) => !v)} aria-expanded={showFilters}>
                {showFilters ? 'Hide sort and filters' : `Sort and filters${chosen ? ` (${chosen})` : ''}`}
              </Button>
            </Group>
          )}
          <Collapse expanded={!phone || showFilters}>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
              <Select label="Sort" data={SORTS} value={query.sort ?? 'newest'} onChange={(v) => set({ sort: v })} allowDeselect={false} />
              <Select label="Level" placeholder="Any level" clearable data={levels} value={query.level ?? null} onChange={(v) => set({ level: v })} />
              <Select
                label="Program"
                placeholder="Any program"
                clearable
                data={(programs.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
                value={query.program_id ?? null}
                onChange={(v) => set({ program_id: v })}
              />
              <Select
                label="Home venue"
                placeholder="Any venue"
                clearable
                data={chain.venues.map((v) => ({ value: v.id, label: v.name }))}
                value={query.venue_id ?? null}
                onChange={(v) => set({ venue_id: v })}
              />
              <Select label="Last visit" placeholder="Any time" clearable data={VISITS} value={visit} onChange={(v) => set({ visit: v })} />
            </SimpleGrid>
          </Collapse>
          {filtered && (
            <Group>
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={() => {
                  setTyped('');
                  setParams(new URLSearchParams(), { replace: true });
                }}
              >
                Clear search and filters
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
      <DataTable
        label="Members"
        rows={list.data?.pages.flatMap((p) => p.data)}
        rowKey={(m) => m.id}
        empty={filtered ? 'No member matches.' : 'No members yet.'}
        columns={[
          {
            key: 'name',
            label: 'Member',
            render: (m) => (
              <>
                <Anchor component={Link} to={`/members/${m.id}`}>
                  {m.name ?? `Card ${m.card_numbers[0] ?? m.serial}`}
                </Anchor>
                {!m.livemode && (
                  <Badge ml="xs" size="xs" color="orange" variant="light">
                    test
                  </Badge>
                )}
              </>
            ),
          },
          { key: 'card', label: 'Card', render: (m) => m.card_numbers[0] ?? m.serial },
          { key: 'contact', label: 'Phone or e-mail', render: (m) => m.phone ?? m.email ?? '—' },
          { key: 'level', label: 'Level', render: (m) => m.level?.name ?? '—' },
          { key: 'balance', label: 'Balance', numeric: true, render: (m) => money(m.balance, venue) },
          { key: 'spend', label: 'Total spend', numeric: true, render: (m) => money(m.total_spend, venue) },
          { key: 'visit', label: 'Last visit', render: (m) => when(m.last_visit_at, venue) },
        ]}
      />
      <LoadMore list={list} />
    </Stack>
  );
}

function lastVisit(days: number): Partial<Pick<MemberQuery, 'last_visit_after' | 'last_visit_before'>> {
  if (!Number.isFinite(days) || days === 0) return {};
  const since = new Date(Date.now() - Math.abs(days) * DAY_MS).toISOString();
  return days > 0 ? { last_visit_after: since } : { last_visit_before: since };
}
