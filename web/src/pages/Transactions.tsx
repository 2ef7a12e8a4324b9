// Transactions: every key's checks filtered by day, register, mode and status, with CSV export; a transaction's page.
import { Alert, Anchor, Badge, Button, Code, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { call, client, money, when, type Transaction, type TransactionFilters } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { LoadMore } from '../components/LoadMore';
import { Stat } from '../components/Stat';
import { useVenue } from '../session';

const PAGE = 50;

/** The filters live in the address, so a filtered list can be bookmarked and the back button returns to it. */
function useFilters(): [TransactionFilters, (change: Partial<Record<keyof TransactionFilters, string | undefined>>) => void] {
  const [params, setParams] = useSearchParams();
  const livemode = params.get('livemode');
  const status = params.get('status');
  const filters: TransactionFilters = {
    from: params.get('from') || undefined,
    to: params.get('to') || undefined,
    register_id: params.get('register_id') || undefined,
    livemode: livemode === 'true' ? true : livemode === 'false' ? false : undefined,
    status: status === 'completed' || status === 'voided' ? status : undefined,
  };
  const set = (change: Partial<Record<keyof TransactionFilters, string | undefined>>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  return [filters, set];
}

function queryString(filters: TransactionFilters): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v !== undefined) q.set(k, String(v));
  return q.toString();
}

export function StatusBadge({ tx }: { tx: Pick<Transaction, 'status' | 'refunded_amount'> }) {
  if (tx.status === 'voided') return <Badge color="red" variant="light">voided</Badge>;
  if (tx.refunded_amount > 0) return <Badge color="yellow" variant="light">part refunded</Badge>;
  return <Badge color="teal" variant="light">completed</Badge>;
}

export function ModeBadge({ livemode }: { livemode: boolean }) {
  return (
    <Badge color={livemode ? 'blue' : 'orange'} variant="outline" size="sm">
      {livemode ? 'live' : 'test'}
    </Badge>
  );
}

export function TransactionsPage() {
  const venue = useVenue();
  const [filters, setFilter] = useFilters();
  const registers = useQuery({ queryKey: ['transaction-registers'], queryFn: () => call(client.GET('/dashboard/api/transactions/registers')) });
  const list = useInfiniteQuery({
    queryKey: ['transactions', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(client.GET('/dashboard/api/transactions', { params: { query: { ...filters, limit: PAGE, ...(pageParam ? { starting_after: pageParam } : {}) } } })),
    getNextPageParam: (last) => (last.has_more ? last.data[last.data.length - 1]?.id : undefined),
  });
  const rows = list.data?.pages.flatMap((p) => p.data);
  const columns: Column<Transaction>[] = [
    { key: 'when', label: 'Closed', render: (tx) => when(tx.closed_at ?? tx.created_at, venue) },
    {
      key: 'check',
      label: 'Check',
      render: (tx) => (
        <Anchor component={Link} to={`/transactions/${tx.id}`}>
          {tx.external_id}
        </Anchor>
      ),
    },
    { key: 'register', label: 'Register', render: (tx) => tx.register_id ?? '—' },
    {
      key: 'member',
      label: 'Member',
      render: (tx) =>
        tx.member ? (
          <Anchor component={Link} to={`/members/${tx.member.id}`}>
            {tx.member.name ?? tx.member.card_number}
          </Anchor>
        ) : (
          '—'
        ),
    },
    { key: 'mode', label: 'Mode', render: (tx) => <ModeBadge livemode={tx.livemode} /> },
    { key: 'status', label: 'Status', render: (tx) => <StatusBadge tx={tx} /> },
    { key: 'subtotal', label: 'Subtotal', numeric: true, render: (tx) => money(tx.subtotal, venue) },
    { key: 'redeemed', label: 'Redeemed', numeric: true, render: (tx) => money(tx.redeemed, venue) },
    { key: 'earned', label: 'Earned', numeric: true, render: (tx) => money(tx.earned, venue) },
    { key: 'paid', label: 'Paid', numeric: true, render: (tx) => money(tx.paid, venue) },
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Transactions</Title>
        <Button component="a" href={`/dashboard/api/transactions/export.csv?${queryString(filters)}`} download variant="default">
          Export CSV
        </Button>
      </Group>
      <Paper withBorder p="sm">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          <TextInput type="date" label="From" description="Venue day the check closed" value={filters.from ?? ''} onChange={(e) => setFilter({ from: e.currentTarget.value })} />
          <TextInput type="date" label="To" description="Included" value={filters.to ?? ''} onChange={(e) => setFilter({ to: e.currentTarget.value })} />
          <Select
            label="Register"
            description="As the till names itself"
            placeholder="All registers"
            clearable
            clearButtonProps={{ 'aria-label': 'All registers', 'aria-hidden': false, tabIndex: 0 }}
            data={registers.data ?? []}
            value={filters.register_id ?? null}
            onChange={(v) => setFilter({ register_id: v ?? undefined })}
          />
          <Stack gap={6}>
            <SegmentedControl
              aria-label="Mode"
              size="xs"
              data={[
                { value: '', label: 'Live + test' },
                { value: 'true', label: 'Live' },
                { value: 'false', label: 'Test' },
              ]}
              value={filters.livemode === undefined ? '' : String(filters.livemode)}
              onChange={(v) => setFilter({ livemode: v })}
            />
            <SegmentedControl
              aria-label="Status"
              size="xs"
              data={[
                { value: '', label: 'Any status' },
                { value: 'completed', label: 'Completed' },
                { value: 'voided', label: 'Voided' },
              ]}
              value={filters.status ?? ''}
              onChange={(v) => setFilter({ status: v })}
            />
          </Stack>
        </SimpleGrid>
      </Paper>
      {list.error && <Alert color="red">{list.error.message}</Alert>}
      <DataTable label="Transactions" columns={columns} rows={rows} rowKey={(tx) => tx.id} rowProps={(tx) => ({ 'data-external-id': tx.external_id })} empty="No transaction matches these filters." />
      <LoadMore list={list} />
    </Stack>
  );
}

export function TransactionPage() {
  const { id } = useParams();
  const venue = useVenue();
  const tx = useQuery({ queryKey: ['transaction', id], queryFn: () => call(client.GET('/dashboard/api/transactions/{id}', { params: { path: { id: id! } } })) });
  if (tx.error) return <Alert color="red">{tx.error.message}</Alert>;
  const t = tx.data;
  if (!t) return null;
  type Line = Transaction['line_items'][number];
  const columns: Column<Line>[] = [
    { key: 'name', label: 'Line', render: (l) => l.name },
    { key: 'sku', label: 'SKU', render: (l) => l.sku ?? '—' },
    { key: 'category', label: 'Category', render: (l) => l.category ?? '—' },
    { key: 'qty', label: 'Qty', numeric: true, render: (l) => l.quantity },
    { key: 'price', label: 'Unit price', numeric: true, render: (l) => money(l.unit_price, venue) },
    { key: 'amount', label: 'Amount', numeric: true, render: (l) => money(l.amount, venue) },
    {
      key: 'rule',
      label: 'Rule source',
      render: (l) => (
        <Badge variant="light" color={l.rule_source === 'default' ? 'gray' : 'grape'}>
          {l.rule_source}
        </Badge>
      ),
    },
    {
      key: 'rules',
      label: 'Rules',
      render: (l) => `${l.earns_cashback ? `earns ${l.cashback_percent} %` : 'earns nothing'} · ${l.payable_with_cashback ? 'payable' : 'not payable'} with cashback`,
    },
    { key: 'redeemed', label: 'Redeemed', numeric: true, render: (l) => money(l.redeemed, venue) },
    { key: 'earned', label: 'Earned', numeric: true, render: (l) => money(l.earned, venue) },
  ];
  return (
    <Stack>
      <Anchor component={Link} to="/transactions">
        ← Transactions
      </Anchor>
      <Group gap="sm">
        <Title order={2}>Check {t.external_id}</Title>
        <StatusBadge tx={t} />
        <ModeBadge livemode={t.livemode} />
      </Group>
      <Text c="dimmed" size="sm">
        Register {t.register_id ?? '—'} · closed {when(t.closed_at, venue)} · received {when(t.created_at, venue)}
        {t.hold_id ? ` · hold ${t.hold_id}` : ''} ·{' '}
        {t.member ? (
          <Anchor component={Link} to={`/members/${t.member.id}`} size="sm">
            {[t.member.name, t.member.card_number].filter(Boolean).join(', ')}
          </Anchor>
        ) : (
          'no member'
        )}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
        <Stat label="Subtotal" value={money(t.subtotal, venue)} />
        <Stat label="Discount" value={money(t.discount_amount, venue)} />
        <Stat label="Cashback used" value={money(t.redeemed, venue)} />
        <Stat label="Cashback earned" value={money(t.earned, venue)} hint={t.earn_capped ? 'capped by a rule' : undefined} />
        <Stat label="Paid" value={money(t.paid, venue)} />
        <Stat label="Refunded" value={money(t.refunded_amount, venue)} hint={`refundable ${money(t.refundable, venue)}`} />
      </SimpleGrid>
      <Title order={3}>Lines</Title>
      <DataTable label="Lines" columns={columns} rows={t.line_items} rowKey={(l) => `${t.line_items.indexOf(l)}`} />
      <Title order={3}>Display text</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" mb={4}>
            Cashier
          </Text>
          <Code block data-testid="display-cashier" style={{ whiteSpace: 'pre-wrap' }}>
            {t.display.cashier}
          </Code>
        </Paper>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" mb={4}>
            Receipt
          </Text>
          <Code block data-testid="display-receipt" style={{ whiteSpace: 'pre-wrap' }}>
            {t.display.receipt.join('\n')}
          </Code>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
