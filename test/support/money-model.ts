// A reference model of the money of chains of venues (D3, D9, D10, D11, D12, D21, D22 and issue 9), written from the
// design alone (and docs/campaigns.md for what D22 leaves open). It imports nothing but its own types (money-model-types.ts): neither the code under test nor other
// test helpers. Amounts are integers in minor units, percents are basis points, time is milliseconds. The model is
// plain data, so `clone()` is a structured copy (the concurrent test tries every serial order of a batch on copies).
//
// D21 as the model has it: members, programs, categories and balances are a chain's; a key, its register rules, a
// time zone, checks (external_id unique per venue), holds and visits are a venue's (a chain key acts at the venue it
// names). A member of another chain is not found, exactly as one that does not exist. What holds keep is judged
// across the chain; a per-day cap counts the member's checks at every venue of the chain whose venue day (in the
// time zone of the venue where each happened) is this check's.
import type {
  ProgramKind,
  Level,
  CategoryRule,
  KeyRules,
  WorldConfig,
  ModelCheckBody,
  Place,
  ModelRequest,
  TxView,
  Expected,
  MemberView,
  ModelCampaign,
  CampaignAmount,
  ReferrerMove,
} from './money-model-types.js';

export type * from './money-model-types.js';

const DEFAULT_HOLD_TTL_SECONDS = 900;

interface MemberState {
  id: string;
  chain: string;
  home: string;
  program: ProgramKind;
  livemode: boolean;
  /** Whose referral code the member enrolled with. */
  referredBy: string | null;
  balance: number;
  spend: number;
  visits: number;
  stamps: number;
}

interface LineState {
  amount: number;
  bp: number;
  payable: boolean;
  /** The category the line names (a campaign may cover only some). */
  category?: string;
  redeemed: number;
  earned: number;
}

/**
 * What a campaign credited a check, in its unit, and what refunds took back of it (a void takes the rest). A referral's
 * `amount` is the referee's side (0 when only the referrer got something), `referrer` the other side.
 */
interface TxCampaign {
  id: string;
  unit: 'cashback' | 'stamps';
  amount: number;
  reversed: number;
  referrer?: { member: string; amount: number };
}

interface RefundState {
  refundId: string;
  amount: number;
  earnedReversed: number;
  redeemedReturned: number;
  campaignsReversed: CampaignAmount[];
}

interface TxState {
  venue: string;
  externalId: string;
  memberId: string | null;
  fingerprint: string;
  status: 'completed' | 'voided';
  lines: LineState[];
  subtotal: number;
  redeemed: number;
  earned: number;
  earnCapped: boolean;
  stampsEarned: number;
  /**
   * While the check counts as a visit and keeps its stamps, the least it may be paid after refunds and still count
   * (a stamps program's min_check_amount, at least 1); null once it counts none (issue 25).
   */
  visitMin: number | null;
  paid: number;
  refunded: number;
  /** Earned taken back and redeemed given back by refunds (a void takes the rest). */
  earnedBack: number;
  redeemedBack: number;
  /** The venue day (YYYY-MM-DD in the time zone of the check's venue) of closed_at, else of receipt. */
  day: string;
  holdId: string | null;
  refunds: Record<string, RefundState>;
  campaigns: TxCampaign[];
}

interface HoldState {
  id: string;
  venue: string;
  memberId: string;
  amount: number;
  status: 'active' | 'captured' | 'released';
  expiresAt: number;
}

interface VisitState {
  venue: string;
  externalId: string;
  memberId: string;
  stampsEarned: number;
}

export interface ModelState {
  now: number;
  members: Record<string, MemberState>;
  /** Checks by `txKey(venue, external_id)`: an external_id is unique per venue. */
  txs: Record<string, TxState>;
  holds: Record<string, HoldState>;
  /** Visits with an external_id, by `txKey(venue, external_id)`. */
  visits: Record<string, VisitState>;
  /**
   * Each campaign's spent, and how many credits it gave each member (max_per_member counts them; a referral's, those a
   * member got as a referrer), a credit later taken back included.
   */
  campaigns: Record<string, { spent: number; given: Record<string, number> }>;
}

/** Stamps as a member shows them: toward the next reward and rewards ready; stamps owed show as a negative count. */
const stampsView = (stamps: number, required: number) =>
  stamps < 0 ? { count: stamps, rewardsAvailable: 0 } : { count: stamps % required, rewardsAvailable: Math.floor(stamps / required) };

/** A check's (or a visit's) key in the model: its venue and its external_id, which is unique per venue. */
export const txKey = (venue: string, externalId: string): string => `${venue}/${externalId}`;

class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly details?: Record<string, number>,
    readonly or?: { status: number; code: string }[],
    readonly param?: string,
  ) {}
}

const refuse = (status: number, code: string, details?: Record<string, number>): never => {
  throw new Refusal(status, code, details);
};

/** The smallest of the values that are set. */
const minOf = (...values: (number | null)[]): number => Math.min(...values.filter((v): v is number => v !== null));

/** round_half_up(quantity × unit_price), quantity with at most 3 decimals, in integers. */
export function lineAmount(quantity: number, unitPrice: number): number {
  const milli = Math.round(quantity * 1000);
  const exact = milli * unitPrice; // thousandths of a minor unit
  return Math.floor(exact / 1000) + (exact % 1000 >= 500 ? 1 : 0);
}

/** floor shares in proportion; the cents left over one each to the largest remainders, ties to the earlier line. */
export function spread(redeem: number, amounts: number[], payable: boolean[]): number[] {
  const base = amounts.reduce((s, a, i) => s + (payable[i] ? a : 0), 0);
  const shares = amounts.map(() => 0);
  if (redeem === 0 || base === 0) return shares;
  const remainders: { i: number; r: number }[] = [];
  let given = 0;
  amounts.forEach((a, i) => {
    if (!payable[i]) return;
    shares[i] = Math.floor((redeem * a) / base);
    given += shares[i]!;
    remainders.push({ i, r: (redeem * a) % base });
  });
  remainders.sort((x, y) => y.r - x.r || x.i - y.i);
  for (let k = 0; k < redeem - given; k++) shares[remainders[k]!.i]! += 1;
  return shares;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date of an instant in a time zone, as YYYY-MM-DD. */
export function venueDay(ms: number, timezone: string): string {
  let format = dayFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timezone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** A canonical form of a body (sorted keys, absent fields left out): two bodies are the same iff these are. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface NewMember {
  id: string;
  /** The venue where the member enrolled: they are its chain's. */
  home: string;
  program: ProgramKind;
  balance?: number;
  spend?: number;
}

export class MoneyModel {
  constructor(
    readonly config: WorldConfig,
    public state: ModelState,
  ) {}

  static create(config: WorldConfig, now: number, members: NewMember[]): MoneyModel {
    const campaigns = Object.fromEntries(config.campaigns.map((c) => [c.id, { spent: 0, given: {} }]));
    const state: ModelState = { now, members: {}, txs: {}, holds: {}, visits: {}, campaigns };
    for (const m of members) {
      state.members[m.id] = {
        id: m.id,
        chain: config.venues[m.home]!.chain,
        home: m.home,
        program: m.program,
        livemode: false,
        referredBy: null,
        balance: m.balance ?? 0,
        spend: m.spend ?? 0,
        visits: 0,
        stamps: 0,
      };
    }
    return new MoneyModel(config, state);
  }

  clone(): MoneyModel {
    return new MoneyModel(this.config, structuredClone(this.state));
  }

  // ---- reading ----

  chainOf(venue: string): string {
    return this.config.venues[venue]!.chain;
  }

  /** The venues of a chain, in the order of the configuration. */
  venuesOf(chain: string): string[] {
    return Object.keys(this.config.venues).filter((v) => this.config.venues[v]!.chain === chain);
  }

  /** The member's chain; undefined for one that does not exist. */
  memberChain(id: string): string | undefined {
    return this.state.members[id]?.chain;
  }

  /** A key's effective register rules at a venue (D12): its own values, else the venue's, else the defaults. */
  rulesAt(keyIx: number, venue: string): KeyRules {
    const own = this.config.keys[keyIx]!.rules;
    const defaults = this.config.venues[venue]!.rules;
    return {
      perCheck: own.perCheck ?? defaults.perCheck,
      perDay: own.perDay ?? defaults.perDay,
      maxAgeSeconds: own.maxAgeSeconds ?? defaults.maxAgeSeconds,
      viaHolds: own.viaHolds ?? defaults.viaHolds ?? false,
      holdTtlSeconds: own.holdTtlSeconds ?? defaults.holdTtlSeconds ?? DEFAULT_HOLD_TTL_SECONDS,
    };
  }

  /** The hold's status wherever it is (undefined: none); `at` a venue: as that venue sees it (another venue's is not found there). */
  holdStatus(id: string, at?: string): 'active' | 'captured' | 'released' | 'expired' | undefined {
    const h = this.state.holds[id];
    if (!h || (at !== undefined && h.venue !== at)) return undefined;
    return h.status === 'active' && this.state.now >= h.expiresAt ? 'expired' : h.status;
  }

  /** What the member's active holds keep, at every venue of the chain. */
  held(memberId: string): number {
    let sum = 0;
    for (const h of Object.values(this.state.holds)) {
      if (h.memberId === memberId && h.status === 'active' && this.state.now < h.expiresAt) sum += h.amount;
    }
    return sum;
  }

  available(memberId: string): number {
    return this.state.members[memberId]!.balance - this.held(memberId);
  }

  levelOf(chain: string, spend: number): Level {
    const levels = this.config.chains[chain]!.levels;
    let level = levels[0]!;
    for (const l of levels) if (l.minSpend <= spend && l.minSpend >= level.minSpend) level = l;
    return level;
  }

  memberView(id: string): MemberView {
    const m = this.state.members[id]!;
    if (m.program === 'cashback') {
      return {
        program: m.program,
        home: m.home,
        balance: m.balance,
        held: this.held(id),
        available: this.available(id),
        totalSpend: m.spend,
        visits: m.visits,
        level: this.levelOf(m.chain, m.spend).name,
        stamps: null,
      };
    }
    const required = this.config.chains[m.chain]!.stamps.required;
    return {
      program: m.program,
      home: m.home,
      balance: null,
      held: null,
      available: null,
      totalSpend: m.spend,
      visits: m.visits,
      level: null,
      stamps: stampsView(m.stamps, required),
    };
  }

  /** What the member's ledger adds up to (D19): cashback, spend, stamps. */
  ledgerOf(id: string): { cashback: number; spend: number; stamps: number } {
    const m = this.state.members[id]!;
    return { cashback: m.program === 'cashback' ? m.balance : 0, spend: m.spend, stamps: m.stamps };
  }

  /** The members who enrolled with someone's referral code, in the order they enrolled. */
  friends(): string[] {
    return Object.values(this.state.members)
      .filter((m) => m.referredBy !== null)
      .map((m) => m.id);
  }

  /** The minimum of the first referral with one that may credit the member's checks (for steering amounts to its edge). */
  referralMinimum(id: string): number | undefined {
    const m = this.state.members[id];
    if (!m || m.referredBy === null) return undefined;
    return this.config.campaigns.find((c) => c.referral && c.chain === m.chain && c.livemode === m.livemode && c.minCheck !== null)?.minCheck ?? undefined;
  }

  /** Who referred the member (null: nobody, or no such member). */
  referrerOf(id: string): string | null {
    return this.state.members[id]?.referredBy ?? null;
  }

  /**
   * Every referral credit given, taken back later or not: to whom, by which campaign, and for which referee (the
   * ledger's `referral-<referee>` entries above 0).
   */
  referralCredits(): { check: string; member: string; campaign: string; referee: string; amount: number }[] {
    return Object.values(this.state.txs).flatMap((tx) =>
      tx.campaigns.flatMap((c) =>
        c.referrer
          ? [
              { check: txKey(tx.venue, tx.externalId), member: tx.memberId!, campaign: c.id, referee: tx.memberId!, amount: c.amount },
              { check: txKey(tx.venue, tx.externalId), member: c.referrer.member, campaign: c.id, referee: tx.memberId!, amount: c.referrer.amount },
            ].filter((credit) => credit.amount > 0)
          : [],
      ),
    );
  }

  /** Whether a referral credited the check (either side). */
  referralCredited(key: string): boolean {
    return this.state.txs[key]?.campaigns.some((c) => c.referrer) ?? false;
  }

  /** Applied checks' keys (`txKey`), in order of application. */
  checkIds(): string[] {
    return Object.keys(this.state.txs);
  }

  tx(key: string): TxView | undefined {
    const tx = this.state.txs[key];
    return tx && this.txView(tx);
  }

  txMember(key: string): string | null | undefined {
    return this.state.txs[key]?.memberId;
  }

  /** Refunds applied so far: [check key, refund external_id, amount]. */
  refunds(): [string, string, number][] {
    return Object.entries(this.state.txs).flatMap(([key, tx]) => Object.values(tx.refunds).map((r): [string, string, number] => [key, r.refundId, r.amount]));
  }

  holdIds(): string[] {
    return Object.keys(this.state.holds);
  }

  hold(id: string): { venue: string; memberId: string; amount: number; expiresAt: number } | undefined {
    const h = this.state.holds[id];
    return h && { venue: h.venue, memberId: h.memberId, amount: h.amount, expiresAt: h.expiresAt };
  }

  /** Visits with an external_id: [venue, external_id, member]. */
  visitIds(): [string, string, string][] {
    return Object.values(this.state.visits).map((v): [string, string, string] => [v.venue, v.externalId, v.memberId]);
  }

  /** What a calculation of this body would allow to redeem (for steering generated amounts); null if refused. */
  maxRedeemFor(place: Place, body: ModelCheckBody): number | null {
    const outcome = this.clone().apply({ op: 'calculate', ...place, body: { ...body, redeemAmount: 0 } });
    return outcome.kind === 'calculation' ? outcome.calc.maxRedeem : null;
  }

  /**
   * The member's cashback earned on one venue day by checks at any venue of the chain (each judged in its own
   * venue's time zone), net of what voids and refunds took back; `except` a check's key.
   */
  daySum(memberId: string, day: string, except: string | null): number {
    let sum = 0;
    for (const [key, tx] of Object.entries(this.state.txs)) {
      if (tx.memberId !== memberId || tx.day !== day || key === except) continue;
      sum += tx.status === 'voided' ? 0 : tx.earned - tx.earnedBack;
    }
    return sum;
  }

  // ---- changing ----

  apply(req: ModelRequest): Expected {
    try {
      return this.run(req);
    } catch (e) {
      if (e instanceof Refusal) {
        return {
          kind: 'error',
          status: e.status,
          code: e.code,
          ...(e.param ? { param: e.param } : {}),
          ...(e.details ? { details: e.details } : {}),
          ...(e.or ? { or: e.or } : {}),
        };
      }
      throw e;
    }
  }

  private run(req: ModelRequest): Expected {
    switch (req.op) {
      case 'check':
        return this.applyCheck(req, req.body);
      case 'calculate':
        return this.calculate(req, req.body);
      case 'void':
        return this.voidCheck(txKey(req.at, req.externalId));
      case 'refund':
        return this.refund(txKey(req.at, req.externalId), req.refundId, req.amount);
      case 'createHold':
        return this.createHold(req, req.holdId, req.memberId, req.amount, req.expiresIn);
      case 'release':
        return this.release(req.at, req.holdId);
      case 'capture':
        return this.capture(req, req.holdId, req.externalId, req.redeemAmount);
      case 'adjust':
        return this.adjust(req.at, req.memberId, req.amount);
      case 'visit':
        return this.visit(req.at, req.memberId, req.externalId);
      case 'reward':
        return this.reward(req.at, req.memberId);
      case 'lookup': {
        // Members are the chain's: any key of the chain finds them, no key of another chain does.
        const m = this.memberIn(this.config.keys[req.key]!.chain, req.memberId) ?? refuse(404, 'member_not_found');
        // A scan is recorded (201), a look-up only reads (200).
        return { kind: 'member', status: req.by === 'scan' ? 201 : 200, member: m.id, view: this.memberView(m.id) };
      }
      case 'enroll':
        return this.enroll(req, req.memberId, req.program, req.referredBy);
      case 'advance':
        this.state.now += req.ms;
        return { kind: 'advanced' };
    }
  }

  /** The member if they are of the chain; a member of another chain is not found, as one that does not exist. */
  private memberIn(chain: string, id: string): MemberState | undefined {
    const m = this.state.members[id];
    return m && m.chain === chain ? m : undefined;
  }

  /** A line's rule at a venue: the venue's own rule for its category, else the chain's, else the defaults. */
  private lineRule(venue: string, category: string | undefined): CategoryRule {
    if (category === undefined) return { earns: true, payable: true, bp: null };
    const v = this.config.venues[venue]!;
    return v.categories[category] ?? this.config.chains[v.chain]!.categories[category] ?? { earns: true, payable: true, bp: null };
  }

  private txView(tx: TxState): TxView {
    return {
      venue: tx.venue,
      externalId: tx.externalId,
      status: tx.status,
      subtotal: tx.subtotal,
      redeemed: tx.redeemed,
      earned: tx.earned,
      earnCapped: tx.earnCapped,
      stampsEarned: tx.stampsEarned,
      paid: tx.paid,
      refundedAmount: tx.refunded,
      refundable: tx.status === 'completed' ? tx.paid - tx.refunded : 0,
      lines: tx.lines.map((l) => ({ amount: l.amount, redeemed: l.redeemed, earned: l.earned, bp: l.bp })),
      campaigns: credited(tx.campaigns),
    };
  }

  /** What a campaign has spent in all. */
  campaignSpent(id: string): number {
    return this.state.campaigns[id]!.spent;
  }

  /**
   * D22: what each campaign of the chain and of the member's mode credits a check of `member` at `venue` at the
   * moment `ms`: a percent on every earning line (of its categories) of what is paid of it, or (m − 1) × the check's
   * stamps; not outside its window, below its minimum, past max_per_member or with its budget spent; at most what the
   * budget has left. A referral: see `referralShare`.
   */
  private campaignShares(venue: string, member: MemberState, lines: LineState[], paid: number, stampsEarned: number, ms: number): TxCampaign[] {
    const timezone = this.config.venues[venue]!.timezone;
    const out: TxCampaign[] = [];
    for (const c of this.config.campaigns) {
      const state = this.state.campaigns[c.id]!;
      if (c.chain !== member.chain || c.livemode !== member.livemode || (c.budget !== null && state.spent >= c.budget)) continue;
      if (c.referral) {
        const share = this.referralShare(c, c.referral, member, paid);
        if (share) out.push(share);
        continue;
      }
      if (c.maxPerMember !== null && (state.given[member.id] ?? 0) >= c.maxPerMember) continue;
      if (!inWindow(c.schedule, ms, timezone) || paid < (c.minCheck ?? 0)) continue;
      const share = bonusOf(c, member.program, lines, stampsEarned);
      const amount = c.budget === null ? share : Math.min(share, c.budget - state.spent);
      if (amount > 0) out.push({ id: c.id, unit: c.percentBp !== null ? 'cashback' : 'stamps', amount, reversed: 0 });
    }
    return out;
  }

  /**
   * A referral (D22) with a referred member's first completed check paid at least its minimum (anything paid, without
   * one): the referee's amount, then the referrer's from what the budget has left; a side without a cashback balance
   * (stamps) gets nothing, nor a referrer already credited max_per_member times as a referrer. None once the referee
   * has a qualifying check: a completed one paid at least the minimum, or the one the referral credited (whatever a
   * capture later lowered its paid to); a voided one is none, so the next is the first.
   */
  private referralShare(c: ModelCampaign, amounts: { referee: number; referrer: number }, member: MemberState, paid: number): TxCampaign | null {
    const referrer = member.referredBy === null ? null : this.state.members[member.referredBy]!;
    const minimum = c.minCheck ?? 1;
    if (!referrer || paid < minimum) return null;
    const qualified = Object.values(this.state.txs).some(
      (tx) => tx.memberId === member.id && tx.status === 'completed' && (tx.paid >= minimum || tx.campaigns.some((k) => k.id === c.id)),
    );
    if (qualified) return null;
    const state = this.state.campaigns[c.id]!;
    const left = c.budget === null ? Infinity : c.budget - state.spent;
    const referee = Math.min(member.program === 'cashback' ? amounts.referee : 0, left);
    const atLimit = c.maxPerMember !== null && (state.given[referrer.id] ?? 0) >= c.maxPerMember;
    const other = Math.min(referrer.program === 'cashback' && !atLimit ? amounts.referrer : 0, left - referee);
    return referee > 0 || other > 0 ? { id: c.id, unit: 'cashback', amount: referee, reversed: 0, referrer: { member: referrer.id, amount: other } } : null;
  }

  /** The referrers' sides of a check's referrals given (`sign` 1) or taken back (−1), with the budgets. */
  private moveReferrers(tx: TxState, sign: 1 | -1): ReferrerMove[] {
    const moves: ReferrerMove[] = [];
    for (const c of tx.campaigns) {
      if (!c.referrer || c.referrer.amount === 0) continue;
      const amount = sign * c.referrer.amount;
      this.state.members[c.referrer.member]!.balance += amount;
      this.state.campaigns[c.id]!.spent += amount;
      moves.push({ campaign: c.id, member: c.referrer.member, amount });
    }
    return moves;
  }

  /** A campaign credit given (`by` > 0) or taken back (`by` < 0): the member's balance or stamps and the budget. */
  private moveCampaign(member: MemberState, c: TxCampaign, by: number): void {
    if (c.unit === 'cashback') member.balance += by;
    else member.stamps += by;
    this.state.campaigns[c.id]!.spent += by;
  }

  /** Earning of lines with a redemption: shares spread over payable lines, each line floor((amount − share) × bp). */
  private earnLines(lines: { amount: number; bp: number; payable: boolean; category?: string }[], redeem: number): LineState[] {
    const shares = spread(redeem, lines.map((l) => l.amount), lines.map((l) => l.payable));
    return lines.map((l, i) => ({ ...l, redeemed: shares[i]!, earned: Math.floor(((l.amount - shares[i]!) * l.bp) / 10_000) }));
  }

  /** Everything a check is refused for, in order, then its numbers; writes nothing. */
  private evaluate(place: Place, body: ModelCheckBody) {
    const s = this.state;
    const chainId = this.chainOf(place.at);
    const chain = this.config.chains[chainId]!;
    const key = this.rulesAt(place.key, place.at);
    if (key.maxAgeSeconds !== null && body.closedAt !== undefined && s.now - body.closedAt > key.maxAgeSeconds * 1000) {
      refuse(400, 'check_too_old');
    }
    if (key.viaHolds && (body.redeemAmount ?? 0) > 0 && body.holdId === undefined) refuse(400, 'hold_required');
    // Holds are the venue's: another venue's hold is not found here.
    const status = body.holdId === undefined ? null : this.holdStatus(body.holdId, place.at);
    const holdRefusal = status === undefined ? { status: 404, code: 'hold_not_found' } : status && status !== 'active' ? { status: 409, code: `hold_${status}` } : null;
    const memberRefusal = body.memberId !== undefined && !this.memberIn(chainId, body.memberId) ? { status: 404, code: 'member_not_found' } : null;
    // The hold is judged before the member; when both are refused the design does not say which answer wins
    // (expiry may be judged once the member is locked), so either is right.
    if (holdRefusal) throw new Refusal(holdRefusal.status, holdRefusal.code, undefined, memberRefusal ? [memberRefusal] : undefined);
    if (memberRefusal) refuse(memberRefusal.status, memberRefusal.code);
    const hold = body.holdId === undefined ? null : s.holds[body.holdId]!;
    const memberId = body.memberId ?? hold?.memberId;
    const member = memberId === undefined ? null : s.members[memberId]!;
    if (hold && member!.id !== hold.memberId) refuse(400, 'parameter_invalid');
    if (hold && (body.redeemAmount ?? 0) > hold.amount) refuse(400, 'parameter_invalid');
    const redeem = body.redeemAmount ?? hold?.amount ?? 0;
    if (redeem > 0 && !member) refuse(400, 'parameter_invalid');
    if (redeem > 0 && member!.program !== 'cashback') refuse(400, 'redeem_not_supported');

    const cashback = member?.program === 'cashback';
    const available = cashback ? this.available(member!.id) + (hold?.amount ?? 0) : 0;
    const rules = body.lines.map((l) => this.lineRule(place.at, l.category));
    const amounts = body.lines.map((l) => lineAmount(l.quantity, l.unitPrice));
    const subtotal = amounts.reduce((a, b) => a + b, 0);
    const payableBase = amounts.reduce((sum, a, i) => sum + (rules[i]!.payable ? a : 0), 0);
    const maxRedeem = cashback ? Math.max(0, minOf(available, Math.floor((payableBase * chain.maxRedeemBp) / 10_000), key.perCheck)) : 0;
    if (redeem > 0 && redeem > available) refuse(402, 'insufficient_balance', { available });
    if (redeem > maxRedeem) refuse(402, 'redeem_limit_exceeded', { max_redeem: maxRedeem });

    const levelBp = cashback ? this.levelOf(chainId, member!.spend).bp : 0;
    const lines = this.earnLines(
      amounts.map((amount, i) => ({
        amount,
        payable: rules[i]!.payable,
        bp: cashback && rules[i]!.earns ? (rules[i]!.bp ?? levelBp) : 0,
        category: body.lines[i]!.category,
      })),
      redeem,
    );
    const uncapped = lines.reduce((sum, l) => sum + l.earned, 0);
    const day = venueDay(body.closedAt ?? s.now, this.config.venues[place.at]!.timezone);
    const leftDay = member && key.perDay !== null ? key.perDay - this.daySum(member.id, day, null) : null;
    const earned = minOf(uncapped, key.perCheck, leftDay === null ? null : Math.max(0, leftDay));
    // A check is a visit, and earns stamps, when it is paid at least the minimum: a stamps program's, else 0.01.
    const visitMin = member && this.visitMinOf(member);
    const visit = visitMin !== null && subtotal - redeem >= visitMin ? visitMin : null;
    const stampsEarned = member?.program === 'stamps' && visit !== null ? chain.stamps.perVisit : 0;
    const campaigns = member ? this.campaignShares(place.at, member, lines, subtotal - redeem, stampsEarned, body.closedAt ?? s.now) : [];
    return { member, hold, cashback, lines, subtotal, payableBase, maxRedeem, redeem, earned, earnCapped: earned < uncapped, stampsEarned, visitMin: visit, day, campaigns };
  }

  private calculate(place: Place, body: ModelCheckBody): Expected {
    const e = this.evaluate(place, body);
    const balanceAfter = e.cashback ? e.member!.balance + e.earned - e.redeem + e.campaigns.reduce((sum, c) => sum + c.amount, 0) : null;
    const heldAfter = e.cashback ? this.held(e.member!.id) - (e.hold?.amount ?? 0) : 0;
    return {
      kind: 'calculation',
      status: 200,
      calc: {
        subtotal: e.subtotal,
        payableBase: e.payableBase,
        maxRedeem: e.maxRedeem,
        redeemed: e.redeem,
        earned: e.earned,
        earnCapped: e.earnCapped,
        stampsEarned: e.stampsEarned,
        paid: e.subtotal - e.redeem,
        balanceAfter,
        availableAfter: balanceAfter === null ? null : balanceAfter - heldAfter,
        lines: e.lines.map((l) => ({ amount: l.amount, redeemed: l.redeemed, earned: l.earned, bp: l.bp })),
        campaigns: credited(e.campaigns),
      },
    };
  }

  private applyCheck(place: Place, body: ModelCheckBody): Expected {
    const externalId = body.externalId!;
    const key = txKey(place.at, externalId);
    const existing = this.state.txs[key];
    // A replay is answered before any rule, setting or the clock is looked at.
    if (existing) {
      if (existing.fingerprint !== canonical(body)) refuse(409, 'external_id_reused');
      return { kind: 'transaction', status: 200, replayed: true, tx: this.txView(existing) };
    }
    const e = this.evaluate(place, body);
    const tx: TxState = {
      venue: place.at,
      externalId,
      memberId: e.member?.id ?? null,
      fingerprint: canonical(body),
      status: 'completed',
      lines: e.lines,
      subtotal: e.subtotal,
      redeemed: e.redeem,
      earned: e.earned,
      earnCapped: e.earnCapped,
      stampsEarned: e.stampsEarned,
      visitMin: e.visitMin,
      paid: e.subtotal - e.redeem,
      refunded: 0,
      earnedBack: 0,
      redeemedBack: 0,
      day: e.day,
      holdId: e.hold?.id ?? null,
      refunds: {},
      campaigns: e.campaigns,
    };
    this.state.txs[key] = tx;
    if (e.member) {
      e.member.balance += e.earned - e.redeem;
      e.member.spend += tx.paid;
      if (tx.visitMin !== null) e.member.visits += 1;
      e.member.stamps += e.stampsEarned;
      for (const c of e.campaigns) {
        this.moveCampaign(e.member, c, c.amount);
        // A referral counts toward max_per_member what the referrer was given; a bonus, what the member was.
        const counted = c.referrer ? (c.referrer.amount > 0 ? c.referrer.member : null) : e.member.id;
        const given = this.state.campaigns[c.id]!.given;
        if (counted !== null) given[counted] = (given[counted] ?? 0) + 1;
      }
    }
    if (e.hold) e.hold.status = 'captured';
    return { kind: 'transaction', status: 201, replayed: false, tx: this.txView(tx), referrers: this.moveReferrers(tx, 1) };
  }

  private voidCheck(key: string): Expected {
    const tx = this.state.txs[key] ?? refuse(404, 'transaction_not_found');
    if (tx.status === 'completed') {
      const member = tx.memberId === null ? null : this.state.members[tx.memberId]!;
      if (member) {
        member.balance += tx.redeemed - tx.redeemedBack - (tx.earned - tx.earnedBack);
        member.spend -= tx.paid - tx.refunded;
        this.takeVisitBack(member, tx);
        for (const c of tx.campaigns) {
          this.moveCampaign(member, c, -(c.amount - c.reversed));
          c.reversed = c.amount;
        }
      }
      tx.status = 'voided';
      // A void of a referee's qualifying check takes the referrer's side back too.
      return { kind: 'transaction', status: 200, replayed: false, tx: this.txView(tx), referrers: this.moveReferrers(tx, -1) };
    }
    return { kind: 'transaction', status: 200, replayed: false, tx: this.txView(tx) };
  }

  private refund(key: string, refundId: string, amount: number): Expected {
    const tx = this.state.txs[key] ?? refuse(404, 'transaction_not_found');
    const previous = tx.refunds[refundId];
    if (previous) {
      if (previous.amount !== amount) refuse(409, 'external_id_reused');
      return {
        kind: 'refund',
        status: 200,
        replayed: true,
        amount: previous.amount,
        earnedReversed: previous.earnedReversed,
        redeemedReturned: previous.redeemedReturned,
        campaignsReversed: previous.campaignsReversed,
        tx: this.txView(tx),
      };
    }
    const refundable = tx.status === 'completed' ? tx.paid - tx.refunded : 0;
    if (amount > refundable) refuse(402, 'refund_exceeds_check', { refundable });
    const refundedAfter = tx.refunded + amount;
    const earnedReversed = Math.floor((tx.earned * refundedAfter) / tx.paid) - tx.earnedBack;
    const redeemedReturned = Math.floor((tx.redeemed * refundedAfter) / tx.paid) - tx.redeemedBack;
    const visitBack = tx.visitMin !== null && tx.paid - refundedAfter < tx.visitMin;
    // Cashback credits cumulatively in proportion, as earned; stamps credits whole with the visit; a referral's never (D22).
    const campaignsReversed = tx.campaigns
      .filter((c) => !c.referrer)
      .map((c) => ({ c, back: (c.unit === 'cashback' ? Math.floor((c.amount * refundedAfter) / tx.paid) : visitBack ? c.amount : c.reversed) - c.reversed }))
      .filter(({ back }) => back > 0);
    tx.refunded = refundedAfter;
    tx.earnedBack += earnedReversed;
    tx.redeemedBack += redeemedReturned;
    const reversed = campaignsReversed.map(({ c, back }) => ({ campaign: c.id, amount: back }));
    tx.refunds[refundId] = { refundId, amount, earnedReversed, redeemedReturned, campaignsReversed: reversed };
    const member = tx.memberId === null ? null : this.state.members[tx.memberId]!;
    if (member) {
      member.balance += redeemedReturned - earnedReversed;
      member.spend -= amount;
      if (visitBack) this.takeVisitBack(member, tx);
      for (const { c, back } of campaignsReversed) {
        this.moveCampaign(member, c, -back);
        c.reversed += back;
      }
    }
    return { kind: 'refund', status: 201, replayed: false, amount, earnedReversed, redeemedReturned, campaignsReversed: reversed, tx: this.txView(tx) };
  }

  private createHold(place: Place, holdId: string, memberId: string, amount: number, expiresIn: number | undefined): Expected {
    const member = this.memberIn(this.chainOf(place.at), memberId) ?? refuse(404, 'member_not_found');
    if (member.program !== 'cashback') refuse(400, 'redeem_not_supported');
    // What holds at every venue of the chain keep is not available here.
    const available = this.available(memberId);
    if (amount > available) refuse(402, 'insufficient_balance', { available });
    const expiresAt = this.state.now + (expiresIn ?? this.rulesAt(place.key, place.at).holdTtlSeconds) * 1000;
    this.state.holds[holdId] = { id: holdId, venue: place.at, memberId, amount, status: 'active', expiresAt };
    return { kind: 'hold', status: 201, venue: place.at, amount, holdStatus: 'active', expiresAt };
  }

  private release(at: string, holdId: string): Expected {
    const status = this.holdStatus(holdId, at);
    if (status === undefined) refuse(404, 'hold_not_found');
    if (status !== 'active') refuse(409, `hold_${status}`);
    const hold = this.state.holds[holdId]!;
    hold.status = 'released';
    return { kind: 'hold', status: 200, venue: hold.venue, amount: hold.amount, holdStatus: 'released', expiresAt: hold.expiresAt };
  }

  /** Pays an applied check with a hold, both of this venue: the check's stored lines worked out again with the redemption. */
  private capture(place: Place, holdId: string, externalId: string, redeemAmount: number | undefined): Expected {
    const key = this.rulesAt(place.key, place.at);
    const status = this.holdStatus(holdId, place.at);
    const txId = txKey(place.at, externalId);
    const found = this.state.txs[txId];
    const holdRefusal =
      status === undefined ? { status: 404, code: 'hold_not_found' } : status !== 'active' ? { status: 409, code: `hold_${status}` } : null;
    const txRefusal = !found
      ? { status: 404, code: 'transaction_not_found' }
      : (status !== undefined && found.memberId !== this.state.holds[holdId]!.memberId) ||
          found.status !== 'completed' ||
          found.redeemed > 0 ||
          found.refunded > 0
        ? { status: 400, code: 'parameter_invalid' }
        : null;
    // The design orders neither before the other: either answer is right when both apply.
    if (holdRefusal) throw new Refusal(holdRefusal.status, holdRefusal.code, undefined, txRefusal ? [txRefusal] : undefined);
    if (txRefusal) refuse(txRefusal.status, txRefusal.code);
    const hold = this.state.holds[holdId]!;
    const tx = found!;
    const redeem = redeemAmount ?? hold.amount;
    if (redeem > hold.amount) refuse(400, 'parameter_invalid');
    const member = this.state.members[hold.memberId]!;
    const available = this.available(member.id) + hold.amount;
    const payableBase = tx.lines.reduce((sum, l) => sum + (l.payable ? l.amount : 0), 0);
    const maxRedeem = Math.max(0, minOf(available, Math.floor((payableBase * this.config.chains[member.chain]!.maxRedeemBp) / 10_000), key.perCheck));
    if (redeem > 0 && redeem > available) refuse(402, 'insufficient_balance', { available });
    if (redeem > maxRedeem) refuse(402, 'redeem_limit_exceeded', { max_redeem: maxRedeem });
    const lines = this.earnLines(tx.lines, redeem);
    const uncapped = lines.reduce((sum, l) => sum + l.earned, 0);
    const leftDay = key.perDay === null ? null : key.perDay - this.daySum(member.id, tx.day, txId);
    const earned = minOf(uncapped, key.perCheck, leftDay === null ? null : Math.max(0, leftDay), tx.earned);
    const takenBack = tx.earned - earned;
    // Each campaign's bonus again on what is now paid of the lines, on the terms it was given on, never more (D22); a
    // referral stays as it was: only a void takes it back, and the check stays the referee's qualifying one.
    const again = tx.campaigns.map((c) => {
      if (c.referrer) return c.amount;
      const campaign = this.config.campaigns.find((k) => k.id === c.id)!;
      return Math.min(c.amount, tx.subtotal - redeem < (campaign.minCheck ?? 0) ? 0 : bonusOf(campaign, 'cashback', lines, 0));
    });
    const campaignsLost = tx.campaigns.reduce((sum, c, i) => sum + c.amount - again[i]!, 0);
    // The earning and campaign credit taken back leave the balance too: the capture must not overdraw.
    if (available - redeem - takenBack - campaignsLost < 0) refuse(402, 'insufficient_balance');
    tx.campaigns.forEach((c, i) => {
      this.moveCampaign(member, c, again[i]! - c.amount);
      c.amount = again[i]!;
    });
    member.balance -= redeem + takenBack;
    member.spend -= redeem;
    hold.status = 'captured';
    tx.lines = lines;
    tx.redeemed = redeem;
    tx.earned = earned;
    tx.earnCapped = earned < uncapped;
    tx.paid -= redeem;
    tx.holdId = holdId;
    // Paid less, the check may no longer be a visit (capture needs a check without refunds: paid is all it has).
    if (tx.visitMin !== null && tx.paid < tx.visitMin) this.takeVisitBack(member, tx);
    return { kind: 'transaction', status: 200, replayed: false, tx: this.txView(tx) };
  }

  private adjust(at: string, memberId: string, amount: number): Expected {
    const member = this.memberIn(this.chainOf(at), memberId) ?? refuse(404, 'member_not_found');
    if (member.program !== 'cashback') refuse(400, 'redeem_not_supported');
    const available = this.available(memberId);
    // Taking cashback must not leave available below zero; giving it always applies (it pays a debt back first).
    if (amount < 0 && available + amount < 0) refuse(402, 'insufficient_balance', { available });
    member.balance += amount;
    return { kind: 'adjustment', status: 201, amount, balance: member.balance, available: this.available(memberId) };
  }

  private visit(at: string, memberId: string, externalId: string | undefined): Expected {
    const required = this.config.chains[this.chainOf(at)]!.stamps.required;
    if (externalId !== undefined) {
      const previous = this.state.visits[txKey(at, externalId)];
      if (previous) {
        if (previous.memberId !== memberId) refuse(409, 'external_id_reused');
        const stamps = stampsView(this.state.members[memberId]!.stamps, required);
        return { kind: 'visit', status: 200, venue: at, replayed: true, stampsEarned: previous.stampsEarned, stampsCount: stamps.count };
      }
    }
    const member = this.memberIn(this.chainOf(at), memberId) ?? refuse(404, 'member_not_found');
    if (member.program === 'cashback') refuse(400, 'visit_not_supported');
    const stampsEarned = this.config.chains[member.chain]!.stamps.perVisit;
    member.stamps += stampsEarned;
    member.visits += 1;
    if (externalId !== undefined) this.state.visits[txKey(at, externalId)] = { venue: at, externalId, memberId, stampsEarned };
    return { kind: 'visit', status: 201, venue: at, replayed: false, stampsEarned, stampsCount: stampsView(member.stamps, required).count };
  }

  /** A stamps member's reward: the stamps it needs are taken, whatever they were earned with. */
  private reward(at: string, memberId: string): Expected {
    const member = this.memberIn(this.chainOf(at), memberId) ?? refuse(404, 'member_not_found');
    if (member.program !== 'stamps') refuse(400, 'redeem_not_supported');
    const required = this.config.chains[member.chain]!.stamps.required;
    if (member.stamps < required) refuse(402, 'no_reward_available');
    member.stamps -= required;
    const view = stampsView(member.stamps, required);
    return { kind: 'reward', status: 201, stampsCount: view.count, rewardsAvailable: view.rewardsAvailable };
  }

  /**
   * A new member at the venue, with the referral code of a member of the chain and of the key's mode; any other code is
   * refused and no one is enrolled.
   */
  private enroll(place: Place, memberId: string, program: ProgramKind, referredBy: string | null): Expected {
    const chain = this.chainOf(place.at);
    const livemode = this.config.keys[place.key]!.livemode;
    const referrer = referredBy === null ? undefined : this.memberIn(chain, referredBy);
    if (!referrer || referrer.livemode !== livemode) throw new Refusal(400, 'parameter_invalid', undefined, undefined, 'referred_by');
    this.state.members[memberId] = { id: memberId, chain, home: place.at, program, livemode, referredBy: referrer.id, balance: 0, spend: 0, visits: 0, stamps: 0 };
    return { kind: 'member', status: 201, member: memberId, view: this.memberView(memberId) };
  }

  /** The least a check of this member must be paid to be a visit: the stamps program's minimum, at least 1. */
  private visitMinOf(member: MemberState): number {
    return Math.max(1, member.program === 'stamps' ? this.config.chains[member.chain]!.stamps.minCheckAmount : 0);
  }

  /** The check no longer counts as a visit: its visit and its stamps are taken back, once (stamps may then be owed). */
  private takeVisitBack(member: MemberState, tx: TxState): void {
    if (tx.visitMin === null) return;
    member.visits -= 1;
    member.stamps -= tx.stampsEarned;
    tx.visitMin = null;
  }
}

/** A check's campaign credits as answers show them: those above 0. */
const credited = (campaigns: TxCampaign[]): CampaignAmount[] => campaigns.filter((c) => c.amount > 0).map((c) => ({ campaign: c.id, amount: c.amount }));

/**
 * Whether the moment `ms` falls in a weekly window (D22) in a venue's time zone: minutes into the local week against
 * each scheduled day's window, which may run past midnight into the next day; no window: always.
 */
function inWindow(schedule: ModelCampaign['schedule'], ms: number, timeZone: string): boolean {
  if (!schedule) return true;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, Number(p.value)]),
  );
  const isoDay = ((new Date(Date.UTC(parts.year!, parts.month! - 1, parts.day!)).getUTCDay() + 6) % 7) + 1;
  const minuteOfWeek = (isoDay - 1) * 1440 + parts.hour! * 60 + parts.minute!;
  const length = (schedule.to - schedule.from + 1440) % 1440;
  const week = 7 * 1440;
  return schedule.days.some((d) => (((minuteOfWeek - ((d - 1) * 1440 + schedule.from)) % week) + week) % week < length);
}

/** A campaign's share of a check before its budget: percent of what is paid of each line earning above 0 %, or extra stamps. */
function bonusOf(c: ModelCampaign, program: ProgramKind, lines: LineState[], stampsEarned: number): number {
  if (c.percentBp !== null) {
    if (program !== 'cashback') return 0;
    return lines.reduce(
      (sum, l) => sum + (l.bp > 0 && (c.categories === null || (l.category !== undefined && c.categories.includes(l.category))) ? Math.floor(((l.amount - l.redeemed) * c.percentBp!) / 10_000) : 0),
      0,
    );
  }
  return program === 'stamps' ? stampsEarned * (c.multiplier! - 1) : 0;
}
