import { Alert, Anchor, Badge, Button, CopyButton, Group, NumberInput, Paper, SimpleGrid, Stack, Text, TextInput, Title, Image } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { call, client, money, when } from '../api';
import { MoneyInput } from '../components/MoneyInput';
import { applyApiError } from '../form-errors';
import { MemberActivity } from '../components/MemberActivity';
import { MemberBirthday } from '../components/MemberBirthday';
import { MemberPrivacy } from '../components/MemberPrivacy';
import { Stat } from '../components/Stat';
import { useCan, useChain, useVenue } from '../session';
import { ConfirmButton } from '../components/ConfirmButton';

export function MemberPage() {
  const { id } = useParams();
  const venue = useVenue();
  const chain = useChain();
  const can = useCan();
  // In a chain of several venues, the enrolment says where it happened.
  const manyVenues = chain.venues.length > 1;
  const venueName = (venueId: string | null | undefined) => (venueId ? (chain.venues.find((v) => v.id === venueId)?.name ?? '—') : 'No venue');
  const qc = useQueryClient();
  const member = useQuery({ queryKey: ['member', id], queryFn: () => call(client.GET('/dashboard/api/members/{id}', { params: { path: { id: id! } } })) });
  const [error, setError] = useState<string>();
  const form = useForm({
    initialValues: { amount: '' as number | '', reason: '' },
    validate: {
      amount: (v) => (v === '' || v === 0 ? 'Enter an amount other than zero.' : null),
      reason: (v) => (v.trim() ? null : 'A reason is required.'),
    },
  });
  const adjust = form.onSubmit(async (v) => {
    setError(undefined);
    try {
      await call(
        client.POST('/dashboard/api/members/{id}/adjustments', {
          params: { path: { id: id! } },
          body: { amount: Number(v.amount), reason: v.reason },
        }),
      );
      form.reset();
      void qc.invalidateQueries({ queryKey: ['member', id] });
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  if (member.error) return <Alert color="red">{member.error.message}</Alert>;
  const m = member.data;
  if (!m) return null;
  return (
    <Stack>
      <Group>
        <Anchor component={Link} to="/members">
          ← Members
        </Anchor>
      </Group>
      <Title order={2}>
        {m.name ?? 'Member'} · {m.card_numbers.join(', ') || m.serial}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <Stat label="Balance" value={money(m.balance, venue)} />
        <Stat label="Available" value={money(m.available, venue)} />
        <Stat label="Level" value={m.level ? `${m.level.name} (${m.level.percent} %)` : m.stamps ? `${m.stamps.count}/${m.stamps.required} stamps` : '—'} />
        <Stat label="Total spend · visits" value={`${money(m.total_spend, venue)} · ${m.visits}`} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {can('POST /members/:id/adjustments') && (
          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              Adjust cashback
            </Title>
            <form onSubmit={adjust}>
              <Stack>
                {error && <Alert color="red">{error}</Alert>}
                <MoneyInput
                  label="Amount"
                  description={manyVenues ? `Negative takes cashback away; written at ${venue.name}` : 'Negative takes cashback away'}
                  place={venue}
                  {...form.getInputProps('amount')}
                />
                <TextInput label="Reason" description="Kept in the member's activity" {...form.getInputProps('reason')} />
                <Group>
                  <Button type="submit" loading={form.submitting}>
                    Adjust balance
                  </Button>
                </Group>
              </Stack>
            </form>
          </Paper>
        )}
        <Paper withBorder p="md">
          <Title order={4} mb="sm">
            Card
          </Title>
          <Image src={`/dashboard/api/members/${m.id}/barcode.svg`} alt={`Barcode ${m.barcode.value}`} maw={220} />
          <Text size="sm" c="dimmed" mt="xs">
            Card {m.barcode.value} · phone {m.phone ?? '—'} · e-mail {m.email ?? '—'} · referral code {m.referral_code ?? '—'} · joined {when(m.created_at, venue)}
            {manyVenues && m.home_venue_id ? ` at ${venueName(m.home_venue_id)}` : ''}
          </Text>
          {can('PATCH /members/:id') && <MemberBirthday member={m} />}
        </Paper>
        <MemberWallet memberId={m.id} />
      </SimpleGrid>
      {can('POST /members/:id/erase') && <MemberPrivacy member={m} />}
      <Title order={3}>Activity</Title>
      <MemberActivity memberId={m.id} venue={venue} />
    </Stack>
  );
}

/** The guest's card page link (to send them) and where their card is installed (D23). */
function MemberWallet({ memberId }: { memberId: string }) {
  const can = useCan();
  const qc = useQueryClient();
  const wallet = useQuery({ queryKey: ['member-wallet', memberId], queryFn: () => call(client.GET('/dashboard/api/members/{id}/wallet', { params: { path: { id: memberId } } })) });
  const [error, setError] = useState<string>();
  const [revoked, setRevoked] = useState(false);
  const act = async (what: 'card_link' | 'pass/revoke') => {
    setError(undefined);
    setRevoked(false);
    try {
      const options = { params: { path: { id: memberId } } };
      const after = await call(what === 'card_link' ? client.POST('/dashboard/api/members/{id}/card_link', options) : client.POST('/dashboard/api/members/{id}/pass/revoke', options));
      qc.setQueryData(['member-wallet', memberId], after);
      setRevoked(what === 'pass/revoke');
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const w = wallet.data;
  if (!w) return null;
  return (
    <Paper component="section" withBorder p="md" aria-label="Wallet">
      <Title order={4} mb="sm">
        Wallet
      </Title>
      <Stack gap="xs">
        {error && <Alert color="red">{error}</Alert>}
        {revoked && <Alert color="teal">Revoked: the passes installed so far no longer update. The guest can add the card again from the card page.</Alert>}
        <Text size="sm">
          Card page for the guest:{' '}
          <Anchor href={w.card_link} target="_blank" rel="noreferrer">
            open
          </Anchor>
        </Text>
        <Group gap="xs">
          <CopyButton value={w.card_link}>{({ copied, copy }) => <Button size="xs" variant="light" onClick={copy}>{copied ? 'Copied' : 'Copy link'}</Button>}</CopyButton>
          {can('POST /members/:id/card_link') && (
            <ConfirmButton
              size="xs"
              variant="subtle"
              title="Make a new card page link?"
              message="The link the guest has stops working at once; send them the new one."
              confirmLabel="Make a new link"
              onConfirm={() => act('card_link')}
            >
              New link (the old one stops working)
            </ConfirmButton>
          )}
          {can('POST /members/:id/pass/revoke') && (
            <ConfirmButton
              size="xs"
              variant="subtle"
              title="Revoke the Apple Wallet pass?"
              message="Every pass installed so far stops updating. The guest can add the card again from the card page."
              confirmLabel="Revoke pass"
              onConfirm={() => act('pass/revoke')}
            >
              Revoke Apple Wallet pass
            </ConfirmButton>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Apple Wallet: {w.apple_devices === 1 ? 'on 1 device' : `on ${w.apple_devices} devices`} · Google Wallet: {w.google_saved ? 'save link given' : 'not yet'}
        </Text>
      </Stack>
    </Paper>
  );
}
