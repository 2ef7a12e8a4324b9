// The chain's catalogue: the products checks name by SKU, each with its category (whose money rules apply to its lines)
// and a price shown for reference; added, changed and removed here as the API's catalogue sync does.
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
          { key: 'price', label: 'Price', numeric: true, render: (p) => money(p.price, venue) },
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
      {editing && <ProductModal product={editing === 'new' ? undefined : editing} onClose={() => (setEditing(undefined), refresh())} />}
    </Stack>
  );
}

function ProductModal({ product, onClose }: { product?: Product; onClose: () => void }) {
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
          <MoneyInput label="Price" description="For reference; the till's check says what was paid" place={venue} allowNegative={false} {...form.getInputProps('price')} />
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
