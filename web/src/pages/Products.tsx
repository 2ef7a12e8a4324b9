// The chain's catalogue: the products checks name by SKU, each with its category (whose money rules apply to its lines)
// and a price shown for reference; added, changed and removed here as the API's catalogue sync does. One price per SKU:
// where this venue's menu has a dish of the SKU, the dish's price is the price here (guests order at it), and the
// catalogue's is not shown beside it.
import { Alert, Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client, money } from '../api';
import { DataTable } from '../components/DataTable';
import { MoneyInput } from '../components/MoneyInput';
import { applyApiError } from '../form-errors';
import { useVenue } from '../session';
import { ConfirmButton } from '../components/ConfirmButton';

type Product = NonNullable<Awaited<ReturnType<typeof listProducts>>>['data'][number];
const listProducts = () => call(client.GET('/dashboard/api/products', { params: { query: { limit: 100 } } }));

export function ProductsPage() {
  const venue = useVenue();
  const qc = useQueryClient();
  const products = useQuery({ queryKey: ['products'], queryFn: listProducts });
  // The Menu page's own query: the dishes of this venue, by SKU.
  const dishes = useQuery({ queryKey: ['dishes'], queryFn: () => call(client.GET('/dashboard/api/dishes', { params: { query: { limit: 100 } } })) });
  const menuPrice = new Map((dishes.data?.data ?? []).map((d) => [d.external_id, d.price]));
  const [editing, setEditing] = useState<Product | 'new'>();
  const [error, setError] = useState<string>();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['products'] });
  const remove = async (sku: string) => {
    setError(undefined);
    await call(client.DELETE('/dashboard/api/products/{sku}', { params: { path: { sku } } })).catch((err: Error) => setError(err.message));
    refresh();
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Products</Title>
        <Button onClick={() => setEditing('new')}>Add product</Button>
      </Group>
      <Text c="dimmed" size="sm">
        What your tills sell, by the code they send for each line (SKU). A product&apos;s category decides whether its lines earn cashback and can be paid with it (see Categories). Shared by every venue of the chain.
      </Text>
      {error && <Alert color="red">{error}</Alert>}
      <DataTable
        label="Products"
        rows={products.data?.data}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ 'data-sku': p.sku })}
        empty="No products yet."
        columns={[
          { key: 'name', label: 'Product', render: (p) => p.name },
          { key: 'sku', label: 'Code', render: (p) => p.sku },
          { key: 'category', label: 'Category', render: (p) => p.category ?? '—' },
          {
            key: 'price',
            label: 'Price',
            numeric: true,
            render: (p) =>
              menuPrice.has(p.sku) ? (
                <span title="This venue's menu has the dish: its price is the one guests order at">{money(menuPrice.get(p.sku)!, venue)} (menu)</span>
              ) : (
                money(p.price, venue)
              ),
          },
          {
            key: 'actions',
            label: '',
            render: (p) => (
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
                  Edit
                </Button>
                <ConfirmButton
                  size="xs"
                  variant="light"
                  aria-label={`Remove ${p.name}`}
                  title={`Remove ${p.name} from the catalogue?`}
                  message={`Checks that name SKU ${p.sku} afterwards earn by their category's rule alone. Past checks keep what they earned.`}
                  confirmLabel="Remove product"
                  onConfirm={() => remove(p.sku)}
                >
                  Remove
                </ConfirmButton>
              </Group>
            ),
          },
        ]}
      />
      {editing && (
        <ProductModal
          product={editing === 'new' ? undefined : editing}
          menuPrice={editing === 'new' ? undefined : menuPrice.get(editing.sku)}
          onClose={() => (setEditing(undefined), refresh())}
        />
      )}
    </Stack>
  );
}

/** `menuPrice`: the price of this venue's dish of the SKU, which is the price here; the catalogue's stays as it is. */
function ProductModal({ product, menuPrice, onClose }: { product?: Product; menuPrice?: number; onClose: () => void }) {
  const venue = useVenue();
  const [error, setError] = useState<string>();
  const form = useForm({ initialValues: { sku: product?.sku ?? '', name: product?.name ?? '', category: product?.category ?? '', price: (product?.price ?? '') as number | '' } });
  const save = form.onSubmit(async (v) => {
    setError(undefined);
    try {
      await call(
        client.PUT('/dashboard/api/products/{sku}', {
          params: { path: { sku: v.sku.trim() } },
          body: { name: v.name.trim(), category: v.category.trim() || null, price: v.price === '' ? null : v.price },
        }),
      );
      onClose();
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  return (
    <Modal opened onClose={onClose} title={product ? `Edit ${product.name}` : 'Add product'}>
      <form onSubmit={save}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          {!product && <TextInput label="Code" description="What the till sends for this product (SKU), e.g. FLAT-WHITE" required {...form.getInputProps('sku')} />}
          <TextInput label="Name" required {...form.getInputProps('name')} />
          <TextInput label="Category" description="Its category's code, e.g. coffee; a new one is created" {...form.getInputProps('category')} />
          {menuPrice === undefined ? (
            <MoneyInput label="Price" description="For reference; the till's check says what was paid" place={venue} allowNegative={false} {...form.getInputProps('price')} />
          ) : (
            <Text size="sm" data-testid="menu-price">
              Priced on this venue’s menu at {money(menuPrice, venue)}: change it under Menu and tables.
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting}>
              {product ? 'Save product' : 'Add product'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
