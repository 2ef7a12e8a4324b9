// Checks: gathers what the calculation needs (member, catalogue rules, caps) and shapes its answer with display text.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatMoney, formatSignedMoney, type Display } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import type { Caller } from '../accounts/schemas.js';
import * as catalogue from '../catalogue/service.js';
import * as members from '../members/service.js';
import { presentMember } from '../members/view.js';
import { calculate, hasAtMostThreeDecimals, lineAmount, type Calculation } from './calculation.js';
import type { CheckBody, CheckCalculation } from './schemas.js';

function checkQuantities(body: CheckBody): void {
  body.line_items.forEach((line, i) => {
    if (!hasAtMostThreeDecimals(line.quantity)) {
      throw new ApiError('parameter_invalid', { param: `line_items[${i}].quantity`, message: 'quantity has at most 3 decimals.' });
    }
  });
}

function receiptLines(calc: Calculation, caller: Caller, stampsLine: string | null): string[] {
  const money = (m: number) => formatMoney(m, caller.venue);
  const lines: string[] = [];
  if (calc.discountAmount > 0) lines.push(`Member discount: ${formatSignedMoney(-calc.discountAmount, caller.venue)}`);
  if (calc.redeemed > 0) lines.push(`Cashback used: ${formatSignedMoney(-calc.redeemed, caller.venue)}`);
  if (calc.levelPercentBp !== null && calc.discountAmount === 0) lines.push(`Cashback earned: ${formatSignedMoney(calc.earned, caller.venue)}`);
  if (stampsLine) lines.push(stampsLine);
  lines.push(`To pay: ${money(calc.paid)}`);
  return lines;
}

/** What the check would do, writing nothing: the till shows it before the guest pays. */
export async function calculateCheck(db: Db, caller: Caller, body: CheckBody, clock: Clock): Promise<CheckCalculation> {
  checkQuantities(body);
  const member = await members.findMemberForCheck(db, caller, body);
  const rules = await catalogue.resolveLineRules(db, caller.venueId, body.line_items);
  const settings = caller.settings;
  const leftToday =
    member && settings.max_cashback_per_day !== null
      ? settings.max_cashback_per_day - (await members.earnedToday(db, caller, member.record.id, clock.now()))
      : null;
  const calc = calculate({
    amounts: body.line_items.map((l) => lineAmount(l.quantity, l.unit_price)),
    rules,
    member: member && {
      program: member.program.rules,
      available: member.available,
      totalSpend: member.record.spend,
      visits: member.record.visits,
      vipLevel: member.record.vip_level,
    },
    redeemAmount: body.redeem_amount ?? 0,
    caps: { perCheck: settings.max_cashback_per_check, leftToday },
  });

  const isCashback = member?.program.rules.type === 'cashback';
  const after = member && presentMember(
    { ...member.record, cashback: member.record.cashback + calc.earned - calc.redeemed, spend: member.record.spend + calc.paid, visits: member.record.visits + 1, stamps: member.record.stamps + calc.stampsEarned },
    member.program,
    caller.venue,
  );
  const stampsLine = after?.stamps ? `Stamps: +${calc.stampsEarned} (${after.stamps.count}/${after.stamps.required})` : null;
  const display: Display = {
    cashier: member
      ? `${presentMember(member.record, member.program, caller.venue).display.cashier}${isCashback ? ` · up to ${formatMoney(calc.maxRedeem, caller.venue)} payable` : ''}`
      : `No member · ${formatMoney(calc.subtotal, caller.venue)}`,
    receipt: receiptLines(calc, caller, stampsLine),
  };
  if (after?.available !== null && after?.available !== undefined) display.receipt.push(`Cashback available: ${formatMoney(after.available, caller.venue)}`);

  return {
    object: 'check_calculation',
    member_id: member?.record.id ?? null,
    program_type: member?.program.rules.type ?? null,
    subtotal: calc.subtotal,
    discount_amount: calc.discountAmount,
    payable_base: calc.payableBase,
    max_redeem: calc.maxRedeem,
    redeemed: calc.redeemed,
    earned: calc.earned,
    earn_capped: calc.earnCapped,
    stamps_earned: calc.stampsEarned,
    paid: calc.paid,
    balance_after: isCashback ? after!.balance : null,
    available_after: isCashback ? after!.available : null,
    line_items: body.line_items.map((line, i) => ({
      sku: line.sku ?? null,
      name: line.name,
      category: rules[i]!.category,
      quantity: line.quantity,
      unit_price: line.unit_price,
      amount: calc.lines[i]!.amount,
      earns_cashback: rules[i]!.earnsCashback,
      payable_with_cashback: rules[i]!.payableWithCashback,
      cashback_percent: calc.lines[i]!.percentBp / 100,
      redeemed: calc.lines[i]!.redeemedShare,
      earned: calc.lines[i]!.earned,
    })),
    display,
  };
}
