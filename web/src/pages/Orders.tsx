// The live orders board: today's table orders by status, refreshed every few seconds without reload, moved on by button.
import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, client, money, type Order } from '../api';
import { useVenue } from '../session';

/** How often the board asks for orders: a guest's order shows within this long. */
export const ORDERS_REFRESH_MS = 3000;

/** Where an order's life ends; their column shows which end it was. */
const FINISHED = ['closed', 'rejected', 'cancelled'];

const COLUMNS: { title: string; statuses: string[] }[] = [
  { title: 'New', statuses: ['new'] },
  { title: 'Accepted', statuses: ['accepted'] },
  { title: 'Preparing', statuses: ['preparing'] },
  { title: 'Ready', statuses: ['ready'] },
  { title: 'Served', statuses: ['served'] },
  { title: 'Done', statuses: FINISHED },
];

const MOVE_LABEL: Record<string, { label: string; color?: string; variant?: string }> = {
  accepted: { label: 'Accept' },
  rejected: { label: 'Reject', color: 'red', variant: 'light' },
  preparing: { label: 'Start preparing' },
  ready: { label: 'Ready' },
  served: { label: 'Served' },
  closed: { label: 'Close', variant: 'default' },
  cancelled: { label: 'Cancel', color: 'red', variant: 'subtle' },
};

export function OrdersPage() {
  const orders = useQuery({
    queryKey: ['orders'],
    queryFn: () => call(client.GET('/dashboard/api/orders')),
    refetchInterval: ORDERS_REFRESH_MS,
    refetchIntervalInBackground: true,
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Orders</Title>
        <Text size="sm" c="dimmed">
          Today’s orders · updates every {ORDERS_REFRESH_MS / 1000} s
        </Text>
      </Group>
      {orders.error && <Alert color="red">{orders.error.message}</Alert>}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 6 }} spacing="sm">
        {COLUMNS.map((c) => {
          const list = orders.data?.filter((o) => c.statuses.includes(o.status)) ?? [];
          return (
            <Paper key={c.title} withBorder p="sm" bg="var(--mantine-color-gray-0)" data-column={c.title}>
              <Group justify="space-between" mb="xs">
                <Title order={4}>{c.title}</Title>
                <Badge variant="light" color={c.title === 'New' && list.length ? 'orange' : 'gray'}>
                  {list.length}
                </Badge>
              </Group>
              <Stack gap="xs">
                {list.length === 0 && (
                  <Text size="sm" c="dimmed">
                    None
                  </Text>
                )}
                {list.map((o) => (
                  <OrderCard key={o.id} order={o} />
                ))}
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}

function OrderCard({ order: o }: { order: Order }) {
  const venue = useVenue();
  const qc = useQueryClient();
  const move = useMutation({
    mutationFn: (status: string) =>
      call(client.POST('/dashboard/api/orders/{id}/status', { params: { path: { id: o.id } }, body: { status: status as 'accepted' } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['orders'] }),
  });
  const time = new Intl.DateTimeFormat(venue.locale, { timeStyle: 'short', timeZone: venue.timezone }).format(new Date(o.created_at));
  return (
    <Paper withBorder p="sm" data-order-id={o.id} data-status={o.status} aria-label={`Order from ${o.table_name}`}>
      <Group justify="space-between" gap="xs">
        <Text fw={700}>{o.table_name}</Text>
        <Text size="sm" c="dimmed">
          {time}
        </Text>
      </Group>
      {FINISHED.includes(o.status) && (
        <Badge size="xs" color="gray" variant="light">
          {o.status}
        </Badge>
      )}
      <Stack gap={2} my={6}>
        {o.items.map((i, n) => (
          <Text key={n} size="sm">
            {i.quantity} × {i.name}
            {i.note && (
              <Text span c="dimmed" size="sm">
                {' '}
                · {i.note}
              </Text>
            )}
          </Text>
        ))}
      </Stack>
      {o.comment && (
        <Text size="sm" fs="italic" mb={6}>
          “{o.comment}”
        </Text>
      )}
      {o.status_reason && (
        <Text size="xs" c="dimmed" mb={6}>
          {o.status_reason}
        </Text>
      )}
      <Text size="sm" fw={600}>
        {money(o.subtotal, venue)}
      </Text>
      {move.error && (
        <Alert color="red" mt="xs" p="xs">
          {move.error.message}
        </Alert>
      )}
      {o.next_statuses.length > 0 && (
        <Group gap={6} mt="xs">
          {o.next_statuses.map((s) => {
            const m = MOVE_LABEL[s] ?? { label: s };
            return (
              <Button
                key={s}
                size="compact-sm"
                color={m.color}
                variant={m.variant ?? 'filled'}
                loading={move.isPending && move.variables === s}
                onClick={() => move.mutate(s)}
                aria-label={`${m.label}: ${o.table_name}`}
              >
                {m.label}
              </Button>
            );
          })}
        </Group>
      )}
    </Paper>
  );
}
