// Toast on the Point of sale page (D26): the API key step of connecting it (a key the server generates, or one
// pasted), that key shown the one time it is answered, and the note on Toast's deprecated JWT form.
import { Code, PasswordInput, Radio, Stack, Text } from '@mantine/core';
import { SecretOnce } from '../components/SecretOnce';
import { TOAST_KEY_WARNING, type Connection } from './PointOfSaleProviders';

/** The API key of a Toast connection being made: drawn by the server at creation, or pasted. */
export interface ToastKey {
  mode: 'generate' | 'paste';
  pasted: string;
}

/** What is wrong with a pasted key, in words (the server's limits: 16 to 255 characters); nothing for a generated one. */
export function toastKeyProblem(key: ToastKey): string | undefined {
  if (key.mode === 'generate') return undefined;
  const length = key.pasted.trim().length;
  if (length === 0) return 'Paste the key, or choose “Generate a key”.';
  if (length < 16 || length > 255) return `A key is 16 to 255 characters; this one is ${length}.`;
  return undefined;
}

/** The wizard's second step for Toast: generate a key (recommended) or paste one; the JWT form is left to the API. */
export function ToastKeyStep({ value, onChange, error }: { value: ToastKey; onChange: (key: ToastKey) => void; error?: string }) {
  return (
    <Stack mt="md">
      <Text size="sm" c="dimmed">
        Toast’s tills send a key with every call, so that only they can use this connection. It is kept encrypted: after saving, only its last four
        characters are shown.
      </Text>
      <Radio.Group label="API key" value={value.mode} onChange={(mode) => onChange({ ...value, mode: mode as ToastKey['mode'] })}>
        <Stack gap="xs" mt={4}>
          <Radio value="generate" label="Generate a key" description="A strong random key is made when you connect and shown once, to send to Toast’s integrations team." />
          <Radio value="paste" label="Paste a key" description="One you agreed with Toast’s integrations team." />
        </Stack>
      </Radio.Group>
      {value.mode === 'paste' && (
        <PasswordInput
          label="Toast API key"
          description="16 to 255 characters"
          required
          autoComplete="off"
          value={value.pasted}
          error={error}
          onChange={(e) => onChange({ ...value, pasted: e.currentTarget.value })}
        />
      )}
      {value.mode === 'generate' && error && (
        <Text size="sm" c="red">
          {error}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        Toast’s older sign-in with its public key (JWT) is deprecated: it is set from the API or the command line only.
      </Text>
    </Stack>
  );
}

/** The last step's key: the generated one this once, with copy; a pasted one by its last four characters. */
export function ToastKeyHandover({ connection: c, generated }: { connection: Connection; generated: string | undefined }) {
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        API key
      </Text>
      {generated ? (
        <SecretOnce secret={generated} warning={TOAST_KEY_WARNING} testId="generated-api-key" copyLabel="Copy key" />
      ) : (
        <Text size="sm">
          The key you pasted (ending <Code>{c.settings.api_key}</Code>): Toast’s integrations team must have the same one.
        </Text>
      )}
    </Stack>
  );
}

/** A connection made with Toast's public key (the deprecated JWT form): said, as it is changed from the API only. */
export function ToastJwtNote({ connection: c }: { connection: Connection }) {
  if (!c.settings.public_key) return null;
  return (
    <Text size="sm" data-testid="toast-jwt-note">
      {c.settings.api_key ? 'Toast’s public key (JWT, deprecated) is set too, but the API key below is the one checked.' : 'Toast’s calls are checked with Toast’s public key (JWT, deprecated), set from the API or the command line. An API key set here takes its place.'}
    </Text>
  );
}
