// Menu and tables: each table's QR code (SVG and PNG) to its public menu page, and the dishes: prices typed in the
// venue's currency (many saved at once), the stop-list switch, adding, editing and removing a dish.
import { Alert, Anchor, Badge, Button, Group, Image, Modal, Paper, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, call, client, money, type Dish } from '../api';
import { MoneyInput } from '../components/MoneyInput';
import { DataTable, type Column } from '../components/DataTable';
import { applyApiError } from '../form-errors';
import { useVenue } from '../session';
import { ConfirmButton } from '../components/ConfirmButton';

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
  const [error, setError] = useState<string>();
  const [editing, setEditing] = useState<Dish | 'new'>();
  // Prices typed but not saved yet, by SKU: saved together, all or none.
  const [prices, setPrices] = useState<Record<string, number | ''>>({});
  const [priceErrors, setPriceErrors] = useState<Record<string, string>>({});
  const rows = dishes.data?.data;
  const changed = Object.entries(prices).filter(([sku, price]) => rows?.find((d) => d.external_id === sku)?.price !== price);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['dishes'] });
  const run = async (change: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await change();
    } catch (err) {
      setError((err as Error).message);
    }
    refresh();
  };
  const savePrices = async () => {
    setError(undefined);
    setPriceErrors({});
    const refused = changed.flatMap(([sku, price]) => {
      const reason = priceProblem(price, venue);
      return reason ? [[sku, reason]] : [];
    });
    if (refused.length) return setPriceErrors(Object.fromEntries(refused));
    const items = changed.map(([external_id, price]) => ({ external_id, price: Number(price) }));
    try {
      await call(client.POST('/dashboard/api/dishes/prices', { body: { items } }));
      setPrices({});
      refresh();
    } catch (err) {
      // Each refused price beside its dish; anything else above the table.
      const byItem = err instanceof ApiError ? err.errors : [];
      if (byItem.length) setPriceErrors(Object.fromEntries(byItem.map((e) => [items[e.index]!.external_id, e.message])));
      else setError((err as Error).message);
    }
  };
  const columns: Column<Dish>[] = [
    { key: 'name', label: 'Dish', render: (d) => d.name },
    { key: 'category', label: 'Category', render: (d) => d.category ?? '—' },
    { key: 'sku', label: 'Code', render: (d) => d.external_id },
    {
      key: 'price',
      label: 'Price',
      numeric: true,
      render: (d) => (
        <MoneyInput
          aria-label={`Price of ${d.name}`}
          place={venue}
          value={prices[d.external_id] ?? d.price}
          error={priceErrors[d.external_id]}
          allowNegative={false}
          onChange={(v) => setPrices((p) => ({ ...p, [d.external_id]: v }))}
          w={130}
          size="xs"
        />
      ),
    },
    {
      key: 'available',
      label: 'Available',
      render: (d) => (
        <Group gap="xs" wrap="nowrap">
          <Switch checked={d.available} aria-label={`${d.name} available`} onChange={(e) => void run(() => patchDish(d.external_id, { available: e.currentTarget.checked }))} />
          {!d.available && (
            <Badge color="red" variant="light">
              stop list
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'actions',
      label: '',
      render: (d) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => setEditing(d)} aria-label={`Edit ${d.name}`}>
            Edit
          </Button>
          <ConfirmButton
            size="xs"
            variant="light"
            aria-label={`Remove ${d.name}`}
            title={`Remove ${d.name} from the menu?`}
            message="Guests no longer see it on the QR menu; orders already placed keep it. Add it again to bring it back."
            confirmLabel="Remove dish"
            onConfirm={() => run(() => call(client.DELETE('/dashboard/api/dishes/{external_id}', { params: { path: { external_id: d.external_id } } })))}
          >
            Remove
          </ConfirmButton>
        </Group>
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>Dishes</Title>
        <Button variant="light" onClick={() => setEditing('new')}>
          Add dish
        </Button>
      </Group>
      <Text c="dimmed" size="sm">
        Type new prices in the table and save them together. Switch a dish off to put it on the stop list: guests cannot order it until it is back. A menu sync from your till may change dishes too.
      </Text>
      {error && <Alert color="red">{error}</Alert>}
      {changed.length > 0 && (
        <Group>
          <Button onClick={() => void savePrices()}>Save {changed.length === 1 ? '1 price' : `${changed.length} prices`}</Button>
          <Button variant="default" onClick={() => (setPrices({}), setPriceErrors({}))}>
            Discard
          </Button>
        </Group>
      )}
      <DataTable label="Dishes" columns={columns} rows={rows} rowKey={(d) => d.id} rowProps={(d) => ({ 'data-sku': d.external_id })} empty="No dishes yet." />
      {editing && <DishModal dish={editing === 'new' ? undefined : editing} onClose={() => (setEditing(undefined), refresh())} />}
    </Stack>
  );
}

/** The API's limit on a dish's price (menu/schemas.ts), said in the venue's money. */
const MAX_PRICE = 100_000_000;
const priceProblem = (price: number | '', venue: { currency: string; locale: string }) =>
  price === '' ? 'Give a price.' : price > MAX_PRICE ? `A dish can cost at most ${money(MAX_PRICE, venue)}.` : undefined;

const patchDish = (externalId: string, body: { available?: boolean; name?: string; category?: string | null; description?: string | null; price?: number }) =>
  call(client.PATCH('/dashboard/api/dishes/{external_id}', { params: { path: { external_id: externalId } }, body }));

/** Adds a dish, or changes one's name, category, description and price; each refusal beside its field. */
function DishModal({ dish, onClose }: { dish?: Dish; onClose: () => void }) {
  const venue = useVenue();
  const [error, setError] = useState<string>();
  const form = useForm({
    initialValues: { external_id: dish?.external_id ?? '', name: dish?.name ?? '', category: dish?.category ?? '', description: dish?.description ?? '', price: (dish?.price ?? '') as number | '' },
    validate: { price: (v) => priceProblem(v, venue) ?? null, name: (v) => (v.trim() ? null : 'Give the dish a name.') },
  });
  const save = form.onSubmit(async (v) => {
    setError(undefined);
    const fields = { name: v.name.trim(), category: v.category.trim() || null, description: v.description.trim() || null, price: Number(v.price) };
    try {
      if (dish) await patchDish(dish.external_id, fields);
      else await call(client.PUT('/dashboard/api/dishes/{external_id}', { params: { path: { external_id: v.external_id.trim() } }, body: fields }));
      onClose();
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  return (
    <Modal opened onClose={onClose} title={dish ? `Edit ${dish.name}` : 'Add dish'}>
      <form onSubmit={save}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          {!dish && <TextInput label="Code" description="The code your till uses for it (SKU), e.g. FLAT-WHITE" required {...form.getInputProps('external_id')} />}
          <TextInput label="Name" required {...form.getInputProps('name')} />
          <TextInput label="Category" description="As the menu groups it, e.g. Coffee" {...form.getInputProps('category')} />
          <TextInput label="Description" {...form.getInputProps('description')} />
          <MoneyInput label="Price" place={venue} allowNegative={false} required {...form.getInputProps('price')} />
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting}>
              {dish ? 'Save dish' : 'Add dish'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
