// The rules a check must meet and the one decision of its money (D11): pure, no I/O; apply, calculate and capture share it.
import { formatMoney } from '../../shared/display.js';
import { ApiError, whereRuleIsSet } from '../../shared/errors.js';
import { venueDay } from '../../shared/time.js';
import type { PlaceCaller } from '../accounts/schemas.js';
import type { LineRule } from '../catalogue/schemas.js';
import type * as holds from '../holds/service.js';
import { expiryRuleOf, lotExpiry } from '../members/expiry.js';
import type * as tillMembers from '../members/till.js';
import type { CheckCampaign } from '../../db/schema.js';
import { levelSpendOf } from '../programs/rules.js';
import { referralReference, type CampaignTerms } from '../campaigns/service.js';
import { calculate, hasAtMostThreeDecimals, lineAmount, type CampaignShare, type Calculation, type ExpiredLot } from './calculation.js';
import type * as repo from './repo.js';
import type { CalculateBody } from './schemas.js';
import type { PricedLine } from './view.js';

/** How far ahead of the service's clock a till's closed_at may be. */
export const CLOSED_AT_LEEWAY_SECONDS = 300;

export function checkQuantities(body: CalculateBody): void {
  body.line_items.forEach((line, i) => {
    if (!hasAtMostThreeDecimals(line.quantity)) {
      throw new ApiError('parameter_invalid', { param: `line_items[${i}].quantity`, message: 'quantity has at most 3 decimals.' });
    }
  });
}

/** The venue rules (D12) a new check must meet before any number is worked out; a replay is answered before them. */
export function checkRegisterRules(caller: PlaceCaller, body: CalculateBody): void {
  const rules = caller.settings;
  if (rules.checks_numbered_per_register && !body.register_id) throw new ApiError('register_id_required', { param: 'register_id' });
  const age = body.closed_at ? (caller.now.getTime() - Date.parse(body.closed_at)) / 1000 : 0;
  // A check closed in the future would count against a day that has not come (the per-day cap); a till's clock
  // may run a little fast.
  if (age < -CLOSED_AT_LEEWAY_SECONDS) {
    throw new ApiError('parameter_invalid', {
      param: 'closed_at',
      message: `closed_at is ${Math.ceil(-age)} s in the future; it may be at most ${CLOSED_AT_LEEWAY_SECONDS} s ahead of the service's clock.`,
    });
  }
  if (rules.max_check_age_seconds !== null && body.closed_at) {
    if (age > rules.max_check_age_seconds) {
      throw new ApiError('check_too_old', {
        param: 'closed_at',
        message: `closed_at is ${Math.floor(age)} s ago; this venue accepts checks up to ${rules.max_check_age_seconds} s old. ${whereRuleIsSet('maxCheckAge')}`,
      });
    }
  }
  if (rules.redeem_only_via_holds && (body.redeem_amount ?? 0) > 0 && !body.hold_id) throw new ApiError('hold_required', { param: 'redeem_amount' });
}

/** What a decision reads, after the member is locked. */
export interface Gathered {
  member: tillMembers.CheckMember | null;
  hold: holds.UsableHold | null;
  /** The most this check may earn besides the per-check cap (what the per-day cap leaves); null: no limit. */
  earnRoom: number | null;
  /** The venue day the check earns on, and the moment it is judged at (a lot already expired then earns nothing). */
  day: string;
  asOf: Date;
  /** The bonus campaigns that hold for the check (D22); a capture: the check's own, on the terms it got them. */
  campaigns: CampaignTerms[];
}

/** What the check changes, as differences from what it had already changed (nothing, for a new check). */
export interface Effect {
  redeemed: number;
  earned: number;
  spend: number;
  visits: number;
  stamps: number;
  /** A captured hold no longer holds anything, whatever part of it was redeemed. */
  held: number;
  /** What each campaign credits more (a capture: less) than it had, in its unit; none unchanged. */
  campaigns: CampaignChange[];
}

export type CampaignChange = Omit<CampaignShare, 'terms' | 'wanted'>;

/** The cashback and the stamps campaign changes add up to. */
export const campaignTotal = (changes: CampaignChange[], unit: CampaignChange['unit']) =>
  changes.reduce((sum, c) => sum + (c.unit === unit ? c.amount : 0), 0);

/** Each campaign's credit now against what the check had (`before`: a capture's check), the unchanged left out. */
function campaignChanges(now: CampaignShare[], before: CheckCampaign[]): CampaignChange[] {
  const changes = new Map<string, CampaignChange>();
  for (const c of before) changes.set(c.campaign_id, { campaignId: c.campaign_id, name: c.name, unit: c.unit, amount: -c.amount });
  for (const c of now) {
    const had = changes.get(c.campaignId)?.amount ?? 0;
    const referral = c.reference ? { reference: c.reference, lotDay: c.lotDay } : {};
    changes.set(c.campaignId, { campaignId: c.campaignId, name: c.name, unit: c.unit, amount: c.amount + had, ...referral });
  }
  return [...changes.values()].filter((c) => c.amount !== 0);
}

/** A check's campaign credits as it keeps them, with the terms a capture judges them on again. */
export const keptCampaigns = (shares: CampaignShare[]): CheckCampaign[] =>
  shares.map(({ campaignId, name, unit, amount, terms, reference }) => ({
    campaign_id: campaignId,
    name,
    unit,
    amount,
    reversed: 0,
    percent_bp: terms.percentBp,
    stamps_multiplier: terms.stampsMultiplier,
    categories: terms.categories,
    min_check_amount: terms.minCheckAmount,
    ...(terms.referral ? { referral: true, reference } : {}),
  }));

/**
 * The terms a check's kept bonus credits were given on, each at most what it gave (a capture never credits more).
 * Referrals are not judged again: only a void takes them back.
 */
export const termsOfKept = (kept: CheckCampaign[]): CampaignTerms[] =>
  kept.filter((c) => !c.referral).map((c) => ({
    campaignId: c.campaign_id,
    name: c.name,
    referral: null,
    percentBp: c.percent_bp,
    stampsMultiplier: c.stamps_multiplier,
    categories: c.categories,
    minCheckAmount: c.min_check_amount,
    room: c.amount,
  }));

/** The decision with each campaign's credit as its budget gave it: apply takes the budgets after deciding. */
export function withBudgetsTaken(decision: Decision, taken: { campaign_id: string; amount: number }[]): Decision {
  const given = new Map(taken.map((t) => [t.campaign_id, t.amount]));
  const campaigns = decision.calc.campaigns.map((c) => ({ ...c, amount: given.get(c.campaignId) ?? 0 })).filter((c) => c.amount > 0 || c.terms.referral);
  return { calc: { ...decision.calc, campaigns }, effect: { ...decision.effect, campaigns: campaignChanges(campaigns, []) } };
}

export interface Decision {
  calc: Calculation;
  effect: Effect;
}

/** What the per-day cap leaves of a day on which the member's checks earned `earned`; null: no cap. */
export const dayRoom = (caller: PlaceCaller, earned: number | undefined): number | null =>
  caller.settings.max_cashback_per_day === null ? null : caller.settings.max_cashback_per_day - (earned ?? 0);

/** The check's lot (D20) when its cashback had expired by `asOf`: a check closed longer ago than the expiry. */
function expiredLotOf(caller: PlaceCaller, member: tillMembers.CheckMember, day: string, asOf: Date): ExpiredLot | null {
  const rule = expiryRuleOf(member.program.rules);
  if (!rule) return null;
  const { expiresOn, expiresAt } = lotExpiry(day, rule, caller.venue.timezone);
  return expiresAt.getTime() <= asOf.getTime() ? { day, expiresOn } : null;
}

/**
 * The one calculation of a check's money, for a new check (`before` undefined) and for a hold captured into an
 * applied check (`before` its row): redemption within the caps, the earning, and what it changes.
 */
export function decide(caller: PlaceCaller, gathered: Gathered, lines: PricedLine[], redeemAmount: number | undefined, before?: repo.TransactionRow): Decision {
  const { member, hold, earnRoom } = gathered;
  const money = (minor: number) => formatMoney(minor, caller.venue);
  if (hold && member?.record.id !== hold.memberId) throw new ApiError('parameter_invalid', { param: 'hold_id', message: "The hold is another member's." });
  if (hold && (redeemAmount ?? 0) > hold.amount) {
    throw new ApiError('parameter_invalid', { param: 'redeem_amount', message: `redeem_amount is more than the hold's ${money(hold.amount)} (amount: ${hold.amount}).` });
  }
  // The hold's own reservation is what this check may spend.
  const available = member ? member.available + (hold?.amount ?? 0) : 0;
  const calc = calculate({
    amounts: lines.map((l) => l.amount),
    rules: lines.map((l) => l.rule),
    member: member && {
      program: member.program.rules,
      available,
      levelSpend: levelSpendOf(member.program.rules, member.record),
      visits: member.record.visits,
      vipLevel: member.record.vip_level,
    },
    redeemAmount: redeemAmount ?? hold?.amount ?? 0,
    caps: { perCheck: caller.settings.max_cashback_per_check, earnRoom },
    // Only a new check: one captured into later earned when it was applied, and keeps its day's rules (a capture
    // never earns more than the check did).
    expiredLot: member && !before ? expiredLotOf(caller, member, gathered.day, gathered.asOf) : null,
    campaignTerms: member ? gathered.campaigns : [],
    money,
  });
  // Both sides' entries of a referral carry the referee's reference; its cashback is today's, not the check's day's.
  const today = venueDay(gathered.asOf, caller.venue.timezone);
  if (member) calc.campaigns = calc.campaigns.map((c) => (c.terms.referral ? { ...c, reference: referralReference(member.record.id), lotDay: today } : c));
  const countedBefore = before?.visit_min_paid !== null && before?.visit_min_paid !== undefined;
  const effect: Effect = {
    redeemed: calc.redeemed - Number(before?.redeemed ?? 0),
    earned: calc.earned - Number(before?.earned ?? 0),
    spend: calc.paid - Number(before?.paid ?? 0),
    visits: (calc.visitMinPaid !== null ? 1 : 0) - (countedBefore ? 1 : 0),
    stamps: calc.stampsEarned - (countedBefore ? before.stamps_earned : 0),
    held: -(hold?.amount ?? 0),
    campaigns: campaignChanges(calc.campaigns, before?.campaigns.filter((c) => !c.referral) ?? []),
  };
  // Redemption never leaves available below zero, counting the earning it takes back (a capture's case).
  const availableAfter = available + effect.earned + campaignTotal(effect.campaigns, 'cashback') - effect.redeemed;
  if (effect.redeemed > 0 && availableAfter < 0) {
    throw new ApiError('insufficient_balance', {
      message: `Redeeming ${money(calc.redeemed)} would leave ${money(availableAfter)} available: the check then earns ${money(-effect.earned)} less, and that counts too (available: ${available}).`,
      details: { available },
    });
  }
  return { calc, effect };
}

export function pricedLines(body: CalculateBody, rules: LineRule[]): PricedLine[] {
  return body.line_items.map((l, i) => ({
    sku: l.sku ?? null,
    name: l.name,
    quantity: l.quantity,
    unit_price: l.unit_price,
    amount: lineAmount(l.quantity, l.unit_price),
    rule: rules[i]!,
  }));
}
