// The integration resource (D26): a chain's connection to a point-of-sale provider, and the entries of its log.
import { Type, type Static } from 'typebox';
import { KeyRules } from '../../modules/accounts/schemas.js';

export const PROVIDERS = ['square', 'toast'] as const;
export type Provider = (typeof PROVIDERS)[number];
const ProviderName = Type.Union([Type.Literal('square'), Type.Literal('toast')]);

/**
 * Each provider's settings: which are secrets (sealed at rest, shown as `…last4`), and which a connection needs.
 * Square: its access token and the webhook subscription's signature key. Toast: its static API key (what Toast
 * prefers) or, for the deprecated JWT form, the public key Toast's token_key endpoint gives (not a secret).
 */
export const PROVIDER_SETTINGS = {
  // Square shows a subscription's signature key only once the subscription (with our URL) exists: it can come later.
  square: { secret: ['access_token', 'webhook_signature_key'], plain: [], required: ['access_token'] },
  toast: { secret: ['api_key'], plain: ['public_key'], required: [] },
} as const satisfies Record<Provider, { secret: readonly string[]; plain: readonly string[]; required: readonly string[] }>;

const Settings = Type.Object(
  {
    access_token: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Square: an access token with PAYMENTS_READ, ORDERS_READ and CUSTOMERS_READ. Write-only.' })),
    webhook_signature_key: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "Square: the webhook subscription's signature key. Write-only." })),
    api_key: Type.Optional(Type.String({ minLength: 16, maxLength: 255, description: 'Toast: the static API key Toast sends in Authorization. Write-only.' })),
    public_key: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "Toast (deprecated JWT form): the PEM public key of Toast's token_key endpoint." })),
  },
  { additionalProperties: false },
);
export type IntegrationSettings = Static<typeof Settings>;

const Locations = Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.String({ format: 'uuid' }), {
  description: "The provider's location (Square) or restaurant external id (Toast) → a venue of the chain.",
  maxProperties: 500,
});

export const Integration = Type.Object(
  {
    object: Type.Literal('integration'),
    id: Type.String({ format: 'uuid' }),
    livemode: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    provider: ProviderName,
    name: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('paused')], { description: 'paused: the provider is answered, nothing is applied.' }),
    locations: Locations,
    rules: Type.Object(KeyRules.properties, { description: "The connection's own register rules (D12), over each venue's." }),
    settings: Type.Record(Type.String(), Type.String(), { description: 'Secrets shown as …last4; they are never shown whole after they are set.' }),
    endpoint_url: Type.String({ description: "The URL to paste into the provider's dashboard." }),
    failing_since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Since when calls to the provider keep failing; null when they do not.' }),
  },
  { title: 'Integration' },
);
export type Integration = Static<typeof Integration>;

export const CreateIntegration = Type.Object(
  {
    provider: ProviderName,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    locations: Type.Optional(Locations),
    rules: Type.Optional(KeyRules),
    settings: Settings,
  },
  { additionalProperties: false },
);
export type CreateIntegration = Static<typeof CreateIntegration>;

export const UpdateIntegration = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused')])),
    locations: Type.Optional(Locations),
    rules: Type.Optional(KeyRules),
    settings: Type.Optional(Type.Object(Settings.properties, { additionalProperties: false, description: 'Only the settings named change.' })),
  },
  { additionalProperties: false },
);
export type UpdateIntegration = Static<typeof UpdateIntegration>;

export const IntegrationParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const LOG_OUTCOMES = [
  'queued',
  'waiting',
  'applied',
  'refunded',
  'reversed',
  'replayed',
  'ignored',
  'unmatched_guest',
  'ambiguous_guest',
  'unknown_location',
  'bad_signature',
  'bad_payload',
  'provider_error',
  'failed',
] as const;
export type LogOutcome = (typeof LOG_OUTCOMES)[number];

export const LogEntry = Type.Object(
  {
    object: Type.Literal('integration_log_entry'),
    id: Type.String({ format: 'uuid' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    kind: Type.String({ description: "What the provider sent or was asked, as `<provider>.<what>` (square.payment, toast.accrue)." }),
    outcome: Type.Unsafe<LogOutcome>({
      type: 'string',
      enum: LOG_OUTCOMES,
      description: 'queued and waiting are still to be done; provider_error is retried with backoff, failed is not (try again re-queues it).',
    }),
    message: Type.Union([Type.String(), Type.Null()], { description: 'The outcome in words: what was applied, or why nothing was.' }),
    provider_ids: Type.Record(Type.String(), Type.String(), { description: "The provider's own ids: event, payment, order, refund, location; Toast's transaction GUID." }),
    attempts: Type.Integer(),
    next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    venue_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    transaction_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    retryable: Type.Boolean({ description: 'Whether "try again" (POST …/log/{entry_id}/retry) can queue it again.' }),
  },
  { title: 'IntegrationLogEntry' },
);
export type LogEntry = Static<typeof LogEntry>;

export const LogEntryParams = Type.Object({ id: Type.String({ maxLength: 64 }), entry_id: Type.String({ maxLength: 64 }) });

export const DeletedIntegration = Type.Object(
  { object: Type.Literal('integration'), id: Type.String({ format: 'uuid' }), deleted: Type.Literal(true) },
  { title: 'DeletedIntegration' },
);
