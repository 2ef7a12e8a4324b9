// Cashback expiry (D20) as plain arithmetic, no database: a member's lots (what they earned at one venue on one of
// its days and still have), what is due, and how each movement of cashback changes the lots. docs/members.md has
// the rules.
import { addDays, startOfVenueDay } from '../../shared/time.js';
import type { ProgramRules } from '../programs/schemas.js';

/** A program's expiry: after how many days a lot expires, and how many days before that the member is warned. */
export interface ExpiryRule {
  afterDays: number;
  warningDays: number;
}

export interface Lot {
  /**
   * The venue where the cashback was earned (D21): the day is that venue's, and its expiry is charged to it. Null: a
   * lot of no venue (cashback imported at none): its days are the chain's first venue's (LotPlace.zoneOf(NO_VENUE)),
   * and its expiry belongs to no venue.
   */
  venueId: string | null;
  /** The venue day the cashback was earned on, 'YYYY-MM-DD'. */
  day: string;
  /** The venue-local date it expires on, and the moment that day starts there. */
  expiresOn: string;
  expiresAt: Date;
  remaining: number;
  /** When the member is warned (cashback.expiring); null: never. Set when the lot is formed. */
  warnAt?: Date | null;
}

/**
 * How cashback moves, in the order it moves. `credit` goes into the lot of `day` (none: cashback that does not
 * expire, such as an adjustment), after paying back any debt; `debit` takes from the lot of `day` first (the
 * reversal of an earning), then from the lots that expire soonest. The lot of `day` is the one of `venueId` (null:
 * the lot of no venue), or without it of the venue of the write (LotPlace): a check earns into its own venue's lot of
 * its day.
 */
export type Movement = { credit: number; day: string | null; venueId?: string | null } | { debit: number; day: string | null; venueId?: string | null };

/** Where a write moves lots from: its venue (null: none, a chain key naming none), and each venue's time zone. */
export interface LotPlace {
  /** The venue a movement naming a day but no venue means; null: the write happens at none. */
  venueId: string | null;
  /**
   * The time zone of a venue of the chain: a new lot of that venue counts its days there. Asked for NO_VENUE, the
   * zone a lot of no venue counts its days in: the chain's first venue's (zonesRead reads it under that name).
   */
  zoneOf(venueId: string): string;
}

/** What LotPlace.zoneOf is asked for the zone of a lot of no venue; also the venue part of such a lot's lotKey. */
export const NO_VENUE = '';

/** A lot's name among a member's lots, and in a check's `redeemed_lots`: "venueId:day"; a lot of no venue ":day". */
export const lotKey = (venueId: string | null, day: string): string => `${venueId ?? NO_VENUE}:${day}`;

/**
 * A lot named in a check's `redeemed_lots`: "venueId:day", ":day" for the lot of no venue (venueId null), or, written
 * before lots had venues (migration 0017), the day alone — a lot of the check's own venue, which was then the only
 * one (venueId undefined: the write's venue).
 */
export function parseLotKey(key: string): { venueId: string | null | undefined; day: string } {
  const colon = key.indexOf(':');
  if (colon < 0) return { venueId: undefined, day: key };
  const venueId = key.slice(0, colon);
  return { venueId: venueId === NO_VENUE ? null : venueId, day: key.slice(colon + 1) };
}

export function expiryRuleOf(rules: ProgramRules): ExpiryRule | null {
  return rules.type === 'cashback' && rules.expiresAfterDays ? { afterDays: rules.expiresAfterDays, warningDays: rules.expiryWarningDays ?? 0 } : null;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** FIFO, deterministic: the lot expiring first, then the earlier day, then by venue id (no venue first). */
const soonestFirst = (a: Lot, b: Lot) => a.expiresAt.getTime() - b.expiresAt.getTime() || compare(a.day, b.day) || compare(a.venueId ?? NO_VENUE, b.venueId ?? NO_VENUE);

/** When the lot of a venue's day `day` expires: the local date, and the moment it starts in `timezone` (that venue's). */
export function lotExpiry(day: string, rule: ExpiryRule, timezone: string): { expiresOn: string; expiresAt: Date } {
  const expiresOn = addDays(day, rule.afterDays);
  return { expiresOn, expiresAt: startOfVenueDay(expiresOn, timezone) };
}

/** A lot of `venueId`'s day `day` (null: of no venue), empty, with its dates in `timezone` (that venue's). */
export function newLot(venueId: string | null, day: string, rule: ExpiryRule, timezone: string): Lot {
  const { expiresOn, expiresAt } = lotExpiry(day, rule, timezone);
  const warnAt = rule.warningDays > 0 ? startOfVenueDay(addDays(expiresOn, -rule.warningDays), timezone) : null;
  return { venueId, day, expiresOn, expiresAt, remaining: 0, warnAt };
}

/** What expired of one lot. */
export interface ExpiredPart {
  /** Null: the lot of no venue. */
  venueId: string | null;
  day: string;
  amount: number;
}

/**
 * What is due by `now` and may expire: never more than `available` (cashback − held), so what holds keep does not
 * expire while they keep it and nothing expires in debt. Taken from the lots due soonest first.
 */
export function dueExpiry(lots: Lot[], cashback: number, held: number, now: Date): { amount: number; taken: { lot: Lot; amount: number }[] } {
  let room = Math.max(0, cashback - held);
  const taken: { lot: Lot; amount: number }[] = [];
  for (const lot of [...lots].sort(soonestFirst)) {
    if (lot.expiresAt.getTime() > now.getTime() || room === 0) continue;
    const amount = Math.min(lot.remaining, room);
    if (amount > 0) taken.push({ lot, amount });
    room -= amount;
  }
  return { amount: taken.reduce((s, t) => s + t.amount, 0), taken };
}

/** A member's lots being changed by a write: the lots as they become, and which of them changed (by lotKey). */
export class LotBook {
  readonly lots = new Map<string, Lot>();
  readonly changed = new Set<string>();
  /** What debits of no day (redemptions) took from each lot, by lotKey: where a reversal gives it back. */
  readonly spent: Record<string, number> = {};

  constructor(
    lots: Lot[],
    private balance: number,
    readonly rule: ExpiryRule,
    private readonly place: LotPlace,
  ) {
    for (const lot of lots) this.lots.set(lotKey(lot.venueId, lot.day), { ...lot });
  }

  /** Another book to go on from here, this one left as it is. */
  copy(): LotBook {
    const book = new LotBook([...this.lots.values()], this.balance, this.rule, this.place);
    for (const key of this.changed) book.changed.add(key);
    Object.assign(book.spent, this.spent);
    return book;
  }

  /** Expires what is due by `now` (see dueExpiry); the amount and the lots it came from, soonest first. */
  expire(held: number, now: Date): { amount: number; lots: ExpiredPart[] } {
    const due = dueExpiry([...this.lots.values()], this.balance, held, now);
    for (const { lot, amount } of due.taken) this.take(lot, amount);
    this.balance -= due.amount;
    return { amount: due.amount, lots: due.taken.map((t) => ({ venueId: t.lot.venueId, day: t.lot.day, amount: t.amount })) };
  }

  /**
   * The venue and key of the lot a movement names (null: none); a day with no venue named (undefined) is the lot of
   * the write's venue, one with venue null the lot of no venue.
   */
  private named(m: Movement): { venueId: string | null; key: string } | null {
    if (m.day === null) return null;
    const venueId = m.venueId === undefined ? this.place.venueId : m.venueId;
    if (venueId === null && m.venueId === undefined) throw new Error(`a movement names the lot of ${m.day} but neither its venue nor the write's`);
    return { venueId, key: lotKey(venueId, m.day) };
  }

  move(movements: Movement[]): void {
    for (const m of movements) {
      if ('credit' in m) {
        // A debt is paid back first; only the rest is cashback the member has, in a lot.
        const intoLot = m.credit - Math.min(m.credit, Math.max(0, -this.balance));
        this.balance += m.credit;
        const named = this.named(m);
        if (named !== null && intoLot > 0) {
          const { venueId, key } = named;
          const lot = this.lots.get(key) ?? newLot(venueId, m.day!, this.rule, this.place.zoneOf(venueId ?? NO_VENUE));
          this.lots.set(key, lot);
          this.add(lot, intoLot);
        }
      } else {
        this.balance -= m.debit;
        let left = m.debit;
        const key = this.named(m)?.key ?? null;
        const own = key === null ? undefined : this.lots.get(key);
        for (const lot of [...(own ? [own] : []), ...[...this.lots.values()].filter((l) => l !== own).sort(soonestFirst)]) {
          const amount = Math.min(lot.remaining, left);
          this.take(lot, amount);
          const spentKey = lotKey(lot.venueId, lot.day);
          if (key === null && amount > 0) this.spent[spentKey] = (this.spent[spentKey] ?? 0) + amount;
          left -= amount;
        }
      }
    }
  }

  /** The open lots, soonest to expire first. */
  open(): Lot[] {
    return [...this.lots.values()].filter((l) => l.remaining > 0).sort(soonestFirst);
  }

  /** The lots this write changed, with what they now hold (zero included). */
  changedLots(): Lot[] {
    return [...this.changed].map((key) => this.lots.get(key)!);
  }

  private add(lot: Lot, amount: number) {
    lot.remaining += amount;
    this.changed.add(lotKey(lot.venueId, lot.day));
  }

  private take(lot: Lot, amount: number) {
    if (amount === 0) return;
    lot.remaining -= amount;
    this.changed.add(lotKey(lot.venueId, lot.day));
  }
}

/**
 * Where a reversal gives `back` of a check's redemption back to (D20): to the lots it took from (`lots`, by
 * lotKey — or by day alone when written before lots had venues, see parseLotKey — what is not yet given back) and
 * to no lot (the rest of `outstanding`, what the check redeemed and has not yet given back), in proportion,
 * exactly: each part gets the floor of its share, the cents left over go to the parts with the largest remainders
 * (the earliest lot on a tie — earlier day, then venue id —, no lot last). Giving all back returns every part
 * whole. Returns the credits (lots first in that order, no lot last) and what is left with each lot afterwards,
 * under the keys it was recorded with.
 */
export function redemptionBack(lots: Record<string, number> | null, outstanding: number, back: number): { credits: Movement[]; left: Record<string, number> | null } {
  const order = (key: string) => {
    const { venueId, day } = parseLotKey(key);
    return [day, venueId ?? NO_VENUE] as const;
  };
  const parts: [string | null, number][] = Object.entries(lots ?? {}).sort(([a], [b]) => {
    const [dayA, venueA] = order(a);
    const [dayB, venueB] = order(b);
    return compare(dayA, dayB) || compare(venueA, venueB);
  });
  parts.push([null, outstanding - parts.reduce((s, [, amount]) => s + amount, 0)]);
  // In BigInt: back × amount may pass 2^53.
  const total = BigInt(Math.max(outstanding, 1));
  const shares = parts.map(([, amount]) => Number((BigInt(back) * BigInt(amount)) / total));
  const remainders = parts.map(([, amount], i) => ({ i, r: (BigInt(back) * BigInt(amount)) % total }));
  let over = back - shares.reduce((s, x) => s + x, 0);
  for (const { i } of remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1))) {
    if (over === 0) break;
    shares[i]! += 1;
    over -= 1;
  }
  const credits = parts.flatMap(([key], i): Movement[] => {
    if (shares[i]! === 0) return [];
    if (key === null) return [{ credit: shares[i]!, day: null }];
    const { venueId, day } = parseLotKey(key);
    return [venueId === undefined ? { credit: shares[i]!, day } : { credit: shares[i]!, day, venueId }];
  });
  const left = Object.fromEntries(parts.flatMap(([key, amount], i) => (key !== null && amount - shares[i]! > 0 ? [[key, amount - shares[i]!]] : [])));
  return { credits, left: Object.keys(left).length ? left : null };
}

/** What a member shows of their open lots: the amount expiring on each of the next dates. */
export function expiringSoon(lots: Lot[], dates = 3): { amount: number; on: string }[] {
  const byDate = new Map<string, number>();
  for (const lot of [...lots].sort(soonestFirst)) {
    if (lot.remaining <= 0) continue;
    if (!byDate.has(lot.expiresOn) && byDate.size === dates) break;
    byDate.set(lot.expiresOn, (byDate.get(lot.expiresOn) ?? 0) + lot.remaining);
  }
  return [...byDate].map(([on, amount]) => ({ amount, on }));
}
