import { Alert, Button, Group, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { call, client, type VenueSettings } from '../api';
import { applyApiError } from '../form-errors';
import { VenueRulesFields } from '../rules';
import { useSetSession, useSession, useVenue } from '../session';

export function VenuePage() {
  const venue = useVenue();
  const { data: session } = useSession();
  const setSession = useSetSession();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const form = useForm({
    initialValues: { name: venue.name, currency: venue.currency, locale: venue.locale, timezone: venue.timezone, settings: venue.settings as VenueSettings },
  });
  const submit = form.onSubmit(async (v) => {
    setError(undefined);
    setSaved(false);
    try {
      const updated = await call(client.PATCH('/dashboard/api/venue', { body: v }));
      setSession({ ...session!, venue: updated });
      setSaved(true);
    } catch (err) {
      setError(applyApiError(form, err, (p) => (p.startsWith('settings.') ? p : p)));
    }
  });
  return (
    <form onSubmit={submit}>
      <Stack maw={900}>
        <Group justify="space-between">
          <Title order={2}>Venue and rules</Title>
          <Button component={Link} to="/venues/new" variant="default">
            Add venue
          </Button>
        </Group>
        {error && <Alert color="red">{error}</Alert>}
        {saved && <Alert color="teal">Saved. Keys follow the new defaults at once, except where a key has its own rule.</Alert>}
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" {...form.getInputProps('name')} />
            <TextInput label="Currency" description="ISO 4217, e.g. EUR" {...form.getInputProps('currency')} />
            <TextInput label="Locale" description="e.g. en-IE, de-DE" {...form.getInputProps('locale')} />
            <TextInput label="Time zone" description="e.g. Europe/Dublin" {...form.getInputProps('timezone')} />
          </SimpleGrid>
        </Paper>
        <Title order={3}>Register rules (venue defaults)</Title>
        <Paper withBorder p="md">
          <VenueRulesFields value={form.values.settings} onChange={(s) => form.setFieldValue('settings', s)} errors={form.errors as Record<string, string>} />
        </Paper>
        <Group>
          <Button type="submit" loading={form.submitting}>
            Save venue
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
