// A reference model of one venue's money (D3, D9, D10, D11, D12 and issue 9), written from the design alone.
// It imports nothing: neither the code under test nor other test helpers. Amounts are integers in minor units,
// percents are basis points, time is milliseconds. The model is plain data, so `clone()` is a structured copy
// (the concurrent test tries every serial order of a batch on copies).

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

/** A key's effective register rules (D12): the venue's defaults with the key's own values applied. */
export interface KeyRules {
  perCheck: number | null;
  perDay: number | null;
  maxAgeSeconds: number | null;
  viaHolds: boolean;
  holdTtlSeconds: number;
}

export interface VenueConfig {
  timezone: string;
  levels: Level[];
  maxRedeemBp: number;
  categories: Record<string, CategoryRule>;
  stamps: { required: number; perVisit: number; minCheckAmount: number };
  keys: KeyRules[];
}

export interface ModelLine {
  name: string;
  quantity: number;
  unitPrice: number;
  category?: string;
}

/** A check body with the model's own ids (members, holds) and closed_at in milliseconds. */
export interface ModelCheckBody {
  externalId?: string;
  memberId?: string;
  lines: ModelLine[];
  redeemAmount?: number;
  holdId?: string;
  closedAt?: number;
}

export type ModelRequest =
  | { op: 'check'; key: number; body: ModelCheckBody }
  | { op: 'calculate'; key: number; body: ModelCheckBody }
  | { op: 'void'; key: number; externalId: string }
  | { op: 'refund'; key: number; externalId: string; refundId: string; amount: number }
  | { op: 'createHold'; key: number; holdId: string; memberId: string; amount: number; expiresIn?: number }
  | { op: 'release'; key: number; holdId: string }
  | { op: 'capture'; key: number; holdId: string; externalId: string; redeemAmount?: number }
  | { op: 'adjust'; key: number; memberId: string; amount: number }
  | { op: 'visit'; key: number; memberId: string; externalId?: string }
  | { op: 'advance'; ms: number };

export interface LineView {
  amount: number;
  redeemed: number;
  /** Before caps. */
  earned: number;
  bp: number;
}

export interface TxView {
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
}

export type Expected =
  /** `or`: other refusals the design leaves equally right (when two reasons apply and no order is set). */
  | { kind: 'error'; status: number; code: string; details?: Record<string, number>; or?: { status: number; code: string }[] }
  | { kind: 'transaction'; status: 200 | 201; replayed: boolean; tx: TxView }
  | { kind: 'calculation'; status: 200; calc: CalcView }
  | { kind: 'refund'; status: 200 | 201; replayed: boolean; amount: number; earnedReversed: number; redeemedReturned: number; tx: TxView }
  | { kind: 'hold'; status: 200 | 201; amount: number; holdStatus: 'active' | 'released'; expiresAt: number }
  | { kind: 'adjustment'; status: 201; amount: number; balance: number; available: number }
  | { kind: 'visit'; status: 200 | 201; replayed: boolean; stampsEarned: number; stampsCount: number }
  | { kind: 'advanced' };

export interface MemberView {
  program: ProgramKind;
  balance: number | null;
  held: number | null;
  available: number | null;
  totalSpend: number;
  visits: number;
  level: string | null;
  stamps: { count: number; rewardsAvailable: number } | null;
}

interface MemberState {
  id: string;
  program: ProgramKind;
  balance: number;
  spend: number;
  visits: number;
  stamps: number;
}

interface LineState {
  amount: number;
  bp: number;
  payable: boolean;
  redeemed: number;
  earned: number;
}

interface RefundState {
  refundId: string;
  amount: number;
  earnedReversed: number;
  redeemedReturned: number;
}

interface TxState {
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
  paid: number;
  refunded: number;
  /** Earned taken back and redeemed given back by refunds (a void takes the rest). */
  earnedBack: number;
  redeemedBack: number;
  /** The venue day (YYYY-MM-DD in the venue's time zone) of closed_at, else of receipt. */
  day: string;
  holdId: string | null;
  refunds: Record<string, RefundState>;
}

interface HoldState {
  id: string;
  memberId: string;
  amount: number;
  status: 'active' | 'captured' | 'released';
  expiresAt: number;
}

interface VisitState {
  externalId: string;
  memberId: string;
  stampsEarned: number;
}

export interface ModelState {
  now: number;
  members: Record<string, MemberState>;
  txs: Record<string, TxState>;
  holds: Record<string, HoldState>;
  visits: Record<string, VisitState>;
}

class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly details?: Record<string, number>,
    readonly or?: { status: number; code: string }[],
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
  program: ProgramKind;
  balance?: number;
  spend?: number;
}

export class MoneyModel {
  constructor(
    readonly config: VenueConfig,
    public state: ModelState,
  ) {}

  static create(config: VenueConfig, now: number, members: NewMember[]): MoneyModel {
    const state: ModelState = { now, members: {}, txs: {}, holds: {}, visits: {} };
    for (const m of members) {
      state.members[m.id] = { id: m.id, program: m.program, balance: m.balance ?? 0, spend: m.spend ?? 0, visits: 0, stamps: 0 };
    }
    return new MoneyModel(config, state);
  }

  clone(): MoneyModel {
    return new MoneyModel(this.config, structuredClone(this.state));
  }

  // ---- reading ----

  holdStatus(id: string): 'active' | 'captured' | 'released' | 'expired' | undefined {
    const h = this.state.holds[id];
    if (!h) return undefined;
    return h.status === 'active' && this.state.now >= h.expiresAt ? 'expired' : h.status;
  }

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

  levelOf(spend: number): Level {
    let level = this.config.levels[0]!;
    for (const l of this.config.levels) if (l.minSpend <= spend && l.minSpend >= level.minSpend) level = l;
    return level;
  }

  memberView(id: string): MemberView {
    const m = this.state.members[id]!;
    if (m.program === 'cashback') {
      return {
        program: m.program,
        balance: m.balance,
        held: this.held(id),
        available: this.available(id),
        totalSpend: m.spend,
        visits: m.visits,
        level: this.levelOf(m.spend).name,
        stamps: null,
      };
    }
    const stamps = Math.max(0, m.stamps);
    const required = this.config.stamps.required;
    return {
      program: m.program,
      balance: null,
      held: null,
      available: null,
      totalSpend: m.spend,
      visits: m.visits,
      level: null,
      stamps: { count: stamps % required, rewardsAvailable: Math.floor(stamps / required) },
    };
  }

  /** Applied checks' external ids, in order of application. */
  checkIds(): string[] {
    return Object.keys(this.state.txs);
  }

  tx(externalId: string): TxView | undefined {
    const tx = this.state.txs[externalId];
    return tx && this.txView(tx);
  }

  txMember(externalId: string): string | null | undefined {
    return this.state.txs[externalId]?.memberId;
  }

  /** Refunds applied so far: [check external_id, refund external_id, amount]. */
  refunds(): [string, string, number][] {
    return Object.values(this.state.txs).flatMap((tx) => Object.values(tx.refunds).map((r): [string, string, number] => [tx.externalId, r.refundId, r.amount]));
  }

  holdIds(): string[] {
    return Object.keys(this.state.holds);
  }

  hold(id: string): { memberId: string; amount: number; expiresAt: number } | undefined {
    const h = this.state.holds[id];
    return h && { memberId: h.memberId, amount: h.amount, expiresAt: h.expiresAt };
  }

  visitIds(): string[] {
    return Object.keys(this.state.visits);
  }

  /** What a calculation of this body would allow to redeem (for steering generated amounts); null if refused. */
  maxRedeemFor(key: number, body: ModelCheckBody): number | null {
    const outcome = this.clone().apply({ op: 'calculate', key, body: { ...body, redeemAmount: 0 } });
    return outcome.kind === 'calculation' ? outcome.calc.maxRedeem : null;
  }

  /** The member's cashback total earned on one venue day by checks, net of what voids and refunds took back. */
  daySum(memberId: string, day: string, except: string | null): number {
    let sum = 0;
    for (const tx of Object.values(this.state.txs)) {
      if (tx.memberId !== memberId || tx.day !== day || tx.externalId === except) continue;
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
        return { kind: 'error', status: e.status, code: e.code, ...(e.details ? { details: e.details } : {}), ...(e.or ? { or: e.or } : {}) };
      }
      throw e;
    }
  }

  private run(req: ModelRequest): Expected {
    switch (req.op) {
      case 'check':
        return this.applyCheck(req.key, req.body);
      case 'calculate':
        return this.calculate(req.key, req.body);
      case 'void':
        return this.voidCheck(req.externalId);
      case 'refund':
        return this.refund(req.externalId, req.refundId, req.amount);
      case 'createHold':
        return this.createHold(req.key, req.holdId, req.memberId, req.amount, req.expiresIn);
      case 'release':
        return this.release(req.holdId);
      case 'capture':
        return this.capture(req.key, req.holdId, req.externalId, req.redeemAmount);
      case 'adjust':
        return this.adjust(req.memberId, req.amount);
      case 'visit':
        return this.visit(req.memberId, req.externalId);
      case 'advance':
        this.state.now += req.ms;
        return { kind: 'advanced' };
    }
  }

  private lineRule(category: string | undefined): CategoryRule {
    return (category !== undefined && this.config.categories[category]) || { earns: true, payable: true, bp: null };
  }

  private txView(tx: TxState): TxView {
    return {
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
    };
  }

  /** Earning of lines with a redemption: shares spread over payable lines, each line floor((amount − share) × bp). */
  private earnLines(lines: { amount: number; bp: number; payable: boolean }[], redeem: number): LineState[] {
    const shares = spread(redeem, lines.map((l) => l.amount), lines.map((l) => l.payable));
    return lines.map((l, i) => ({ ...l, redeemed: shares[i]!, earned: Math.floor(((l.amount - shares[i]!) * l.bp) / 10_000) }));
  }

  /** Everything a check is refused for, in order, then its numbers; writes nothing. */
  private evaluate(keyIx: number, body: ModelCheckBody) {
    const s = this.state;
    const key = this.config.keys[keyIx]!;
    if (key.maxAgeSeconds !== null && body.closedAt !== undefined && s.now - body.closedAt > key.maxAgeSeconds * 1000) {
      refuse(400, 'check_too_old');
    }
    if (key.viaHolds && (body.redeemAmount ?? 0) > 0 && body.holdId === undefined) refuse(400, 'hold_required');
    const status = body.holdId === undefined ? null : this.holdStatus(body.holdId);
    const holdRefusal = status === undefined ? { status: 404, code: 'hold_not_found' } : status && status !== 'active' ? { status: 409, code: `hold_${status}` } : null;
    const memberRefusal = body.memberId !== undefined && !s.members[body.memberId] ? { status: 404, code: 'member_not_found' } : null;
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
    const rules = body.lines.map((l) => this.lineRule(l.category));
    const amounts = body.lines.map((l) => lineAmount(l.quantity, l.unitPrice));
    const subtotal = amounts.reduce((a, b) => a + b, 0);
    const payableBase = amounts.reduce((sum, a, i) => sum + (rules[i]!.payable ? a : 0), 0);
    const maxRedeem = cashback ? Math.max(0, minOf(available, Math.floor((payableBase * this.config.maxRedeemBp) / 10_000), key.perCheck)) : 0;
    if (redeem > 0 && redeem > available) refuse(402, 'insufficient_balance', { available });
    if (redeem > maxRedeem) refuse(402, 'redeem_limit_exceeded', { max_redeem: maxRedeem });

    const levelBp = cashback ? this.levelOf(member!.spend).bp : 0;
    const lines = this.earnLines(
      amounts.map((amount, i) => ({ amount, payable: rules[i]!.payable, bp: cashback && rules[i]!.earns ? (rules[i]!.bp ?? levelBp) : 0 })),
      redeem,
    );
    const uncapped = lines.reduce((sum, l) => sum + l.earned, 0);
    const day = venueDay(body.closedAt ?? s.now, this.config.timezone);
    const leftDay = member && key.perDay !== null ? key.perDay - this.daySum(member.id, day, null) : null;
    const earned = minOf(uncapped, key.perCheck, leftDay === null ? null : Math.max(0, leftDay));
    const stampsEarned = member?.program === 'stamps' && subtotal >= this.config.stamps.minCheckAmount ? this.config.stamps.perVisit : 0;
    return { member, hold, cashback, lines, subtotal, payableBase, maxRedeem, redeem, earned, earnCapped: earned < uncapped, stampsEarned, day };
  }

  private calculate(keyIx: number, body: ModelCheckBody): Expected {
    const e = this.evaluate(keyIx, body);
    const balanceAfter = e.cashback ? e.member!.balance + e.earned - e.redeem : null;
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
      },
    };
  }

  private applyCheck(keyIx: number, body: ModelCheckBody): Expected {
    const externalId = body.externalId!;
    const existing = this.state.txs[externalId];
    // A replay is answered before any rule, setting or the clock is looked at.
    if (existing) {
      if (existing.fingerprint !== canonical(body)) refuse(409, 'external_id_reused');
      return { kind: 'transaction', status: 200, replayed: true, tx: this.txView(existing) };
    }
    const e = this.evaluate(keyIx, body);
    const tx: TxState = {
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
      paid: e.subtotal - e.redeem,
      refunded: 0,
      earnedBack: 0,
      redeemedBack: 0,
      day: e.day,
      holdId: e.hold?.id ?? null,
      refunds: {},
    };
    this.state.txs[externalId] = tx;
    if (e.member) {
      e.member.balance += e.earned - e.redeem;
      e.member.spend += tx.paid;
      e.member.visits += 1;
      e.member.stamps += e.stampsEarned;
    }
    if (e.hold) e.hold.status = 'captured';
    return { kind: 'transaction', status: 201, replayed: false, tx: this.txView(tx) };
  }

  private voidCheck(externalId: string): Expected {
    const tx = this.state.txs[externalId] ?? refuse(404, 'transaction_not_found');
    if (tx.status === 'completed') {
      const member = tx.memberId === null ? null : this.state.members[tx.memberId]!;
      if (member) {
        member.balance += tx.redeemed - tx.redeemedBack - (tx.earned - tx.earnedBack);
        member.spend -= tx.paid - tx.refunded;
        member.visits -= 1;
        member.stamps -= tx.stampsEarned;
      }
      tx.status = 'voided';
    }
    return { kind: 'transaction', status: 200, replayed: false, tx: this.txView(tx) };
  }

  private refund(externalId: string, refundId: string, amount: number): Expected {
    const tx = this.state.txs[externalId] ?? refuse(404, 'transaction_not_found');
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
        tx: this.txView(tx),
      };
    }
    const refundable = tx.status === 'completed' ? tx.paid - tx.refunded : 0;
    if (amount > refundable) refuse(402, 'refund_exceeds_check', { refundable });
    const refundedAfter = tx.refunded + amount;
    const earnedReversed = Math.floor((tx.earned * refundedAfter) / tx.paid) - tx.earnedBack;
    const redeemedReturned = Math.floor((tx.redeemed * refundedAfter) / tx.paid) - tx.redeemedBack;
    tx.refunded = refundedAfter;
    tx.earnedBack += earnedReversed;
    tx.redeemedBack += redeemedReturned;
    tx.refunds[refundId] = { refundId, amount, earnedReversed, redeemedReturned };
    const member = tx.memberId === null ? null : this.state.members[tx.memberId]!;
    if (member) {
      member.balance += redeemedReturned - earnedReversed;
      member.spend -= amount;
    }
    return { kind: 'refund', status: 201, replayed: false, amount, earnedReversed, redeemedReturned, tx: this.txView(tx) };
  }

  private createHold(keyIx: number, holdId: string, memberId: string, amount: number, expiresIn: number | undefined): Expected {
    const member = this.state.members[memberId] ?? refuse(404, 'member_not_found');
    if (member.program !== 'cashback') refuse(400, 'redeem_not_supported');
    const available = this.available(memberId);
    if (amount > available) refuse(402, 'insufficient_balance', { available });
    const expiresAt = this.state.now + (expiresIn ?? this.config.keys[keyIx]!.holdTtlSeconds) * 1000;
    this.state.holds[holdId] = { id: holdId, memberId, amount, status: 'active', expiresAt };
    return { kind: 'hold', status: 201, amount, holdStatus: 'active', expiresAt };
  }

  private release(holdId: string): Expected {
    const status = this.holdStatus(holdId);
    if (status === undefined) refuse(404, 'hold_not_found');
    if (status !== 'active') refuse(409, `hold_${status}`);
    const hold = this.state.holds[holdId]!;
    hold.status = 'released';
    return { kind: 'hold', status: 200, amount: hold.amount, holdStatus: 'released', expiresAt: hold.expiresAt };
  }

  /** Pays an applied check with a hold: its stored lines worked out again with the redemption. */
  private capture(keyIx: number, holdId: string, externalId: string, redeemAmount: number | undefined): Expected {
    const key = this.config.keys[keyIx]!;
    const status = this.holdStatus(holdId);
    const found = this.state.txs[externalId];
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
    const maxRedeem = Math.max(0, minOf(available, Math.floor((payableBase * this.config.maxRedeemBp) / 10_000), key.perCheck));
    if (redeem > 0 && redeem > available) refuse(402, 'insufficient_balance', { available });
    if (redeem > maxRedeem) refuse(402, 'redeem_limit_exceeded', { max_redeem: maxRedeem });
    const lines = this.earnLines(tx.lines, redeem);
    const uncapped = lines.reduce((sum, l) => sum + l.earned, 0);
    const leftDay = key.perDay === null ? null : key.perDay - this.daySum(member.id, tx.day, tx.externalId);
    const earned = minOf(uncapped, key.perCheck, leftDay === null ? null : Math.max(0, leftDay), tx.earned);
    const takenBack = tx.earned - earned;
    // The earning taken back leaves the balance too: the capture must not overdraw.
    if (available - redeem - takenBack < 0) refuse(402, 'insufficient_balance');
    member.balance -= redeem + takenBack;
    member.spend -= redeem;
    hold.status = 'captured';
    tx.lines = lines;
    tx.redeemed = redeem;
    tx.earned = earned;
    tx.earnCapped = earned < uncapped;
    tx.paid -= redeem;
    tx.holdId = holdId;
    return { kind: 'transaction', status: 200, replayed: false, tx: this.txView(tx) };
  }

  private adjust(memberId: string, amount: number): Expected {
    const member = this.state.members[memberId] ?? refuse(404, 'member_not_found');
    if (member.program !== 'cashback') refuse(400, 'redeem_not_supported');
    const available = this.available(memberId);
    // Taking cashback must not leave available below zero; giving it always applies (it pays a debt back first).
    if (amount < 0 && available + amount < 0) refuse(402, 'insufficient_balance', { available });
    member.balance += amount;
    return { kind: 'adjustment', status: 201, amount, balance: member.balance, available: this.available(memberId) };
  }

  private visit(memberId: string, externalId: string | undefined): Expected {
    if (externalId !== undefined) {
      const previous = this.state.visits[externalId];
      if (previous) {
        if (previous.memberId !== memberId) refuse(409, 'external_id_reused');
        const stamps = Math.max(0, this.state.members[memberId]!.stamps);
        return { kind: 'visit', status: 200, replayed: true, stampsEarned: previous.stampsEarned, stampsCount: stamps % this.config.stamps.required };
      }
    }
    const member = this.state.members[memberId] ?? refuse(404, 'member_not_found');
    if (member.program === 'cashback') refuse(400, 'visit_not_supported');
    const stampsEarned = this.config.stamps.perVisit;
    member.stamps += stampsEarned;
    member.visits += 1;
    if (externalId !== undefined) this.state.visits[externalId] = { externalId, memberId, stampsEarned };
    return { kind: 'visit', status: 201, replayed: false, stampsEarned, stampsCount: Math.max(0, member.stamps) % this.config.stamps.required };
  }
}
