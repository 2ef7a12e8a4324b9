// Point of sale (D26): connect Square or Toast step by step (name, its secrets or Toast's API key, its locations or
// Toast's restaurants mapped to the chain's venues, then the URL to give the provider, refused while the server's public
// address is localhost), pause and resume a connection, replace a secret, see when it keeps failing, and read its log
// with "Try again". What differs between the providers is their words (ProviderText) and Toast's key (PointOfSaleToast).
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Paper,
  PasswordInput,
  Radio,
  Select,
  Stack,
  Stepper,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, call, client, when } from '../api';
import type { paths } from '../api/schema';
import { DataTable, type Column } from '../components/DataTable';
import { LoadMore } from '../components/LoadMore';
import { SecretOnceModal } from '../components/SecretOnce';
import { useCan, useChain, useVenue } from '../session';
import { OUTCOME_WORDS, PROVIDER_TEXT, wordsOf, type Connection, type Provider, type ProviderText, type SecretField } from './PointOfSaleProviders';
import { ToastJwtNote, ToastKeyHandover, ToastKeyStep, toastKeyProblem, type ToastKey } from './PointOfSaleToast';

type LogEntry = paths['/dashboard/api/integrations/{id}/log']['get']['responses']['200']['content']['application/json']['data'][number];
type Written = paths['/dashboard/api/integrations']['post']['responses']['201']['content']['application/json'];
type Change = NonNullable<paths['/dashboard/api/integrations/{id}']['patch']['requestBody']>['content']['application/json'];

const LOG_PAGE = 10;

const KIND_WORDS: Record<string, string> = {
  'square.payment': 'Payment',
  'square.refund': 'Refund',
  'square.webhook': 'Call from Square',
  'toast.request': 'Call from Toast',
  'toast.redeem': 'Cashback taken off a check',
  'toast.accrue': 'A paid check',
  'toast.reverse': 'Undone at the till',
  'toast.signup': 'Sign-up at the till',
};

/** The provider's ids as the log names them: payment_id → Payment, transaction_guid → Transaction GUID. */
const idLabel = (key: string) => {
  const words = key.replace(/_id$/, '').replaceAll('_', ' ').replace(/\bguid\b/, 'GUID');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function PointOfSalePage() {
  const can = useCan();
  // A role that may not open the page never reaches it: the app shows "Not open to your role" instead (App.tsx).
  const list = useQuery({ queryKey: ['integrations'], queryFn: () => call(client.GET('/dashboard/api/integrations')) });
  const [connecting, setConnecting] = useState(false);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Point of sale</Title>
        {!connecting && can('POST /integrations') && <Button onClick={() => setConnecting(true)}>Connect a point of sale</Button>}
      </Group>
      <Stack gap={4}>
        <Text c="dimmed" size="sm">
          Connect the tills you already run: each payment a guest makes at a connected till earns (and each refund takes back) as a check sent to the loyalty
          API would.
        </Text>
        {Object.values(PROVIDER_TEXT).map((p) => (
          <Text key={p.name} c="dimmed" size="sm">
            {p.about}
          </Text>
        ))}
      </Stack>
      {list.error && <Alert color="red">{list.error.message}</Alert>}
      {connecting && <ConnectWizard onClose={() => setConnecting(false)} />}
      {list.data?.data.length === 0 && !connecting && <Text c="dimmed">No point of sale connected yet.</Text>}
      {list.data?.data.map((c) => <ConnectionCard key={c.id} connection={c} />)}
    </Stack>
  );
}

interface LocationRow {
  key: number;
  location: string;
  venueId: string | null;
}

let rowKeys = 0;
const rowsOf = (locations: Record<string, string>): LocationRow[] => Object.entries(locations).map(([location, venueId]) => ({ key: ++rowKeys, location, venueId }));
const blankRow = (): LocationRow => ({ key: ++rowKeys, location: '', venueId: null });

/** What is wrong with a row, in words, and which of its two fields says so. */
interface RowProblem {
  error: string;
  index: number;
  field: 'location' | 'venue';
}

/** The rows as the API's locations, or the first problem in words (a row half filled, a location named twice). */
function locationsOf(rows: LocationRow[], { place }: ProviderText): { locations: Record<string, string> } | RowProblem {
  const locations: Record<string, string> = {};
  for (const [index, row] of rows.entries()) {
    const location = place.normalise(row.location);
    if (!location && !row.venueId) continue;
    if (!location) return { error: place.missing, index, field: 'location' };
    if (!row.venueId) return { error: `Choose the venue this ${place.noun} is.`, index, field: 'venue' };
    if (location in locations) return { error: `${location} is named twice: a ${place.noun} is one venue.`, index, field: 'location' };
    locations[location] = row.venueId;
  }
  return { locations };
}

/**
 * The server's refusal of one location (`locations.<id>`) beside that row: beside its venue when the venue is not one
 * of yours, beside its id when the id is refused (not a Toast GUID, mapped by another connection).
 */
function rowProblemOf(err: unknown, rows: LocationRow[], { place }: ProviderText): RowProblem | undefined {
  const param = err instanceof ApiError ? err.param : undefined;
  if (!param?.startsWith('locations.')) return undefined;
  const index = rows.findIndex((r) => place.normalise(r.location) === param.slice('locations.'.length));
  return index < 0 ? undefined : { error: messageOf(err), index, field: (err as ApiError).code === 'venue_not_found' ? 'venue' : 'location' };
}

/** A row per location (Toast: restaurant): its id and the venue it is; add and remove rows. */
function LocationRows({ rows, onChange, problem, text: { place } }: { rows: LocationRow[]; onChange: (rows: LocationRow[]) => void; problem?: RowProblem; text: ProviderText }) {
  const chain = useChain();
  const venues = chain.venues.map((v) => ({ value: v.id, label: v.name }));
  const set = (key: number, change: Partial<LocationRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  return (
    <Stack gap="xs">
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          {place.unmapped}
        </Text>
      )}
      {rows.map((row, index) => {
        // Another venue's mapping, kept as it is when this user may not see that venue.
        const options = row.venueId && !venues.some((v) => v.value === row.venueId) ? [...venues, { value: row.venueId, label: 'Another venue' }] : venues;
        const error = (field: RowProblem['field']) => (problem?.index === index && problem.field === field ? problem.error : undefined);
        return (
          <Group key={row.key} align="flex-start" gap="xs" wrap="wrap" data-testid="location-row">
            <TextInput
              label={place.label}
              placeholder={place.placeholder}
              style={{ flex: '1 1 12rem', minWidth: 0 }}
              value={row.location}
              onChange={(e) => set(row.key, { location: e.currentTarget.value })}
              error={error('location')}
            />
            <Select
              label="Venue"
              placeholder="Choose a venue"
              data={options}
              style={{ flex: '1 1 12rem', minWidth: 0 }}
              value={row.venueId}
              onChange={(v) => set(row.key, { venueId: v })}
              error={error('venue')}
              allowDeselect={false}
            />
            <Button variant="subtle" color="red" mt={25} onClick={() => onChange(rows.filter((r) => r.key !== row.key))} aria-label={`Remove ${place.noun} ${row.location.trim() || index + 1}`}>
              Remove
            </Button>
          </Group>
        );
      })}
      <Group>
        <Button variant="default" size="xs" onClick={() => onChange([...rows, blankRow()])}>
          Add {place.noun}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {place.where}
      </Text>
    </Stack>
  );
}

/** Connecting a point of sale in four steps: provider and name, its credentials, its places mapped to venues, then the URL to give it. */
function ConnectWizard({ onClose }: { onClose: () => void }) {
  const qc = useQueryClient();
  const narrow = useMediaQuery('(max-width: 48em)');
  const [provider, setProvider] = useState<Provider>('square');
  const text = PROVIDER_TEXT[provider];
  const [step, setStep] = useState(0);
  const [name, setName] = useState(text.name);
  const [secrets, setSecrets] = useState<Partial<Record<SecretField['key'], string>>>({});
  const [toastKey, setToastKey] = useState<ToastKey>({ mode: 'generate', pasted: '' });
  const [rows, setRows] = useState<LocationRow[]>([blankRow()]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<RowProblem>();
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<Written>();
  const [saving, setSaving] = useState(false);
  const stepLabels = (n: number) => (narrow ? { 'aria-label': `Step ${n + 1}: ${text.steps[n]!.label}` } : { label: text.steps[n]!.label, description: text.steps[n]!.description });

  const choose = (chosen: Provider) => {
    // A name still the other provider's default follows the choice; one the owner typed stays.
    if (name === text.name) setName(PROVIDER_TEXT[chosen].name);
    setProvider(chosen);
    setFieldErrors({});
    setProblem(undefined);
  };

  const next = () => {
    setFieldErrors({});
    if (step === 0 && !name.trim()) return setFieldErrors({ name: 'Give the connection a name, e.g. the tills it is.' });
    if (step === 1 && provider === 'square') {
      const missing = Object.fromEntries(text.secrets.filter((s) => !s.optional && !secrets[s.key]?.trim()).map((s) => [s.key, `Paste the ${s.noun} from Square.`]));
      if (Object.keys(missing).length) return setFieldErrors(missing);
    }
    if (step === 1 && provider === 'toast') {
      const wrong = toastKeyProblem(toastKey);
      if (wrong) return setFieldErrors({ api_key: wrong });
    }
    setStep(step + 1);
  };

  const credentials = () => {
    if (provider === 'toast') return toastKey.mode === 'generate' ? { settings: {}, generate_api_key: true } : { settings: { api_key: toastKey.pasted.trim() } };
    const given = text.secrets.map((s) => [s.key, secrets[s.key]?.trim()]).filter(([, value]) => value);
    return { settings: Object.fromEntries(given) };
  };

  const connect = async () => {
    setError(undefined);
    setProblem(undefined);
    const mapped = locationsOf(rows, text);
    if ('error' in mapped) return setProblem(mapped);
    setSaving(true);
    try {
      const answer = await call(client.POST('/dashboard/api/integrations', { body: { provider, name: name.trim(), locations: mapped.locations, ...credentials() } }));
      setCreated(answer);
      setStep(3);
      void qc.invalidateQueries({ queryKey: ['integrations'] });
    } catch (err) {
      // A refused field: back to its step, the reason beside it.
      const param = err instanceof ApiError ? err.param : undefined;
      if (param === 'name') {
        setStep(0);
        setFieldErrors({ name: messageOf(err) });
      } else if (param?.startsWith('settings.') || param === 'generate_api_key') {
        setStep(1);
        setFieldErrors({ [param.startsWith('settings.') ? param.slice('settings.'.length) : 'api_key']: messageOf(err) });
      } else {
        const row = rowProblemOf(err, rows, text);
        if (row) setProblem(row);
        else setError(messageOf(err));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder p="md" aria-label={`Connect ${text.name}`} component="section">
      <Stack>
        <Title order={3}>Connect {text.name}</Title>
        {/* On a phone the steps are numbered circles only, and the step at hand is named above them. */}
        {narrow && (
          <Text fw={600} size="sm" data-testid="wizard-step">
            Step {step + 1} of 4: {text.steps[step]!.label}
          </Text>
        )}
        <Stepper active={step} size="sm" allowNextStepsSelect={false} onStepClick={created ? undefined : setStep}>
          <Stepper.Step {...stepLabels(0)}>
            <Stack mt="md">
              <Radio.Group label="Point of sale" value={provider} onChange={(v) => choose(v as Provider)}>
                <Stack gap="xs" mt={4}>
                  <Radio value="square" label="Square" />
                  <Radio value="toast" label="Toast" />
                </Stack>
              </Radio.Group>
              <TextInput label="Name" description="For you: how the log and this page call it" required maxLength={100} value={name} error={fieldErrors.name} onChange={(e) => setName(e.currentTarget.value)} />
            </Stack>
          </Stepper.Step>
          <Stepper.Step {...stepLabels(1)}>
            {provider === 'toast' ? (
              <ToastKeyStep value={toastKey} onChange={setToastKey} error={fieldErrors.api_key} />
            ) : (
              <Stack mt="md">
                <Text size="sm" c="dimmed">
                  Kept encrypted. After saving, only their last four characters are shown; you can replace them, never read them back.
                </Text>
                {text.secrets.map((s) => (
                  <PasswordInput
                    key={s.key}
                    label={s.label}
                    description={s.help}
                    required={!s.optional}
                    autoComplete="off"
                    value={secrets[s.key] ?? ''}
                    error={fieldErrors[s.key]}
                    onChange={(e) => setSecrets({ ...secrets, [s.key]: e.currentTarget.value })}
                  />
                ))}
              </Stack>
            )}
          </Stepper.Step>
          <Stepper.Step {...stepLabels(2)}>
            <Stack mt="md">
              <Text size="sm" c="dimmed">
                {text.place.intro}
              </Text>
              <LocationRows rows={rows} onChange={(r) => (setRows(r), setProblem(undefined))} problem={problem} text={text} />
            </Stack>
          </Stepper.Step>
          <Stepper.Step {...stepLabels(3)}>
            {created && (
              <Stack mt="md">
                <Alert color="teal">
                  {created.name} is connected. {created.public_base_url_is_local ? `${text.name} cannot be given its URL yet: see why below.` : text.connected}
                </Alert>
                <EndpointUrl connection={created} />
                {provider === 'toast' && <ToastKeyHandover connection={created} generated={created.generated_api_key} />}
              </Stack>
            )}
          </Stepper.Step>
        </Stepper>
        {error && <Alert color="red">{error}</Alert>}
        <Group justify="space-between">
          {created ? (
            <span />
          ) : (
            <Button variant="default" onClick={step === 0 ? onClose : () => setStep(step - 1)}>
              {step === 0 ? 'Cancel' : 'Back'}
            </Button>
          )}
          {step < 2 && <Button onClick={next}>Next</Button>}
          {step === 2 && (
            <Button onClick={() => void connect()} loading={saving}>
              Connect
            </Button>
          )}
          {step === 3 && <Button onClick={onClose}>Done</Button>}
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * The URL the provider is to call, with a copy button; refused while PUBLIC_BASE_URL is this machine, since the
 * provider calls from the internet and cannot reach localhost.
 */
function EndpointUrl({ connection: c }: { connection: Connection }) {
  const { name, url } = PROVIDER_TEXT[c.provider];
  if (c.public_base_url_is_local) {
    return (
      <Alert color="red" title={`${name} cannot reach this server yet`} data-testid="endpoint-url-refused">
        <Stack gap="xs">
          <Text size="sm">
            This server’s public address (PUBLIC_BASE_URL) is <Code>{c.public_base_url}</Code>: that is localhost, the computer the server runs on, which
            only that computer can open. {url.caller}, so it cannot reach localhost, and a URL built on it would never be called.
          </Text>
          <Text size="sm">
            Whoever runs the server sets PUBLIC_BASE_URL to the public address this server is reached at (for example https://loyalty.example.com, or a
            tunnel’s address while trying it out) and restarts it. {url.give} then shows here.
          </Text>
        </Stack>
      </Alert>
    );
  }
  return (
    <Stack gap="xs" data-testid="endpoint-url">
      <Text size="sm">{url.how}</Text>
      <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {c.endpoint_url}
      </Code>
      <Group>
        <CopyButton value={c.endpoint_url}>
          {({ copied, copy }) => (
            <Button size="xs" color={copied ? 'teal' : undefined} onClick={copy}>
              {copied ? 'Copied' : 'Copy URL'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="xs" c="dimmed">
        {url.after}
      </Text>
    </Stack>
  );
}

function ConnectionCard({ connection: c }: { connection: Connection }) {
  const qc = useQueryClient();
  const venue = useVenue();
  const text = PROVIDER_TEXT[c.provider];
  const [error, setError] = useState<string>();
  const [deleting, setDeleting] = useState(false);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['integrations'] });
    void qc.invalidateQueries({ queryKey: ['integration-log', c.id] });
  };
  const change = useMutation({
    mutationFn: (body: Change) => call(client.PATCH('/dashboard/api/integrations/{id}', { params: { path: { id: c.id } }, body })),
    onSuccess: () => {
      setError(undefined);
      refresh();
    },
    onError: (err) => setError(messageOf(err)),
  });
  const paused = c.status === 'paused';
  return (
    <Paper withBorder p="md" data-integration-id={c.id} aria-label={c.name} component="section">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={4} style={{ minWidth: 0, flex: '1 1 14rem' }}>
            <Group gap="xs">
              <Title order={3} style={{ overflowWrap: 'anywhere' }}>
                {c.name}
              </Title>
              <Badge variant="light">{text.name}</Badge>
              <Badge color={paused ? 'gray' : 'teal'} data-testid="connection-status">
                {paused ? 'Paused' : 'Active'}
              </Badge>
              {!c.livemode && (
                <Badge color="grape" variant="light">
                  Test
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              Connected {when(c.created_at, venue)}
            </Text>
          </Stack>
          <Group gap="xs">
            {paused ? (
              <Button size="xs" color="teal" loading={change.isPending} onClick={() => change.mutate({ status: 'active' })} aria-label={`Resume ${c.name}`}>
                Resume
              </Button>
            ) : (
              <Button size="xs" variant="default" loading={change.isPending} onClick={() => change.mutate({ status: 'paused' })} aria-label={`Pause ${c.name}`}>
                Pause
              </Button>
            )}
            <Button size="xs" variant="light" color="red" onClick={() => setDeleting(true)} aria-label={`Delete ${c.name}`}>
              Delete
            </Button>
          </Group>
        </Group>
        {c.failing_since && (
          <Alert color="red" title="This connection is failing" data-testid="failing-banner">
            Since {when(c.failing_since, venue)}, {text.failing}
          </Alert>
        )}
        {paused && (
          <Alert color="gray" data-testid="paused-note">
            {text.paused}
          </Alert>
        )}
        {error && (
          <Alert color="red" withCloseButton onClose={() => setError(undefined)}>
            {error}
          </Alert>
        )}
        <Secrets connection={c} />
        <Locations connection={c} />
        <Stack gap="xs">
          <Title order={4}>{text.url.title}</Title>
          <EndpointUrl connection={c} />
        </Stack>
        <ConnectionLog connection={c} />
      </Stack>
      <DeleteModal connection={c} opened={deleting} onClose={() => setDeleting(false)} />
    </Paper>
  );
}

/** The secrets as the server shows them once set: …last4, each with "Replace" (a Toast key also generated anew). */
function Secrets({ connection: c }: { connection: Connection }) {
  const qc = useQueryClient();
  const text = PROVIDER_TEXT[c.provider];
  const [replacing, setReplacing] = useState<SecretField['key']>();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState<'pasted' | 'generated'>();
  const [generated, setGenerated] = useState<{ field: SecretField; key: string }>();
  const close = () => (setReplacing(undefined), setValue(''), setError(undefined));
  const save = async (field: SecretField, how: 'pasted' | 'generated') => {
    if (how === 'pasted' && !value.trim()) return setError('Paste the new value, or cancel.');
    setSaving(how);
    try {
      const body: Change = how === 'generated' ? { generate_api_key: true } : { settings: { [field.key]: value.trim() } };
      const answer = await call(client.PATCH('/dashboard/api/integrations/{id}', { params: { path: { id: c.id } }, body }));
      if (answer.generated_api_key) setGenerated({ field, key: answer.generated_api_key });
      close();
      void qc.invalidateQueries({ queryKey: ['integrations'] });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSaving(undefined);
    }
  };
  return (
    <Stack gap="xs">
      <Title order={4}>Secrets</Title>
      {c.provider === 'toast' && <ToastJwtNote connection={c} />}
      {text.secrets.map((s) =>
        replacing === s.key ? (
          <Stack key={s.key} gap="xs">
            <PasswordInput label={`New ${s.noun}`} description={s.help} autoComplete="off" value={value} error={error} onChange={(e) => setValue(e.currentTarget.value)} />
            <Group gap="xs">
              <Button size="xs" loading={saving === 'pasted'} disabled={saving === 'generated'} onClick={() => void save(s, 'pasted')}>
                Save {s.noun}
              </Button>
              {s.generated && (
                <Button size="xs" variant="light" loading={saving === 'generated'} disabled={saving === 'pasted'} onClick={() => void save(s, 'generated')}>
                  Generate a new key
                </Button>
              )}
              <Button size="xs" variant="default" onClick={close}>
                Cancel
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group key={s.key} gap="xs" justify="space-between" wrap="nowrap" data-testid={`secret-${s.key}`}>
            <Text size="sm" style={{ minWidth: 0 }}>
              {s.label}: <Code>{c.settings[s.key] ?? 'not set'}</Code>
            </Text>
            <Button size="xs" variant="default" onClick={() => (close(), setReplacing(s.key))} aria-label={`Replace ${s.noun}`}>
              Replace
            </Button>
          </Group>
        ),
      )}
      <SecretOnceModal
        secret={generated?.key}
        title={`New ${generated?.field.noun ?? 'key'} for ${c.name}`}
        warning={generated?.field.generated?.warning ?? ''}
        testId="generated-secret"
        onClose={() => setGenerated(undefined)}
      />
    </Stack>
  );
}

/** The connection's locations, changed in rows and saved together. */
function Locations({ connection: c }: { connection: Connection }) {
  const qc = useQueryClient();
  const text = PROVIDER_TEXT[c.provider];
  const [rows, setRows] = useState<LocationRow[]>(() => rowsOf(c.locations));
  const [problem, setProblem] = useState<RowProblem>();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const mapped = locationsOf(rows, text);
  const changed = !('locations' in mapped) || JSON.stringify(Object.entries(mapped.locations).sort()) !== JSON.stringify(Object.entries(c.locations).sort());
  const save = async () => {
    setProblem(undefined);
    setError(undefined);
    if ('error' in mapped) return setProblem(mapped);
    setSaving(true);
    try {
      const answer = await call(client.PATCH('/dashboard/api/integrations/{id}', { params: { path: { id: c.id } }, body: { locations: mapped.locations } }));
      setRows(rowsOf(answer.locations));
      setSaved(true);
      void qc.invalidateQueries({ queryKey: ['integrations'] });
    } catch (err) {
      const row = rowProblemOf(err, rows, text);
      if (row) setProblem(row);
      else setError(messageOf(err));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="xs">
      <Title order={4}>{text.place.title}</Title>
      <LocationRows rows={rows} onChange={(r) => (setRows(r), setSaved(false), setProblem(undefined))} problem={problem} text={text} />
      {error && <Alert color="red">{error}</Alert>}
      <Group gap="xs">
        <Button size="xs" disabled={!changed} loading={saving} onClick={() => void save()} aria-label={`Save ${text.place.title.toLowerCase()} of ${c.name}`}>
          Save {text.place.title.toLowerCase()}
        </Button>
        {saved && !changed && (
          <Text size="sm" c="teal">
            Saved.
          </Text>
        )}
      </Group>
    </Stack>
  );
}

/** What the connection did, newest first, page by page; entries that can be done again have "Try again". */
function ConnectionLog({ connection: c }: { connection: Connection }) {
  const text = PROVIDER_TEXT[c.provider];
  const venue = useVenue();
  const can = useCan();
  const qc = useQueryClient();
  const log = useInfiniteQuery({
    queryKey: ['integration-log', c.id],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(client.GET('/dashboard/api/integrations/{id}/log', { params: { path: { id: c.id }, query: { limit: LOG_PAGE, ...(pageParam ? { starting_after: pageParam } : {}) } } })),
    getNextPageParam: (last) => (last.has_more ? last.data[last.data.length - 1]?.id : undefined),
  });
  const retry = useMutation({
    mutationFn: (entryId: string) => call(client.POST('/dashboard/api/integrations/{id}/log/{entry_id}/retry', { params: { path: { id: c.id, entry_id: entryId } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['integration-log', c.id] }),
  });
  const rows = log.data?.pages.flatMap((p) => p.data);
  const columns: Column<LogEntry>[] = [
    { key: 'when', label: 'When', render: (e) => when(e.created_at, venue) },
    {
      key: 'what',
      label: 'What happened',
      render: (e) => (
        <Stack gap={2} align="flex-start">
          <Text size="sm" fw={600} c={`${OUTCOME_WORDS[e.outcome]?.color ?? 'gray'}.9`}>
            {wordsOf(e.outcome, text)}
          </Text>
          <Text size="xs" c="dimmed">
            {KIND_WORDS[e.kind] ?? e.kind}
            {e.attempts > 1 ? ` · ${e.attempts} attempts` : ''}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'message',
      label: 'Details',
      render: (e) => (
        <Stack gap={2}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {e.message ?? '—'}
          </Text>
          {e.next_attempt_at && (e.outcome === 'provider_error' || e.outcome === 'queued') && (
            <Text size="xs" c="dimmed">
              Next try {when(e.next_attempt_at, venue)}
            </Text>
          )}
          {e.transaction_id && e.venue_id === venue.id && can('GET /transactions/:id') && (
            <Anchor component={Link} to={`/transactions/${e.transaction_id}`} size="xs">
              See the check
            </Anchor>
          )}
        </Stack>
      ),
    },
    {
      key: 'ids',
      label: `${text.name}’s ids`,
      render: (e) =>
        Object.keys(e.provider_ids).length === 0 ? (
          '—'
        ) : (
          <Stack gap={0}>
            {Object.entries(e.provider_ids).map(([k, v]) => (
              <Text size="xs" key={k} style={{ overflowWrap: 'anywhere' }}>
                {idLabel(k)}: <span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{v}</span>
              </Text>
            ))}
          </Stack>
        ),
    },
    {
      key: 'retry',
      label: '',
      render: (e) =>
        e.retryable ? (
          <Button size="xs" variant="default" loading={retry.isPending && retry.variables === e.id} onClick={() => retry.mutate(e.id)} aria-label={`Try again: ${wordsOf(e.outcome, text)}, ${when(e.created_at, venue)}`}>
            Try again
          </Button>
        ) : null,
    },
  ];
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={4}>Log</Title>
        <Button size="xs" variant="subtle" onClick={() => void log.refetch()} loading={log.isRefetching}>
          Refresh
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        Newest first. “Try again” queues an entry once more, e.g. after the guest’s phone was added to their member, the location was mapped or the connection resumed.
      </Text>
      {log.error && <Alert color="red">{log.error.message}</Alert>}
      {retry.error && (
        <Alert color="red" withCloseButton onClose={() => retry.reset()}>
          {retry.error.message}
        </Alert>
      )}
      <DataTable label={`Log of ${c.name}`} columns={columns} rows={rows} rowKey={(e) => e.id} rowProps={(e) => ({ 'data-outcome': e.outcome })} empty={`Nothing from ${text.name} yet.`} />
      <LoadMore list={log} />
    </Stack>
  );
}

function DeleteModal({ connection: c, opened, onClose }: { connection: Connection; opened: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(client.DELETE('/dashboard/api/integrations/{id}', { params: { path: { id: c.id } } })),
    onSuccess: () => {
      onClose();
      void qc.invalidateQueries({ queryKey: ['integrations'] });
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={`Delete ${c.name}`}>
      <Stack>
        <Text>
          {PROVIDER_TEXT[c.provider].name}’s calls to this connection are refused from now on and its log is deleted. What it already applied stays on guests’
          cards. {PROVIDER_TEXT[c.provider].deleted}
        </Text>
        {remove.error && <Alert color="red">{remove.error.message}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep it
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            Delete connection
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
