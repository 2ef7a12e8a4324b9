// Checks as the API shows them: transactions, refunds, calculated lines, and the cashier and receipt text of each.
import { formatDay, formatMoney, formatPercent, formatSignedMoney, type Display } from '../../shared/display.js';
import type { CampaignReversed } from '../../db/schema.js';
import { formatNullableTimestamp, formatTimestamp } from '../../shared/time.js';
import type { Caller } from '../accounts/schemas.js';
import type { LineRule } from '../catalogue/schemas.js';
import type { Member } from '../members/schemas.js';
import { owedStampsPaidBack } from '../members/view.js';
import type { CampaignShare, Calculation } from './calculation.js';
import type * as repo from './repo.js';
import type { Refund, Transaction } from './schemas.js';

/** A check line as sent, with its amount and the rule it resolved to. */
export interface PricedLine {
  sku: string | null;
  name: string;
  quantity: number;
  unit_price: number;
  amount: number;
  rule: LineRule;
}

/** Campaign credits as the API shows them: each campaign's share alone, those above 0. */
const credits = (list: { campaign_id: string; name: string; amount: number }[]): Transaction['campaigns'] =>
  list.filter((c) => c.amount > 0).map(({ campaign_id, name, amount }) => ({ campaign_id, name, amount }));

/** A calculation's campaign shares as the API shows them. */
export const presentCampaigns = (shares: Pick<CampaignShare, 'campaignId' | 'name' | 'amount'>[]): Transaction['campaigns'] =>
  credits(shares.map((c) => ({ campaign_id: c.campaignId, name: c.name, amount: c.amount })));

/** A campaign's credit (or, with `sign` −1, what was taken back of it) as a receipt says it: money or stamps. */
function campaignAmount(c: { unit: 'cashback' | 'stamps'; amount: number }, where: Caller['venue'], sign: 1 | -1): string {
  if (c.unit === 'cashback') return formatSignedMoney(sign * c.amount, where);
  return `${sign > 0 ? '+' : '−'}${c.amount} ${c.amount === 1 ? 'stamp' : 'stamps'}`;
}

/** What the receipt says of a check: its calculation, with campaign shares as credited (a capture's referrals too). */
type CheckFigures = Omit<Calculation, 'campaigns'> & { campaigns: Pick<CampaignShare, 'name' | 'unit' | 'amount'>[] };

export function presentLines(lines: PricedLine[], calc: Calculation): Transaction['line_items'] {
  return lines.map((line, i) => ({
    sku: line.sku,
    name: line.name,
    category: line.rule.category,
    quantity: line.quantity,
    unit_price: line.unit_price,
    amount: line.amount,
    earns_cashback: line.rule.earnsCashback,
    payable_with_cashback: line.rule.payableWithCashback,
    cashback_percent: calc.lines[i]!.percentBp / 100,
    redeemed: calc.lines[i]!.redeemedShare,
    earned: calc.lines[i]!.earned,
    rule_source: line.rule.source,
  }));
}

/**
 * The cashier line and receipt of a check: `before` is the member as the till sees them now, `after` as the
 * check leaves them (null for a check without a member).
 */
export function checkDisplay(caller: Caller, calc: CheckFigures, before: Member | null, after: Member | null): Display {
  const where = caller.venue;
  const money = (m: number) => formatMoney(m, where);
  const receipt: string[] = [];
  if (calc.discountAmount > 0) receipt.push(`Member discount: ${formatSignedMoney(-calc.discountAmount, where)}`);
  if (calc.redeemed > 0) receipt.push(`Cashback used: ${formatSignedMoney(-calc.redeemed, where)}`);
  if (after?.program_type === 'cashback') receipt.push(`Cashback earned: ${formatSignedMoney(calc.earned, where)}`);
  for (const c of calc.campaigns.filter((share) => share.amount > 0)) receipt.push(`${c.name}: ${campaignAmount(c, where, 1)}`);
  // A backdated check (D20): what its day earned would have expired already, so it earns nothing and says why.
  if (calc.expiredLot) {
    const { day, expiresOn } = calc.expiredLot;
    receipt.push(`Nothing earned: cashback of ${formatDay(day, where.locale)} expired on ${formatDay(expiresOn, where.locale)}`);
  }
  if (after?.stamps) receipt.push(`Stamps: +${calc.stampsEarned} (${after.stamps.count}/${after.stamps.required})${owedStampsPaidBack(after.stamps, calc.stampsEarned)}`);
  receipt.push(`To pay: ${money(calc.paid)}`);
  if (after?.available !== null && after?.available !== undefined) receipt.push(`Cashback available: ${money(after.available)}`);
  // The next expiry after the check (D20), as the member's own receipt lines say it.
  const expiring = after?.expiring?.[0];
  if (expiring) receipt.push(`${money(expiring.amount)} expires on ${formatDay(expiring.on, where.locale)}`);
  if (after?.level) receipt.push(`Level: ${after.level.name} ${formatPercent(Math.round(after.level.percent * 100), where.locale)}`);
  const payable = after?.program_type === 'cashback' ? ` · up to ${money(calc.maxRedeem)} payable` : '';
  // Both lines say the member as the check leaves them (calculate: as it would): a cashier reading the balance off
  // the screen after applying must see the one on the receipt.
  return { cashier: after ? `${after.display.cashier}${payable}` : `No member · ${money(calc.subtotal)}`, receipt };
}

/** What a void or refund did: the amount, the cashback it gave back and took back, and the balance it left (null: none shown). */
export function reversalDisplay(
  caller: Caller,
  what: {
    cashier: string;
    amountLine: string;
    amount: number;
    redeemedReturned: number;
    earnedReversed: number;
    /** What it took back of each campaign credit. */
    campaignsReversed: CampaignReversed[];
    /** A refund left the check paid below its minimum: it no longer counts as a visit (a void says so by itself). */
    visitReversed: boolean;
    stampsReversed: number;
  },
  balance: number | null,
): Display {
  const where = caller.venue;
  return {
    cashier: balance !== null ? `${what.cashier} · balance ${formatMoney(balance, where)}` : what.cashier,
    receipt: [
      `${what.amountLine}: ${formatSignedMoney(-what.amount, where)}`,
      ...(what.redeemedReturned > 0 ? [`Cashback returned: ${formatSignedMoney(what.redeemedReturned, where)}`] : []),
      ...(what.earnedReversed > 0 ? [`Cashback taken back: ${formatSignedMoney(-what.earnedReversed, where)}`] : []),
      ...what.campaignsReversed.map((c) => `${c.name} taken back: ${campaignAmount(c, where, -1)}`),
      ...(what.visitReversed ? ['The check no longer counts as a visit'] : []),
      ...(what.stampsReversed > 0 ? [`Stamps taken back: −${what.stampsReversed}`] : []),
      ...(balance !== null ? [`Cashback balance: ${formatMoney(balance, where)}`] : []),
    ],
  };
}

export function presentTransaction(row: repo.TransactionRow): Transaction {
  const paid = Number(row.paid);
  const refunded = Number(row.refunded_amount);
  return {
    object: 'transaction',
    id: row.id,
    venue_id: row.venue_id,
    external_id: row.external_id,
    register_id: row.register_id,
    member_id: row.member_id,
    status: row.status,
    line_items: row.line_items as Transaction['line_items'],
    campaigns: credits(row.campaigns),
    subtotal: Number(row.subtotal),
    discount_amount: Number(row.discount_amount),
    redeemed: Number(row.redeemed),
    earned: Number(row.earned),
    earn_capped: row.earn_capped,
    stamps_earned: row.stamps_earned,
    paid,
    refunded_amount: refunded,
    refundable: row.status === 'completed' ? paid - refunded : 0,
    closed_at: formatNullableTimestamp(row.closed_at),
    hold_id: row.hold_id,
    livemode: row.livemode,
    created_at: formatTimestamp(row.created_at),
    display: row.display,
    source: row.source ?? 'api',
    metadata: row.metadata ?? null,
  };
}

export function presentRefund(row: repo.RefundRow, transaction: Transaction, display: Display): Refund {
  return {
    object: 'refund',
    id: row.id,
    external_id: row.external_id,
    amount: Number(row.amount),
    earned_reversed: Number(row.earned_reversed),
    redeemed_returned: Number(row.redeemed_returned),
    campaigns_reversed: credits(row.campaigns_reversed),
    transaction,
    livemode: row.livemode,
    created_at: formatTimestamp(row.created_at),
    display,
  };
}
