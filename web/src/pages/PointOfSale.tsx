// Point of sale (D26): connect Square step by step (name, its secrets, its locations mapped to the chain's venues,
// then the URL to paste into Square, refused while the server's public address is localhost), pause and resume a
// connection, replace a secret, see when it keeps failing, and read its log with "Try again".
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
import { useCan, useChain, useVenue } from '../session';

type Connection = paths['/dashboard/api/integrations/{id}']['get']['responses']['200']['content']['application/json'];
type LogEntry = paths['/dashboard/api/integrations/{id}/log']['get']['responses']['200']['content']['application/json']['data'][number];
type Outcome = LogEntry['outcome'];

const LOG_PAGE = 10;

/** Each outcome of the log in plain words, and the colour it is written in (grape: needs you; red: refused or given up). */
export const OUTCOME_WORDS: Record<Outcome, { words: string; color: string }> = {
  applied: { words: 'Applied: the guest earned on it', color: 'teal' },
  refunded: { words: 'Refunded', color: 'teal' },
  reversed: { words: 'Reversed', color: 'teal' },
  replayed: { words: 'Already done: sent again, nothing changed', color: 'gray' },
  waiting: { words: "Waiting for the order's other payments", color: 'blue' },
  queued: { words: 'Queued: it will be done in a moment', color: 'blue' },
  ignored: { words: 'Nothing applied', color: 'gray' },
  unmatched_guest: { words: 'No member matches this guest', color: 'grape' },
  ambiguous_guest: { words: 'More than one member matches this guest', color: 'grape' },
  unknown_location: { words: 'Square location not mapped to a venue', color: 'grape' },
  bad_signature: { words: 'Refused: not signed by Square', color: 'red' },
  bad_payload: { words: 'Could not be read', color: 'red' },
  provider_error: { words: 'Square did not answer: trying again later', color: 'cyan' },
  failed: { words: 'Failed: gave up', color: 'red' },
};

const KIND_WORDS: Record<string, string> = { 'square.payment': 'Payment', 'square.refund': 'Refund', 'square.webhook': 'Call from Square' };

/** Square's ids as the log names them: payment_id → Payment. */
const idLabel = (key: string) => {
  const words = key.replace(/_id$/, '').replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const SECRETS = [
  { key: 'access_token', label: 'Access token', help: "From Square's Developer Dashboard: your application → Credentials (production). It needs PAYMENTS_READ, ORDERS_READ and CUSTOMERS_READ.", optional: false },
  {
    key: 'webhook_signature_key',
    label: 'Webhook signature key',
    help: "From Square's Developer Dashboard: your application → Webhooks → your subscription → Signature key. No subscription yet? Leave it empty, make the subscription with the URL of the last step, then add the key here.",
    optional: true,
  },
] as const;
type SecretKey = (typeof SECRETS)[number]['key'];

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function PointOfSalePage() {
  const can = useCan();
  // Staff are not given the page (nor its menu entry); opened by its address, it says so instead of asking the server.
  const allowed = can('GET /integrations');
  const list = useQuery({ queryKey: ['integrations'], queryFn: () => call(client.GET('/dashboard/api/integrations')), enabled: allowed });
  const [connecting, setConnecting] = useState(false);
  const forbidden = !allowed || (list.error instanceof ApiError && list.error.status === 403);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Point of sale</Title>
        {!connecting && !forbidden && can('POST /integrations') && <Button onClick={() => setConnecting(true)}>Connect Square</Button>}
      </Group>
      <Text c="dimmed" size="sm">
        Connect the tills you already run: each payment a guest makes at a connected till earns (and each refund takes back) as a check sent to the loyalty API
        would. The guest is found by the phone on their Square customer profile, or a card number in its reference id; nobody is enrolled or guessed.
      </Text>
      {forbidden ? (
        <Alert color="orange">Your role does not open this page: point-of-sale connections are for owners and managers. The chain’s owner can change your role.</Alert>
      ) : (
        list.error && <Alert color="red">{list.error.message}</Alert>
      )}
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
function locationsOf(rows: LocationRow[]): { locations: Record<string, string> } | RowProblem {
  const locations: Record<string, string> = {};
  for (const [index, row] of rows.entries()) {
    const location = row.location.trim();
    if (!location && !row.venueId) continue;
    if (!location) return { error: "Type Square's location ID, or remove the row.", index, field: 'location' };
    if (!row.venueId) return { error: 'Choose the venue this location is.', index, field: 'venue' };
    if (location in locations) return { error: `${location} is named twice: a location is one venue.`, index, field: 'location' };
    locations[location] = row.venueId;
  }
  return { locations };
}

/** The server's refusal of one location (`locations.<id>`: its venue is not one of yours) beside that row's venue. */
function rowProblemOf(err: unknown, rows: LocationRow[]): RowProblem | undefined {
  const param = err instanceof ApiError ? err.param : undefined;
  if (!param?.startsWith('locations.')) return undefined;
  const index = rows.findIndex((r) => r.location.trim() === param.slice('locations.'.length));
  return index < 0 ? undefined : { error: messageOf(err), index, field: 'venue' };
}

/** A row per Square location: its id and the venue it is; add and remove rows. */
function LocationRows({ rows, onChange, problem }: { rows: LocationRow[]; onChange: (rows: LocationRow[]) => void; problem?: RowProblem }) {
  const chain = useChain();
  const venues = chain.venues.map((v) => ({ value: v.id, label: v.name }));
  const set = (key: number, change: Partial<LocationRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  return (
    <Stack gap="xs">
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          No location mapped: payments are logged as “Square location not mapped to a venue” and earn nothing until you map their location.
        </Text>
      )}
      {rows.map((row, index) => {
        // Another venue's mapping, kept as it is when this user may not see that venue.
        const options = row.venueId && !venues.some((v) => v.value === row.venueId) ? [...venues, { value: row.venueId, label: 'Another venue' }] : venues;
        const error = (field: RowProblem['field']) => (problem?.index === index && problem.field === field ? problem.error : undefined);
        return (
          <Group key={row.key} align="flex-start" gap="xs" wrap="wrap" data-testid="location-row">
            <TextInput
              label="Square location ID"
              placeholder="L88917AVBK2S5"
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
            <Button variant="subtle" color="red" mt={25} onClick={() => onChange(rows.filter((r) => r.key !== row.key))} aria-label={`Remove location ${row.location.trim() || index + 1}`}>
              Remove
            </Button>
          </Group>
        );
      })}
      <Group>
        <Button variant="default" size="xs" onClick={() => onChange([...rows, blankRow()])}>
          Add location
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        Square’s location IDs are in its Dashboard under Account &amp; Settings → Business → Locations (each location’s “Location ID”).
      </Text>
    </Stack>
  );
}

const STEPS = [
  { label: 'Name', description: 'Which till' },
  { label: 'Secrets', description: 'From Square' },
  { label: 'Locations', description: 'Which venue' },
  { label: 'URL', description: 'Paste into Square' },
];

/** Connecting Square in four steps: name, secrets, locations, then the URL to paste into Square. */
function ConnectWizard({ onClose }: { onClose: () => void }) {
  const qc = useQueryClient();
  const narrow = useMediaQuery('(max-width: 48em)');
  const [step, setStep] = useState(0);
  const [name, setName] = useState('Square');
  const [secrets, setSecrets] = useState<Record<SecretKey, string>>({ access_token: '', webhook_signature_key: '' });
  const [rows, setRows] = useState<LocationRow[]>([blankRow()]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<RowProblem>();
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<Connection>();
  const [saving, setSaving] = useState(false);
  const stepLabels = (n: number) => (narrow ? { 'aria-label': `Step ${n + 1}: ${STEPS[n]!.label}` } : { label: STEPS[n]!.label, description: STEPS[n]!.description });

  const next = () => {
    setFieldErrors({});
    if (step === 0 && !name.trim()) return setFieldErrors({ name: 'Give the connection a name, e.g. the tills it is.' });
    if (step === 1) {
      const missing = Object.fromEntries(SECRETS.filter((s) => !s.optional && !secrets[s.key].trim()).map((s) => [s.key, `Paste the ${s.label.toLowerCase()} from Square.`]));
      if (Object.keys(missing).length) return setFieldErrors(missing);
    }
    setStep(step + 1);
  };

  const connect = async () => {
    setError(undefined);
    setProblem(undefined);
    const mapped = locationsOf(rows);
    if ('error' in mapped) return setProblem(mapped);
    setSaving(true);
    try {
      const answer = await call(
        client.POST('/dashboard/api/integrations', {
          body: {
            provider: 'square',
            name: name.trim(),
            locations: mapped.locations,
            settings: {
              access_token: secrets.access_token.trim(),
              ...(secrets.webhook_signature_key.trim() ? { webhook_signature_key: secrets.webhook_signature_key.trim() } : {}),
            },
          },
        }),
      );
      setCreated(answer);
      setStep(3);
      void qc.invalidateQueries({ queryKey: ['integrations'] });
    } catch (err) {
      // A refused field: back to its step, the reason beside it.
      const param = err instanceof ApiError ? err.param : undefined;
      if (param === 'name') {
        setStep(0);
        setFieldErrors({ name: messageOf(err) });
      } else if (param?.startsWith('settings.')) {
        setStep(1);
        setFieldErrors({ [param.slice('settings.'.length)]: messageOf(err) });
      } else {
        const row = rowProblemOf(err, rows);
        if (row) setProblem(row);
        else setError(messageOf(err));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder p="md" aria-label="Connect Square" component="section">
      <Stack>
        <Title order={3}>Connect Square</Title>
        {/* On a phone the steps are numbered circles only, and the step at hand is named above them. */}
        {narrow && (
          <Text fw={600} size="sm" data-testid="wizard-step">
            Step {step + 1} of 4: {STEPS[step]!.label}
          </Text>
        )}
        <Stepper active={step} size="sm" allowNextStepsSelect={false} onStepClick={created ? undefined : setStep}>
          <Stepper.Step {...stepLabels(0)}>
            <Stack mt="md">
              <Radio.Group label="Point of sale" value="square">
                <Stack gap="xs" mt={4}>
                  <Radio value="square" label="Square" />
                  <Radio value="toast" label="Toast — from the API or the CLI for now" disabled />
                </Stack>
              </Radio.Group>
              <TextInput label="Name" description="For you: how the log and this page call it" required maxLength={100} value={name} error={fieldErrors.name} onChange={(e) => setName(e.currentTarget.value)} />
            </Stack>
          </Stepper.Step>
          <Stepper.Step {...stepLabels(1)}>
            <Stack mt="md">
              <Text size="sm" c="dimmed">
                Kept encrypted. After saving, only their last four characters are shown; you can replace them, never read them back.
              </Text>
              {SECRETS.map((s) => (
                <PasswordInput
                  key={s.key}
                  label={s.label}
                  description={s.help}
                  required={!s.optional}
                  autoComplete="off"
                  value={secrets[s.key]}
                  error={fieldErrors[s.key]}
                  onChange={(e) => setSecrets({ ...secrets, [s.key]: e.currentTarget.value })}
                />
              ))}
            </Stack>
          </Stepper.Step>
          <Stepper.Step {...stepLabels(2)}>
            <Stack mt="md">
              <Text size="sm" c="dimmed">
                Each Square location is one of your venues: a payment there earns at that venue, under its rules.
              </Text>
              <LocationRows rows={rows} onChange={(r) => (setRows(r), setProblem(undefined))} problem={problem} />
            </Stack>
          </Stepper.Step>
          <Stepper.Step {...stepLabels(3)}>
            {created && (
              <Stack mt="md">
                <Alert color="teal">
                  {created.name} is connected.{' '}
                  {created.public_base_url_is_local ? 'Square cannot be given its URL yet: see why below.' : 'Last step: give Square the URL to send its payments to.'}
                </Alert>
                <EndpointUrl connection={created} />
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
 * The URL Square is to call, with a copy button; refused while PUBLIC_BASE_URL is this machine, since Square calls
 * from the internet and cannot reach localhost.
 */
function EndpointUrl({ connection: c }: { connection: Connection }) {
  if (c.public_base_url_is_local) {
    return (
      <Alert color="red" title="Square cannot reach this server yet" data-testid="endpoint-url-refused">
        <Stack gap="xs">
          <Text size="sm">
            This server’s public address (PUBLIC_BASE_URL) is <Code>{c.public_base_url}</Code>: that is localhost, the computer the server runs on, which
            only that computer can open. Square sends payments from the internet, so it cannot reach localhost, and a URL built on it would never be called.
          </Text>
          <Text size="sm">
            Whoever runs the server sets PUBLIC_BASE_URL to the public address this server is reached at (for example https://loyalty.example.com, or a
            tunnel’s address while trying it out) and restarts it. The URL to paste into Square then shows here.
          </Text>
        </Stack>
      </Alert>
    );
  }
  return (
    <Stack gap="xs" data-testid="endpoint-url">
      <Text size="sm">
        In Square’s Developer Dashboard, open your application → Webhooks → Add subscription, paste this URL, and choose the events payment.created,
        payment.updated, refund.created and refund.updated.
      </Text>
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
        The subscription’s signature key must be the webhook signature key saved here: if Square shows another one, replace it above.
      </Text>
    </Stack>
  );
}

function ConnectionCard({ connection: c }: { connection: Connection }) {
  const qc = useQueryClient();
  const venue = useVenue();
  const [error, setError] = useState<string>();
  const [deleting, setDeleting] = useState(false);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['integrations'] });
    void qc.invalidateQueries({ queryKey: ['integration-log', c.id] });
  };
  const change = useMutation({
    mutationFn: (body: NonNullable<paths['/dashboard/api/integrations/{id}']['patch']['requestBody']>['content']['application/json']) =>
      call(client.PATCH('/dashboard/api/integrations/{id}', { params: { path: { id: c.id } }, body })),
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
              <Badge variant="light">{c.provider === 'square' ? 'Square' : 'Toast'}</Badge>
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
            Since {when(c.failing_since, venue)}, Square refuses the access token or keeps failing: payments are not being applied. Check the access token in
            Square’s Developer Dashboard and replace it below; once a call succeeds again this goes away, and the entries below can be tried again.
          </Alert>
        )}
        {paused && (
          <Alert color="gray" data-testid="paused-note">
            Paused: Square’s calls are still answered and logged, but nothing is applied to guests’ cards until you resume.
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
          <Title order={4}>URL to paste into Square</Title>
          <EndpointUrl connection={c} />
        </Stack>
        <ConnectionLog connection={c} />
      </Stack>
      <DeleteModal connection={c} opened={deleting} onClose={() => setDeleting(false)} />
    </Paper>
  );
}

/** The secrets as Square's dashboard shows them at last: …last4, each with "Replace". */
function Secrets({ connection: c }: { connection: Connection }) {
  const qc = useQueryClient();
  const [replacing, setReplacing] = useState<SecretKey>();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const save = async (key: SecretKey) => {
    if (!value.trim()) return setError('Paste the new value, or cancel.');
    setSaving(true);
    try {
      await call(client.PATCH('/dashboard/api/integrations/{id}', { params: { path: { id: c.id } }, body: { settings: { [key]: value.trim() } } }));
      setReplacing(undefined);
      setValue('');
      setError(undefined);
      void qc.invalidateQueries({ queryKey: ['integrations'] });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="xs">
      <Title order={4}>Secrets</Title>
      {SECRETS.map((s) =>
        replacing === s.key ? (
          <Stack key={s.key} gap="xs">
            <PasswordInput label={`New ${s.label.toLowerCase()}`} description={s.help} autoComplete="off" value={value} error={error} onChange={(e) => setValue(e.currentTarget.value)} />
            <Group gap="xs">
              <Button size="xs" loading={saving} onClick={() => void save(s.key)}>
                Save {s.label.toLowerCase()}
              </Button>
              <Button size="xs" variant="default" onClick={() => (setReplacing(undefined), setValue(''), setError(undefined))}>
                Cancel
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group key={s.key} gap="xs" justify="space-between" wrap="nowrap" data-testid={`secret-${s.key}`}>
            <Text size="sm" style={{ minWidth: 0 }}>
              {s.label}: <Code>{c.settings[s.key] ?? 'not set'}</Code>
            </Text>
            <Button size="xs" variant="default" onClick={() => (setReplacing(s.key), setValue(''), setError(undefined))} aria-label={`Replace ${s.label.toLowerCase()}`}>
              Replace
            </Button>
          </Group>
        ),
      )}
    </Stack>
  );
}

/** The connection's locations, changed in rows and saved together. */
function Locations({ connection: c }: { connection: Connection }) {
  const qc = useQueryClient();
  const [rows, setRows] = useState<LocationRow[]>(() => rowsOf(c.locations));
  const [problem, setProblem] = useState<RowProblem>();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const mapped = locationsOf(rows);
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
      const row = rowProblemOf(err, rows);
      if (row) setProblem(row);
      else setError(messageOf(err));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="xs">
      <Title order={4}>Locations</Title>
      <LocationRows rows={rows} onChange={(r) => (setRows(r), setSaved(false), setProblem(undefined))} problem={problem} />
      {error && <Alert color="red">{error}</Alert>}
      <Group gap="xs">
        <Button size="xs" disabled={!changed} loading={saving} onClick={() => void save()} aria-label={`Save locations of ${c.name}`}>
          Save locations
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
            {OUTCOME_WORDS[e.outcome]?.words ?? e.outcome}
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
      label: 'Square’s ids',
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
          <Button size="xs" variant="default" loading={retry.isPending && retry.variables === e.id} onClick={() => retry.mutate(e.id)} aria-label={`Try again: ${OUTCOME_WORDS[e.outcome]?.words ?? e.outcome}, ${when(e.created_at, venue)}`}>
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
      <DataTable label={`Log of ${c.name}`} columns={columns} rows={rows} rowKey={(e) => e.id} rowProps={(e) => ({ 'data-outcome': e.outcome })} empty="Nothing from Square yet." />
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
          Square’s calls to this connection are refused from now on and its log is deleted. What it already applied stays on guests’ cards. Remove the webhook
          subscription in Square’s Developer Dashboard too.
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
