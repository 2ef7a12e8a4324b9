// Webhook endpoint resource and request bodies (contract section 2, D15).
import { Type, type Static } from 'typebox';
import { shownAs } from '../../http/responses.js';

export const EVENT_TYPES = [
  'transaction.completed',
  'transaction.updated',
  'transaction.refunded',
  'balance.adjusted',
  'cashback.expiring',
  'cashback.expired',
  'member.erased',
  'member.level_changed',
  'campaign.budget_exhausted',
  'order.created',
  'integration.failing',
  'test.ping',
] as const;

const EventList = Type.Array(Type.String(), {
  minItems: 1,
  maxItems: 32,
  description: `Event types to receive: ${EVENT_TYPES.join(', ')}, or "*" for all (also types added later).`,
});

export const WebhookEndpoint = Type.Object({
  object: Type.Literal('webhook_endpoint'),
  id: Type.String({ format: 'uuid' }),
  venue_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
    description: "The venue whose events it receives, with the events of no venue (an expiry, a chain key's adjustment) about members whose home venue it is; null: a chain endpoint, which receives every event of the chain (D21).",
  }),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  events: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  disabled_reason: Type.Union([Type.String(), Type.Null()]),
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  secret: Type.Optional(Type.String({ description: 'Signing secret (whsec_…); present only in the response to creation.' })),
}, { title: 'WebhookEndpoint' });
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/**
 * The endpoint's address. The service checks it (src/modules/webhooks/url-guard.ts) and words each refusal (not an
 * absolute URL, not https, a private host…); the document says what JSON Schema can of it. Https stays prose: a
 * development server may take http (WEBHOOK_ALLOW_PRIVATE_URLS).
 */
const UrlRule = { maxLength: 2048, description: 'Public HTTPS URL.' };
const WebhookUrl = shownAs(Type.String(UrlRule), Type.String({ ...UrlRule, minLength: 1, format: 'uri' }));

export const CreateWebhookEndpoint = Type.Object(
  {
    url: WebhookUrl,
    events: Type.Optional(EventList),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type CreateWebhookEndpoint = Static<typeof CreateWebhookEndpoint>;

export const UpdateWebhookEndpoint = Type.Object(
  {
    url: Type.Optional(WebhookUrl),
    events: Type.Optional(EventList),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    enabled: Type.Optional(Type.Boolean({ description: 'true re-enables a disabled endpoint; false disables it.' })),
  },
  { additionalProperties: false },
);
export type UpdateWebhookEndpoint = Static<typeof UpdateWebhookEndpoint>;

export const DeletedWebhookEndpoint = Type.Object({
  object: Type.Literal('webhook_endpoint'),
  id: Type.String({ format: 'uuid' }),
  deleted: Type.Literal(true),
}, { title: 'DeletedWebhookEndpoint' });

export const EndpointParams = Type.Object({ id: Type.String() });

export type EventType = (typeof EVENT_TYPES)[number];

export const Event = Type.Object({
  object: Type.Literal('event'),
  id: Type.String({ format: 'uuid', description: 'Also sent as the webhook-id header; the same on every retry.' }),
  type: Type.String(),
  venue_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
    description: 'The venue where it happened; null for what happens at no venue (expiry, imports).',
  }),
  api_version: Type.Literal('v1'),
  created_at: Type.String({ format: 'date-time' }),
  livemode: Type.Boolean(),
  data: Type.Object({
    object: Type.Object({}, { additionalProperties: true, description: "The API object the event is about, as the API shows it; each type's in the webhooks section." }),
  }),
  request: Type.Union([
    Type.Object({ id: Type.String(), idempotency_key: Type.Union([Type.String(), Type.Null()]) }),
    Type.Null(),
  ], { description: 'The API request that caused the event; null for automatic ones.' }),
}, { title: 'Event' });
export type Event = Static<typeof Event>;

export const EventParams = Type.Object({ id: Type.String() });

export const WebhookTest = Type.Object({
  object: Type.Literal('webhook_test'),
  delivered: Type.Boolean(),
  status_code: Type.Integer({ description: 'What the endpoint answered; 0 when no answer came.' }),
  error: Type.Union([Type.String(), Type.Null()]),
}, { title: 'WebhookTest' });
export type WebhookTest = Static<typeof WebhookTest>;

export const DeliveryAttempt = Type.Object({
  object: Type.Literal('webhook_delivery_attempt'),
  id: Type.String({ format: 'uuid' }),
  event_id: Type.String({ format: 'uuid' }),
  event_type: Type.String(),
  attempt: Type.Integer({ minimum: 1 }),
  status_code: Type.Integer({ description: '0 when the endpoint gave no HTTP answer.' }),
  duration_ms: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the next try is due; null when delivered or given up.',
  }),
  created_at: Type.String({ format: 'date-time' }),
}, { title: 'DeliveryAttempt' });
export type DeliveryAttempt = Static<typeof DeliveryAttempt>;
