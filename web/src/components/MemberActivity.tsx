// A member's activity on their page (D27): one row per check — when it closed, where, what it earned and redeemed,
// its campaign credits, its refunds under it — and one per other change, newest first, page by page.
import { Badge, Group, Stack, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { call, client, money, when, type Venue } from '../api';
import { useChain } from '../session';
import { DataTable } from './DataTable';
import { LoadMore } from './LoadMore';

type Activity = NonNullable<Awaited<ReturnType<typeof loadPage>>>['data'][number];

/** Each kind of change that is not a check, as a person would say it. */
const LABEL: Record<string, string> = {
  visit: 'Visit',
  adjustment: 'Changed by hand',
  import: 'Brought over from the previous system',
  expiry: 'Cashback expired',
  campaign: 'Campaign gift',
  reward_redemption: 'Reward taken',
};

const PAGE = 25;

const loadPage = (id: string, after?: string) =>
  call(client.GET('/dashboard/api/members/{id}/activity', { params: { path: { id }, query: { limit: PAGE, ...(after ? { starting_after: after } : {}) } } }));

export function MemberActivity({ memberId, venue }: { memberId: string; venue: Venue }) {
  const chain = useChain();
  const manyVenues = chain.venues.length > 1;
  const venueName = (venueId: string | null) => (venueId ? (chain.venues.find((v) => v.id === venueId)?.name ?? '—') : 'No venue');
  const list = useInfiniteQuery({
    queryKey: ['member', memberId, 'activity'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => loadPage(memberId, pageParam),
    getNextPageParam: (last) => (last.has_more ? last.data[last.data.length - 1]?.id : undefined),
  });
  const signed = (amount: number) => (amount > 0 ? `+${money(amount, venue)}` : money(amount, venue));
  return (
    <Stack gap="xs">
      <DataTable<Activity>
        label="Activity"
        rows={list.data?.pages.flatMap((p) => p.data)}
        rowKey={(a) => a.id}
        empty="Nothing yet: the member's checks and changes will show here."
        columns={[
          { key: 'when', label: 'When', render: (a) => when(a.at, venue) },
          { key: 'what', label: 'What happened', render: (a) => <What row={a} venue={venue} /> },
          ...(manyVenues ? [{ key: 'venue', label: 'Venue', render: (a: Activity) => venueName(a.venue_id) }] : []),
          { key: 'spend', label: 'Spend', numeric: true, render: (a) => (a.spend ? money(a.spend, venue) : '—') },
          { key: 'details', label: 'Earned · paid with cashback · campaigns', render: (a) => (a.type === 'check' ? checkDetails(a, venue) : (a.reason ?? '—')) },
          { key: 'cashback', label: 'Cashback', numeric: true, render: (a) => (a.cashback ? signed(a.cashback) : '—') },
        ]}
      />
      <LoadMore list={list} />
    </Stack>
  );
}

function What({ row, venue }: { row: Activity; venue: Venue }) {
  if (row.type !== 'check') return <>{LABEL[row.type] ?? row.type.replaceAll('_', ' ')}</>;
  return (
    <Stack gap={2}>
      <Group gap="xs">
        <span>Check {row.reference}</span>
        {row.status === 'voided' && <Badge color="gray">Voided</Badge>}
      </Group>
      {row.refunds.map((r) => (
        <Text key={r.id} size="sm" c="dimmed">
          Refund {r.external_id}: {money(r.amount, venue)} on {when(r.created_at, venue)}
          {r.earned_reversed ? ` · ${money(r.earned_reversed, venue)} of cashback taken back` : ''}
          {r.redeemed_returned ? ` · ${money(r.redeemed_returned, venue)} of cashback given back` : ''}
        </Text>
      ))}
    </Stack>
  );
}

/** What the check earned and redeemed and its campaigns gave, each net of what its void and refunds undid. */
function checkDetails(row: Activity, venue: Venue): string {
  const parts = [
    row.earned ? `earned ${money(row.earned, venue)}` : null,
    row.redeemed ? `paid ${money(row.redeemed, venue)} with cashback` : null,
    row.campaign_cashback ? `campaigns ${money(row.campaign_cashback, venue)}` : null,
    row.campaign_stamps ? `campaigns ${row.campaign_stamps} stamps` : null,
    row.stamps && row.stamps !== row.campaign_stamps ? `${row.stamps - row.campaign_stamps} stamps` : null,
  ].filter(Boolean);
  return parts.join(' · ') || '—';
}
