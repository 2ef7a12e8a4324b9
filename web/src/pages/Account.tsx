import { Alert, Badge, Button, Group, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client, when } from '../api';
import { DataTable } from '../components/DataTable';
import { applyApiError } from '../form-errors';
import { useVenue } from '../session';

export function AccountPage() {
  const venue = useVenue();
  const qc = useQueryClient();
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: () => call(client.GET('/dashboard/api/sessions')) });
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const form = useForm({ initialValues: { current_password: '', new_password: '' } });
  const change = form.onSubmit(async (v) => {
    setMessage(undefined);
    try {
      await call(client.POST('/dashboard/api/password', { body: v }));
      form.reset();
      setMessage({ ok: true, text: 'Password changed; your other sessions were signed out.' });
      void qc.invalidateQueries({ queryKey: ['sessions'] });
    } catch (err) {
      const text = applyApiError(form, err);
      if (text) setMessage({ ok: false, text });
    }
  });
  const revoke = async (id: string) => {
    await call(client.DELETE('/dashboard/api/sessions/{id}', { params: { path: { id } } }));
    void qc.invalidateQueries({ queryKey: ['sessions'] });
  };
  return (
    <Stack maw={900}>
      <Title order={2}>Account</Title>
      <Paper withBorder p="md">
        <form onSubmit={change}>
          <Stack maw={400}>
            <Title order={4}>Change password</Title>
            {message && <Alert color={message.ok ? 'teal' : 'red'}>{message.text}</Alert>}
            <PasswordInput label="Current password" autoComplete="current-password" {...form.getInputProps('current_password')} />
            <PasswordInput label="New password" description="At least 10 characters" autoComplete="new-password" {...form.getInputProps('new_password')} />
            <Group>
              <Button type="submit">Change password</Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <Title order={4}>Signed-in sessions</Title>
      <DataTable
        label="Sessions"
        rows={sessions.data}
        rowKey={(s) => s.id}
        columns={[
          { key: 'browser', label: 'Browser', render: (s) => <span style={{ overflowWrap: 'anywhere' }}>{s.user_agent ?? '—'}</span> },
          { key: 'ip', label: 'Address', render: (s) => s.ip ?? '—' },
          { key: 'created', label: 'Signed in', render: (s) => when(s.created_at, venue) },
          { key: 'seen', label: 'Last seen', render: (s) => when(s.last_seen_at, venue) },
          {
            key: 'actions',
            label: '',
            render: (s) =>
              s.current ? (
                <Badge>this one</Badge>
              ) : (
                <Button size="xs" color="red" variant="light" onClick={() => revoke(s.id)}>
                  Sign out
                </Button>
              ),
          },
        ]}
      />
    </Stack>
  );
}
