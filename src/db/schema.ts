// Kysely table types: the single description of what the migrations create.
import type { ColumnType, Generated, GeneratedAlways, JSONColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** The tenant root (D21): one owner, one currency, one or more venues. */
export interface ChainsTable {
  chain_id: string;
  slug: string;
  name: string;
  currency: string;
  created_at: Timestamp;
  /** Drawn anew by a trigger with every change to the chain's category rules (migration 0021). */
  catalogue_version: Generated<string>;
}

/** A device that installed a member's Apple Wallet pass (D23), with the token a change is pushed to. */
export interface ApplePassRegistrationsTable {
  chain_id: string;
  member_id: string;
  device_library_id: string;
  push_token: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A member's Google Wallet object (D23), made when its save link was first given: changes are sent to it. */
export interface GoogleWalletObjectsTable {
  chain_id: string;
  member_id: string;
  created_at: Generated<Date>;
}

/** A push to one device, or an update of one Google object, owed after a member's card changed (migration 0034). */
export interface WalletUpdatesTable {
  chain_id: string;
  id: Generated<string>;
  member_id: string;
  channel: 'apple' | 'google' | 'google_erased';
  device_library_id: string | null;
  push_token: string | null;
  status: Generated<'pending' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_error: string | null;
  created_at: Generated<Date>;
}

/** A connection to a point-of-sale provider (D26); `secrets` sealed by src/shared/secret-box.ts, never shown. */
export interface IntegrationsTable {
  chain_id: string;
  id: string;
  /** The venue whose key made it (that key's venue alone may be mapped); null: made for the chain as a whole. */
  venue_id: string | null;
  livemode: boolean;
  provider: 'square' | 'toast';
  name: string;
  status: Generated<'active' | 'paused'>;
  /** The provider's location (Square) or restaurant (Toast) id → a venue of the chain. */
  locations: JSONColumnType<Record<string, string>, string | undefined, string>;
  /** The connection's own register rules (D12), as a key's are. */
  rules: JSONColumnType<Record<string, unknown>, string, string>;
  settings: JSONColumnType<Record<string, unknown>, string | undefined, string>;
  /** Each secret setting sealed: name → sealed text, under the key `secret_key_id` names. */
  secrets: JSONColumnType<Record<string, string>, string | undefined, string>;
  secret_key_id: string | null;
  failing_since: NullableTimestamp;
  /** Per provider location, the time its reconciliation pass has covered up to (RFC 3339). */
  reconciled_until: JSONColumnType<Record<string, string>, string | undefined, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** One thing a connection did or was told, newest first in its log; with `next_attempt_at` it is still queued. */
export interface IntegrationLogTable {
  chain_id: string;
  integration_id: string;
  id: string;
  kind: string;
  outcome: string;
  message: string | null;
  provider_ids: JSONColumnType<Record<string, string>, string | undefined, string>;
  dedup_key: string | null;
  /** The provider's object the entry is about ('payment:<id>', 'refund:<id>'), so a reconciliation pass finds what was seen. */
  subject: string | null;
  payload: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** What a provider that calls us was answered (Toast), kept so that its retry is answered alike. */
  answer: ColumnType<{ status: number; body: Record<string, unknown> } | null, string | null | undefined, string | null>;
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  transaction_id: string | null;
  venue_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A provider's object (an order, a payment, a refund) a connection has turned into a check or a refund, once. */
export interface IntegrationHandledTable {
  chain_id: string;
  integration_id: string;
  provider_key: string;
  venue_id: string;
  external_id: string;
  /** What the object stands for beyond its number (a Toast check's standing redemption and accrual); null: nothing more. */
  state: JSONColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
}

/** A chain's brand (D25): the name guests see, colours and logo; no row: the defaults. */
export interface ChainBrandsTable {
  chain_id: string;
  display_name: string | null;
  background_color: string;
  foreground_color: string;
  label_color: string;
  logo: Buffer | null;
  logo_updated_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface VenuesTable {
  venue_id: string;
  chain_id: string;
  slug: string;
  name: string;
  currency: string;
  locale: string;
  timezone: string;
  country: string;
  settings: JSONColumnType<Record<string, unknown>>;
  created_at: Timestamp;
}

/** Every dashboard user of a chain (D24), owners and the staff they let in. */
export interface OwnersTable {
  chain_id: string;
  venue_id: string;
  id: string;
  email: string;
  password_hash: string;
  role: ColumnType<'owner' | 'manager' | 'staff', 'owner' | 'manager' | 'staff' | undefined, 'owner' | 'manager' | 'staff'>;
  /** The venues a manager or staff may open; null: every venue of the chain (always, for an owner). */
  venue_ids: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  created_at: Timestamp;
}

/** Single-use links for dashboard users (D24): invitations and password resets; only the token's hash is kept. */
export interface UserLinksTable {
  chain_id: string;
  id: string;
  purpose: 'invitation' | 'password_reset';
  venue_id: string;
  email: string;
  role: 'owner' | 'manager' | 'staff' | null;
  user_id: string | null;
  token_hash: string;
  created_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** A sign-up waiting for its link to be used (issue 45): not a chain's yet, found by the hash of the link's token. */
export interface SignupRequestsTable {
  id: string;
  email: string;
  venue: ColumnType<SignUpVenue, string, never>;
  password_hash: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** The venue a sign-up asked for, as it gave it (checked then); the sign-up opens it when its link is used. */
export interface SignUpVenue {
  name: string;
  currency?: string;
  locale?: string;
  timezone?: string;
  country?: string;
}

/** The audit log (D24): append-only, a trigger refuses UPDATE and the DELETE of rows younger than the retention. */
export interface AuditEventsTable {
  chain_id: string;
  id: string;
  actor_type: 'user' | 'api_key' | 'cli' | 'system' | 'integration';
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  changes: JSONColumnType<Record<string, [unknown, unknown]>>;
  venue_id: string | null;
  address: string | null;
  created_at: Generated<Date>;
}

export interface DashboardSessionsTable {
  chain_id: string;
  venue_id: string;
  id: string;
  owner_id: string;
  token_hash: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface ApiKeysTable {
  chain_id: string;
  venue_id: string | null;
  id: string;
  name: string;
  livemode: boolean;
  secret_hash: string;
  display_prefix: string;
  scopes: string[];
  rules: JSONColumnType<Record<string, unknown>>;
  created_at: Timestamp;
  revoked_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
}

export interface IdempotencyKeysTable {
  chain_id: string;
  /** The venue for a venue key, the key itself for a chain key: whose Idempotency-Keys these are (D21). */
  namespace: string;
  key: string;
  fingerprint: string;
  status_code: number;
  response_body: JSONColumnType<Record<string, unknown>>;
  created_at: Timestamp;
}

/** Money in minor units; a campaign rewards in cashback or in stamps (D22), never both. */
export interface CampaignsTable {
  chain_id: string;
  id: string;
  name: string;
  type: 'bonus' | 'welcome' | 'birthday' | 'referral';
  status: 'active' | 'paused' | 'ended';
  /** Null: every venue of the chain. */
  venue_ids: string[] | null;
  starts_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  budget: number | null;
  spent: Generated<number>;
  max_per_member: number | null;
  schedule: JSONColumnType<{ days_of_week: number[]; from: string; to: string } | null, string | null, string | null>;
  percent_bp: number | null;
  stamps_multiplier: number | null;
  categories: string[] | null;
  min_check_amount: number | null;
  amount: number | null;
  stamps: number | null;
  referrer_amount: number | null;
  referee_amount: number | null;
  /** A test-mode campaign credits test-mode members only, and the other way round. */
  livemode: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When it was first ended by hand (status 'ended'); null otherwise. */
  ended_at: NullableTimestamp;
}

export interface WebhookEndpointsTable {
  chain_id: string;
  venue_id: string | null;
  id: string;
  url: string;
  description: string | null;
  events: string[];
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  /** Sealed by src/shared/secret-box.ts under the key `secret_key_id` names; null: plaintext from before 0016. */
  secret: string;
  secret_key_id: string | null;
  livemode: boolean;
  created_at: Timestamp;
  updated_at: Generated<Date>;
  consecutive_failures: Generated<number>;
  failing_since: NullableTimestamp;
}

export interface EventsTable {
  chain_id: string;
  venue_id: string | null;
  id: string;
  type: string;
  livemode: boolean;
  data: JSONColumnType<Record<string, unknown>>;
  request_id: string | null;
  idempotency_key: string | null;
  created_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  chain_id: string;
  venue_id: string | null;
  id: string;
  endpoint_id: string;
  event_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface WebhookAttemptsTable {
  chain_id: string;
  venue_id: string | null;
  id: string;
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  attempt: number;
  status_code: number;
  duration_ms: number;
  error: string | null;
  next_attempt_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface ProgramsTable {
  chain_id: string;
  id: string;
  name: string;
  type: 'cashback' | 'stamps' | 'visit_discount' | 'vip';
  settings: JSONColumnType<Record<string, unknown>>;
  barcode_format: 'qr_card_number' | 'code128_card_number' | 'qr_serial';
  is_default: Generated<boolean>;
  created_at: Timestamp;
}

export interface MembersTable {
  chain_id: string;
  id: string;
  /** Where the member enrolled; null: imported without a venue. */
  home_venue_id: string | null;
  program_id: string;
  serial: string;
  phone: string | null;
  /** Trimmed and lower-cased; unique in the chain (migration 0038); null when none or once erased. */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  name: string | null;
  consented_at: Timestamp;
  vip_level: string | null;
  /** MM-DD or YYYY-MM-DD (D22). */
  birthday: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the birthday was last set: a birthday before it is not caught up. */
  birthday_set_at: NullableTimestamp;
  /** Unique in the chain; null once erased. */
  referral_code: string | null;
  /** The member whose referral_code this one enrolled with. */
  referred_by: ColumnType<string | null, string | null | undefined, string | null>;
  livemode: boolean;
  created_at: Timestamp;
  /** Totals of the member's ledger, changed in the same statement as the ledger rows that move them. */
  cashback: Generated<number>;
  spend: Generated<number>;
  visits: Generated<number>;
  stamps: Generated<number>;
  /** Programs with level_period_days (D22): the paid spend of the member's checks in the window, and when its oldest part leaves it. */
  level_spend: Generated<number>;
  level_leaves_at: NullableTimestamp;
  /** Set when the member's personal data was erased (migration 0015); such a member is found by no look-up. */
  erased_at: NullableTimestamp;
  /** The wallet pass's generation (D23): its authentication token is derived from it. */
  pass_generation: Generated<number>;
  /** When the member's card last changed as a pass shows it; stamped by triggers (migration 0034). */
  pass_changed_at: Generated<Date>;
  /** The guest card page link's generation (D23): bumping it revokes every link given so far. */
  card_link_generation: Generated<number>;
  /** lower(f_unaccent(name)), kept by the database (migration 0039): what the directory searches and sorts names by. */
  name_key: GeneratedAlways<string | null>;
  /** When the member's latest check closed (else was received); set by the check's write (migration 0039). */
  last_visit_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface MemberCardsTable {
  chain_id: string;
  card_number: string;
  member_id: string;
  created_at: Timestamp;
}

/** A venue's key for hashing erased card numbers (migration 0015). */
export interface MemberErasureKeysTable {
  chain_id: string;
  secret: string;
}

/** A card number of an erased member, as its keyed hash: what imports must not enrol again (migration 0015). */
export interface ErasedCardsTable {
  chain_id: string;
  card_hash: string;
}

export interface LedgerEntriesTable {
  chain_id: string;
  id: string;
  /** Where the entry happened; null: at no venue (an import, a chain key's adjustment). */
  venue_id: string | null;
  member_id: string;
  kind: string;
  cashback: Generated<number>;
  spend: Generated<number>;
  visits: Generated<number>;
  stamps: Generated<number>;
  reason: string | null;
  reference: string | null;
  livemode: boolean;
  created_at: Timestamp;
  /** The campaign of a `campaign` entry (D22). */
  campaign_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The check whose write, void or refund wrote the entry (migration 0040). */
  transaction_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DishesTable {
  chain_id: string;
  venue_id: string;
  id: string;
  external_id: string;
  name: string;
  description: string | null;
  category: string | null;
  price: number;
  available: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VenueTablesTable {
  chain_id: string;
  venue_id: string;
  id: string;
  table_code: string;
  name: string;
  created_at: Timestamp;
}

export interface OrdersTable {
  chain_id: string;
  venue_id: string;
  id: string;
  table_code: string;
  table_name: string;
  status: string;
  status_reason: string | null;
  items: JSONColumnType<OrderItemRow[]>;
  subtotal: number;
  comment: string | null;
  livemode: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrderItemRow {
  external_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  amount: number;
  note: string | null;
}

export interface CatalogCategoriesTable {
  chain_id: string;
  id: string;
  external_id: string;
  name: string;
  earns_cashback: Generated<boolean>;
  payable_with_cashback: Generated<boolean>;
  cashback_percent_bp: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A venue's own money rules for a category of its chain: the whole rule at that venue (migration 0018). */
export interface CategoryVenueRulesTable {
  chain_id: string;
  venue_id: string;
  category_id: string;
  earns_cashback: boolean;
  payable_with_cashback: boolean;
  cashback_percent_bp: number | null;
  updated_at: Generated<Date>;
}

export interface CatalogProductsTable {
  chain_id: string;
  id: string;
  sku: string;
  name: string;
  category: string | null;
  price: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TransactionsTable {
  chain_id: string;
  venue_id: string;
  id: string;
  external_id: string;
  register_key: string;
  register_id: string | null;
  member_id: string | null;
  status: 'completed' | 'voided';
  line_items: JSONColumnType<Record<string, unknown>[]>;
  subtotal: number;
  discount_amount: number;
  redeemed: number;
  earned: number;
  earn_capped: boolean;
  stamps_earned: number;
  paid: number;
  refunded_amount: Generated<number>;
  closed_at: NullableTimestamp;
  hold_id: string | null;
  display: JSONColumnType<{ cashier: string; receipt: string[] }>;
  fingerprint: string;
  livemode: boolean;
  created_at: Timestamp;
  voided_at: NullableTimestamp;
  /** The venue-local date of closed_at (else of receipt), 'YYYY-MM-DD': the day max_cashback_per_day counts it in. */
  venue_day: string;
  /** What voids and refunds took back of `earned` and gave back of `redeemed` so far. */
  earned_reversed: Generated<number>;
  redeemed_returned: Generated<number>;
  /**
   * What the redemption took from each cashback lot not yet given back, by "venueId:day" (before migration 0017's
   * lots by venue: by day alone, a lot of this check's venue); null: from no lot (D20).
   */
  redeemed_lots: ColumnType<Record<string, number> | null, string | null | undefined, string | null>;
  /** Applied on a register under a number another check there already had, before numbers were taken once per register (migration 0012). */
  numbered_twice: Generated<boolean>;
  /**
   * While the check counts as a visit (and keeps its stamps): the least it may be paid after refunds and still count
   * (the program's min_check_amount when it applied, at least 1). Null: it counts no visit.
   */
  visit_min_paid: number | null;
  /** What each campaign credited the check, on which terms, and what reversals took back of it (D22). */
  campaigns: JSONColumnType<CheckCampaign[], string | undefined, string>;
  /** Who sent the check: the API (a till, a script) or a connector (D26), whose own ids are in `metadata`. */
  source: Generated<TransactionSource>;
  metadata: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
}

export type TransactionSource = 'api' | 'square' | 'toast';

/** A campaign's credit to one check, as the check keeps it. */
export interface CheckCampaign {
  campaign_id: string;
  name: string;
  /** What the check's balance unit counts: cashback (minor units) or stamps. */
  unit: 'cashback' | 'stamps';
  amount: number;
  /** What voids and refunds took back of it so far. */
  reversed: number;
  /** The terms it was credited on, for a capture to judge it again: a bonus's percent or multiplier and categories. */
  percent_bp: number | null;
  stamps_multiplier: number | null;
  categories: string[] | null;
  min_check_amount: number | null;
  /** A referral's credit: only a void takes it back; both sides' entries carry `reference`. */
  referral?: boolean;
  reference?: string;
  /** What the referral credited the member who referred this one, with this check. */
  referrer?: { member_id: string; amount: number };
}

export interface RefundsTable {
  chain_id: string;
  venue_id: string;
  id: string;
  transaction_id: string;
  external_id: string;
  amount: number;
  earned_reversed: number;
  redeemed_returned: number;
  /** This refund left its check paid below its minimum and took its visit and stamps back (migration 0023). */
  visit_reversed: boolean;
  /** What this refund took back of each campaign credit of its check (D22). */
  campaigns_reversed: JSONColumnType<CampaignReversed[], string | undefined, string>;
  livemode: boolean;
  created_at: Timestamp;
}

/** What a reversal took back of one campaign's credit, in the campaign's unit. */
export interface CampaignReversed {
  campaign_id: string;
  name: string;
  unit: 'cashback' | 'stamps';
  amount: number;
  /** The ledger reference of the credit when not the check's number (a referral's). */
  reference?: string;
}

export interface HoldsTable {
  chain_id: string;
  venue_id: string;
  id: string;
  member_id: string;
  amount: number;
  status: 'active' | 'captured' | 'released' | 'expired';
  expires_at: Timestamp;
  captured_amount: number | null;
  captured_by: string | null;
  livemode: boolean;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

/** What a member earned at one venue on one of its days and still has, until it expires (D20, D21; members/expiry.ts). */
export interface CashbackLotsTable {
  chain_id: string;
  member_id: string;
  /**
   * The venue where it was earned: its expiry is charged to it (the liability report). Null: a lot of no venue
   * (cashback imported at none), whose days are the chain's first venue's and whose expiry belongs to no venue.
   */
  venue_id: string | null;
  /** venue_id, or the nil uuid for no venue (stored, generated): the primary key's (chain_id, member_id, lot_venue, day). */
  lot_venue: GeneratedAlways<string>;
  day: string;
  expires_on: string;
  expires_at: Timestamp;
  remaining: number;
  /** When cashback.expiring is due (null: the program sends none), and when it was sent. */
  warn_at: NullableTimestamp;
  warned_at: NullableTimestamp;
}

export interface ScansTable {
  chain_id: string;
  venue_id: string;
  id: string;
  key_id: string;
  member_id: string;
  created_at: Timestamp;
}

/** A member import sent through the API (D20): the job, its chunks of the uploaded file and its bad lines. */
export interface MemberImportsTable {
  chain_id: string;
  id: string;
  /** The venue that sent it: its members' home venue and where their `import` entries belong; null: none (D21). */
  venue_id: string | null;
  program_id: string;
  livemode: boolean;
  format: 'csv' | 'jsonl';
  status: 'receiving' | 'pending' | 'running' | 'succeeded' | 'failed';
  total_lines: number | null;
  processed: Generated<number>;
  imported: Generated<number>;
  skipped: Generated<number>;
  failed: Generated<number>;
  failure: string | null;
  claimed_by: string | null;
  claimed_until: NullableTimestamp;
  /** Claims since the last one that committed a batch: a job failing again and again is failed, not retried forever. */
  attempts: Generated<number>;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface MemberImportChunksTable {
  chain_id: string;
  import_id: string;
  seq: number;
  bytes: Buffer;
}

export interface MemberImportErrorsTable {
  chain_id: string;
  import_id: string;
  line: number;
  reason: string;
}

export interface DB {
  chains: ChainsTable;
  campaigns: CampaignsTable;
  venues: VenuesTable;
  owners: OwnersTable;
  chain_brands: ChainBrandsTable;
  apple_pass_registrations: ApplePassRegistrationsTable;
  google_wallet_objects: GoogleWalletObjectsTable;
  wallet_updates: WalletUpdatesTable;
  integrations: IntegrationsTable;
  integration_log: IntegrationLogTable;
  integration_handled: IntegrationHandledTable;
  dashboard_sessions: DashboardSessionsTable;
  user_links: UserLinksTable;
  signup_requests: SignupRequestsTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  events: EventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  audit_events: AuditEventsTable;
  programs: ProgramsTable;
  members: MembersTable;
  member_cards: MemberCardsTable;
  member_erasure_keys: MemberErasureKeysTable;
  erased_cards: ErasedCardsTable;
  ledger_entries: LedgerEntriesTable;
  member_imports: MemberImportsTable;
  member_import_chunks: MemberImportChunksTable;
  member_import_errors: MemberImportErrorsTable;
  dishes: DishesTable;
  venue_tables: VenueTablesTable;
  orders: OrdersTable;
  catalog_categories: CatalogCategoriesTable;
  catalog_products: CatalogProductsTable;
  category_venue_rules: CategoryVenueRulesTable;
  transactions: TransactionsTable;
  refunds: RefundsTable;
  holds: HoldsTable;
  scans: ScansTable;
  cashback_lots: CashbackLotsTable;
}
