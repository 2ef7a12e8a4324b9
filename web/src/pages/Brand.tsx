// The chain's brand (D25): the name guests see, its colours and its logo, shown on the guests' menu pages; a preview
// shows the header as guests see it; and whether wallet cards are set up on the server (D23).
import { Alert, Button, ColorInput, FileInput, Group, Image, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call, client } from '../api';
import { applyApiError } from '../form-errors';
import { useChain } from '../session';
import { ConfirmButton } from '../components/ConfirmButton';

const COLOURS = [
  ['background_color', 'Background colour', 'Behind the name on the guests’ menu'],
  ['foreground_color', 'Text colour', 'The name on that background: keep it easy to read'],
  ['label_color', 'Label colour', 'Small labels on the wallet card'],
] as const;

/** The file's bytes as base64, as the API takes the logo. */
const base64Of = async (file: File) => {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
};

export function BrandPage() {
  const qc = useQueryClient();
  const chain = useChain();
  const brand = useQuery({ queryKey: ['brand'], queryFn: () => call(client.GET('/dashboard/api/brand')) });
  const wallet = useQuery({ queryKey: ['wallet'], queryFn: () => call(client.GET('/dashboard/api/wallet')) });
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const form = useForm({ initialValues: { display_name: '', background_color: '', foreground_color: '', label_color: '' } });
  const [logoError, setLogoError] = useState<string>();
  useEffect(() => {
    if (brand.data) form.setValues({ ...brand.data, display_name: brand.data.display_name ?? '' });
  }, [brand.data]);
  const save = form.onSubmit(async (v) => {
    setError(undefined);
    setSaved(false);
    try {
      await call(client.PATCH('/dashboard/api/brand', { body: { ...v, display_name: v.display_name.trim() || null } }));
      setSaved(true);
      void qc.invalidateQueries({ queryKey: ['brand'] });
    } catch (err) {
      setError(applyApiError(form, err));
    }
  });
  const upload = async (file: File | null) => {
    setLogoError(undefined);
    try {
      if (file) await call(client.PUT('/dashboard/api/brand/logo', { body: { png_base64: await base64Of(file) } }));
      else await call(client.DELETE('/dashboard/api/brand/logo'));
      void qc.invalidateQueries({ queryKey: ['brand'] });
    } catch (err) {
      setLogoError((err as Error).message);
    }
  };
  const v = form.values;
  return (
    <Stack maw={900}>
      <Title order={2}>Brand</Title>
      <Text c="dimmed" size="sm">
        How guests see {chain.name}: on the menu page a table&apos;s QR code opens, and on the card in their phone&apos;s wallet.
      </Text>
      <Paper withBorder p="md" aria-label="Preview">
        <Group p="md" style={{ background: v.background_color, color: v.foreground_color, borderRadius: 8 }}>
          {brand.data?.logo_url && <Image src={brand.data.logo_url} alt="Logo" mah={48} maw={128} fit="contain" />}
          <div>
            <Text fw={700} size="lg">
              {v.display_name.trim() || chain.name}
            </Text>
            <Text size="sm" style={{ color: v.label_color }}>
              Balance
            </Text>
          </div>
        </Group>
      </Paper>
      <form onSubmit={save}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          {saved && <Alert color="teal">Saved.</Alert>}
          <TextInput label="Name guests see" description={`Empty: ${chain.name}`} maxLength={60} {...form.getInputProps('display_name')} />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {COLOURS.map(([field, label, description]) => (
              <ColorInput key={field} label={label} description={description} format="hex" withEyeDropper={false} {...form.getInputProps(field)} />
            ))}
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={form.submitting}>
              Save brand
            </Button>
          </Group>
        </Stack>
      </form>
      <Paper withBorder p="md">
        <Stack>
          <Title order={4}>Logo</Title>
          {logoError && <Alert color="red">{logoError}</Alert>}
          <FileInput label="Logo (PNG)" description="At most 256 KB and 1000 × 1000 pixels; a wide logo on a transparent background looks best" accept="image/png" clearable onChange={(f) => void upload(f)} />
          {brand.data?.logo_url && (
            <Group>
              <ConfirmButton variant="light" title="Remove the logo?" message="Card pages and wallet cards show the chain's name instead until a new logo is uploaded." confirmLabel="Remove logo" onConfirm={() => upload(null)}>
                Remove logo
              </ConfirmButton>
            </Group>
          )}
        </Stack>
      </Paper>
      {wallet.data && (
        <Paper withBorder p="md" aria-label="Wallet cards">
          <Stack gap="xs">
            <Title order={4}>Wallet cards</Title>
            {(
              [
                ['Apple Wallet', wallet.data.apple],
                ['Google Wallet', wallet.data.google],
              ] as const
            ).map(([name, setup]) => (
              <Stack key={name} gap={4}>
                <Text size="sm">
                  <b>{name}:</b> {setup.configured ? 'set up; guests can add their card.' : `not set up. Whoever runs the server sets it up with ${setup.missing.join(', ')} (the wallet guide says how).`}
                </Text>
                {setup.warnings.map((warning) => (
                  <Alert key={warning} color="orange" title={`${name} cards will not update`}>
                    {warning}
                  </Alert>
                ))}
              </Stack>
            ))}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
