// Categories and their money rules: the chain's rule for each, and in a chain of several venues the current venue's
// own rule where it has one (D21), set here or dropped to follow the chain's again.
import { Alert, Badge, Button, Group, Modal, NumberInput, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, call, client, type Category } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { applyApiError } from '../form-errors';
import { useChain, useVenue } from '../session';

type Rule = Pick<Category, 'earns_cashback' | 'payable_with_cashback' | 'cashback_percent'>;

export function CategoriesPage() {
  const qc = useQueryClient();
  const venue = useVenue();
  const chain = useChain();
  const severalVenues = chain.venues.length > 1;
  const list = useQuery({ queryKey: ['categories'], queryFn: () => call(client.GET('/dashboard/api/categories', { params: { query: { limit: 100 } } })) });
  const [editing, setEditing] = useState<Category>();
  const [editingHere, setEditingHere] = useState<Category>();
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
  const ownRule = (c: Category) => c.venue_rules.find((r) => r.venue_id === venue.id);
  const columns: Column<Category>[] = [
    { key: 'name', label: 'Name', render: (c) => c.name },
    { key: 'external_id', label: 'Code', render: (c) => c.external_id },
    { key: 'earns', label: 'Earns cashback', render: (c) => yesNo(c.earns_cashback) },
    { key: 'payable', label: 'Payable with cashback', render: (c) => yesNo(c.payable_with_cashback) },
    { key: 'percent', label: 'Own percent', render: (c) => percentText(c.cashback_percent) },
  ];
  if (severalVenues) {
    columns.push({
      key: 'here',
      label: `At ${venue.name}`,
      render: (c) => {
        const own = ownRule(c);
        return own ? (
          <Stack gap={2}>
            <Badge variant="light" color="grape" w="fit-content">
              Own rule
            </Badge>
            <Text size="sm">{describeRule(own)}</Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            The chain’s rule
          </Text>
        );
      },
    });
  }
  columns.push({
    key: 'actions',
    label: '',
    render: (c) => (
      <Group gap="xs" wrap="nowrap">
        <Button size="xs" variant="default" onClick={() => setEditing(c)} aria-label={`Edit ${c.external_id}`}>
          Edit
        </Button>
        {severalVenues && (
          <Button size="xs" variant="default" onClick={() => setEditingHere(c)} aria-label={`Rule for ${c.external_id} at ${venue.name}`}>
            Rule at this venue
          </Button>
        )}
      </Group>
    ),
  });
  return (
    <Stack>
      <Title order={2}>Categories</Title>
      <Text c="dimmed" size="sm">
        Check lines name a category (or a product in one). Its money rules decide whether the line earns cashback, whether it can be paid with cashback, and at
        what percent.
      </Text>
      {severalVenues && (
        <Text c="dimmed" size="sm" data-testid="chain-rules-note">
          The rules are {chain.name}’s: every venue of the chain follows them, unless a venue has a rule of its own for a category. The last column shows{' '}
          {venue.name}’s; switch venue to see or set another venue’s.
        </Text>
      )}
      <Paper withBorder p="md">
        <form onSubmit={create}>
          {error && (
            <Alert color="red" mb="sm">
              {error}
            </Alert>
          )}
          <Group align="flex-end">
            <TextInput label="Code" description="What the till sends for this category, e.g. alcohol" required {...form.getInputProps('external_id')} />
            <TextInput label="Category name" required {...form.getInputProps('name')} />
            <Button type="submit">Add category</Button>
          </Group>
        </form>
      </Paper>
      <DataTable label="Categories" rows={list.data?.data} rowKey={(c) => c.id} rowProps={(c) => ({ 'data-category': c.external_id })} columns={columns} />
      {editing && <EditCategory category={editing} onClose={() => setEditing(undefined)} />}
      {editingHere && (
        <VenueRule category={editingHere} own={ownRule(editingHere)} venue={venue} onClose={() => setEditingHere(undefined)} />
      )}
    </Stack>
  );
}

const yesNo = (v: boolean) => (
  <Badge variant="light" color={v ? 'teal' : 'gray'}>
    {v ? 'yes' : 'no'}
  </Badge>
);

const percentText = (p: number | null) => (p === null ? 'Member’s level' : `${p} %`);

/** A rule in a few words: "earns 2.5 %, not payable with cashback". */
function describeRule(r: Rule): string {
  const earns = !r.earns_cashback ? 'earns no cashback' : r.cashback_percent === null ? 'earns the member’s level percent' : `earns ${r.cashback_percent} %`;
  return `${earns}, ${r.payable_with_cashback ? 'payable with cashback' : 'not payable with cashback'}`;
}

/**
 * The three money rules. The percent is never clamped here: a value out of range goes to the server, whose reason
 * shows next to the field.
 */
function RuleFields({ values, errors, set }: { values: Rule; errors: Record<string, unknown>; set: (change: Partial<Rule>) => void }) {
  return (
    <>
      <Switch label="Earns cashback" checked={values.earns_cashback} onChange={(e) => set({ earns_cashback: e.currentTarget.checked })} />
      <Switch label="Payable with cashback" checked={values.payable_with_cashback} onChange={(e) => set({ payable_with_cashback: e.currentTarget.checked })} />
      <NumberInput
        label="Own cashback percent"
        description="Empty: the member’s level percent"
        min={0}
        max={100}
        clampBehavior="none"
        decimalScale={2}
        rightSection={
          <Text size="sm" c="dimmed">
            %
          </Text>
        }
        value={values.cashback_percent ?? ''}
        error={errors.cashback_percent as string | undefined}
        onChange={(v) => set({ cashback_percent: v === '' ? null : Number(v) })}
      />
    </>
  );
}

/** Sets the fields changed and clears the reason the server gave for them, as typing into a field does. */
function changeRule(form: { setValues(v: Partial<Rule>): void; clearFieldError(path: string): void }, change: Partial<Rule>) {
  form.setValues(change);
  for (const key of Object.keys(change)) form.clearFieldError(key);
}

const FIELD_LABELS: Record<string, string> = {
  name: 'Category name',
  earns_cashback: 'Earns cashback',
  payable_with_cashback: 'Payable with cashback',
  cashback_percent: 'Own cashback percent',
};

/**
 * The server's reason for refusing a field goes next to that field, in the page's words (the field as labelled here,
 * "at most 100" for "<= 100"); any other refusal (the category is gone, …) is returned for the alert above the form.
 */
function showRefusal<T>(form: UseFormReturnType<T>, err: unknown): string | undefined {
  const label = err instanceof ApiError && err.param ? FIELD_LABELS[err.param] : undefined;
  if (!(err instanceof ApiError) || !err.param || !label) return err instanceof Error ? err.message : String(err);
  const reason = err.message
    .replace(err.param, label)
    .replace(/must be <= ([\d.]+)/, 'must be at most $1')
    .replace(/must be >= ([\d.]+)/, 'must be at least $1')
    .replace(/must be multiple of 0\.01/, 'can have at most two decimals')
    .replace(/, or null\.$/, ', or empty.');
  form.setFieldError(err.param, reason);
  return undefined;
}

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
      setError(showRefusal(form, err));
    }
  });
  return (
    <Modal opened onClose={onClose} title={`Category “${category.external_id}”`}>
      <form onSubmit={submit}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <TextInput label="Category name" {...form.getInputProps('name')} />
          <RuleFields values={form.values} errors={form.errors} set={(change) => changeRule(form, change)} />
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

/** The current venue's own rule for a category: set it (it wins at this venue only), or go back to the chain's. */
function VenueRule({ category, own, venue, onClose }: { category: Category; own: Rule | undefined; venue: { id: string; name: string }; onClose: () => void }) {
  const qc = useQueryClient();
  const [error, setError] = useState<string>();
  const [returning, setReturning] = useState(false);
  const start = own ?? category;
  const form = useForm<Rule>({
    initialValues: { earns_cashback: start.earns_cashback, payable_with_cashback: start.payable_with_cashback, cashback_percent: start.cashback_percent },
  });
  const path = { external_id: category.external_id, venue_id: venue.id };
  const done = () => {
    void qc.invalidateQueries({ queryKey: ['categories'] });
    onClose();
  };
  const submit = form.onSubmit(async (v) => {
    setError(undefined);
    try {
      await call(client.PUT('/dashboard/api/categories/{external_id}/venue-rules/{venue_id}', { params: { path }, body: v }));
      done();
    } catch (err) {
      setError(showRefusal(form, err));
    }
  });
  const followChain = async () => {
    setError(undefined);
    setReturning(true);
    try {
      await call(client.DELETE('/dashboard/api/categories/{external_id}/venue-rules/{venue_id}', { params: { path } }));
      done();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setReturning(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={`${category.name} at ${venue.name}`}>
      <form onSubmit={submit}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <Text size="sm" data-testid="venue-rule-note">
            {own
              ? `${venue.name} has a rule of its own for ${category.name}. The chain’s rule (${describeRule(category)}) applies at the chain’s other venues.`
              : `${venue.name} follows the chain’s rule for ${category.name}: ${describeRule(category)}. A rule saved here applies at ${venue.name} only; the chain’s other venues keep the chain’s rule.`}
          </Text>
          <RuleFields values={form.values} errors={form.errors} set={(change) => changeRule(form, change)} />
          <Group justify="space-between">
            {own ? (
              <Button variant="default" color="gray" onClick={followChain} loading={returning}>
                Go back to the chain’s rule
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" loading={form.submitting}>
              Save rule for this venue only
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
