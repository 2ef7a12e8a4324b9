// Change a running or paused campaign (D22): its name, dates, budget, schedule and venues; the server's reason shows
// beside the field it names. Its kind, unit and rewards stay as set up: a new campaign is the way to change them.
import { Alert, Button, Group, Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, client, type Campaign } from '../api';
import { applyApiError } from '../form-errors';
import { useChain, useVenue } from '../session';
import { fieldOf, periodOf, PeriodFields, periodValues, scheduleOf, ScheduleFields, scheduleValues, VenueField } from './CampaignFields';
import { MoneyInput } from './MoneyInput';

export function CampaignEdit({ campaign, stamps, onClose }: { campaign: Campaign; stamps: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const venue = useVenue();
  const chain = useChain();
  const [error, setError] = useState<string>();
  const form = useForm({
    initialValues: {
      name: campaign.name,
      budget: (campaign.budget ?? '') as number | '',
      venue_ids: campaign.venue_ids ?? [],
      ...scheduleValues(campaign),
      ...periodValues(venue.timezone, campaign),
    },
  });
  const save = form.onSubmit(async (v) => {
    setError(undefined);
    try {
      await call(
        client.PATCH('/dashboard/api/campaigns/{id}', {
          params: { path: { id: campaign.id } },
          body: {
            name: v.name,
            ...periodOf(v, venue.timezone, periodValues(venue.timezone, campaign)),
            // A budget can be changed, not added or removed (the server says why); a schedule is a bonus's.
            ...(campaign.budget !== null ? { budget: v.budget === '' ? null : v.budget } : {}),
            ...(campaign.type === 'bonus' ? { schedule: scheduleOf(v) } : {}),
            ...(chain.venues.length > 1 ? { venue_ids: v.venue_ids.length ? v.venue_ids : null } : {}),
          },
        }),
      );
      void qc.invalidateQueries({ queryKey: ['campaigns'] });
      onClose();
    } catch (err) {
      setError(applyApiError(form, err, fieldOf));
    }
  });
  return (
    <Modal opened onClose={onClose} title={`Edit ${campaign.name}`} size="lg">
      <form onSubmit={save}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <TextInput label="Name" description="Shown on receipts" {...form.getInputProps('name')} />
          <PeriodFields form={form} timezone={venue.timezone} />
          {campaign.type === 'bonus' && <ScheduleFields form={form} timezone={venue.timezone} />}
          {campaign.budget !== null &&
            (stamps ? (
              <NumberInput label="Budget (stamps)" description="At least what it has given" allowDecimal={false} {...form.getInputProps('budget')} />
            ) : (
              <MoneyInput label="Budget" description="At least what it has given" place={venue} {...form.getInputProps('budget')} />
            ))}
          <VenueField form={form} chain={chain} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={form.submitting}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
