// Checks: calculate (writes nothing) and apply share one path; voids and partial refunds reverse through the ledger.
import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatMoney, formatPercent, formatSignedMoney, type Display } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatNullableTimestamp, formatTimestamp } from '../../shared/time.js';
import type { Caller } from '../accounts/schemas.js';
import type { LineRule } from '../catalogue/schemas.js';
import * as catalogue from '../catalogue/service.js';
import * as holds from '../holds/service.js';
import * as members from '../members/service.js';
import * as visits from '../visits/service.js';
import { presentMember } from '../members/view.js';
import { recordEvent, type EventRequest } from '../webhooks/events.js';
import { calculate, hasAtMostThreeDecimals, lineAmount, type Calculation } from './calculation.js';
import * as repo from './repo.js';
import type { CaptureBody, CheckBody, CheckCalculation, Refund, RefundBody, Transaction } from './schemas.js';

type MemberRef = { member_id?: string; card_number?: string; barcode?: string };

/** What checks need from outside the request: the clock, and the scan window of card_scan_required. */
export interface CheckContext {
  clock: Clock;
  scanWindowSeconds: number;
}

/** The venue rules (D12) a check must meet before any number is worked out. */
function checkRegisterRules(caller: Caller, body: CheckBody, clock: Clock): void {
  const rules = caller.settings;
  body.line_items.forEach((line, i) => {
    if (!hasAtMostThreeDecimals(line.quantity)) {
      throw new ApiError('parameter_invalid', { param: `line_items[${i}].quantity`, message: 'quantity has at most 3 decimals.' });
    }
  });
  if (rules.checks_numbered_per_register && !body.register_id) throw new ApiError('register_id_required', { param: 'register_id' });
  if (rules.max_check_age_seconds !== null && body.closed_at) {
    const age = (clock.now().getTime() - Date.parse(body.closed_at)) / 1000;
    if (age > rules.max_check_age_seconds) {
      throw new ApiError('check_too_old', {
        param: 'closed_at',
        message: `closed_at is ${Math.floor(age)} s ago; this venue accepts checks up to ${rules.max_check_age_seconds} s old.`,
      });
    }
  }
  if (rules.redeem_only_via_holds && (body.redeem_amount ?? 0) > 0 && !body.hold_id) throw new ApiError('hold_required', { param: 'redeem_amount' });
}

interface Evaluated {
  member: members.CheckMember | null;
  hold: { id: string; amount: number } | null;
  rules: LineRule[];
  calc: Calculation;
}

type Hold = Awaited<ReturnType<typeof holds.usableHold>>;

/** The member the check names, or the hold's member; a hold of another member is refused. */
function memberRef(body: CheckBody, hold: Hold | null): MemberRef {
  const named = body.member_id !== undefined || body.card_number !== undefined || body.barcode !== undefined;
  return !named && hold ? { member_id: hold.memberId } : (body as MemberRef);
}

async function evaluate(db: Db, caller: Caller, body: CheckBody, ctx: CheckContext, found: members.CheckMember | null, hold: Hold | null): Promise<Evaluated> {
  const clock = ctx.clock;
  if (found && caller.settings.card_scan_required) await visits.requireRecentScan(db, caller, found.record.id, ctx.scanWindowSeconds);
  if (hold && found?.record.id !== hold.memberId) throw new ApiError('parameter_invalid', { param: 'hold_id', message: "The hold is another member's." });
  if (hold && (body.redeem_amount ?? 0) > hold.amount) {
    throw new ApiError('parameter_invalid', { param: 'redeem_amount', message: `redeem_amount is more than the hold's ${hold.amount}.` });
  }
  // The hold's own reservation is what this check may spend.
  const member = found && hold ? { ...found, available: found.available + hold.amount } : found;
  const rules = await catalogue.resolveLineRules(db, caller.venueId, body.line_items);
  const perDay = caller.settings.max_cashback_per_day;
  const leftToday = member && perDay !== null ? perDay - (await members.earnedToday(db, caller, member.record.id, clock.now())) : null;
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
    redeemAmount: body.redeem_amount ?? hold?.amount ?? 0,
    caps: { perCheck: caller.settings.max_cashback_per_check, leftToday },
  });
  return { member, hold, rules, calc };
}

function presentLines(body: CheckBody, { rules, calc }: Evaluated) {
  return body.line_items.map((line, i) => ({
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
  }));
}

/** The member as they will be (or are) after the check, and the cashier and receipt text. */
function outcome(caller: Caller, evaluated: Evaluated) {
  const { member, calc } = evaluated;
  const after =
    member &&
    presentMember(
      {
        ...member.record,
        cashback: member.record.cashback + calc.earned - calc.redeemed,
        // A captured hold no longer holds anything.
        held: member.record.held - (evaluated.hold?.amount ?? 0),
        spend: member.record.spend + calc.paid,
        visits: member.record.visits + 1,
        stamps: member.record.stamps + calc.stampsEarned,
      },
      member.program,
      caller.venue,
    );
  const money = (m: number) => formatMoney(m, caller.venue);
  const receipt: string[] = [];
  if (calc.discountAmount > 0) receipt.push(`Member discount: ${formatSignedMoney(-calc.discountAmount, caller.venue)}`);
  if (calc.redeemed > 0) receipt.push(`Cashback used: ${formatSignedMoney(-calc.redeemed, caller.venue)}`);
  if (after?.program_type === 'cashback') receipt.push(`Cashback earned: ${formatSignedMoney(calc.earned, caller.venue)}`);
  if (after?.stamps) receipt.push(`Stamps: +${calc.stampsEarned} (${after.stamps.count}/${after.stamps.required})`);
  receipt.push(`To pay: ${money(calc.paid)}`);
  if (after?.available !== null && after?.available !== undefined) receipt.push(`Cashback available: ${money(after.available)}`);
  if (after?.level) receipt.push(`Level: ${after.level.name} ${formatPercent(Math.round(after.level.percent * 100), caller.venue.locale)}`);
  const display: Display = {
    cashier: after
      ? `${presentMember(member!.record, member!.program, caller.venue).display.cashier}${after.program_type === 'cashback' ? ` · up to ${money(calc.maxRedeem)} payable` : ''}`
      : `No member · ${money(calc.subtotal)}`,
    receipt,
  };
  return { after, display };
}

/** What the check would do, writing nothing: the till shows it before the guest pays. */
export async function calculateCheck(db: Db, caller: Caller, body: CheckBody, ctx: CheckContext): Promise<CheckCalculation> {
  checkRegisterRules(caller, body, ctx.clock);
  const hold = body.hold_id ? await holds.usableHold(db, caller, body.hold_id) : null;
  const evaluated = await evaluate(db, caller, body, ctx, await members.findMemberForCheck(db, caller, memberRef(body, hold)), hold);
  const { calc, member } = evaluated;
  const { after, display } = outcome(caller, evaluated);
  const isCashback = member?.program.rules.type === 'cashback';
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
    line_items: presentLines(body, evaluated),
    display,
  };
}

const registerKey = (caller: Caller, registerId: string | null | undefined) =>
  caller.settings.checks_numbered_per_register ? (registerId ?? '') : '';

export function presentTransaction(row: repo.TransactionRow): Transaction {
  const paid = Number(row.paid);
  const refunded = Number(row.refunded_amount);
  return {
    object: 'transaction',
    id: row.id,
    external_id: row.external_id,
    register_id: row.register_id,
    member_id: row.member_id,
    status: row.status,
    line_items: row.line_items as Transaction['line_items'],
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
  };
}

/**
 * Applies a check once: the same external_id with the same body replays the transaction (replayed: true), with
 * another body is 409 external_id_reused. The member's row lock makes concurrent checks take turns, so a
 * balance never goes below zero; the transaction, its ledger rows and its event commit together.
 */
export async function applyCheck(
  trx: Db,
  caller: Caller,
  body: CheckBody,
  ctx: CheckContext,
  request: EventRequest,
): Promise<{ transaction: Transaction; replayed: boolean }> {
  const clock = ctx.clock;
  checkRegisterRules(caller, body, clock);
  const scope = registerKey(caller, body.register_id);
  const fingerprint = createHash('sha256').update(stringify(body)).digest('hex');
  await repo.lockExternalId(trx, caller.venueId, scope, body.external_id);
  const existing = await repo.findTransaction(trx, caller.venueId, scope, body.external_id);
  if (existing) {
    if (existing.fingerprint !== fingerprint) throw new ApiError('external_id_reused', { param: 'external_id' });
    return { transaction: presentTransaction(existing), replayed: true };
  }

  const hold = body.hold_id ? await holds.usableHold(trx, caller, body.hold_id) : null;
  const evaluated = await evaluate(trx, caller, body, ctx, await members.lockMemberForCheck(trx, caller, memberRef(body, hold)), hold);
  const { calc, member } = evaluated;
  const { display } = outcome(caller, evaluated);
  const row = await repo.insertTransaction(trx, {
    venue_id: caller.venueId,
    id: newId(),
    external_id: body.external_id,
    register_key: scope,
    register_id: body.register_id ?? null,
    member_id: member?.record.id ?? null,
    status: 'completed',
    line_items: JSON.stringify(presentLines(body, evaluated)),
    subtotal: calc.subtotal,
    discount_amount: calc.discountAmount,
    redeemed: calc.redeemed,
    earned: calc.earned,
    earn_capped: calc.earnCapped,
    stamps_earned: calc.stampsEarned,
    paid: calc.paid,
    closed_at: body.closed_at ?? null,
    hold_id: hold?.id ?? null,
    display: JSON.stringify(display),
    fingerprint,
    livemode: caller.livemode,
  });
  if (member) {
    const memberId = member.record.id;
    await members.appendLedger(trx, caller, [
      ...(calc.redeemed > 0 ? [{ memberId, kind: 'redemption', cashback: -calc.redeemed, reference: body.external_id }] : []),
      ...(calc.earned > 0 ? [{ memberId, kind: 'earn', cashback: calc.earned, reference: body.external_id }] : []),
      { memberId, kind: 'check', spend: calc.paid, visits: 1, stamps: calc.stampsEarned, reference: body.external_id },
    ], clock.now());
  }
  if (hold) await holds.captureHold(trx, caller, hold.id, calc.redeemed, body.external_id);
  const transaction = presentTransaction(row);
  await recordEvent(trx, { venueId: caller.venueId, type: 'transaction.completed', livemode: caller.livemode, object: transaction, request });
  return { transaction, replayed: false };
}

async function ownTransaction(db: Db, caller: Caller, externalId: string, registerId: string | undefined, forUpdate = false) {
  const row = await repo.findTransaction(db, caller.venueId, registerKey(caller, registerId), externalId, forUpdate);
  if (!row) throw new ApiError('transaction_not_found');
  return row;
}

export async function getTransaction(db: Db, caller: Caller, externalId: string, registerId?: string): Promise<Transaction> {
  return presentTransaction(await ownTransaction(db, caller, externalId, registerId));
}

export async function listTransactions(db: Db, caller: Caller, page: Page, filter: { member_id?: string; status?: string }): Promise<List<Transaction>> {
  await checkCursor(page, (id) => repo.transactionIdExists(db, caller.venueId, id));
  const rows = await repo.listTransactions(db, caller.venueId, page, { memberId: filter.member_id, status: filter.status });
  return toList('/v1/transactions', page, rows, presentTransaction);
}

/**
 * Voids a check: returns what it redeemed and takes back what it earned (the balance may go negative, and shows
 * so), takes its spend, visit and stamps back. Voiding a voided check changes nothing.
 */
export async function voidTransaction(trx: Db, caller: Caller, externalId: string, registerId: string | undefined, clock: Clock): Promise<Transaction> {
  const row = await ownTransaction(trx, caller, externalId, registerId, true);
  if (row.status === 'voided') return presentTransaction(row);
  if (row.member_id) {
    await members.lockMember(trx, caller, row.member_id);
    const done = await repo.refundedSoFar(trx, caller.venueId, row.id);
    const redeemedBack = Number(row.redeemed) - done.redeemed;
    const earnedBack = Number(row.earned) - done.earned;
    const memberId = row.member_id;
    await members.appendLedger(trx, caller, [
      ...(redeemedBack > 0 ? [{ memberId, kind: 'redemption_reversal', cashback: redeemedBack, reference: externalId }] : []),
      ...(earnedBack > 0 ? [{ memberId, kind: 'earn_reversal', cashback: -earnedBack, reference: externalId }] : []),
      { memberId, kind: 'void', spend: -(Number(row.paid) - Number(row.refunded_amount)), visits: -1, stamps: -row.stamps_earned, reference: externalId },
    ], clock.now());
  }
  return presentTransaction(await repo.markVoided(trx, caller.venueId, row.id, clock.now()));
}

/**
 * A partial refund of what was paid. Earned and redeemed are reversed in proportion, cumulatively: after refunds
 * totalling R of P paid, exactly floor(earned × R / P) has been taken back, so a full refund reverses everything.
 */
export async function refundTransaction(
  trx: Db,
  caller: Caller,
  externalId: string,
  body: RefundBody,
  clock: Clock,
  request: EventRequest,
): Promise<{ refund: Refund; replayed: boolean }> {
  const row = await ownTransaction(trx, caller, externalId, body.register_id, true);
  const previous = await repo.findRefund(trx, caller.venueId, row.id, body.external_id);
  if (previous) {
    if (Number(previous.amount) !== body.amount) throw new ApiError('external_id_reused', { param: 'external_id' });
    return { refund: presentRefund(previous, presentTransaction(row), caller), replayed: true };
  }
  const paid = Number(row.paid);
  const refundable = row.status === 'completed' ? paid - Number(row.refunded_amount) : 0;
  if (body.amount > refundable) {
    throw new ApiError('refund_exceeds_check', {
      message: `Only ${refundable} of this check can still be refunded.`,
      details: { refundable },
    });
  }
  const done = await repo.refundedSoFar(trx, caller.venueId, row.id);
  const refundedAfter = Number(row.refunded_amount) + body.amount;
  const earnedBack = Math.floor((Number(row.earned) * refundedAfter) / paid) - done.earned;
  const redeemedBack = Math.floor((Number(row.redeemed) * refundedAfter) / paid) - done.redeemed;
  if (row.member_id) {
    await members.lockMember(trx, caller, row.member_id);
    const memberId = row.member_id;
    await members.appendLedger(trx, caller, [
      ...(redeemedBack > 0 ? [{ memberId, kind: 'redemption_reversal', cashback: redeemedBack, reference: body.external_id }] : []),
      ...(earnedBack > 0 ? [{ memberId, kind: 'earn_reversal', cashback: -earnedBack, reference: body.external_id }] : []),
      { memberId, kind: 'refund', spend: -body.amount, reference: body.external_id },
    ], clock.now());
  }
  const refundRow = await repo.insertRefund(trx, {
    venue_id: caller.venueId,
    id: newId(),
    transaction_id: row.id,
    external_id: body.external_id,
    amount: body.amount,
    earned_reversed: earnedBack,
    redeemed_returned: redeemedBack,
    livemode: caller.livemode,
  });
  const transaction = presentTransaction(await repo.addRefunded(trx, caller.venueId, row.id, body.amount));
  const refund = presentRefund(refundRow, transaction, caller);
  await recordEvent(trx, { venueId: caller.venueId, type: 'transaction.refunded', livemode: caller.livemode, object: transaction, request });
  return { refund, replayed: false };
}

function presentRefund(row: repo.RefundRow, transaction: Transaction, caller: Caller): Refund {
  const where = caller.venue;
  return {
    object: 'refund',
    id: row.id,
    external_id: row.external_id,
    amount: Number(row.amount),
    earned_reversed: Number(row.earned_reversed),
    redeemed_returned: Number(row.redeemed_returned),
    transaction,
    livemode: row.livemode,
    created_at: formatTimestamp(row.created_at),
    display: {
      cashier: `Refund ${formatMoney(Number(row.amount), where)} of check ${transaction.external_id}`,
      receipt: [
        `Refund: ${formatSignedMoney(-Number(row.amount), where)}`,
        ...(Number(row.redeemed_returned) > 0 ? [`Cashback returned: ${formatSignedMoney(Number(row.redeemed_returned), where)}`] : []),
        ...(Number(row.earned_reversed) > 0 ? [`Cashback taken back: ${formatSignedMoney(-Number(row.earned_reversed), where)}`] : []),
      ],
    },
  };
}

/**
 * Captures a hold into a check applied without it: the check must be the hold's member's, completed, with no
 * redemption and no refunds yet. Its stored lines are calculated again with the redemption (same amounts, rules
 * and percents, the per-check cap), earning can only go down, and the ledger gets exactly the differences.
 */
export async function captureHoldIntoCheck(trx: Db, caller: Caller, holdId: string, body: CaptureBody): Promise<Transaction> {
  const hold = await holds.usableHold(trx, caller, holdId);
  const row = await ownTransaction(trx, caller, body.external_id, body.register_id, true);
  if (row.member_id !== hold.memberId) throw new ApiError('parameter_invalid', { param: 'external_id', message: "The check is not the hold's member's." });
  if (row.status !== 'completed' || Number(row.redeemed) > 0 || Number(row.refunded_amount) > 0) {
    throw new ApiError('parameter_invalid', {
      param: 'external_id',
      message: 'A hold can be captured only into a completed check that redeemed nothing and has no refunds.',
    });
  }
  const member = (await members.lockMemberForCheck(trx, caller, { member_id: hold.memberId }))!;
  const lines = row.line_items as Transaction['line_items'];
  const calc = calculate({
    amounts: lines.map((l) => l.amount),
    rules: lines.map((l) => ({ category: l.category, earnsCashback: l.earns_cashback, payableWithCashback: l.payable_with_cashback, percentBp: Math.round(l.cashback_percent * 100) })),
    member: {
      program: member.program.rules,
      available: member.available + hold.amount,
      totalSpend: member.record.spend,
      visits: member.record.visits,
      vipLevel: member.record.vip_level,
    },
    redeemAmount: body.redeem_amount ?? hold.amount,
    caps: { perCheck: caller.settings.max_cashback_per_check, leftToday: null },
  });
  if (calc.redeemed > hold.amount) {
    throw new ApiError('parameter_invalid', { param: 'redeem_amount', message: `redeem_amount is more than the hold's ${hold.amount}.` });
  }
  const earned = Math.min(calc.earned, Number(row.earned));
  const earnedBack = Number(row.earned) - earned;
  const memberId = hold.memberId;
  await members.appendLedger(
    trx,
    caller,
    [
      { memberId, kind: 'redemption', cashback: -calc.redeemed, reference: body.external_id },
      ...(earnedBack > 0 ? [{ memberId, kind: 'earn_reversal', cashback: -earnedBack, reference: body.external_id }] : []),
      { memberId, kind: 'check', spend: -calc.redeemed, reference: body.external_id },
    ],
    caller.now,
  );
  await holds.captureHold(trx, caller, hold.id, calc.redeemed, body.external_id);
  const paid = Number(row.paid) - calc.redeemed;
  const available = member.available + hold.amount - calc.redeemed - earnedBack;
  const money = (m: number) => formatMoney(m, caller.venue);
  const updated = await repo.recordCapture(trx, caller.venueId, row.id, {
    redeemed: calc.redeemed,
    earned,
    paid,
    holdId: hold.id,
    lineItems: lines.map((l, i) => ({ ...l, redeemed: calc.lines[i]!.redeemedShare, earned: calc.lines[i]!.earned })),
    display: {
      cashier: `Hold captured into check ${body.external_id}`,
      receipt: [
        `Cashback used: ${formatSignedMoney(-calc.redeemed, caller.venue)}`,
        `Cashback earned: ${formatSignedMoney(earned, caller.venue)}`,
        `To pay: ${money(paid)}`,
        `Cashback available: ${money(available)}`,
      ],
    },
  });
  return presentTransaction(updated);
}
