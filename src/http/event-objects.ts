// The API object each event type carries as data.object, for the document's webhooks section (src/http/openapi.ts).
// Apart from schemas.ts, which the modules whose objects are listed here import themselves.
import type { TSchema } from 'typebox';
import { Transaction } from '../modules/checks/schemas.js';
import { Campaign } from '../modules/campaigns/schemas.js';
import { Adjustment, LevelChange } from '../modules/members/schemas.js';
import { Order } from '../modules/orders/schemas.js';
import { MemberErasure } from '../modules/privacy/schemas.js';
import { Visit } from '../modules/visits/schemas.js';
import { Integration } from '../integrations/core/schemas.js';
import { WebhookEndpoint, type EventType } from '../modules/webhooks/schemas.js';

/** A new event type names here the schemas (each declared with a title) of what it can carry; [] until it has one. */
export const EVENT_OBJECTS: Record<EventType, TSchema[]> = {
  'transaction.completed': [Transaction, Visit],
  'transaction.updated': [Transaction],
  'transaction.refunded': [Transaction],
  'balance.adjusted': [Adjustment],
  'cashback.expiring': [],
  'cashback.expired': [],
  'member.erased': [MemberErasure],
  'member.level_changed': [LevelChange],
  'campaign.budget_exhausted': [Campaign],
  'order.created': [Order],
  'integration.failing': [Integration],
  'test.ping': [WebhookEndpoint],
};
