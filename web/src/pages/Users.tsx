// The chain's users (D24): each with their role, which the owner changes; removing a user signs them out at once. New
// users are invited by e-mail; a link (invitation or password reset) is e-mailed, or shown here once to pass on.
import { Alert, Button, Code, CopyButton, Group, MultiSelect, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client, when } from '../api';
import { applyApiError } from '../form-errors';
import { DataTable } from '../components/DataTable';
import { useChain, useSession, useVenue } from '../session';
import { ConfirmButton } from '../components/ConfirmButton';

type Role = 'owner' | 'manager' | 'staff';

const ROLES: { value: Role; label: string }[] = [
  { value: 'owner', label: 'Owner — everything, users and keys included' },
  { value: 'manager', label: 'Manager — programs, campaigns, menu, members’ money, webhooks' },
  { value: 'staff', label: 'Staff — find guests, see their history, the orders board' },
];

export function UsersPage() {
  const qc = useQueryClient();
  const { data: session } = useSession();
  const chain = useChain();
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
  const setVenues = (id: string, venueIds: string[]) =>
    act(() => call(client.PATCH('/dashboard/api/users/{id}', { params: { path: { id } }, body: { venue_ids: venueIds.length ? venueIds : null } })));
  const remove = (id: string) => act(() => call(client.DELETE('/dashboard/api/users/{id}', { params: { path: { id } } })));
  const [sent, setSent] = useState<Sent>();
  const resetLink = (email: string, id: string) =>
    act(async () => setSent({ ...(await call(client.POST('/dashboard/api/users/{id}/password-reset', { params: { path: { id } } }))), what: `A password reset link for ${email}` }));
  return (
    <Stack maw={1000}>
      <Title order={2}>Users</Title>
      <Text c="dimmed" size="sm">
        Who can sign in to this chain&apos;s dashboard, and what each may do. Someone given less to do, or removed, is signed out at once. A chain always keeps one owner. A manager or staff can be limited to some venues: they open only those (none chosen: every venue); members, programs and campaigns stay the chain's.
      </Text>
      {error && <Alert color="red">{error}</Alert>}
      {sent && <SentLink sent={sent} onClose={() => setSent(undefined)} />}
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
          ...(chain.venues.length > 1
            ? [
                {
                  key: 'venues',
                  label: 'Venues',
                  render: (u: { id: string; email: string; role: Role; venue_ids: string[] | null }) =>
                    u.role === 'owner' ? (
                      'Every venue'
                    ) : (
                      <MultiSelect
                        aria-label={`Venues of ${u.email}`}
                        placeholder={u.venue_ids ? undefined : 'Every venue'}
                        data={chain.venues.map((v) => ({ value: v.id, label: v.name }))}
                        value={u.venue_ids ?? []}
                        onChange={(v) => void setVenues(u.id, v)}
                        w={260}
                      />
                    ),
                },
              ]
            : []),
          {
            key: 'actions',
            label: '',
            render: (u) => (
              <Group gap="xs" wrap="nowrap">
                {u.role !== 'owner' && (
                  <Button variant="light" size="xs" onClick={() => void resetLink(u.email, u.id)} aria-label={`Reset password of ${u.email}`}>
                    Reset password
                  </Button>
                )}
                <ConfirmButton
                  variant="light"
                  size="xs"
                  aria-label={`Remove ${u.email}`}
                  title={`Remove ${u.email}?`}
                  message="They are signed out at once and can no longer sign in to this chain. Invite them again to give them back their access."
                  confirmLabel="Remove user"
                  onConfirm={() => remove(u.id)}
                >
                  Remove
                </ConfirmButton>
              </Group>
            ),
          },
        ]}
      />
      <Invitations onSent={setSent} />
    </Stack>
  );
}

interface Sent {
  what: string;
  emailed: boolean;
  link: string | null;
}

/** A link just made: e-mailed, or shown this once to copy and pass on. */
function SentLink({ sent, onClose }: { sent: Sent; onClose: () => void }) {
  return (
    <Alert color="green" withCloseButton onClose={onClose} title={sent.emailed ? `${sent.what} was e-mailed.` : `${sent.what}: copy it now, it is shown only once.`}>
      {sent.link && (
        <Group gap="xs" wrap="nowrap">
          <Code style={{ wordBreak: 'break-all' }}>{sent.link}</Code>
          <CopyButton value={sent.link}>{({ copied, copy }) => <Button size="xs" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
        </Group>
      )}
    </Alert>
  );
}

/** Invite by e-mail with a role; the invitations not yet accepted, each of which can be withdrawn. */
function Invitations({ onSent }: { onSent: (sent: Sent) => void }) {
  const qc = useQueryClient();
  const venue = useVenue();
  const pending = useQuery({ queryKey: ['invitations'], queryFn: () => call(client.GET('/dashboard/api/invitations')) });
  const [error, setError] = useState<string>();
  const form = useForm<{ email: string; role: Role }>({ initialValues: { email: '', role: 'staff' } });
  const invite = form.onSubmit(async (values) => {
    setError(undefined);
    try {
      const made = await call(client.POST('/dashboard/api/invitations', { body: values }));
      onSent({ what: `The invitation for ${made.invitation.email}`, emailed: made.emailed, link: made.link });
      form.reset();
    } catch (err) {
      setError(applyApiError(form, err));
    }
    void qc.invalidateQueries({ queryKey: ['invitations'] });
  });
  const withdraw = async (id: string) => {
    await call(client.DELETE('/dashboard/api/invitations/{id}', { params: { path: { id } } })).catch((err: Error) => setError(err.message));
    void qc.invalidateQueries({ queryKey: ['invitations'] });
  };
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={3}>Invite someone</Title>
        <Text c="dimmed" size="sm">
          They get a link to choose their password, valid for 7 days and usable once.
        </Text>
        {error && <Alert color="red">{error}</Alert>}
        <form onSubmit={invite}>
          <Group align="flex-end">
            <TextInput label="E-mail" type="email" required w={280} {...form.getInputProps('email')} />
            <Select label="Role" data={ROLES} allowDeselect={false} w={420} {...form.getInputProps('role')} />
            <Button type="submit" loading={form.submitting}>
              Invite
            </Button>
          </Group>
        </form>
        {!!pending.data?.length && (
          <DataTable
            label="Invitations waiting"
            rows={pending.data}
            rowKey={(i) => i.id}
            columns={[
              { key: 'email', label: 'Invited', render: (i) => i.email },
              { key: 'role', label: 'Role', render: (i) => i.role },
              { key: 'expires', label: 'Valid until', render: (i) => when(i.expires_at, venue) },
              {
                key: 'withdraw',
                label: '',
                render: (i) => (
                  <ConfirmButton
                    variant="light"
                    size="xs"
                    aria-label={`Withdraw the invitation for ${i.email}`}
                    title={`Withdraw the invitation for ${i.email}?`}
                    message="The link they were sent stops working."
                    confirmLabel="Withdraw"
                    onConfirm={() => withdraw(i.id)}
                  >
                    Withdraw
                  </ConfirmButton>
                ),
              },
            ]}
          />
        )}
      </Stack>
    </Paper>
  );
}
