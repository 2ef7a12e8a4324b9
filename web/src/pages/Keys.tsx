// API keys: create (name, mode, scopes or a preset, own rules), the secret shown once, rules per key, revoke.
import { Alert, Badge, Button, Checkbox, Code, Group, Modal, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { call, client, when, type ApiKey, type KeyRules } from '../api';
import { DataTable } from '../components/DataTable';
import { SecretOnceModal } from '../components/SecretOnce';
import { applyApiError } from '../form-errors';
import { KeyRulesFields, describeRules } from '../rules';
import { useVenue } from '../session';

export function KeysPage() {
  const venue = useVenue();
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => call(client.GET('/dashboard/api/api-keys')) });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ name: string; secret: string }>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const [editing, setEditing] = useState<ApiKey>();
  // Set by "Add venue", which leads here.
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const revoke = useMutation({
    mutationFn: (id: string) => call(client.POST('/dashboard/api/api-keys/{id}/revoke', { params: { path: { id } } })),
    onSuccess: () => {
      setRevoking(undefined);
      void qc.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>API keys</Title>
        <Button onClick={() => setCreating(true)}>New API key</Button>
      </Group>
      <Text c="dimmed" size="sm">
        Keys let tills, scanners and scripts call the API. The secret is shown once when the key is created; only its prefix is kept for you to recognise it.
      </Text>
      {notice && <Alert color="teal">{notice}</Alert>}
      <DataTable
        label="API keys"
        rows={keys.data}
        rowKey={(k) => k.id}
        rowProps={(k) => ({ 'data-key-name': k.name })}
        empty="No keys yet."
        columns={[
          { key: 'name', label: 'Name', render: (k) => k.name },
          {
            key: 'mode',
            label: 'Mode',
            render: (k) => (
              <Badge color={k.livemode ? 'teal' : 'orange'} variant="light" miw={56}>
                {k.livemode ? 'live' : 'test'}
              </Badge>
            ),
          },
          { key: 'prefix', label: 'Prefix', render: (k) => <Code>{k.prefix}…</Code> },
          { key: 'scopes', label: 'Scopes', render: (k) => (k.scopes.length ? k.scopes.join(', ') : 'Full access') },
          { key: 'rules', label: 'Rules', render: (k) => describeRules(k.rules, venue) },
          { key: 'created', label: 'Created', render: (k) => when(k.created_at, venue) },
          { key: 'used', label: 'Last used', render: (k) => when(k.last_used_at, venue) },
          {
            key: 'actions',
            label: '',
            render: (k) =>
              k.revoked_at ? (
                <Badge color="gray">revoked</Badge>
              ) : (
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="default" onClick={() => setEditing(k)} aria-label={`Rules of ${k.name}`}>
                    Rules
                  </Button>
                  <Button size="xs" color="red" variant="light" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                    Revoke
                  </Button>
                </Group>
              ),
          },
        ]}
      />

      <CreateKeyModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(name, s) => {
          setCreating(false);
          setSecret({ name, secret: s });
          void qc.invalidateQueries({ queryKey: ['api-keys'] });
        }}
      />

      <SecretOnceModal
        secret={secret?.secret}
        title={`Key “${secret?.name}” created`}
        warning="Copy the secret now: it is shown this once and cannot be shown again."
        testId="new-key-secret"
        onClose={() => setSecret(undefined)}
      />

      <Modal opened={!!revoking} onClose={() => setRevoking(undefined)} title="Revoke this key?">
        <Stack>
          <Text>
            “{revoking?.name}” ({revoking?.prefix}…) stops working at once, everywhere. This cannot be undone.
          </Text>
          {revoke.error && <Alert color="red">{revoke.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(undefined)}>
              Cancel
            </Button>
            <Button color="red" loading={revoke.isPending} onClick={() => revoking && revoke.mutate(revoking.id)}>
              Revoke key
            </Button>
          </Group>
        </Stack>
      </Modal>

      {editing && <EditRulesModal apiKey={editing} onClose={() => setEditing(undefined)} />}
    </Stack>
  );
}

function CreateKeyModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (name: string, secret: string) => void }) {
  const venue = useVenue();
  const meta = useQuery({ queryKey: ['meta'], queryFn: () => call(client.GET('/dashboard/api/meta')) });
  const [error, setError] = useState<string>();
  const form = useForm({
    initialValues: { name: '', mode: 'test', scopes: [] as string[], rules: {} as KeyRules },
    validate: { name: (v) => (v.trim() ? null : 'Give the key a name.') },
  });
  const submit = form.onSubmit(async (v) => {
    setError(undefined);
    try {
      const created = await call(
        client.POST('/dashboard/api/api-keys', {
          body: { name: v.name, livemode: v.mode === 'live', scopes: v.scopes as never, rules: v.rules },
        }),
      );
      form.reset();
      onCreated(created.key.name, created.secret);
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  return (
    <Modal opened={opened} onClose={onClose} title="New API key" size="xl">
      <form onSubmit={submit}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <TextInput label="Name" placeholder="Till 1" required {...form.getInputProps('name')} />
          <SegmentedControl
            aria-label="Mode"
            data={[
              { value: 'test', label: 'Test' },
              { value: 'live', label: 'Live' },
            ]}
            {...form.getInputProps('mode')}
          />
          <div>
            <Text fw={500} size="sm" mb={4}>
              Presets
            </Text>
            <Group gap="xs">
              {meta.data?.scope_presets.map((p) => (
                <Button key={p.id} size="xs" variant="light" onClick={() => form.setFieldValue('scopes', [...p.scopes])}>
                  {p.name}
                </Button>
              ))}
              <Button size="xs" variant="light" onClick={() => form.setFieldValue('scopes', [])}>
                Full access
              </Button>
            </Group>
          </div>
          <Checkbox.Group label="Scopes" description="None ticked: full access." {...form.getInputProps('scopes')}>
            <Group mt="xs" gap="sm">
              {meta.data?.scopes.map((s) => <Checkbox key={s} value={s} label={s} />)}
            </Group>
          </Checkbox.Group>
          <Text fw={500} size="sm">
            Rules for this key (override the venue’s)
          </Text>
          <KeyRulesFields value={form.values.rules} onChange={(r) => form.setFieldValue('rules', r)} venue={venue.settings} />
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting}>
              Create key
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function EditRulesModal({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const venue = useVenue();
  const qc = useQueryClient();
  const [rules, setRules] = useState<KeyRules>(apiKey.rules);
  const save = useMutation({
    mutationFn: () => call(client.PUT('/dashboard/api/api-keys/{id}/rules', { params: { path: { id: apiKey.id } }, body: { rules } })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['api-keys'] });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Rules of “${apiKey.name}”`} size="xl">
      <Stack>
        {save.error && <Alert color="red">{save.error.message}</Alert>}
        <KeyRulesFields value={rules} onChange={setRules} venue={venue.settings} />
        <Group justify="flex-end">
          <Button loading={save.isPending} onClick={() => save.mutate()}>
            Save rules
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
