// Menu and tables: each table's QR code (SVG and PNG) to its public menu page, and the dishes with their stop-list switch.
import { Alert, Anchor, Badge, Button, Group, Image, Paper, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client, money, type Dish } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { applyApiError } from '../form-errors';
import { useVenue } from '../session';

export function MenuPage() {
  return (
    <Stack>
      <Title order={2}>Menu and tables</Title>
      <Tables />
      <Dishes />
    </Stack>
  );
}

function Tables() {
  const qc = useQueryClient();
  const tables = useQuery({ queryKey: ['tables'], queryFn: () => call(client.GET('/dashboard/api/tables')) });
  const [error, setError] = useState<string>();
  const form = useForm({
    initialValues: { name: '', table_code: '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Give the table a name.'),
      table_code: (v) => (!v || /^[a-z0-9-]{1,32}$/.test(v) ? null : 'Lowercase letters, digits and dashes only.'),
    },
  });
  const add = form.onSubmit(async (v) => {
    setError(undefined);
    try {
      await call(client.POST('/dashboard/api/tables', { body: { name: v.name.trim(), ...(v.table_code ? { table_code: v.table_code } : {}) } }));
      form.reset();
      void qc.invalidateQueries({ queryKey: ['tables'] });
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  return (
    <Stack>
      <Title order={3}>Tables</Title>
      <Text c="dimmed" size="sm">
        Print a table’s QR code and put it on the table: guests open the menu on their phone and order; orders appear on the Orders board.
      </Text>
      <form onSubmit={add}>
        <Group align="flex-start">
          {error && <Alert color="red">{error}</Alert>}
          <TextInput label="Table name" placeholder="Window 4" {...form.getInputProps('name')} w={220} maw="100%" />
          <TextInput label="Code in the address" description="Optional; drawn when empty" placeholder="window-4" {...form.getInputProps('table_code')} w={220} maw="100%" />
          <Button type="submit" mt={{ base: 0, xs: 24 }} loading={form.submitting}>
            Add table
          </Button>
        </Group>
      </form>
      {tables.data?.length === 0 && <Text c="dimmed">No tables yet.</Text>}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }}>
        {tables.data?.map((t) => (
          <Paper key={t.id} withBorder p="md" data-table-code={t.table_code}>
            <Stack gap="xs" align="center">
              <Title order={4}>{t.name}</Title>
              <Image src={`/dashboard/api/tables/${t.table_code}/qr.svg`} alt={`QR code of ${t.name}`} w={180} h={180} />
              <Anchor href={t.menu_url} target="_blank" rel="noopener" size="sm" style={{ overflowWrap: 'anywhere' }} ta="center">
                {t.menu_url}
              </Anchor>
              <Group gap="xs">
                <Button component="a" size="xs" variant="default" href={`/dashboard/api/tables/${t.table_code}/qr.png?download=true`} download>
                  PNG
                </Button>
                <Button component="a" size="xs" variant="default" href={`/dashboard/api/tables/${t.table_code}/qr.svg`} download={`table-${t.table_code}.svg`}>
                  SVG
                </Button>
                <Button component="a" size="xs" variant="light" href={t.menu_url} target="_blank" rel="noopener">
                  Open guest page
                </Button>
              </Group>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function Dishes() {
  const venue = useVenue();
  const qc = useQueryClient();
  const dishes = useQuery({ queryKey: ['dishes'], queryFn: () => call(client.GET('/dashboard/api/dishes', { params: { query: { limit: 100 } } })) });
  const toggle = useMutation({
    mutationFn: (d: { external_id: string; available: boolean }) =>
      call(client.PATCH('/dashboard/api/dishes/{external_id}', { params: { path: { external_id: d.external_id } }, body: { available: d.available } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['dishes'] }),
  });
  const columns: Column<Dish>[] = [
    { key: 'name', label: 'Dish', render: (d) => d.name },
    { key: 'category', label: 'Category', render: (d) => d.category ?? '—' },
    { key: 'sku', label: 'SKU', render: (d) => d.external_id },
    { key: 'price', label: 'Price', numeric: true, render: (d) => money(d.price, venue) },
    {
      key: 'available',
      label: 'Available',
      render: (d) => (
        <Group gap="xs" wrap="nowrap">
          <Switch
            checked={d.available}
            aria-label={`${d.name} available`}
            onChange={(e) => toggle.mutate({ external_id: d.external_id, available: e.currentTarget.checked })}
          />
          {!d.available && (
            <Badge color="red" variant="light">
              stop list
            </Badge>
          )}
        </Group>
      ),
    },
  ];
  return (
    <Stack>
      <Title order={3}>Dishes</Title>
      <Text c="dimmed" size="sm">
        Dishes come from your menu sync (API key with menu:write). Switch one off to put it on the stop list: guests cannot order it until it is back.
      </Text>
      {toggle.error && <Alert color="red">{toggle.error.message}</Alert>}
      <DataTable label="Dishes" columns={columns} rows={dishes.data?.data} rowKey={(d) => d.id} rowProps={(d) => ({ 'data-sku': d.external_id })} empty="No dishes yet." />
    </Stack>
  );
}
