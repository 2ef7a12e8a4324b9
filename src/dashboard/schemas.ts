// Request and response shapes of the dashboard's own API (/dashboard/api), described in its OpenAPI document.
import { Type, type Static } from 'typebox';
import { KeyRules, SCOPES, VenueSettings, type Scope } from '../modules/accounts/schemas.js';
import { AuditEvent } from '../modules/audit/schemas.js';
import { MoneyRules } from '../modules/catalogue/schemas.js';
import { Transaction } from '../modules/checks/schemas.js';
import { Order } from '../modules/orders/schemas.js';
import { BARCODE_FORMATS, PROGRAM_TYPES, type BarcodeFormat as BarcodeFormatName, type ProgramType as ProgramTypeName } from '../modules/programs/schemas.js';

const Email = Type.String({ minLength: 3, maxLength: 254, description: 'The owner’s e-mail address.' });
const Password = Type.String({ minLength: 1, maxLength: 1024 });
const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const SignUp = Type.Object(
  {
    venue_name: Type.String({ minLength: 1, maxLength: 120 }),
    email: Email,
    password: Type.String({ minLength: 10, maxLength: 1024, description: 'At least 10 characters.' }),
    currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217; default EUR.' })),
    locale: Type.Optional(Type.String({ minLength: 2, maxLength: 35, description: 'BCP 47; default en-IE.' })),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA; default Europe/Dublin.' })),
    country: Type.Optional(Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166 alpha-2; default IE.' })),
  },
  { additionalProperties: false },
);
export type SignUp = Static<typeof SignUp>;

export const SignIn = Type.Object({ email: Email, password: Password }, { additionalProperties: false });
export type SignIn = Static<typeof SignIn>;

export const ChangePassword = Type.Object(
  { current_password: Password, new_password: Type.String({ minLength: 10, maxLength: 1024, description: 'At least 10 characters.' }) },
  { additionalProperties: false },
);

export const Venue = Type.Object({
  id: Type.String({ format: 'uuid' }),
  slug: Type.String(),
  name: Type.String(),
  currency: Type.String(),
  locale: Type.String(),
  timezone: Type.String(),
  country: Type.String(),
  settings: VenueSettings,
  created_at: Timestamp,
});

export const VenueUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3 })),
    locale: Type.Optional(Type.String({ minLength: 2, maxLength: 35 })),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    country: Type.Optional(Type.String({ minLength: 2, maxLength: 2 })),
    settings: Type.Optional(KeyRules),
  },
  { additionalProperties: false },
);
export type VenueUpdate = Static<typeof VenueUpdate>;

/** The owner's chain (D21): one currency, the venues the switcher lists. */
export const Chain = Type.Object({
  id: Type.String({ format: 'uuid' }),
  slug: Type.String(),
  name: Type.String(),
  currency: Type.String({ description: 'Every venue of the chain counts in it.' }),
  venues: Type.Array(
    Type.Object({ id: Type.String({ format: 'uuid' }), slug: Type.String(), name: Type.String(), timezone: Type.String() }),
    { description: 'Oldest first.' },
  ),
});

export const SessionInfo = Type.Object({
  object: Type.Literal('dashboard_session'),
  owner: Type.Object({
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    role: Type.Union([Type.Literal('owner'), Type.Literal('manager'), Type.Literal('staff')], { description: 'What the user may do in the chain (D24).' }),
  }),
  allowed: Type.Array(Type.String(), { description: 'The calls (METHOD /path below /dashboard/api) the role allows: pages show what they can use.' }),
  venue: Type.Object(Venue.properties, { description: 'The venue the session is at: per-venue pages (transactions, menu, keys, …) show it.' }),
  chain: Chain,
  csrf_token: Type.String({ description: 'Send it as X-CSRF-Token on every call that changes something.' }),
  expires_at: Timestamp,
});

export const SwitchVenue = Type.Object(
  { venue_id: Type.String({ maxLength: 64, description: 'A venue of the owner’s chain.' }) },
  { additionalProperties: false },
);

export const NewChainVenue = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    slug: Type.String({ minLength: 1, maxLength: 48, description: 'Lowercase letters, digits and dashes; in its QR menu addresses.' }),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA; default the current venue’s.' })),
    locale: Type.Optional(Type.String({ minLength: 2, maxLength: 35, description: 'BCP 47; default the current venue’s.' })),
    country: Type.Optional(Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166 alpha-2; default the current venue’s.' })),
  },
  { additionalProperties: false, description: 'The currency is the chain’s.' },
);
export type NewChainVenue = Static<typeof NewChainVenue>;

export const SessionListItem = Type.Object({
  id: Type.String({ format: 'uuid' }),
  current: Type.Boolean(),
  user_agent: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  created_at: Timestamp,
  last_seen_at: Timestamp,
  expires_at: Timestamp,
});

export const PublicConfig = Type.Object({ signup_open: Type.Boolean() });

const ScopeName = Type.Unsafe<Scope>({ type: 'string', enum: [...SCOPES] });

export const Meta = Type.Object({
  scopes: Type.Array(ScopeName),
  scope_presets: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), scopes: Type.Array(ScopeName) })),
  program_types: Type.Array(Type.String()),
  barcode_formats: Type.Array(Type.String()),
  audit_actions: Type.Array(Type.Object({ action: Type.String(), label: Type.String({ description: 'What the audit page calls it.' }) })),
  event_types: Type.Array(Type.String(), { description: 'The webhook event types an endpoint may ask for.' }),
});

export const ApiKey = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  livemode: Type.Boolean(),
  prefix: Type.String({ description: 'First characters of the key; the secret itself is never shown again.' }),
  scopes: Type.Array(Type.String(), { description: 'Empty: full access.' }),
  rules: KeyRules,
  created_at: Timestamp,
  revoked_at: Nullable(Timestamp),
  last_used_at: Nullable(Timestamp),
});

export const NewApiKey = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    livemode: Type.Boolean(),
    scopes: Type.Array(ScopeName, { maxItems: SCOPES.length, description: 'Empty: full access.' }),
    rules: Type.Optional(KeyRules),
  },
  { additionalProperties: false },
);
export type NewApiKey = Static<typeof NewApiKey>;

export const CreatedApiKey = Type.Object({
  key: ApiKey,
  secret: Type.String({ description: 'The key itself, shown this once only.' }),
});

export const KeyRulesBody = Type.Object({ rules: KeyRules }, { additionalProperties: false });

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const ExternalIdParams = Type.Object({ external_id: Type.String({ maxLength: 64 }) });

export const NewCategory = Type.Object(
  {
    external_id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._:-]+$', description: 'What the POS and products name it.' }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    ...Object.fromEntries(Object.entries(MoneyRules).map(([k, v]) => [k, Type.Optional(v)])),
  },
  { additionalProperties: false },
);

export const CategoryUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    earns_cashback: Type.Optional(MoneyRules.earns_cashback),
    payable_with_cashback: Type.Optional(MoneyRules.payable_with_cashback),
    cashback_percent: Type.Optional(MoneyRules.cashback_percent),
  },
  { additionalProperties: false },
);
export type CategoryUpdate = Static<typeof CategoryUpdate>;

/** One venue's own rule for one of the chain's categories (D21). */
export const CategoryVenueParams = Type.Object({
  external_id: Type.String({ maxLength: 64 }),
  venue_id: Type.String({ maxLength: 64, description: 'A venue of the owner’s chain.' }),
});

export const VenueCategoryRule = Type.Object(
  {
    earns_cashback: Type.Optional(MoneyRules.earns_cashback),
    payable_with_cashback: Type.Optional(MoneyRules.payable_with_cashback),
    cashback_percent: Type.Optional(MoneyRules.cashback_percent),
  },
  {
    additionalProperties: false,
    description: "The changes, over the venue's own rule if it has one, else over the chain's; the whole rule then wins at that venue.",
  },
);

const ProgramType = Type.Unsafe<ProgramTypeName>({ type: 'string', enum: [...PROGRAM_TYPES] });
const BarcodeFormat = Type.Unsafe<BarcodeFormatName>({ type: 'string', enum: [...BARCODE_FORMATS] });

export const NewProgram = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    type: ProgramType,
    settings: Type.Record(Type.String(), Type.Unknown(), { description: 'The settings of the type (docs/programs.md).' }),
    barcode_format: Type.Optional(BarcodeFormat),
    is_default: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type NewProgram = Static<typeof NewProgram>;

export const ProgramUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    settings: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    barcode_format: Type.Optional(BarcodeFormat),
    is_default: Type.Optional(Type.Literal(true, { description: 'Makes it the default; the previous default stops being one.' })),
  },
  { additionalProperties: false },
);
export type ProgramUpdate = Static<typeof ProgramUpdate>;

export const PageQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })), starting_after: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const OwnerAdjust = Type.Object(
  {
    amount: Type.Integer({ minimum: -100_000_000, maximum: 100_000_000, description: 'Signed, minor units; not zero.' }),
    reason: Type.String({ minLength: 1, maxLength: 500, description: 'Required: why the balance changes; kept in the history.' }),
  },
  { additionalProperties: false },
);

export const Ok = Type.Object({ ok: Type.Literal(true) });

const Day = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: `${description} YYYY-MM-DD, in the venue's time zone.` });

/** The Transactions page's filters; the CSV export takes the same ones. */
export const TransactionFilter = {
  from: Type.Optional(Day('First venue day (the day a check was closed), included;')),
  to: Type.Optional(Day('Last venue day, included;')),
  register_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  livemode: Type.Optional(Type.Boolean({ description: 'true: live traffic only; false: test traffic only.' })),
  status: Type.Optional(Type.Union([Type.Literal('completed'), Type.Literal('voided')])),
};

export const TransactionQuery = Type.Object(
  {
    ...TransactionFilter,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    starting_after: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const TransactionExportQuery = Type.Object(TransactionFilter, { additionalProperties: false });

/** A transaction as the dashboard lists it: with who its member is. */
export const OwnerTransaction = Type.Object({
  ...Transaction.properties,
  member: Nullable(
    Type.Object({ id: Type.String({ format: 'uuid' }), name: Nullable(Type.String()), card_number: Nullable(Type.String({ description: 'The first card, else the serial.' })) }),
  ),
});

const Figures = Type.Object({
  checks: Type.Integer({ description: 'Completed checks.' }),
  sales: Type.Integer({ description: 'What was paid, net of refunds; minor units.' }),
  earned: Type.Integer({ description: 'Cashback earned, net of what voids and refunds took back.' }),
  redeemed: Type.Integer({ description: 'Cashback redeemed, net of what voids and refunds gave back.' }),
  members_enrolled: Type.Integer(),
});
const ByMode = <T extends Parameters<typeof Type.Object>[0]>(props: T) => Type.Object({ live: Type.Object(props), test: Type.Object(props) });
const DayPoint = { checks: Type.Integer(), earned: Type.Integer(), redeemed: Type.Integer() };

const VenueFigures = {
  checks: Type.Integer({ description: 'Completed checks.' }),
  sales: Type.Integer({ description: 'What was paid, net of refunds; minor units.' }),
  earned: Type.Integer({ description: 'Cashback earned, net of reversals.' }),
  redeemed: Type.Integer({ description: 'Cashback redeemed, net of what was given back.' }),
};
const VenuePeriods = Type.Object({ today: ByMode(VenueFigures), month: ByMode(VenueFigures) });

export const Overview = Type.Object({
  object: Type.Literal('overview'),
  currency: Type.String(),
  venue_id: Type.String({ format: 'uuid', description: 'The session’s venue, whose checks the figures above the breakdown count.' }),
  today: Type.String({ description: "Today's venue day, YYYY-MM-DD." }),
  month_start: Type.String(),
  today_figures: Type.Object({ live: Figures, test: Figures }),
  month_figures: Type.Object({ live: Figures, test: Figures }),
  balances: ByMode({
    members: Type.Integer(),
    members_with_balance: Type.Integer(),
    liability: Type.Integer({ description: 'What members could still redeem: the sum of positive cashback balances (held cashback included).' }),
  }),
  days: Type.Array(Type.Object({ day: Type.String(), live: Type.Object(DayPoint), test: Type.Object(DayPoint) }), { description: 'The last 30 venue days, oldest first.' }),
  venues: Type.Array(
    Type.Object({
      venue_id: Type.String({ format: 'uuid' }),
      name: Type.String(),
      slug: Type.String(),
      timezone: Type.String(),
      today: Type.String({ description: "The venue's own day, YYYY-MM-DD (each venue's days are in its time zone)." }),
      month_start: Type.String(),
      figures: VenuePeriods,
    }),
    { description: "Every venue of the chain, oldest first: checks, sales and cashback of the venue's today and this month." },
  ),
  chain_totals: Type.Object(
    { today: ByMode(VenueFigures), month: ByMode(VenueFigures) },
    { description: "The sum over the chain's venues, each counted on its own day." },
  ),
});

export const VenueTable = Type.Object({
  id: Type.String({ format: 'uuid' }),
  table_code: Type.String(),
  name: Type.String(),
  menu_url: Type.String({ description: 'The public menu page its QR code opens.' }),
});

export const NewTable = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    table_code: Type.Optional(Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9-]+$', description: 'Lowercase letters, digits, dashes; drawn when omitted.' })),
  },
  { additionalProperties: false },
);

export const TableCodeParams = Type.Object({ table_code: Type.String({ maxLength: 32 }) });

export const QrQuery = Type.Object({ download: Type.Optional(Type.Boolean({ description: 'true: as a file to save.' })) }, { additionalProperties: false });

/** An order as the board shows it: with the statuses it may move to (D14's graph). */
export const OwnerOrder = Type.Object({
  ...Order.properties,
  next_statuses: Type.Array(Type.String(), { description: 'Where the order may move from its status.' }),
});

/** Liability page: a period of UTC days, half-open. */
export const LiabilityQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'First UTC day, included (from 00:00 UTC); default the first of this month.' })),
    to: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'UTC day the period ends at 00:00, not included; default the first of next month.' })),
    livemode: Type.Optional(Type.Boolean({ description: 'true (the default): live traffic; false: test traffic. Never both added together.' })),
  },
  { additionalProperties: false },
);

const LiabilityFigures = {
  earned: Type.Integer({ description: 'Cashback earned at checks, net of reversals; minor units.' }),
  campaign: Type.Integer({ description: 'Campaign credits.' }),
  redeemed: Type.Integer({ description: 'Cashback spent at checks, net of what was given back.' }),
  expired: Type.Integer(),
  adjusted: Type.Integer({ description: 'Owner and API adjustments, signed.' }),
  imported: Type.Integer({ description: 'Opening balances of imports.' }),
  net: Type.Integer({ description: 'What the row adds to what members could still redeem.' }),
};

export const VenueLiability = Type.Object({
  object: Type.Literal('venue_liability'),
  currency: Type.String(),
  livemode: Type.Boolean({ description: 'Live or test money: the two are never added together.' }),
  from: Timestamp,
  to: Timestamp,
  data: Type.Array(
    Type.Object({
      venue_id: Nullable(Type.String({ format: 'uuid' })),
      venue_name: Nullable(Type.String({ description: 'null: what belongs to no venue (adjustments and imports made for the chain).' })),
      ...LiabilityFigures,
    }),
    { description: "One row per venue of the chain, oldest first, then the row of no venue." },
  ),
  totals: Type.Object(LiabilityFigures, { description: "The sum of the rows: the change in the chain's outstanding cashback." }),
});

/** An audit entry with who did it and what it was about in words (D27); the ids stay beside them. */
export const OwnerAuditEvent = Type.Object(
  {
    ...AuditEvent.properties,
    actor_name: Type.Union([Type.String(), Type.Null()], { description: "The user's e-mail, the key's or connection's name; null for the CLI and the service, or one since removed." }),
    target_name: Type.Union([Type.String(), Type.Null()], { description: 'What it was about by name (a member by name or card, a check by number…); null where the id says it (a SKU, a table code) or it is gone.' }),
  },
  { title: 'OwnerAuditEvent' },
);
export type OwnerAuditEvent = Static<typeof OwnerAuditEvent>;

export const ActivityReportQuery = Type.Object(
  {
    from: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'First day, included (the venue’s day).' }),
    to: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Last day, included; at most 366 days after from.' }),
    livemode: Type.Optional(Type.Boolean({ description: 'true (the default): live traffic; false: test traffic. Never both added together.' })),
  },
  { additionalProperties: false },
);

const ReportFigures = {
  enrolments: Type.Integer({ description: 'Members who joined (the chain’s, on the day in the report’s time zone).' }),
  checks: Type.Integer({ description: 'Completed checks, on their venue day.' }),
  member_checks: Type.Integer({ description: 'Of those, checks naming a member: visits by members.' }),
  sales: Type.Integer({ description: 'What those checks were paid, less refunds; minor units.' }),
  earned: Type.Integer({ description: 'Cashback earned, less what voids and refunds took back (ledger time).' }),
  campaign: Type.Integer({ description: 'Cashback given by campaigns (ledger time).' }),
  redeemed: Type.Integer({ description: 'Cashback spent, less what was given back (ledger time); positive.' }),
};

export const ActivityReport = Type.Object(
  {
    object: Type.Literal('activity_report'),
    currency: Type.String(),
    livemode: Type.Boolean(),
    timezone: Type.String({ description: 'The time zone whose days the ledger’s money and enrolments are counted on: the venue’s.' }),
    from: Type.String(),
    to: Type.String(),
    complete: Type.Boolean({ description: 'false while the period has not ended: its last figures are so far.' }),
    days: Type.Array(Type.Object({ day: Type.String(), ...ReportFigures, outstanding: Type.Integer({ description: 'What members held at the end of the day (all of the chain’s, held cashback included).' }) })),
    totals: Type.Object({
      ...ReportFigures,
      outstanding_start: Type.Integer(),
      outstanding_end: Type.Integer(),
      net: Type.Integer({ description: 'Every change of cashback in the period (expiries, adjustments and imports too): outstanding_end − outstanding_start.' }),
      redemption_rate: Nullable(Type.Number({ description: 'redeemed ÷ (earned + campaign); null when nothing was given.' })),
      active_30: Type.Integer({ description: 'Members with a completed check in the 30 days up to `to`.' }),
      active_90: Type.Integer({ description: 'The same in the 90 days up to `to`.' }),
    }),
    venues: Type.Array(Type.Object({ venue_id: Type.String({ format: 'uuid' }), name: Type.String(), ...ReportFigures }), {
      description: 'Each venue of the chain: its checks, and the money of its ledger entries (enrolments stay 0: members are the chain’s).',
    }),
    campaigns: Type.Array(
      Type.Object({
        campaign_id: Type.String({ format: 'uuid' }),
        name: Type.String(),
        unit: Type.Union([Type.Literal('cashback'), Type.Literal('stamps')]),
        credited: Type.Integer({ description: 'Its credits in the period, less what was taken back then.' }),
        members: Type.Integer({ description: 'Members it credited in the period.' }),
      }),
    ),
  },
  { title: 'ActivityReport' },
);
