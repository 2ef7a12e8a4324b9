// Campaigns (D22): set one up (a bonus on a weekly schedule in the venue's local time, a welcome, a birthday treat or
// a referral reward), see when and where each runs and what it has spent of its budget, change it, see its results,
// pause, resume or end it.
import { Alert, Button, Group, NumberInput, Paper, Progress, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client, money, type Campaign, type Chain } from '../api';
import { MoneyInput } from '../components/MoneyInput';
import { DataTable } from '../components/DataTable';
import { applyApiError } from '../form-errors';
import { useChain, useVenue } from '../session';
import { ConfirmButton } from '../components/ConfirmButton';
import { CampaignEdit } from '../components/CampaignEdit';
import { CampaignResults } from '../components/CampaignResults';
import { DAYS, fieldOf, periodOf, PeriodFields, periodValues, scheduleOf, ScheduleFields, scheduleValues, VenueField } from '../components/CampaignFields';
import { when } from '../dates';
const TYPES = [
  { value: 'bonus', label: 'Bonus percent on a schedule' },
  { value: 'welcome', label: 'Welcome credit' },
  { value: 'birthday', label: 'Birthday treat' },
  { value: 'referral', label: 'Referral reward' },
];
const STATUS_WORDS: Record<Campaign['status'], string> = { active: 'Running', paused: 'Paused', ended: 'Ended' };

export function CampaignsPage() {
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['campaigns'], queryFn: () => call(client.GET('/dashboard/api/campaigns')) });
  const venue = useVenue();
  const chain = useChain();
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState<{ campaign: Campaign; dialog: 'edit' | 'results' }>();
  const change = async (c: Campaign, status: Campaign['status']) => {
    setError(undefined);
    try {
      await call(client.PATCH('/dashboard/api/campaigns/{id}', { params: { path: { id: c.id } }, body: { status } }));
      void qc.invalidateQueries({ queryKey: ['campaigns'] });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <Stack>
      <Title order={2}>Campaigns</Title>
      <NewCampaignForm />
      {error && <Alert color="red">{error}</Alert>}
      {list.error && <Alert color="red">{list.error.message}</Alert>}
      <DataTable
        label="Campaigns"
        rows={list.data?.data}
        rowKey={(c) => c.id}
        columns={[
          { key: 'name', label: 'Name', render: (c) => `${c.name}${c.livemode ? '' : ' (test)'}` },
          { key: 'what', label: 'What it gives', render: (c) => describe(c, venue) },
          { key: 'when', label: 'When', render: (c) => period(c, venue) },
          { key: 'where', label: 'Venues', render: (c) => venuesOf(c, chain) },
          { key: 'status', label: 'Status', render: (c) => STATUS_WORDS[c.status] },
          {
            key: 'spent',
            label: 'Spent',
            render: (c) =>
              c.budget === null ? (
                `${spentText(c, c.spent, venue)} (no budget)`
              ) : (
                <Stack gap={4}>
                  <Text size="sm">
                    {spentText(c, c.spent, venue)} of {spentText(c, c.budget, venue)}
                  </Text>
                  <Progress value={(100 * c.spent) / c.budget} aria-label={`${c.name}: spent of budget`} />
                </Stack>
              ),
          },
          {
            key: 'actions',
            label: 'Actions',
            render: (c) => (
              <Group gap="xs">
                <Button size="xs" variant="default" aria-label={`Results of ${c.name}`} onClick={() => setOpen({ campaign: c, dialog: 'results' })}>
                  Results
                </Button>
                {c.status !== 'ended' && (
                  <>
                    <Button size="xs" variant="default" aria-label={`Edit ${c.name}`} onClick={() => setOpen({ campaign: c, dialog: 'edit' })}>
                      Edit
                    </Button>
                    <Button size="xs" variant="default" onClick={() => void change(c, c.status === 'active' ? 'paused' : 'active')}>
                      {c.status === 'active' ? `Pause ${c.name}` : `Resume ${c.name}`}
                    </Button>
                    <ConfirmButton
                      size="xs"
                      variant="subtle"
                      title={`End ${c.name}?`}
                      message="It gives no more credits, and an ended campaign cannot be resumed (pause it to stop for a while). Credits already given stay."
                      confirmLabel="End campaign"
                      onConfirm={() => change(c, 'ended')}
                    >
                      {`End ${c.name}`}
                    </ConfirmButton>
                  </>
                )}
              </Group>
            ),
          },
        ]}
      />
      {open?.dialog === 'edit' && <CampaignEdit campaign={open.campaign} stamps={unitOf(open.campaign) === 'stamps'} onClose={() => setOpen(undefined)} />}
      {open?.dialog === 'results' && <CampaignResults campaign={open.campaign} stamps={unitOf(open.campaign) === 'stamps'} onClose={() => setOpen(undefined)} />}
    </Stack>
  );
}

const unitOf = (c: Campaign) => (c.stamps !== null || c.stamps_multiplier !== null ? 'stamps' : 'cashback');
const spentText = (c: Campaign, amount: number, venue: Parameters<typeof money>[1]) => (unitOf(c) === 'stamps' ? `${amount} stamps` : money(amount, venue));

function describe(c: Campaign, venue: Parameters<typeof money>[1]): string {
  const reward = c.amount !== null ? money(c.amount, venue) : c.stamps !== null ? `${c.stamps} stamps` : '';
  switch (c.type) {
    case 'bonus': {
      const extra = c.percent !== null ? `${c.percent} % more cashback` : `${c.stamps_multiplier}× stamps`;
      const when = c.schedule ? ` ${c.schedule.days_of_week.map((d) => DAYS[d - 1]).join(', ')} ${c.schedule.from}–${c.schedule.to}` : ' all day';
      return extra + when;
    }
    case 'welcome':
      return `${reward} when a guest joins`;
    case 'birthday':
      return `${reward} on the guest's birthday`;
    case 'referral':
      return `${money(c.referrer_amount ?? 0, venue)} to who brings a friend, ${money(c.referee_amount ?? 0, venue)} to the friend`;
  }
}

/** From when to when it runs, in the venue's time; "Ended" says so when it ended by hand before its end. */
function period(c: Campaign, venue: Parameters<typeof when>[1]): string {
  if (!c.starts_at && !c.ends_at) return `Since ${when(c.created_at, venue)}, no end`;
  const from = `From ${when(c.starts_at ?? c.created_at, venue)}`;
  return c.ends_at ? `${from} to ${when(c.ends_at, venue)}` : `${from}, no end`;
}

function venuesOf(c: Campaign, chain: Chain): string {
  if (!c.venue_ids) return 'Every venue';
  return c.venue_ids.map((id) => chain.venues.find((v) => v.id === id)?.name ?? 'a venue you do not run').join(', ');
}

function NewCampaignForm() {
  const qc = useQueryClient();
  const venue = useVenue();
  const chain = useChain();
  const [error, setError] = useState<string>();
  const form = useForm({
    initialValues: {
      name: '',
      type: 'bonus',
      mode: 'live',
      unit: 'cashback',
      percent: '' as number | string,
      stamps_multiplier: 2 as number | string,
      ...scheduleValues(),
      ...periodValues(venue.timezone),
      amount: '' as number | '',
      stamps: 1 as number | string,
      referrer_amount: '' as number | '',
      referee_amount: '' as number | '',
      budget: '' as number | '',
      venue_ids: [] as string[],
    },
  });
  const v = form.values;
  const minor = (value: number | '') => (value === '' ? null : value);
  // A referral pays cashback only: its unit switch is hidden, whatever it was left at.
  const stamps = v.type !== 'referral' && v.unit === 'stamps';
  const create = form.onSubmit(async (values) => {
    setError(undefined);
    const stamps = values.type !== 'referral' && values.unit === 'stamps';
    const byType: Record<string, object> = {
      bonus: {
        ...(stamps ? { stamps_multiplier: Number(values.stamps_multiplier) } : { percent: values.percent === '' ? null : Number(values.percent) }),
        schedule: scheduleOf(values),
      },
      welcome: stamps ? { stamps: Number(values.stamps) } : { amount: minor(values.amount) },
      birthday: stamps ? { stamps: Number(values.stamps) } : { amount: minor(values.amount) },
      referral: { referrer_amount: minor(values.referrer_amount), referee_amount: minor(values.referee_amount) },
    };
    try {
      await call(
        client.POST('/dashboard/api/campaigns', {
          body: {
            name: values.name,
            type: values.type as Campaign['type'],
            livemode: values.mode === 'live',
            budget: minor(values.budget),
            venue_ids: values.venue_ids.length ? values.venue_ids : null,
            ...periodOf(values, venue.timezone),
            ...byType[values.type],
          } as never,
        }),
      );
      form.reset();
      void qc.invalidateQueries({ queryKey: ['campaigns'] });
    } catch (err) {
      setError(applyApiError(form, err, fieldOf));
    }
  });
  const moneyInput = (field: 'amount' | 'referrer_amount' | 'referee_amount' | 'budget', label: string, description?: string) => (
    <MoneyInput label={label} description={description} place={venue} {...form.getInputProps(field)} />
  );
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        New campaign
      </Title>
      <form onSubmit={create}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <Group grow align="flex-start">
            <TextInput label="Name" description="Shown on receipts" {...form.getInputProps('name')} />
            <Select
              label="Kind"
              description="Credits from now on"
              data={TYPES}
              allowDeselect={false}
              {...form.getInputProps('type')}
            />
          </Group>
          <Group>
            <SegmentedControl aria-label="Mode" data={[{ value: 'live', label: 'Live' }, { value: 'test', label: 'Test' }]} {...form.getInputProps('mode')} />
            {v.type !== 'referral' && (
              <SegmentedControl aria-label="Reward in" data={[{ value: 'cashback', label: 'Cashback' }, { value: 'stamps', label: 'Stamps' }]} {...form.getInputProps('unit')} />
            )}
          </Group>
          {v.type === 'bonus' && (
            <>
              {stamps ? (
                <NumberInput label="Stamps multiplied by" description="2 gives double stamps" allowDecimal={false} {...form.getInputProps('stamps_multiplier')} />
              ) : (
                <NumberInput label="Extra percent" description="Added to what each line earns, up to two decimals" decimalScale={2} {...form.getInputProps('percent')} />
              )}
              <ScheduleFields form={form} timezone={venue.timezone} />
            </>
          )}
          {(v.type === 'welcome' || v.type === 'birthday') &&
            (stamps ? <NumberInput label="Stamps given" allowDecimal={false} {...form.getInputProps('stamps')} /> : moneyInput('amount', 'Cashback given'))}
          {v.type === 'referral' && (
            <Group grow>
              {moneyInput('referrer_amount', 'To the guest who brings a friend')}
              {moneyInput('referee_amount', 'To the friend')}
            </Group>
          )}
          <Group grow align="flex-start">
            {stamps ? (
              <NumberInput label="Budget (stamps)" description="Empty: no limit" allowDecimal={false} {...form.getInputProps('budget')} />
            ) : (
              moneyInput('budget', 'Budget', 'Empty: no limit')
            )}
            <VenueField form={form} chain={chain} />
          </Group>
          <PeriodFields form={form} timezone={venue.timezone} />
          <Group>
            <Button type="submit" loading={form.submitting}>
              Create campaign
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
