// The vocabulary of the reference model of chains' money (test/support/money-model.ts): its configuration, the
// requests it answers, and the answers and views it gives. Types only; it imports nothing.

export type ProgramKind = 'cashback' | 'stamps';

export interface Level {
  name: string;
  minSpend: number;
  bp: number;
}

export interface CategoryRule {
  earns: boolean;
  payable: boolean;
  /** The category's own percent; null: the member's level percent. */
  bp: number | null;
}

/** Register rules (D12) as a venue (its defaults) or a key (its own values) sets them; null: not set there. */
export interface RuleValues {
  perCheck: number | null;
  perDay: number | null;
  maxAgeSeconds: number | null;
  viaHolds: boolean | null;
  holdTtlSeconds: number | null;
}

/** A key's effective rules at a venue: its own values, else the venue's, else the defaults. */
export interface KeyRules {
  perCheck: number | null;
  perDay: number | null;
  maxAgeSeconds: number | null;
  viaHolds: boolean;
  holdTtlSeconds: number;
}

/** What a chain shares: its programs' settings and its categories' rules. */
export interface ChainConfig {
  levels: Level[];
  maxRedeemBp: number;
  categories: Record<string, CategoryRule>;
  stamps: { required: number; perVisit: number; minCheckAmount: number };
}

export interface VenueConfig {
  chain: string;
  timezone: string;
  /** The venue's own rules for some of its chain's categories: there the venue's rule wins, as a whole. */
  categories: Record<string, CategoryRule>;
  /** The venue's register rules: the defaults of every key acting there. */
  rules: RuleValues;
}

export interface KeyConfig {
  chain: string;
  /** A venue key's venue; null: a chain key, which acts at the venue of its chain that it names. */
  venue: string | null;
  rules: RuleValues;
  /** A live key's members and campaigns are live ones (D4); the others' are test-mode. */
  livemode: boolean;
}

/**
 * A campaign of a chain (D22), at every venue of it: a bonus of `percentBp` on earning lines (cashback) or a stamps
 * `multiplier`, while its weekly window holds (minutes of the day in each venue's time; `to` < `from` passes midnight);
 * or a referral, crediting cashback to both sides with a referred member's first qualifying check.
 */
export interface ModelCampaign {
  /** The model's id: k0, k1, … in the order created. */
  id: string;
  chain: string;
  /** It credits members of its mode only. */
  livemode: boolean;
  /** A referral's amounts for the member referred and the one who referred them; null: a bonus. */
  referral: { referee: number; referrer: number } | null;
  percentBp: number | null;
  multiplier: number | null;
  schedule: { days: number[]; from: number; to: number } | null;
  categories: string[] | null;
  minCheck: number | null;
  budget: number | null;
  maxPerMember: number | null;
}

export interface WorldConfig {
  chains: Record<string, ChainConfig>;
  venues: Record<string, VenueConfig>;
  keys: KeyConfig[];
  campaigns: ModelCampaign[];
}

/** What a campaign credited (or a refund took back of it). */
export interface CampaignAmount {
  campaign: string;
  amount: number;
}

/** A referrer's side of a referral, which no answer shows: what a check credited them (or a void took back, below 0). */
export interface ReferrerMove {
  campaign: string;
  member: string;
  amount: number;
}

export interface ModelLine {
  name: string;
  quantity: number;
  unitPrice: number;
  category?: string;
}

/** How a request names a member: by id (member_id), card_number or barcode (a scan: its code). */
export type MemberBy = 'id' | 'card' | 'barcode';

/** A check body with the model's own ids (members, holds) and closed_at in milliseconds. */
export interface ModelCheckBody {
  externalId?: string;
  memberId?: string;
  /** Absent: by member_id. */
  memberBy?: 'card' | 'barcode';
  lines: ModelLine[];
  redeemAmount?: number;
  holdId?: string;
  closedAt?: number;
}

/** The key that sends a request and the venue where it happens (a venue key's own; a chain key names it). */
export interface Place {
  key: number;
  at: string;
}

export type ModelRequest =
  | ({ op: 'check'; body: ModelCheckBody } & Place)
  | ({ op: 'calculate'; body: ModelCheckBody } & Place)
  | ({ op: 'void'; externalId: string } & Place)
  | ({ op: 'refund'; externalId: string; refundId: string; amount: number } & Place)
  | ({ op: 'createHold'; holdId: string; memberId: string; by?: 'card'; amount: number; expiresIn?: number } & Place)
  | ({ op: 'release'; holdId: string } & Place)
  | ({ op: 'capture'; holdId: string; externalId: string; redeemAmount?: number } & Place)
  | ({ op: 'adjust'; memberId: string; amount: number } & Place)
  | ({ op: 'visit'; memberId: string; by?: 'card'; externalId?: string } & Place)
  /** POST /v1/members/{id}/rewards/redeem: a stamps member's reward handed over. */
  | ({ op: 'reward'; memberId: string } & Place)
  /** GET /v1/members/{id} (id), the look-up by card_number or barcode, or a scan at the venue (scan). */
  | ({ op: 'lookup'; memberId: string; by: MemberBy | 'scan' } & Place)
  /**
   * POST /v1/members: a new member (the model's id) enrolled at the venue with the referral code of `referredBy` (null:
   * a code nobody has), sent as given, in lower case or with spaces around it.
   */
  | ({ op: 'enroll'; memberId: string; program: ProgramKind; referredBy: string | null; codeAs: 'exact' | 'lower' | 'spaced' } & Place)
  | { op: 'advance'; ms: number };

export interface LineView {
  amount: number;
  redeemed: number;
  /** Before caps. */
  earned: number;
  bp: number;
}

export interface TxView {
  /** Where the check happened. */
  venue: string;
  externalId: string;
  status: 'completed' | 'voided';
  subtotal: number;
  redeemed: number;
  earned: number;
  earnCapped: boolean;
  stampsEarned: number;
  paid: number;
  refundedAmount: number;
  refundable: number;
  lines: LineView[];
  campaigns: CampaignAmount[];
}

export interface CalcView {
  subtotal: number;
  payableBase: number;
  maxRedeem: number;
  redeemed: number;
  earned: number;
  earnCapped: boolean;
  stampsEarned: number;
  paid: number;
  balanceAfter: number | null;
  availableAfter: number | null;
  lines: LineView[];
  campaigns: CampaignAmount[];
}

export type Expected =
  /** `or`: other refusals the design leaves equally right (when two reasons apply and no order is set). */
  | { kind: 'error'; status: number; code: string; param?: string; details?: Record<string, number>; or?: { status: number; code: string }[] }
  /** `referrers`: what the request moved on referrers' balances (a new check, a void). */
  | { kind: 'transaction'; status: 200 | 201; replayed: boolean; tx: TxView; referrers?: ReferrerMove[] }
  | { kind: 'calculation'; status: 200; calc: CalcView }
  | { kind: 'refund'; status: 200 | 201; replayed: boolean; amount: number; earnedReversed: number; redeemedReturned: number; campaignsReversed: CampaignAmount[]; tx: TxView }
  | { kind: 'hold'; status: 200 | 201; venue: string; amount: number; holdStatus: 'active' | 'released'; expiresAt: number }
  | { kind: 'adjustment'; status: 201; amount: number; balance: number; available: number }
  | { kind: 'visit'; status: 200 | 201; venue: string; replayed: boolean; stampsEarned: number; stampsCount: number }
  | { kind: 'reward'; status: 201; stampsCount: number; rewardsAvailable: number }
  | { kind: 'member'; status: 200 | 201; member: string; view: MemberView }
  | { kind: 'advanced' };

export interface MemberView {
  program: ProgramKind;
  /** Where the member enrolled. */
  home: string;
  balance: number | null;
  held: number | null;
  available: number | null;
  totalSpend: number;
  visits: number;
  level: string | null;
  stamps: { count: number; rewardsAvailable: number } | null;
}
