// A member's activity on their page (D27): one row per check — when it closed, where, what it earned and redeemed,
// its campaign credits, its refunds under it — and one per other change, newest first, page by page. A manager
// refunds or voids a check of the venue from its row.
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client, money, when, type Venue } from '../api';
import { useCan, useChain } from '../session';
import { CheckReversal, type ReversedCheck } from './CheckReversal';
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
  // A check's own entries, where an older release wrote them without naming the check (docs/members.md).
  check_entry: 'Check',
  earn: 'Cashback earned',
  earn_reversal: 'Cashback taken back',
  redemption: 'Paid with cashback',
  redemption_reversal: 'Cashback payment given back',
  refund: 'Refund',
  void: 'Check cancelled',
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
  const can = useCan();
  const [reversing, setReversing] = useState<{ check: ReversedCheck; action: 'refund' | 'void' }>();
  // Checks of this venue, still standing: another venue's are reversed from that venue, as its till would.
  const reversible = (a: Activity) => a.type === 'check' && a.status === 'completed' && a.venue_id === venue.id;
  const actions = can('POST /transactions/:id/refunds') && can('POST /transactions/:id/void');
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
          ...(actions
            ? [
                {
                  key: 'actions',
                  label: '',
                  render: (a: Activity) =>
                    reversible(a) && (
                      <Group gap="xs" wrap="nowrap">
                        {a.spend > 0 && (
                          <Button size="xs" variant="default" aria-label={`Refund check ${a.reference}`} onClick={() => setReversing({ check: a, action: 'refund' })}>
                            Refund
                          </Button>
                        )}
                        <Button size="xs" variant="subtle" color="red" aria-label={`Void check ${a.reference}`} onClick={() => setReversing({ check: a, action: 'void' })}>
                          Void
                        </Button>
                      </Group>
                    ),
                },
              ]
            : []),
        ]}
      />
      <LoadMore list={list} />
      {reversing && <CheckReversal {...reversing} memberId={memberId} venue={venue} onClose={() => setReversing(undefined)} />}
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
