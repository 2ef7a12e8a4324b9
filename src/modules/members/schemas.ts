// The member resource (D10) and the bodies of member routes.
import { Type, type Static } from 'typebox';
import { shownAs } from '../../http/responses.js';
import { Display } from '../../shared/display.js';
import { PageQuery } from '../../shared/pagination.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description?: string) =>
  Type.Union([t, Type.Null()], description ? { description } : {});

const CardNumber = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9-]+$', description: "The venue's own card number." });

const EMAIL_RULE = 'An e-mail address (one @, no spaces, at most 254 characters), stored trimmed and lower-cased; unique in the chain.';
const Email = Type.String({ maxLength: 254, description: EMAIL_RULE });

const LevelView = Type.Object({ name: Type.String(), percent: Type.Number(), min_spend: Type.Integer() });

export const Member = Type.Object({
  object: Type.Literal('member'),
  id: Type.String({ format: 'uuid' }),
  home_venue_id: Nullable(
    Type.String({ format: 'uuid' }),
    'The venue where the member enrolled; null when they came in without one (an import). The member belongs to the whole chain (D21).',
  ),
  program_id: Type.String({ format: 'uuid' }),
  program_type: Type.String({ description: 'cashback, stamps, visit_discount or vip.' }),
  card_numbers: Type.Array(Type.String()),
  serial: Type.String({ description: 'Generated, unique in the chain; what a qr_serial barcode carries.' }),
  barcode: Type.Object({ format: Type.String(), value: Type.String() }, { description: 'What the member card shows; render it at barcode.svg.' }),
  phone: Nullable(Type.String(), 'E.164, for example +353871234567.'),
  email: Nullable(Type.String(), 'Trimmed and lower-cased; unique in the chain. Null when none.'),
  name: Nullable(Type.String()),
  consent: Type.Literal(true),
  consented_at: Type.String({ format: 'date-time' }),
  total_spend: Type.Integer({ description: 'All paid spend, minor units.' }),
  visits: Type.Integer(),
  balance: Nullable(Type.Integer(), 'Cashback: the sum of the ledger, minor units.'),
  held: Nullable(Type.Integer(), 'Cashback reserved by active holds.'),
  available: Nullable(Type.Integer(), 'Cashback that can be spent now: balance − held.'),
  expiring: Nullable(
    Type.Array(Type.Object({ amount: Type.Integer(), on: Type.String({ format: 'date', description: 'The venue-local date it expires on (at the start of that day).' }) })),
    'Programs that expire cashback: what expires on each of the next (up to three) dates, soonest first; null otherwise.',
  ),
  level: Nullable(LevelView, 'Cashback or VIP: the level the member is at.'),
  level_spend: Nullable(
    Type.Integer(),
    "Cashback or VIP: the paid spend the level is judged on — total_spend, or with the program's level_period_days the spend of checks in that many days.",
  ),
  levels: Nullable(Type.Array(Type.Object({ name: Type.String(), percent: Type.Number(), min_spend: Type.Integer(), reached: Type.Boolean() }))),
  next_level: Nullable(Type.Object({ name: Type.String(), percent: Type.Number(), spend_needed: Type.Integer() }), 'Null at the top level.'),
  stamps: Nullable(Type.Object({ count: Type.Integer({ description: 'Toward the next reward.' }), required: Type.Integer(), rewards_available: Type.Integer() })),
  discount_percent: Nullable(Type.Number(), 'Visit-discount and VIP programs: the discount the member gets.'),
  vip_level: Nullable(Type.String(), 'VIP: a level set by hand, overriding the one by spend.'),
  last_visit_at: Nullable(Type.String({ format: 'date-time' }), "When the member's latest check closed (else was received); null before the first."),
  birthday: Nullable(Type.String(), 'MM-DD, or YYYY-MM-DD when the year was given: birthday campaigns credit on it.'),
  referral_code: Nullable(Type.String(), 'The code this member gives friends to enrol with (referred_by); null once erased.'),
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  display: Display,
}, { title: 'Member' });
export type Member = Static<typeof Member>;

export const LevelChange = Type.Object(
  {
    object: Type.Literal('level_change'),
    member_id: Type.String({ format: 'uuid' }),
    program_id: Type.String({ format: 'uuid' }),
    from: Type.String({ description: 'The level the member was at.' }),
    to: Type.String({ description: 'The level the member is at now.' }),
    reason: Type.Union([Type.Literal('spend'), Type.Literal('refund'), Type.Literal('void'), Type.Literal('period'), Type.Literal('manual')], {
      description: 'spend: a check (or a hold captured into one); refund, void: of a check; period: old spend left the level window; manual: a VIP level set or cleared by hand.',
    }),
    level_spend: Type.Integer({ description: 'The spend the level is judged on, after the change.' }),
    reference: Nullable(Type.String(), "The check's external_id (spend, void) or the refund's (refund); null otherwise."),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'LevelChange' },
);
export type LevelChange = Static<typeof LevelChange>;

export const Birthday = Type.String({
  pattern: '^([0-9]{4}-)?[0-9]{2}-[0-9]{2}$',
  description: 'MM-DD, or YYYY-MM-DD: a real date (02-29 allowed without a year), not in the future.',
});

const ConsentRule = 'Must be true: the guest agreed to join.';

export const EnrolMember = Type.Object(
  {
    card_number: CardNumber,
    // false is refused by the service in the contract's words (parameter_invalid, consent), not by validation's.
    consent: shownAs(Type.Boolean({ description: ConsentRule }), Type.Literal(true, { description: ConsentRule })),
    phone: Type.Optional(Type.String({ maxLength: 40, description: "Any usual notation; read with the venue's country." })),
    email: Type.Optional(Email),
    name: Type.Optional(Type.String({ maxLength: 120 })),
    program_id: Type.Optional(Type.String({ format: 'uuid', description: "Default: the chain's default program." })),
    birthday: Type.Optional(Nullable(Birthday)),
    referred_by: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'The referral_code of the member who brought this guest (referral campaigns).' })),
  },
  { additionalProperties: false },
);
export type EnrolMember = Static<typeof EnrolMember>;

export const UpdateMember = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ maxLength: 120 }))),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
    email: Type.Optional(Nullable(Email, 'null clears it.')),
    vip_level: Type.Optional(Nullable(Type.String({ maxLength: 40, description: 'VIP programs: a level name, or null to follow spend.' }))),
    birthday: Type.Optional(Nullable(Birthday)),
  },
  { additionalProperties: false },
);
export type UpdateMember = Static<typeof UpdateMember>;

export const AttachCard = Type.Object({ card_number: CardNumber }, { additionalProperties: false });

export const LookupQuery = Type.Object(
  {
    card_number: Type.Optional(Type.String({ maxLength: 64 })),
    barcode: Type.Optional(Type.String({ maxLength: 256, description: 'What the scanner read, in any of the three formats.' })),
    phone: Type.Optional(Type.String({ maxLength: 40 })),
    email: Type.Optional(Type.String({ maxLength: 254, description: 'Any case, with or without spaces around it.' })),
  },
  { additionalProperties: false },
);

const AdjustmentAmount = { minimum: -100_000_000, maximum: 100_000_000, description: 'Signed, minor units; not zero.' };

export const Adjust = Type.Object(
  {
    // Zero is a refusal of the service (stored for an Idempotency-Key's replay like any other), not of validation.
    amount: shownAs(Type.Integer(AdjustmentAmount), Type.Integer({ ...AdjustmentAmount, not: Type.Literal(0) })),
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type Adjust = Static<typeof Adjust>;

export const Adjustment = Type.Object({
  object: Type.Literal('adjustment'),
  id: Type.String({ format: 'uuid' }),
  member_id: Type.String({ format: 'uuid' }),
  amount: Type.Integer(),
  reason: Type.String(),
  balance: Type.Integer({ description: 'The balance after the adjustment.' }),
  available: Type.Integer(),
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  display: Display,
}, { title: 'Adjustment' });
export type Adjustment = Static<typeof Adjustment>;

export const RewardRedemption = Type.Object({
  object: Type.Literal('reward_redemption'),
  id: Type.String({ format: 'uuid' }),
  member_id: Type.String({ format: 'uuid' }),
  reward_name: Type.String(),
  stamps_used: Type.Integer(),
  member: Member,
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  display: Display,
}, { title: 'RewardRedemption' });
export type RewardRedemption = Static<typeof RewardRedemption>;

export const HistoryEntry = Type.Object({
  object: Type.Literal('history_entry'),
  id: Type.String({ format: 'uuid' }),
  venue_id: Nullable(Type.String({ format: 'uuid' }), 'The venue of the chain where it happened; null when at none (D21).'),
  type: Type.String({ description: 'adjustment, reward_redemption, check, void, refund, visit, import, expiry, campaign…' }),
  cashback: Type.Integer({ description: 'Effect on the cashback balance, minor units.' }),
  spend: Type.Integer({ description: 'Effect on total_spend.' }),
  visits: Type.Integer(),
  stamps: Type.Integer(),
  reason: Nullable(Type.String()),
  reference: Nullable(Type.String(), 'What caused it, such as the external_id of a check.'),
  campaign_id: Nullable(Type.String({ format: 'uuid' }), 'The campaign that credited a `campaign` entry; null on every other type.'),
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
}, { title: 'HistoryEntry' });
export type HistoryEntry = Static<typeof HistoryEntry>;

export const ActivityRefund = Type.Object({
  id: Type.String({ format: 'uuid' }),
  external_id: Type.String(),
  amount: Type.Integer({ description: 'What was refunded, minor units.' }),
  earned_reversed: Type.Integer({ description: 'Cashback of the check this refund took back.' }),
  redeemed_returned: Type.Integer({ description: 'Cashback the check redeemed that this refund gave back.' }),
  created_at: Type.String({ format: 'date-time' }),
}, { title: 'ActivityRefund' });

export const MemberActivity = Type.Object({
  object: Type.Literal('member_activity'),
  id: Type.String({ format: 'uuid', description: "A check's id for a check; else the ledger entry's id." }),
  type: Type.String({ description: '`check` for a check with its void and refunds; else the ledger entry\'s type (adjustment, visit, import, expiry, campaign, reward_redemption…; `check_entry`, `earn`, `redemption`… for an entry of a check written before migration 0040 that could not be told apart).' }),
  venue_id: Nullable(Type.String({ format: 'uuid' }), 'Where it happened; null when at no venue (D21).'),
  at: Type.String({ format: 'date-time', description: 'A check: when it closed (else when it was received). Anything else: when it was written.' }),
  reference: Nullable(Type.String(), "A check's external_id; else the entry's reference."),
  status: Nullable(Type.Union([Type.Literal('completed'), Type.Literal('voided')]), "A check's status; null on other rows."),
  cashback: Type.Integer({ description: 'Net effect on the cashback balance, minor units: for a check, what it, its void and its refunds did together. The rows of a member sum to their balance.' }),
  spend: Type.Integer({ description: 'Net effect on total_spend.' }),
  visits: Type.Integer(),
  stamps: Type.Integer(),
  earned: Type.Integer({ description: 'Cashback the check earned, net of what its void and refunds took back; 0 on other rows.' }),
  redeemed: Type.Integer({ description: 'Cashback the check redeemed, net of what its void and refunds gave back; 0 on other rows.' }),
  campaign_cashback: Type.Integer({ description: 'Campaign credits of cashback: those of a check, net of take-backs, or the credit a `campaign` row is.' }),
  campaign_stamps: Type.Integer({ description: 'Campaign credits of stamps, likewise.' }),
  refunds: Type.Array(ActivityRefund, { description: "A check's refunds, oldest first; empty on other rows." }),
  reason: Nullable(Type.String(), 'The reason of an adjustment, the campaign of a credit…; null on a check.'),
  campaign_id: Nullable(Type.String({ format: 'uuid' }), 'The campaign that credited a `campaign` row.'),
  livemode: Type.Boolean(),
}, { title: 'MemberActivity' });
export type MemberActivity = Static<typeof MemberActivity>;

export const MemberParams = Type.Object({ id: Type.String() });

/** The longest search term (D27). */
export const SEARCH_MAX_LENGTH = 200;

/** The members directory's query (D27), for the API's list and the dashboard's. */
export const MemberListQuery = Type.Object(
  {
    ...PageQuery,
    q: Type.Optional(
      Type.String({
        maxLength: SEARCH_MAX_LENGTH,
        description:
          'Any part of a name (every word, accents and case ignored), or exactly a card number, serial, phone number or e-mail address. Exact matches come first.',
      }),
    ),
    sort: Type.Optional(
      Type.Union([Type.Literal('newest'), Type.Literal('name'), Type.Literal('last_visit'), Type.Literal('balance'), Type.Literal('spend')], {
        default: 'newest',
        description: 'newest first (default); name A–Z (no name last); last visit, balance (cashback) or total spend, highest first.',
      }),
    ),
    program_id: Type.Optional(Type.String({ format: 'uuid' })),
    level: Type.Optional(Type.String({ maxLength: 100, description: "Members at the level of this name in their program (a VIP level set by hand counts)." })),
    venue_id: Type.Optional(
      Type.String({ format: 'uuid', description: 'Only the members who enrolled there (home_venue_id); a venue key may name its own venue only.' }),
    ),
    last_visit_after: Type.Optional(Type.String({ format: 'date-time', description: 'Only members whose last visit was at or after this time.' })),
    last_visit_before: Type.Optional(Type.String({ format: 'date-time', description: 'Only members whose last visit was before this time (members who never came are left out).' })),
    phone: Type.Optional(Type.String({ maxLength: 40 })),
    livemode: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
