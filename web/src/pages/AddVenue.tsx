// "Add venue" (D21): a new venue in the owner's chain, counting in the chain's currency; the session switches to it.
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call, client } from '../api';
import { applyApiError } from '../form-errors';
import { useChain, useVenue, useVenueChanged } from '../session';

/** A slug from a name, as the owner would write it: "Café on the Quay" → "cafe-on-the-quay". */
function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}

export function AddVenuePage() {
  const venue = useVenue();
  const chain = useChain();
  const venueChanged = useVenueChanged();
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  // The slug follows the name until the owner types one of their own.
  const [slugTouched, setSlugTouched] = useState(false);
  const form = useForm({
    initialValues: { name: '', slug: '', timezone: venue.timezone, locale: venue.locale, country: venue.country },
    validate: {
      name: (v) => (v.trim() ? null : 'Give the venue a name.'),
      slug: (v) => (/^[a-z0-9-]{1,48}$/.test(v) ? null : 'Lowercase letters, digits and dashes, up to 48.'),
    },
  });
  const submit = form.onSubmit(async (v) => {
    setError(undefined);
    try {
      const session = await call(client.POST('/dashboard/api/venues', { body: v }));
      venueChanged(session);
      // As after sign-up: a new venue's first step is a key for its till.
      navigate('/keys', { state: { notice: `${session.venue.name} was added to ${session.chain.name}; you are now working in it.` } });
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  return (
    <form onSubmit={submit}>
      <Stack maw={900}>
        <Title order={2}>Add venue</Title>
        <Text c="dimmed" size="sm">
          A new venue of {chain.name}. Members, their balances, programs and categories are the chain’s, so they are
          shared with it at once; keys, register rules, the menu, tables, orders and webhooks are its own. You switch to
          it when it is created.
        </Text>
        {error && <Alert color="red">{error}</Alert>}
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Name"
              required
              {...form.getInputProps('name')}
              onChange={(e) => {
                const name = e.currentTarget.value;
                form.setFieldValue('name', name);
                if (!slugTouched) form.setFieldValue('slug', slugOf(name));
              }}
            />
            <TextInput
              label="Short name in addresses"
              description="Its QR menus are at /m/<short name>/…; lowercase letters, digits, dashes"
              required
              {...form.getInputProps('slug')}
              onChange={(e) => {
                setSlugTouched(true);
                form.setFieldValue('slug', e.currentTarget.value);
              }}
            />
            <TextInput label="Time zone" description="e.g. Europe/Dublin; its days and per-day limits" {...form.getInputProps('timezone')} />
            <TextInput label="Locale" description="e.g. en-IE, de-DE" {...form.getInputProps('locale')} />
            <TextInput label="Country" description="Two letters, e.g. IE" maxLength={2} {...form.getInputProps('country')} />
            <TextInput label="Currency" description="The chain’s: every venue of a chain counts in it" value={chain.currency} readOnly disabled />
          </SimpleGrid>
        </Paper>
        <Group>
          <Button type="submit" loading={form.submitting}>
            Add venue
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
