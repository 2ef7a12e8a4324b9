// The audit event resource (D24) and the actions it records.
import { Type, type Static } from 'typebox';

/** Every action the log records, with what the dashboard calls it. */
export const AUDIT_ACTION_LABELS = {
  'api_key.created': 'API key created',
  'api_key.updated': "API key's rules changed",
  'api_key.revoked': 'API key revoked',
  'member.adjusted': 'Balance adjusted',
  'member.exported': "Member's data exported",
  'members.exported': 'Members exported as CSV',
  'member.erased': "Member's personal data erased",
  'member.card_link_renewed': "Member's card page link renewed",
  'member.pass_revoked': "Member's wallet pass revoked",
  'transaction.refunded': 'Check refunded',
  'transaction.voided': 'Check voided',
  'program.created': 'Program created',
  'program.updated': 'Program changed',
  'campaign.created': 'Campaign created',
  'campaign.updated': 'Campaign changed',
  'category_rule.updated': 'Category rule changed',
  'table.created': 'Table added',
  'dish.created': 'Dish added',
  'dish.updated': 'Dish changed',
  'dish.deleted': 'Dish removed',
  'product.created': 'Product added',
  'product.updated': 'Product changed',
  'product.deleted': 'Product removed',
  'webhook_endpoint.created': 'Webhook endpoint added',
  'webhook_endpoint.updated': 'Webhook endpoint changed',
  'webhook_endpoint.deleted': 'Webhook endpoint deleted',
  'webhook_endpoint.event_resent': 'Webhook event sent again',
  'user.invited': 'User invited',
  'user.invitation_withdrawn': 'Invitation withdrawn',
  'user.created': 'User added',
  'user.role_changed': "User's role changed",
  'user.venues_changed': "User's venues changed",
  'user.removed': 'User removed',
  'user.reset_requested': 'Password reset link made',
  'user.password_reset': 'Password reset by link',
  'user.password_changed': 'Password changed',
  'user.password_change_refused': 'Wrong current password when changing it',
  'chain.merged': 'Venue merged into another chain',
  'venue.created': 'Venue added',
  'venue.updated': "Venue's details or rules changed",
  'brand.updated': 'Brand changed',
  'member.updated': "Member's details changed",
  'sign_in.failed': 'Failed sign-in',
  'access.denied': 'Refused: not allowed for the role',
  'integration.created': 'Point-of-sale connection added',
  'integration.updated': 'Point-of-sale connection changed',
  'integration.deleted': 'Point-of-sale connection removed',
} as const;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as (keyof typeof AUDIT_ACTION_LABELS)[];
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

export const ACTOR_TYPES = ['user', 'api_key', 'cli', 'system', 'integration'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** Who made a change: a dashboard user, an API key, the CLI, the service itself or a point-of-sale connection (D26); `id` the user's, key's or connection's. */
export interface Actor {
  type: ActorType;
  id: string | null;
}

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description: string) => Type.Union([t, Type.Null()], { description });

export const AuditEvent = Type.Object(
  {
    object: Type.Literal('audit_event'),
    id: Type.String({ format: 'uuid' }),
    action: Type.String({ description: `What was done: ${AUDIT_ACTIONS.join(', ')}.` }),
    actor: Type.Object(
      {
        type: Type.Union([Type.Literal('user'), Type.Literal('api_key'), Type.Literal('cli'), Type.Literal('system'), Type.Literal('integration')]),
        id: Nullable(Type.String(), "The dashboard user's or API key's id; null for the CLI and the service itself."),
      },
      { description: 'Who did it.' },
    ),
    target: Type.Object(
      { type: Type.String({ description: 'member, api_key, program, campaign, category, webhook_endpoint, user…' }), id: Nullable(Type.String(), 'Its id (a category: its external id).') },
      { description: 'What it was done to.' },
    ),
    changes: Type.Record(Type.String(), Type.Array(Type.Unknown(), { minItems: 2, maxItems: 2 }), {
      description: 'Each changed field as [before, after] (null where it had none); never a secret or personal data.',
    }),
    venue_id: Nullable(Type.String({ format: 'uuid' }), 'Where it was done; null for the chain as a whole.'),
    address: Nullable(Type.String(), 'The IP address the request came from; null for the CLI and the service.'),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'AuditEvent' },
);
export type AuditEvent = Static<typeof AuditEvent>;

export const AuditListQuery = {
  action: Type.Optional(Type.String({ description: 'Only this action.' })),
  target_id: Type.Optional(Type.String({ maxLength: 200, description: 'Only entries about this object.' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Only entries at or after this time.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Only entries before this time.' })),
};
