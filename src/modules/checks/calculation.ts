// The money rules of a check (D11), as one pure function: line amounts, redemption within caps, its exact
// spread over payable lines, per-line earning, caps, discounts and stamps. No I/O: apply and calculate share it.
import { ApiError } from '../../shared/errors.js';
import type { CampaignTerms } from '../campaigns/service.js';
import type { LineRule } from '../catalogue/schemas.js';
import type { ProgramRules } from '../programs/schemas.js';
import { memberLevel, visitDiscountBp, visitMinPaid } from '../programs/rules.js';

/**
 * floor(a × b / c) for non-negative integers, exactly: the product may pass 2^53 (a line of 10^13 and a redemption
 * of 10^8 are both within the schemas), where a float would round it.
 */
export const mulDiv = (a: number, b: number, c: number): number => Number((BigInt(a) * BigInt(b)) / BigInt(c));

/** (a × b) mod c for non-negative integers, exactly. */
const mulMod = (a: number, b: number, c: number): number => Number((BigInt(a) * BigInt(b)) % BigInt(c));

/** quantity × unit_price rounded half up, in integers: quantity has at most 3 decimals (dishes sold by weight). */
export function lineAmount(quantity: number, unitPrice: number): number {
  const milli = Math.round(quantity * 1000);
  return Number((BigInt(milli) * BigInt(unitPrice) + 500n) / 1000n);
}

export const hasAtMostThreeDecimals = (quantity: number): boolean => Math.abs(quantity * 1000 - Math.round(quantity * 1000)) < 1e-6;

export interface CalcMember {
  available: number;
  /** The spend the level is judged on (programs/rules.ts levelSpendOf). */
  levelSpend: number;
  visits: number;
  /** VIP: a level set by hand. */
  vipLevel: string | null;
}

export interface CalcInput {
  amounts: number[];
  rules: LineRule[];
  /** Null for a check without a member: recorded, earns nothing. */
  member: (CalcMember & { program: ProgramRules }) | null;
  redeemAmount: number;
  /**
   * max_cashback_per_check (which also caps redemption), and the most this check may earn besides it: what the
   * per-day cap leaves on the check's venue day (negative counts as 0). null: no cap.
   */
  caps: { perCheck: number | null; earnRoom: number | null };
  /** The check's cashback lot had already expired when the check arrived (a backdated check, D20): it earns nothing. */
  expiredLot?: ExpiredLot | null;
  /** The bonus campaigns that hold for this check (D22); none: []. */
  campaignTerms?: CampaignTerms[];
  /** An amount in the venue's currency ("€0.50"), for refusals' messages beside the minor-unit figure. */
  money: (minor: number) => string;
}

/** What one campaign credits a check, in the member's unit: cashback (minor units) or stamps. */
export interface CampaignShare {
  campaignId: string;
  name: string;
  unit: 'cashback' | 'stamps';
  amount: number;
  /**
   * What the terms give before the budget's room as the gather read it caps it (`amount`): a check's write takes this
   * from the budget under its lock, so that a budget given back meanwhile (a void) counts as in a serial order.
   */
  wanted: number;
  /** The terms it was worked out on, kept with the check (a capture judges it again on them). */
  terms: CampaignTerms;
  /** A referral's: the ledger reference of its entries (not the check's number), and the venue day of the cashback lot
   * it goes into (today: it rewards the referral now, whenever the check closed). */
  reference?: string;
  lotDay?: string;
}

/** The venue day a backdated check earns on, and the day its cashback expired. */
export interface ExpiredLot {
  day: string;
  expiresOn: string;
}

export interface CalcLine {
  amount: number;
  redeemedShare: number;
  percentBp: number;
  earned: number;
}

export interface Calculation {
  subtotal: number;
  discountAmount: number;
  payableBase: number;
  maxRedeem: number;
  redeemed: number;
  earned: number;
  earnCapped: boolean;
  stampsEarned: number;
  /** While the check counts as a visit, the least it may be paid after refunds and still count; null: no visit. */
  visitMinPaid: number | null;
  /** subtotal − discount − redeemed: what total_spend grows by. */
  paid: number;
  /** The percent the member's level gave before this check (cashback and VIP). */
  levelPercentBp: number | null;
  lines: CalcLine[];
  /** Why the check earns nothing although its lines would: its cashback had expired already. */
  expiredLot: ExpiredLot | null;
  /**
   * What each campaign credits besides `earned`, within what their budgets have left: bonuses above 0, and every
   * referral the check qualifies for (its referee's share may be 0; the referrer is credited with it).
   */
  campaigns: CampaignShare[];
}

const minOf = (...values: (number | null)[]) => Math.min(...values.filter((v): v is number => v !== null));

/**
 * Spreads `redeem` over the payable lines in proportion: floor shares first, then the cents left over one each
 * to the largest remainders (ties: the earlier line), so the shares add up to `redeem` exactly.
 */
export function spreadRedemption(redeem: number, amounts: number[], payable: boolean[]): number[] {
  const base = amounts.reduce((sum, a, i) => sum + (payable[i] ? a : 0), 0);
  if (redeem === 0 || base === 0) return amounts.map(() => 0);
  const shares = amounts.map((a, i) => (payable[i] ? mulDiv(redeem, a, base) : 0));
  let left = redeem - shares.reduce((s, x) => s + x, 0);
  const byRemainder = amounts
    .map((a, i) => ({ i, remainder: payable[i] ? mulMod(redeem, a, base) : -1 }))
    .filter((x) => x.remainder >= 0)
    .sort((x, y) => y.remainder - x.remainder || x.i - y.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

export function calculate(input: CalcInput): Calculation {
  const { amounts, rules, member, redeemAmount, caps, money } = input;
  const subtotal = amounts.reduce((s, a) => s + a, 0);
  const program = member?.program;
  const payable = rules.map((r) => r.payableWithCashback);
  const payableBase = amounts.reduce((s, a, i) => s + (payable[i] ? a : 0), 0);

  if (redeemAmount > 0) {
    if (!member) throw new ApiError('parameter_invalid', { param: 'redeem_amount', message: 'A check without a member cannot redeem cashback.' });
    if (program!.type !== 'cashback') throw new ApiError('redeem_not_supported');
  }

  let levelPercentBp: number | null = null;
  let discountBp = 0;
  if (program?.type === 'cashback' || program?.type === 'vip') levelPercentBp = memberLevel(program, member!.vipLevel, member!.levelSpend)!.percentBp;
  if (program?.type === 'vip') discountBp = levelPercentBp!;
  if (program?.type === 'visit_discount') discountBp = visitDiscountBp(program.tiers, member!.visits);
  const discountAmount = mulDiv(subtotal, discountBp, 10_000);

  const maxRedeem =
    program?.type === 'cashback' ? Math.max(0, minOf(member!.available, mulDiv(payableBase, program.maxRedeemBp, 10_000), caps.perCheck)) : 0;
  // A member in debt (available < 0) can still apply a check that redeems nothing.
  if (member && redeemAmount > 0 && redeemAmount > member.available) {
    throw new ApiError('insufficient_balance', {
      message: `redeem_amount ${money(redeemAmount)} is more than the ${money(member.available)} available (redeem_amount: ${redeemAmount}, available: ${member.available}).`,
      details: { available: member.available },
    });
  }
  if (redeemAmount > maxRedeem) {
    throw new ApiError('redeem_limit_exceeded', {
      message: `This check can be paid with at most ${money(maxRedeem)} of cashback (max_redeem: ${maxRedeem}).`,
      details: { max_redeem: maxRedeem },
    });
  }

  const shares = spreadRedemption(redeemAmount, amounts, payable);
  const lines = amounts.map((amount, i) => {
    const rule = rules[i]!;
    const percentBp = program?.type === 'cashback' && rule.earnsCashback ? (rule.percentBp ?? levelPercentBp!) : 0;
    return { amount, redeemedShare: shares[i]!, percentBp, earned: mulDiv(amount - shares[i]!, percentBp, 10_000) };
  });
  const uncapped = lines.reduce((s, l) => s + l.earned, 0);
  const expiredLot = (uncapped > 0 && input.expiredLot) || null;
  const earned = expiredLot ? 0 : minOf(uncapped, caps.perCheck, caps.earnRoom === null ? null : Math.max(0, caps.earnRoom));

  const paid = subtotal - discountAmount - redeemAmount;
  const visitMin = program ? visitMinPaid(program) : null;
  const countsVisit = visitMin !== null && paid >= visitMin;
  const stampsEarned = program?.type === 'stamps' && countsVisit ? program.stampsPerVisit : 0;
  // A bonus credited to a lot that had expired already would be lost: such a check gets no cashback bonus.
  const lotExpired = Boolean(input.expiredLot);
  const campaigns = (input.campaignTerms ?? []).flatMap((terms): CampaignShare[] => {
    // A referral's qualifying check is one paid at least its minimum, or anything when it has none.
    if (paid < (terms.minCheckAmount ?? (terms.referral ? 1 : 0))) return [];
    if (terms.referral) {
      const referee = program?.type === 'cashback' ? terms.referral.refereeAmount : 0;
      const amount = terms.room === null ? referee : Math.min(referee, terms.room);
      // Kept even at 0 for the referee when the referrer is credited with it.
      return amount > 0 || terms.referral.referrerAmount > 0 ? [{ campaignId: terms.campaignId, name: terms.name, unit: 'cashback', amount, wanted: referee, terms }] : [];
    }
    const share = bonusShare(terms, program?.type, lines, rules, stampsEarned, lotExpired);
    const amount = terms.room === null ? share.amount : Math.min(share.amount, terms.room);
    return amount > 0 ? [{ campaignId: terms.campaignId, name: terms.name, unit: share.unit, amount, wanted: share.amount, terms }] : [];
  });
  return {
    subtotal,
    discountAmount,
    payableBase,
    maxRedeem,
    redeemed: redeemAmount,
    earned,
    earnCapped: !expiredLot && earned < uncapped,
    stampsEarned,
    visitMinPaid: countsVisit ? visitMin : null,
    paid,
    levelPercentBp,
    lines,
    expiredLot,
    campaigns,
  };
}

/**
 * A bonus's share of a check (D22): a percent adds, on every line that earns (a percent above 0; of its categories,
 * when it names some), floor(line base × percent) — the base after the line's share of the redemption, as the
 * program's earning; nothing when the check's cashback had expired already. A stamps multiplier m adds (m − 1) × the
 * stamps the check earns.
 */
function bonusShare(
  bonus: CampaignTerms,
  programType: ProgramRules['type'] | undefined,
  lines: CalcLine[],
  rules: LineRule[],
  stampsEarned: number,
  expired: boolean,
): { unit: CampaignShare['unit']; amount: number } {
  if (bonus.percentBp !== null) {
    if (programType !== 'cashback' || expired) return { unit: 'cashback', amount: 0 };
    const amount = lines.reduce((sum, line, i) => {
      const category = rules[i]!.category;
      const covered = line.percentBp > 0 && (bonus.categories === null || (category !== null && bonus.categories.includes(category)));
      return sum + (covered ? mulDiv(line.amount - line.redeemedShare, bonus.percentBp!, 10_000) : 0);
    }, 0);
    return { unit: 'cashback', amount };
  }
  return { unit: 'stamps', amount: programType === 'stamps' ? stampsEarned * (bonus.stampsMultiplier! - 1) : 0 };
}
