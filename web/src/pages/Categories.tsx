import { Alert, Badge, Button, Group, Modal, NumberInput, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client, type Category } from '../api';
import { DataTable } from '../components/DataTable';
import { applyApiError } from '../form-errors';

export function CategoriesPage() {
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['categories'], queryFn: () => call(client.GET('/dashboard/api/categories', { params: { query: { limit: 100 } } })) });
  const [editing, setEditing] = useState<Category>();
  const [error, setError] = useState<string>();
  const form = useForm({ initialValues: { external_id: '', name: '' } });
  const create = form.onSubmit(async (v) => {
    setError(undefined);
    try {
      await call(client.POST('/dashboard/api/categories', { body: v }));
      form.reset();
      void qc.invalidateQueries({ queryKey: ['categories'] });
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  return (
    <Stack>
      <Title order={2}>Categories</Title>
      <Text c="dimmed" size="sm">
        Check lines name a category (or a product in one). Its money rules decide whether the line earns cashback, whether it can be paid with cashback, and at
        what percent.
      </Text>
      <Paper withBorder p="md">
        <form onSubmit={create}>
          {error && (
            <Alert color="red" mb="sm">
              {error}
            </Alert>
          )}
          <Group align="flex-end">
            <TextInput label="External id" description="What the POS sends, e.g. alcohol" required {...form.getInputProps('external_id')} />
            <TextInput label="Category name" required {...form.getInputProps('name')} />
            <Button type="submit">Add category</Button>
          </Group>
        </form>
      </Paper>
      <DataTable
        label="Categories"
        rows={list.data?.data}
        rowKey={(c) => c.id}
        columns={[
          { key: 'name', label: 'Name', render: (c) => c.name },
          { key: 'external_id', label: 'External id', render: (c) => c.external_id },
          { key: 'earns', label: 'Earns cashback', render: (c) => yesNo(c.earns_cashback) },
          { key: 'payable', label: 'Payable with cashback', render: (c) => yesNo(c.payable_with_cashback) },
          { key: 'percent', label: 'Own percent', render: (c) => (c.cashback_percent === null ? 'Member’s level' : `${c.cashback_percent} %`) },
          {
            key: 'actions',
            label: '',
            render: (c) => (
              <Button size="xs" variant="default" onClick={() => setEditing(c)} aria-label={`Edit ${c.external_id}`}>
                Edit
              </Button>
            ),
          },
        ]}
      />
      {editing && <EditCategory category={editing} onClose={() => setEditing(undefined)} />}
    </Stack>
  );
}

const yesNo = (v: boolean) => (
  <Badge variant="light" color={v ? 'teal' : 'gray'}>
    {v ? 'yes' : 'no'}
  </Badge>
);

function EditCategory({ category, onClose }: { category: Category; onClose: () => void }) {
  const qc = useQueryClient();
  const [error, setError] = useState<string>();
  const form = useForm({
    initialValues: {
      name: category.name ?? '',
      earns_cashback: category.earns_cashback,
      payable_with_cashback: category.payable_with_cashback,
      cashback_percent: category.cashback_percent as number | null,
    },
  });
  const submit = form.onSubmit(async (v) => {
    setError(undefined);
    try {
      await call(client.PATCH('/dashboard/api/categories/{external_id}', { params: { path: { external_id: category.external_id } }, body: v }));
      void qc.invalidateQueries({ queryKey: ['categories'] });
      onClose();
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  return (
    <Modal opened onClose={onClose} title={`Category “${category.external_id}”`}>
      <form onSubmit={submit}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <TextInput label="Category name" {...form.getInputProps('name')} />
          <Switch label="Earns cashback" {...form.getInputProps('earns_cashback', { type: 'checkbox' })} />
          <Switch label="Payable with cashback" {...form.getInputProps('payable_with_cashback', { type: 'checkbox' })} />
          <NumberInput
            label="Own cashback percent"
            description="Empty: the member’s level percent"
            min={0}
            max={100}
            decimalScale={2}
            value={form.values.cashback_percent ?? ''}
            error={form.errors.cashback_percent}
            onChange={(v) => form.setFieldValue('cashback_percent', v === '' ? null : Number(v))}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting}>
              Save category
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
