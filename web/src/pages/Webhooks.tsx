// Webhooks: each endpoint with its status and why it is disabled, its recent attempts (status code, time taken) each
// of which can be sent again, a test event, editing, disabling and re-enabling, deleting, and registering an
// endpoint with its secret shown once.
import { Alert, Badge, Button, Group, Modal, MultiSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client, when, type DeliveryAttempt, type WebhookEndpoint, type WebhookTest } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { SecretOnceModal } from '../components/SecretOnce';
import { applyApiError } from '../form-errors';
import { useVenue } from '../session';
import { ModeBadge } from './Transactions';

export function WebhooksPage() {
  const endpoints = useQuery({ queryKey: ['webhook-endpoints'], queryFn: () => call(client.GET('/dashboard/api/webhook-endpoints')) });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string>();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Webhooks</Title>
        <Button onClick={() => setCreating(true)}>New endpoint</Button>
      </Group>
      <Text c="dimmed" size="sm">
        Signed events (transaction.completed, order.created, …) are sent to these addresses, retried for about 28 hours; an endpoint with 10 failed
        attempts in a row and no success for 3 days is disabled until you re-enable it here.
      </Text>
      {endpoints.error && <Alert color="red">{endpoints.error.message}</Alert>}
      {endpoints.data?.length === 0 && <Text c="dimmed">No endpoints yet.</Text>}
      {endpoints.data?.map((e) => <EndpointCard key={e.id} endpoint={e} />)}
      <CreateEndpointModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(s) => {
          setCreating(false);
          setSecret(s);
        }}
      />
      <SecretOnceModal
        secret={secret}
        title="Endpoint registered"
        warning="Copy the signing secret now: it is shown this once. Your receiver verifies each event’s signature with it."
        testId="new-endpoint-secret"
        onClose={() => setSecret(undefined)}
      />
    </Stack>
  );
}

function EndpointCard({ endpoint: e }: { endpoint: WebhookEndpoint }) {
  const venue = useVenue();
  const qc = useQueryClient();
  const [result, setResult] = useState<WebhookTest>();
  const deliveries = useQuery({
    queryKey: ['webhook-deliveries', e.id],
    queryFn: () => call(client.GET('/dashboard/api/webhook-endpoints/{id}/deliveries', { params: { path: { id: e.id }, query: { limit: 10 } } })),
  });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['webhook-endpoints'] });
    void qc.invalidateQueries({ queryKey: ['webhook-deliveries', e.id] });
  };
  const test = useMutation({
    mutationFn: () => call(client.POST('/dashboard/api/webhook-endpoints/{id}/test', { params: { path: { id: e.id } } })),
    onSuccess: (r) => {
      setResult(r);
      refresh();
    },
  });
  const enable = useMutation({
    mutationFn: () => call(client.POST('/dashboard/api/webhook-endpoints/{id}/enable', { params: { path: { id: e.id } } })),
    onSuccess: refresh,
  });
  const disable = useMutation({
    mutationFn: () => call(client.PATCH('/dashboard/api/webhook-endpoints/{id}', { params: { path: { id: e.id } }, body: { enabled: false } })),
    onSuccess: refresh,
  });
  const resend = useMutation({
    mutationFn: (eventId: string) => call(client.POST('/dashboard/api/webhook-endpoints/{id}/events/{event_id}/resend', { params: { path: { id: e.id, event_id: eventId } } })),
    onSuccess: refresh,
  });
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const columns: Column<DeliveryAttempt>[] = [
    { key: 'when', label: 'When', render: (a) => when(a.created_at, venue) },
    { key: 'event', label: 'Event', render: (a) => a.event_type },
    { key: 'attempt', label: 'Attempt', numeric: true, render: (a) => a.attempt },
    {
      key: 'status',
      label: 'Status code',
      render: (a) => (
        <Badge color={a.status_code >= 200 && a.status_code < 300 ? 'teal' : 'red'} variant="light">
          {a.status_code === 0 ? 'no answer' : a.status_code}
        </Badge>
      ),
    },
    { key: 'time', label: 'Response time', numeric: true, render: (a) => `${a.duration_ms} ms` },
    { key: 'error', label: 'Error / next try', render: (a) => [a.error, a.next_attempt_at && `next try ${when(a.next_attempt_at, venue)}`].filter(Boolean).join(' · ') || '—' },
    {
      key: 'resend',
      label: '',
      render: (a) => (
        <Button size="xs" variant="default" onClick={() => resend.mutate(a.event_id)} aria-label={`Resend ${a.event_type} of ${when(a.created_at, venue)}`}>
          Resend
        </Button>
      ),
    },
  ];
  return (
    <Paper withBorder p="md" data-endpoint-url={e.url}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
            <Group gap="xs">
              <Badge color={e.status === 'enabled' ? 'teal' : 'red'}>{e.status}</Badge>
              <ModeBadge livemode={e.livemode} />
              {e.description && <Text fw={600}>{e.description}</Text>}
            </Group>
            <Text ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
              {e.url}
            </Text>
            <Text size="xs" c="dimmed">
              Events: {e.events.includes('*') ? 'all' : e.events.join(', ')} · registered {when(e.created_at, venue)}
            </Text>
          </Stack>
          <Group gap="xs">
            {e.status === 'disabled' ? (
              <Button size="xs" color="teal" loading={enable.isPending} onClick={() => enable.mutate()} aria-label={`Re-enable ${e.url}`}>
                Re-enable
              </Button>
            ) : (
              <Button size="xs" variant="default" loading={disable.isPending} onClick={() => disable.mutate()} aria-label={`Disable ${e.url}`}>
                Disable
              </Button>
            )}
            <Button size="xs" variant="default" loading={test.isPending} onClick={() => test.mutate()} aria-label={`Send test event to ${e.url}`}>
              Send test event
            </Button>
            <Button size="xs" variant="default" onClick={() => setEditing(true)} aria-label={`Edit ${e.url}`}>
              Edit
            </Button>
            <Button size="xs" variant="light" color="red" onClick={() => setDeleting(true)} aria-label={`Delete ${e.url}`}>
              Delete
            </Button>
          </Group>
        </Group>
        {e.status === 'disabled' && (
          <Alert color="red" title="Disabled" data-testid="disabled-reason">
            {e.disabled_reason === 'disabled_by_api' ? 'Disabled by hand, here or by your software. Events wait until it is re-enabled.' : e.disabled_reason}
          </Alert>
        )}
        {(test.error || enable.error || disable.error || resend.error) && <Alert color="red">{(test.error ?? enable.error ?? disable.error ?? resend.error)!.message}</Alert>}
        {resend.isSuccess && (
          <Alert color="teal" withCloseButton onClose={() => resend.reset()}>
            Sent again: it is on its way, retried as any event.
          </Alert>
        )}
        {editing && <EditEndpointModal endpoint={e} onClose={() => (setEditing(false), refresh())} />}
        <DeleteEndpointModal endpoint={e} opened={deleting} onClose={() => (setDeleting(false), refresh())} />
        {result && (
          <Alert color={result.delivered ? 'teal' : 'orange'} data-testid="test-result" withCloseButton onClose={() => setResult(undefined)}>
            {result.delivered ? `Delivered: the endpoint answered ${result.status_code}.` : `Not delivered: ${result.error ?? `HTTP ${result.status_code}`}.`}
          </Alert>
        )}
        <Text fw={500} size="sm">
          Recent deliveries
        </Text>
        <DataTable
          label={`Deliveries to ${e.url}`}
          columns={columns}
          rows={deliveries.data?.data}
          rowKey={(a) => a.id}
          empty="Nothing sent yet."
        />
      </Stack>
    </Paper>
  );
}

function CreateEndpointModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (secret: string) => void }) {
  const qc = useQueryClient();
  const [error, setError] = useState<string>();
  const form = useForm({
    initialValues: { url: '', description: '' },
    validate: { url: (v) => (v.trim() ? null : 'Enter the https:// address of your receiver.') },
  });
  const submit = form.onSubmit(async (v) => {
    setError(undefined);
    try {
      const created = await call(
        client.POST('/dashboard/api/webhook-endpoints', { body: { url: v.url.trim(), ...(v.description.trim() ? { description: v.description.trim() } : {}) } }),
      );
      form.reset();
      void qc.invalidateQueries({ queryKey: ['webhook-endpoints'] });
      onCreated(created.secret ?? '');
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  return (
    <Modal opened={opened} onClose={onClose} title="New webhook endpoint" size="lg">
      <form onSubmit={submit}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <TextInput label="URL" placeholder="https://example.com/hooks/loyalty" required {...form.getInputProps('url')} />
          <TextInput label="Description" placeholder="Kitchen screen" {...form.getInputProps('description')} />
          <Text size="sm" c="dimmed">
            It receives every event type, test and live alike; each event’s livemode says which.
          </Text>
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting}>
              Register endpoint
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Its address, description and the events it receives (none chosen: every event, also types added later). */
function EditEndpointModal({ endpoint: e, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const meta = useQuery({ queryKey: ['meta'], queryFn: () => call(client.GET('/dashboard/api/meta')) });
  const [error, setError] = useState<string>();
  const form = useForm({ initialValues: { url: e.url, description: e.description ?? '', events: e.events.includes('*') ? [] : e.events } });
  const submit = form.onSubmit(async (v) => {
    setError(undefined);
    try {
      await call(
        client.PATCH('/dashboard/api/webhook-endpoints/{id}', {
          params: { path: { id: e.id } },
          body: { url: v.url.trim(), description: v.description.trim() || null, events: v.events.length ? v.events : ['*'] },
        }),
      );
      onClose();
    } catch (err) {
      setError(applyApiError(form, err, (param) => (param.startsWith('events') ? 'events' : param)));
    }
  });
  return (
    <Modal opened onClose={onClose} title="Edit webhook endpoint" size="lg">
      <form onSubmit={submit}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <TextInput label="URL" required {...form.getInputProps('url')} />
          <TextInput label="Description" {...form.getInputProps('description')} />
          <MultiSelect label="Events" description="None chosen: every event, also kinds added later" data={meta.data?.event_types ?? []} searchable clearable {...form.getInputProps('events')} />
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting}>
              Save endpoint
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteEndpointModal({ endpoint: e, opened, onClose }: { endpoint: WebhookEndpoint; opened: boolean; onClose: () => void }) {
  const remove = useMutation({
    mutationFn: () => call(client.DELETE('/dashboard/api/webhook-endpoints/{id}', { params: { path: { id: e.id } } })),
    onSuccess: onClose,
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Delete webhook endpoint">
      <Stack>
        <Text>
          {e.url} receives nothing more from now on, and what is still waiting to be sent to it is dropped. Its signing secret stops working for good.
        </Text>
        {remove.error && <Alert color="red">{remove.error.message}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep it
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            Delete endpoint
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
