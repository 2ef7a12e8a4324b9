// Webhook endpoint resource and request bodies (contract section 2, D15).
import { Type, type Static } from 'typebox';

export const EVENT_TYPES = [
  'transaction.completed',
  'transaction.refunded',
  'balance.adjusted',
  'order.created',
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
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  events: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  disabled_reason: Type.Union([Type.String(), Type.Null()]),
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  secret: Type.Optional(Type.String({ description: 'Signing secret (whsec_…); present only in the response to creation.' })),
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const CreateWebhookEndpoint = Type.Object(
  {
    url: Type.String({ maxLength: 2048, description: 'Public HTTPS URL.' }),
    events: Type.Optional(EventList),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type CreateWebhookEndpoint = Static<typeof CreateWebhookEndpoint>;

export const UpdateWebhookEndpoint = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 2048 })),
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
});

export const EndpointParams = Type.Object({ id: Type.String() });
