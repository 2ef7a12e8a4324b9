// The campaign resource (D22): what an owner sets up and what the API shows, with the bounds every field has.
import { Type, type Static } from 'typebox';

const CampaignTypeSchema = Type.Union([Type.Literal('bonus'), Type.Literal('welcome'), Type.Literal('birthday'), Type.Literal('referral')]);
export type CampaignType = Static<typeof CampaignTypeSchema>;
const StatusSchema = (description: string) => Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('ended')], { description });

const Money = (description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const Schedule = Type.Object(
  {
    days_of_week: Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), {
      minItems: 1,
      maxItems: 7,
      uniqueItems: true,
      description: 'ISO days of the week the window starts on: Monday = 1 … Sunday = 7.',
    }),
    from: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'Start, HH:MM in the venue’s local time (included).' }),
    to: Type.String({
      pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
      description: 'End, HH:MM (excluded); earlier than `from` when the window passes midnight, which then belongs to the day it starts.',
    }),
  },
  { additionalProperties: false, description: 'When a bonus holds, in each venue’s local time: [from, to) on the listed days.' },
);
export type Schedule = Static<typeof Schedule>;

/** What the owner sets: all of it at creation (by type), any of it in an update. */
const Settings = {
  name: Type.String({ minLength: 1, maxLength: 80 }),
  venue_ids: Nullable(Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 500, uniqueItems: true, description: 'Venues where it applies; null: every venue of the chain.' })),
  starts_at: Nullable(Type.String({ format: 'date-time', description: 'Nothing is credited before; null: from its creation.' })),
  ends_at: Nullable(Type.String({ format: 'date-time', description: 'Nothing is credited from then on; null: no end.' })),
  budget: Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, description: 'Most it credits in all, in minor units (stamps for a stamps campaign); null: no limit. To stop it, pause it.' })),
  max_per_member: Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Most credits one member receives; null: no limit.' })),
  schedule: Nullable(Schedule),
  percent: Nullable(Type.Number({ minimum: 0.01, maximum: 100, multipleOf: 0.01, description: 'bonus: percent added to what an earning line earns, up to two decimals.' })),
  stamps_multiplier: Nullable(Type.Integer({ minimum: 2, maximum: 100, description: 'bonus, stamps programs: a check earns this many times its stamps.' })),
  categories: Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 200, uniqueItems: true, description: 'bonus: only lines of these categories (external_id); null: every earning line.' })),
  min_check_amount: Nullable(Money('bonus, referral: the smallest paid amount of a check that qualifies.')),
  amount: Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, description: 'welcome, birthday: cashback credited, in minor units.' })),
  stamps: Nullable(Type.Integer({ minimum: 1, maximum: 1_000, description: 'welcome, birthday, stamps programs: stamps credited.' })),
  referrer_amount: Nullable(Money('referral: cashback credited to the member who referred.')),
  referee_amount: Nullable(Money('referral: cashback credited to the member referred.')),
};

const optional = <T extends Record<string, Parameters<typeof Type.Optional>[0]>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>> };

export const CreateCampaign = Type.Object(
  { ...optional(Settings), name: Settings.name, type: CampaignTypeSchema },
  { additionalProperties: false },
);
export type CreateCampaign = Static<typeof CreateCampaign>;

export const UpdateCampaign = Type.Object(
  {
    ...optional(Settings),
    status: Type.Optional(StatusSchema('paused stops it, active resumes it; ended is final.')),
  },
  { additionalProperties: false },
);
export type UpdateCampaign = Static<typeof UpdateCampaign>;

export const Campaign = Type.Object(
  {
    object: Type.Literal('campaign'),
    id: Type.String({ format: 'uuid' }),
    type: CampaignTypeSchema,
    status: StatusSchema('ended also once ends_at has passed.'),
    spent: Type.Integer({ minimum: 0, description: 'What it has credited, less what reversals gave back.' }),
    livemode: Type.Boolean({ description: 'The mode of the key that created it: it credits members of that mode only.' }),
    ...Settings,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Campaign' },
);
export type Campaign = Static<typeof Campaign>;

export const CampaignListQuery = { type: Type.Optional(CampaignTypeSchema), livemode: Type.Optional(Type.Boolean()) };

export const CampaignParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const CampaignResults = Type.Object(
  {
    object: Type.Literal('campaign_results'),
    campaign_id: Type.String({ format: 'uuid' }),
    from: Type.String({ format: 'date-time', description: 'When it started: starts_at, else its creation.' }),
    to: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When it ended (ends_at, or when it was ended by hand); null: it still runs.' }),
    credits: Type.Integer({ minimum: 0, description: 'Credits given (a referral counts each side), taken back or not.' }),
    credited: Type.Integer({ description: 'What they came to, less what voids and refunds took back: `spent`, in the campaign’s unit.' }),
    members_reached: Type.Integer({ minimum: 0, description: 'Members who were given at least one credit.' }),
    checks: Type.Integer({ minimum: 0, description: 'Checks the members reached closed while it ran, at its venues (voided ones not counted).' }),
    spend: Type.Integer({ description: 'What those checks were paid, less refunds, in minor units.' }),
  },
  { title: 'CampaignResults' },
);
export type CampaignResults = Static<typeof CampaignResults>;
