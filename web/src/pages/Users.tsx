// The chain's users (D24): each with their role, which the owner changes; removing a user signs them out at once.
import { Alert, Button, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client } from '../api';
import { DataTable } from '../components/DataTable';
import { useSession } from '../session';

type Role = 'owner' | 'manager' | 'staff';

const ROLES: { value: Role; label: string }[] = [
  { value: 'owner', label: 'Owner — everything, users and keys included' },
  { value: 'manager', label: 'Manager — programs, campaigns, menu, members’ money, webhooks' },
  { value: 'staff', label: 'Staff — find guests, see their history, the orders board' },
];

export function UsersPage() {
  const qc = useQueryClient();
  const { data: session } = useSession();
  const users = useQuery({ queryKey: ['users'], queryFn: () => call(client.GET('/dashboard/api/users')) });
  const [error, setError] = useState<string>();
  const act = async (change: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await change();
    } catch (err) {
      setError((err as Error).message);
    }
    void qc.invalidateQueries({ queryKey: ['users'] });
  };
  const setRole = (id: string, role: Role) => act(() => call(client.PATCH('/dashboard/api/users/{id}', { params: { path: { id } }, body: { role } })));
  const remove = (id: string) => act(() => call(client.DELETE('/dashboard/api/users/{id}', { params: { path: { id } } })));
  return (
    <Stack maw={1000}>
      <Title order={2}>Users</Title>
      <Text c="dimmed" size="sm">
        Who can sign in to this chain&apos;s dashboard, and what each may do. Someone given less to do, or removed, is signed out at once. A chain always keeps one owner. New users are added by whoever runs the server, until invitations by e-mail come.
      </Text>
      {error && <Alert color="red">{error}</Alert>}
      <DataTable
        label="Users"
        rows={users.data}
        rowKey={(u) => u.id}
        columns={[
          { key: 'email', label: 'E-mail', render: (u) => (u.id === session?.owner.id ? `${u.email} (you)` : u.email) },
          {
            key: 'role',
            label: 'Role',
            render: (u) => (
              <Select aria-label={`Role of ${u.email}`} data={ROLES} value={u.role} allowDeselect={false} onChange={(v) => v && void setRole(u.id, v as Role)} w={420} />
            ),
          },
          {
            key: 'actions',
            label: '',
            render: (u) => (
              <Button variant="light" color="red" size="xs" onClick={() => void remove(u.id)} aria-label={`Remove ${u.email}`}>
                Remove
              </Button>
            ),
          },
        ]}
      />
    </Stack>
  );
}
