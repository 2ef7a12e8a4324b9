// Checks: calculate (writes nothing), apply, and a hold captured into an applied check share one path (gather →
// decide → write); voids and partial refunds reverse through the ledger.
import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';
import type { Db } from '../../db/database.js';
import { readTogether, writeTogether, type WriteStep } from '../../db/statement.js';
import type { Clock } from '../../shared/clock.js';
import { formatMoney } from '../../shared/display.js';
import { ApiError, whereRuleIsSet } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp, venueDay } from '../../shared/time.js';
import type { Caller, PlaceCaller } from '../accounts/schemas.js';
import * as catalogue from '../catalogue/service.js';
import * as holds from '../holds/service.js';
import * as members from '../members/service.js';
import { presentMember } from '../members/view.js';
import * as visits from '../visits/service.js';
import { eventSteps, type EventRequest } from '../webhooks/events.js';
import type { EventType } from '../webhooks/schemas.js';
import type { LineRule } from '../catalogue/schemas.js';
import { calculate, hasAtMostThreeDecimals, lineAmount, mulDiv, type Calculation } from './calculation.js';
import * as repo from './repo.js';
import type { CalculateBody, CaptureBody, CheckBody, CheckCalculation, Refund, RefundBody, Transaction } from './schemas.js';
import { checkDisplay, presentLines, presentRefund, presentTransaction, reversalDisplay, type PricedLine } from './view.js';

export { presentTransaction };

/** How far ahead of the service's clock a till's closed_at may be. */
export const CLOSED_AT_LEEWAY_SECONDS = 300;

/** What checks need from outside the request: the clock, and the scan window of card_scan_required. */
export interface CheckContext {
  clock: Clock;
  scanWindowSeconds: number;
}

function checkQuantities(body: CalculateBody): void {
  body.line_items.forEach((line, i) => {
    if (!hasAtMostThreeDecimals(line.quantity)) {
      throw new ApiError('parameter_invalid', { param: `line_items[${i}].quantity`, message: 'quantity has at most 3 decimals.' });
    }
  });
}

/** The venue rules (D12) a new check must meet before any number is worked out; a replay is answered before them. */
function checkRegisterRules(caller: PlaceCaller, body: CalculateBody): void {
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
interface Gathered {
  member: members.CheckMember | null;
  hold: holds.UsableHold | null;
  /** The most this check may earn besides the per-check cap (what the per-day cap leaves); null: no limit. */
  earnRoom: number | null;
}

/** What the check changes, as differences from what it had already changed (nothing, for a new check). */
interface Effect {
  redeemed: number;
  earned: number;
  spend: number;
  visits: number;
  stamps: number;
  /** A captured hold no longer holds anything, whatever part of it was redeemed. */
  held: number;
}

interface Decision {
  calc: Calculation;
  effect: Effect;
}

/** What the per-day cap leaves of a day on which the member's checks earned `earned`; null: no cap. */
const dayRoom = (caller: PlaceCaller, earned: number | undefined): number | null =>
  caller.settings.max_cashback_per_day === null ? null : caller.settings.max_cashback_per_day - (earned ?? 0);

/**
 * The one calculation of a check's money, for a new check (`before` undefined) and for a hold captured into an
 * applied check (`before` its row): redemption within the caps, the earning, and what it changes.
 */
function decide(caller: PlaceCaller, gathered: Gathered, lines: PricedLine[], redeemAmount: number | undefined, before?: repo.TransactionRow): Decision {
  const { member, hold, earnRoom } = gathered;
  if (hold && member?.record.id !== hold.memberId) throw new ApiError('parameter_invalid', { param: 'hold_id', message: "The hold is another member's." });
  if (hold && (redeemAmount ?? 0) > hold.amount) {
    throw new ApiError('parameter_invalid', { param: 'redeem_amount', message: `redeem_amount is more than the hold's ${hold.amount}.` });
  }
  // The hold's own reservation is what this check may spend.
  const available = member ? member.available + (hold?.amount ?? 0) : 0;
  const calc = calculate({
    amounts: lines.map((l) => l.amount),
    rules: lines.map((l) => l.rule),
    member: member && {
      program: member.program.rules,
      available,
      totalSpend: member.record.spend,
      visits: member.record.visits,
      vipLevel: member.record.vip_level,
    },
    redeemAmount: redeemAmount ?? hold?.amount ?? 0,
    caps: { perCheck: caller.settings.max_cashback_per_check, earnRoom },
  });
  const effect: Effect = {
    redeemed: calc.redeemed - Number(before?.redeemed ?? 0),
    earned: calc.earned - Number(before?.earned ?? 0),
    spend: calc.paid - Number(before?.paid ?? 0),
    visits: before ? 0 : 1,
    stamps: before ? 0 : calc.stampsEarned,
    held: -(hold?.amount ?? 0),
  };
  // Redemption never leaves available below zero, counting the earning it takes back (a capture's case).
  const availableAfter = available + effect.earned - effect.redeemed;
  if (effect.redeemed > 0 && availableAfter < 0) {
    throw new ApiError('insufficient_balance', {
      message: `Redeeming ${calc.redeemed} would leave ${availableAfter} available: the check then earns ${-effect.earned} less, and that counts too.`,
      details: { available },
    });
  }
  return { calc, effect };
}

/** The member before and after the check, as the API shows them. */
function memberViews(caller: PlaceCaller, member: members.CheckMember | null, effect: Effect, lots: members.LotsWrite) {
  if (!member) return { before: null, after: null };
  const r = member.record;
  const after = members.settledAfter(caller, member, {
    ...r,
    cashback: r.cashback + effect.earned - effect.redeemed,
    held: r.held + effect.held,
    spend: r.spend + effect.spend,
    visits: r.visits + effect.visits,
    stamps: r.stamps + effect.stamps,
  }, lots.open);
  return { before: presentMember(r, member.program, caller.venue), after: presentMember(after, member.program, caller.venue) };
}

/**
 * The steps of the one write of new checks and captures alike: the check's row (`row`, inserted or updated by
 * `rowStep`), its ledger entries with the member's totals, the hold's capture, and the event.
 */
function effectSteps(
  trx: Db,
  caller: PlaceCaller,
  at: Date,
  gathered: Gathered,
  decision: Decision,
  lots: members.LotsWrite,
  rowStep: WriteStep,
  event: EventType,
  transaction: Transaction,
  request: EventRequest,
): WriteStep[] {
  const { member, hold } = gathered;
  const { effect, calc } = decision;
  const memberId = member?.record.id;
  const reference = transaction.external_id;
  return [
    rowStep,
    ...(memberId
      ? members.ledgerSteps(trx, caller, [
          ...lots.entries,
          ...(effect.redeemed > 0 ? [{ memberId, kind: 'redemption', cashback: -effect.redeemed, reference }] : []),
          ...(effect.earned > 0 ? [{ memberId, kind: 'earn', cashback: effect.earned, reference }] : []),
          ...(effect.earned < 0 ? [{ memberId, kind: 'earn_reversal', cashback: effect.earned, reference }] : []),
          { memberId, kind: 'check', spend: effect.spend, visits: effect.visits, stamps: effect.stamps, reference },
        ], at)
      : []),
    ...lots.steps,
    ...(hold ? [holds.captureStep(trx, caller, hold.id, calc.redeemed, reference)] : []),
    ...eventSteps(trx, { chainId: caller.chainId, venueId: caller.venueId, type: event, livemode: caller.livemode, object: transaction, request }),
  ];
}

/**
 * What the check does to the member's cashback lots (D20): the redemption comes out of the lots that expire
 * soonest, the earning goes into the lot of the check's venue day, and earning a capture takes back comes out of
 * that lot first. Nothing when the member's program does not expire cashback.
 */
function checkLots(trx: Db, caller: PlaceCaller, member: members.CheckMember | null, effect: Effect, day: string, request: EventRequest): members.LotsWrite {
  return members.lotsWrite(trx, caller, member?.record.id ?? '', member?.lots ?? null, [
    ...(effect.redeemed > 0 ? [{ debit: effect.redeemed, day: null }] : []),
    ...(effect.earned > 0 ? [{ credit: effect.earned, day }] : []),
    ...(effect.earned < 0 ? [{ debit: -effect.earned, day }] : []),
  ], request);
}

function pricedLines(body: CalculateBody, rules: LineRule[]): PricedLine[] {
  return body.line_items.map((l, i) => ({
    sku: l.sku ?? null,
    name: l.name,
    quantity: l.quantity,
    unit_price: l.unit_price,
    amount: lineAmount(l.quantity, l.unit_price),
    rule: rules[i]!,
  }));
}

/** 404 for the member a check names, or for its hold when it names no member. */
function namedNotFound(body: CalculateBody): ApiError {
  const namesMember = body.member_id !== undefined || body.card_number !== undefined || body.barcode !== undefined;
  return body.hold_id && !namesMember ? new ApiError('hold_not_found', { param: 'hold_id' }) : new ApiError('member_not_found');
}

/** The hold's member, for a check that names a hold but no member. */
const memberOfHold = (db: Db, caller: PlaceCaller, body: CalculateBody) => (body.hold_id ? holds.memberOfHold(db, caller, body.hold_id) : undefined);

/** The day a check counts in for the per-day cap: the venue-local date it closed (else was received). */
const dayOf = (caller: PlaceCaller, body: CalculateBody) => venueDay(body.closed_at ? new Date(body.closed_at) : caller.now, caller.venue.timezone);

/**
 * Everything a new check's decision reads besides the member's row, in one statement: what the member's holds keep
 * as of `asOf` (for a locked member: the clock read after the lock), the hold, the day's earnings, the recent scan,
 * the lines' rules, and with `key` a transaction of that number committed while the lock was awaited.
 */
async function readForCheck(
  db: Db,
  caller: PlaceCaller,
  body: CalculateBody,
  ctx: CheckContext,
  member: members.LockedMember | null,
  asOf: Date,
  key?: repo.TransactionKey,
) {
  const rules = catalogue.lineRules(caller.chainId, body.line_items);
  const memberId = member?.id;
  const read = await readTogether(db, {
    existing: key && member ? repo.transactionRead(db, key) : undefined,
    held: memberId ? members.heldRead(db, caller, memberId, asOf) : undefined,
    lots: member ? await members.lotsReadFor(db, caller, member) : undefined,
    hold: body.hold_id ? holds.holdRead(db, caller, body.hold_id) : undefined,
    dayEarned: memberId && caller.settings.max_cashback_per_day !== null ? repo.earnedOnDay(db, caller.chainId, memberId, dayOf(caller, body)) : undefined,
    scanned: memberId && caller.settings.card_scan_required ? visits.recentScanRead(db, caller, memberId, ctx.scanWindowSeconds) : undefined,
    rules: rules.read,
  });
  return { ...read, member, asOf, lineRules: rules.resolve(read.rules) };
}

/**
 * What the decision stands on, from what was read: the hold judged by the same clock reading as what the member's
 * holds keep (an expiring hold is never counted twice), the scan required, the per-day room, the lines priced.
 */
async function judgeRead(db: Db, caller: PlaceCaller, body: CalculateBody, ctx: CheckContext, read: Awaited<ReturnType<typeof readForCheck>>) {
  const { member, asOf } = read;
  const hold = body.hold_id ? holds.usableHold(read.hold ?? null, asOf) : null;
  if (member && caller.settings.card_scan_required) visits.requireRecentScan(read.scanned ?? false, ctx.scanWindowSeconds);
  const gathered: Gathered = {
    member: member && (await members.withHeld(db, caller, member, read.held ?? 0, asOf, read.lots)),
    hold,
    earnRoom: member ? dayRoom(caller, read.dayEarned) : null,
  };
  return { gathered, lines: pricedLines(body, read.lineRules) };
}

/** The same external_id again: the same body replays the transaction as it is now, another is 409. */
function replay(existing: repo.TransactionRow, fingerprint: string) {
  if (existing.fingerprint !== fingerprint) throw new ApiError('external_id_reused', { param: 'external_id' });
  return { transaction: presentTransaction(existing), replayed: true };
}

/** What the check would do, writing nothing: the till shows it before the guest pays. */
export async function calculateCheck(db: Db, caller: PlaceCaller, body: CalculateBody, ctx: CheckContext): Promise<CheckCalculation> {
  checkQuantities(body);
  checkRegisterRules(caller, body);
  const named = await members.memberNamed(db, caller, body, { lock: false, memberOf: memberOfHold(db, caller, body) });
  if (!named.found) throw namedNotFound(body);
  const read = await readForCheck(db, caller, body, ctx, named.member, caller.now);
  const { gathered, lines } = await judgeRead(db, caller, body, ctx, read);
  const { calc, effect } = decide(caller, gathered, lines, body.redeem_amount);
  const { before, after } = memberViews(caller, gathered.member, effect, checkLots(db, caller, gathered.member, effect, dayOf(caller, body), null));
  const isCashback = after?.program_type === 'cashback';
  return {
    object: 'check_calculation',
    member_id: after?.id ?? null,
    program_type: after?.program_type ?? null,
    subtotal: calc.subtotal,
    discount_amount: calc.discountAmount,
    payable_base: calc.payableBase,
    max_redeem: calc.maxRedeem,
    redeemed: calc.redeemed,
    earned: calc.earned,
    earn_capped: calc.earnCapped,
    stamps_earned: calc.stampsEarned,
    paid: calc.paid,
    balance_after: isCashback ? after.balance : null,
    available_after: isCashback ? after.available : null,
    line_items: presentLines(lines, calc),
    display: checkDisplay(caller, calc, before, after),
  };
}

/** The scope an external_id is unique in: the register when the key's rules number checks per register, else the venue. */
const registerKey = (caller: PlaceCaller, registerId: string | null | undefined) =>
  caller.settings.checks_numbered_per_register ? (registerId ?? '') : '';

const keyOf = (caller: PlaceCaller, externalId: string, registerId: string | null | undefined): repo.TransactionKey => [
  caller.chainId,
  caller.venueId,
  registerKey(caller, registerId),
  registerId,
  externalId,
];

/**
 * Applies a check once: the same external_id with the same body replays the transaction as it is now (replayed:
 * true), whatever the rules, key settings or clock say now; with another body it is 409 external_id_reused. Lock
 * the member (reading any transaction of that number alongside), gather, decide, write: five statements with BEGIN
 * and COMMIT. The member's row lock makes concurrent checks take turns, so a balance never goes below zero through
 * redemption; the same check sent twice at once meets the external-id constraints and its retry replays.
 */
export async function applyCheck(
  trx: Db,
  caller: PlaceCaller,
  body: CheckBody,
  ctx: CheckContext,
  request: EventRequest,
): Promise<{ transaction: Transaction; replayed: boolean }> {
  checkQuantities(body);
  const key = keyOf(caller, body.external_id, body.register_id);
  const fingerprint = createHash('sha256').update(stringify(body)).digest('hex');
  const locked = await members.memberNamed(trx, caller, body, {
    lock: true,
    memberOf: memberOfHold(trx, caller, body),
    alongside: repo.transactionJson(trx, key),
  });
  // Read with the lock's snapshot: what it finds is a replay for sure; a check committed while this request
  // waited for the lock is found by the gather, and one without a member by the external-id constraints.
  const existing = locked.member ? repo.transactionFromJson(locked.alongside) : await repo.findTransaction(trx, key);
  if (existing) return replay(existing, fingerprint);
  checkRegisterRules(caller, body);
  if (!locked.found) throw namedNotFound(body);

  const at = ctx.clock.now();
  const read = await readForCheck(trx, caller, body, ctx, locked.member, at, key);
  if (read.existing) return replay(read.existing, fingerprint);
  const { gathered, lines } = await judgeRead(trx, caller, body, ctx, read);
  const decision = decide(caller, gathered, lines, body.redeem_amount);
  const { calc } = decision;
  const lots = checkLots(trx, caller, gathered.member, decision.effect, dayOf(caller, body), request);
  const { before, after } = memberViews(caller, gathered.member, decision.effect, lots);
  const row: repo.TransactionRow = {
    chain_id: caller.chainId,
    venue_id: caller.venueId,
    id: newId(),
    external_id: body.external_id,
    register_key: key[2],
    register_id: body.register_id ?? null,
    member_id: gathered.member?.record.id ?? null,
    status: 'completed',
    line_items: presentLines(lines, calc),
    subtotal: calc.subtotal,
    discount_amount: calc.discountAmount,
    redeemed: calc.redeemed,
    earned: calc.earned,
    earn_capped: calc.earnCapped,
    stamps_earned: calc.stampsEarned,
    paid: calc.paid,
    refunded_amount: 0,
    closed_at: body.closed_at ? new Date(body.closed_at) : null,
    venue_day: dayOf(caller, body),
    hold_id: gathered.hold?.id ?? null,
    display: checkDisplay(caller, calc, before, after),
    fingerprint,
    livemode: caller.livemode,
    created_at: at,
    voided_at: null,
    earned_reversed: 0,
    redeemed_returned: 0,
    redeemed_lots: lots.redeemedLots,
    numbered_twice: false,
  };
  const transaction = presentTransaction(row);
  await writeTogether(trx, effectSteps(trx, caller, at, gathered, decision, lots, repo.insertStep(trx, row), 'transaction.completed', transaction, request));
  return { transaction, replayed: false };
}


/**
 * Captures a hold into a check applied without it: the check must be the hold's member's, completed, with no
 * redemption and no refunds yet. Its stored lines go through the same calculation as a new check, with the
 * redemption, the lines' percents as applied, the calling key's per-check cap and the per-day cap of the check's
 * own venue day; it never earns more than it did. The ledger gets exactly the differences. Lock the hold's member,
 * gather (hold, holds, the check, its day's earnings), decide, write.
 */
export async function captureHoldIntoCheck(
  trx: Db,
  caller: PlaceCaller,
  holdId: string,
  body: CaptureBody,
  ctx: CheckContext,
  request: EventRequest,
): Promise<Transaction> {
  const { member: locked } = await members.memberNamed(trx, caller, {}, { lock: true, memberOf: holds.memberOfHold(trx, caller, holdId) });
  if (!locked) throw new ApiError('hold_not_found', { param: 'hold_id' });
  const at = ctx.clock.now();
  const key = keyOf(caller, body.external_id, body.register_id);
  const read = await readTogether(trx, {
    hold: holds.holdRead(trx, caller, holdId),
    held: members.heldRead(trx, caller, locked.id, at),
    row: repo.transactionRead(trx, key),
    dayEarned: caller.settings.max_cashback_per_day !== null ? repo.earnedOnDay(trx, caller.chainId, locked.id, { of: key }) : undefined,
    lots: await members.lotsReadFor(trx, caller, locked),
  });
  const hold = holds.usableHold(read.hold, at);
  const row = read.row ?? missingTransaction(caller, body.register_id);
  if (row.member_id !== hold.memberId) throw new ApiError('parameter_invalid', { param: 'external_id', message: "The check is not the hold's member's." });
  if (row.status !== 'completed' || Number(row.redeemed) > 0 || Number(row.refunded_amount) > 0) {
    throw new ApiError('parameter_invalid', {
      param: 'external_id',
      message: 'A hold can be captured only into a completed check that redeemed nothing and has no refunds.',
    });
  }
  const member = await members.withHeld(trx, caller, locked, read.held, at, read.lots);
  const room = dayRoom(caller, read.dayEarned);
  const earnedBefore = Number(row.earned);
  const gathered: Gathered = { member, hold, earnRoom: room === null ? earnedBefore : Math.min(room, earnedBefore) };
  const lines: PricedLine[] = (row.line_items as Transaction['line_items']).map((l) => ({
    ...l,
    rule: {
      category: l.category,
      source: l.rule_source,
      earnsCashback: l.earns_cashback,
      payableWithCashback: l.payable_with_cashback,
      percentBp: Math.round(l.cashback_percent * 100),
    },
  }));
  const decision = decide(caller, gathered, lines, body.redeem_amount, row);
  const { calc } = decision;
  const lots = checkLots(trx, caller, member, decision.effect, row.venue_day, request);
  const { before, after } = memberViews(caller, member, decision.effect, lots);
  const updated: repo.TransactionRow = {
    ...row,
    redeemed: calc.redeemed,
    earned: calc.earned,
    earn_capped: calc.earnCapped,
    paid: calc.paid,
    hold_id: hold.id,
    redeemed_lots: lots.redeemedLots,
    line_items: presentLines(lines, calc),
    display: checkDisplay(caller, calc, before, after),
  };
  const transaction = presentTransaction(updated);
  await writeTogether(trx, effectSteps(trx, caller, at, gathered, decision, lots, repo.captureStep(trx, updated), 'transaction.updated', transaction, request));
  return transaction;
}

/** 404 for a transaction not found; while checks are numbered per register without register_id: say what is missing. */
function missingTransaction(caller: PlaceCaller, registerId: string | undefined): never {
  if (caller.settings.checks_numbered_per_register && !registerId) throw new ApiError('register_id_required', { param: 'register_id' });
  throw new ApiError('transaction_not_found');
}

async function ownTransaction(db: Db, caller: PlaceCaller, externalId: string, registerId: string | undefined, forUpdate = false) {
  return (await repo.findTransaction(db, keyOf(caller, externalId, registerId), forUpdate)) ?? missingTransaction(caller, registerId);
}

/**
 * What a void or a refund stands on: the check's member locked first (every change to a member's money takes that
 * lock first, so a capture into the same check and a void take turns without a deadlock), then, read after the
 * lock, the check, the refund of that external_id if any, and the member's balance. A check without a member is
 * locked itself.
 */
async function gatherReversal(trx: Db, caller: PlaceCaller, externalId: string, registerId: string | undefined, clock: Clock, refundExternalId?: string) {
  const key = keyOf(caller, externalId, registerId);
  const { member } = await members.memberNamed(trx, caller, {}, { lock: true, memberOf: repo.memberOfTransaction(trx, key) });
  if (member) {
    const asOf = clock.now();
    const read = await readTogether(trx, {
      row: repo.transactionRead(trx, key),
      refund: refundExternalId === undefined ? undefined : repo.refundRead(trx, key, refundExternalId),
      ...(await members.reversalReads(trx, caller, member, asOf)),
    });
    const { balance, lots } = await members.reversalMember(trx, caller, member, read, asOf);
    return { row: read.row ?? missingTransaction(caller, registerId), previous: read.refund ?? null, balance, lots };
  }
  const row = (await repo.findTransaction(trx, key, true)) ?? missingTransaction(caller, registerId);
  const previous = refundExternalId === undefined ? null : ((await repo.findRefund(trx, caller.chainId, row.id, refundExternalId)) ?? null);
  // A check with a member applied after the lock statement began: lock that member now (PostgreSQL breaks the
  // rare deadlock this order can meet, and the transaction runs again).
  const late = row.member_id ? (await members.memberNamed(trx, caller, { member_id: row.member_id }, { lock: true })).member : null;
  if (!late) return { row, previous, balance: null, lots: null };
  const asOf = clock.now();
  const read = await readTogether(trx, await members.reversalReads(trx, caller, late, asOf));
  return { row, previous, ...(await members.reversalMember(trx, caller, late, read, asOf)) };
}

/**
 * What a reversal gives back of the check's redemption, part by part (D20): to the lots it was taken from and to
 * no lot, in proportion; and what the check still has from each lot afterwards (its `redeemed_lots`).
 */
const redemptionReturned = (row: repo.TransactionRow, redeemedBack: number) =>
  members.redemptionBack(row.redeemed_lots, Number(row.redeemed) - Number(row.redeemed_returned), redeemedBack);

/**
 * A reversal's ledger entries and what it does to the member's lots (D20): what it gives back goes to where the
 * redemption took it from (`returned`; after paying back any debt), what it takes back comes out of the lot of
 * the check's venue day first. With the member's balance after it as a read then shows it (`balance`: before).
 */
function reversalWrite(
  trx: Db,
  caller: PlaceCaller,
  row: repo.TransactionRow,
  gathered: { balance: number | null; lots: Awaited<ReturnType<typeof members.reversalMember>>['lots'] },
  back: { redeemed: number; earned: number; entry: members.LedgerInput | null | ''; returned: ReturnType<typeof redemptionReturned> },
  at: Date,
  request: EventRequest,
): { steps: WriteStep[]; balance: number | null } {
  const { entry } = back;
  const balance = gathered.balance === null ? null : gathered.balance + back.redeemed - back.earned;
  if (!entry) return { steps: [], balance };
  const lotsWrite = members.lotsWrite(trx, caller, entry.memberId, gathered.lots, [
    ...back.returned.credits,
    ...(back.earned > 0 ? [{ debit: back.earned, day: row.venue_day }] : []),
  ], request);
  return {
    steps: [...members.ledgerSteps(trx, caller, [...lotsWrite.entries, ...reversalEntries(entry.memberId, { ...back, entry })], at), ...lotsWrite.steps],
    balance: balance === null ? null : members.balanceAfter(gathered.lots, balance, lotsWrite.open),
  };
}

/** What a reversal gives back and takes back, as ledger entries with the member's own entry (`entry`). */
function reversalEntries(memberId: string, back: { redeemed: number; earned: number; entry: members.LedgerInput }): members.LedgerInput[] {
  return [
    ...(back.redeemed > 0 ? [{ memberId, kind: 'redemption_reversal', cashback: back.redeemed, reference: back.entry.reference }] : []),
    ...(back.earned > 0 ? [{ memberId, kind: 'earn_reversal', cashback: -back.earned, reference: back.entry.reference }] : []),
    back.entry,
  ];
}

export async function getTransaction(db: Db, caller: PlaceCaller, externalId: string, registerId?: string): Promise<Transaction> {
  return presentTransaction(await ownTransaction(db, caller, externalId, registerId));
}

export async function listTransactions(db: Db, caller: Caller, page: Page, filter: { member_id?: string; status?: string }): Promise<List<Transaction>> {
  await checkCursor(page, (id) => repo.transactionIdExists(db, caller, id));
  const rows = await repo.listTransactions(db, caller, page, { memberId: filter.member_id, status: filter.status });
  return toList('/v1/transactions', page, rows, presentTransaction);
}

/** The refunds of the member's checks, newest first (their export): the records, without the text shown then. */
export async function listMemberRefunds(db: Db, caller: Caller, memberId: string, page: Page) {
  const rows = await repo.listMemberRefunds(db, caller.chainId, memberId, page);
  return toList('/v1/transactions', page, rows, (r) => ({
    id: r.id,
    external_id: r.external_id,
    transaction_id: r.transaction_id,
    transaction_external_id: r.transaction_external_id,
    amount: Number(r.amount),
    earned_reversed: Number(r.earned_reversed),
    redeemed_returned: Number(r.redeemed_returned),
    livemode: r.livemode,
    created_at: formatTimestamp(r.created_at),
  }));
}

/** Replaces the text a check showed (a member's erasure: it named them); its figures stay as they are. */
export async function replaceTransactionDisplay(trx: Db, caller: PlaceCaller, id: string, display: Transaction['display']): Promise<void> {
  await repo.replaceDisplay(trx, caller, id, display);
}

/**
 * Voids a check: returns what it redeemed and takes back what it earned (the balance may go negative, and shows
 * so), takes its spend, visit and stamps back. Voiding a voided check changes nothing.
 */
export async function voidTransaction(trx: Db, caller: PlaceCaller, externalId: string, registerId: string | undefined, clock: Clock): Promise<Transaction> {
  const { row, balance, lots } = await gatherReversal(trx, caller, externalId, registerId, clock);
  if (row.status === 'voided') return presentTransaction(row);
  const at = clock.now();
  const redeemedBack = Number(row.redeemed) - Number(row.redeemed_returned);
  const earnedBack = Number(row.earned) - Number(row.earned_reversed);
  const back = Number(row.paid) - Number(row.refunded_amount);
  const returned = redemptionReturned(row, redeemedBack);
  const entry = row.member_id && { memberId: row.member_id, kind: 'void', spend: -back, visits: -1, stamps: -row.stamps_earned, reference: externalId };
  const reversal = reversalWrite(trx, caller, row, { balance, lots }, { redeemed: redeemedBack, earned: earnedBack, entry, returned }, at, null);
  const display = reversalDisplay(
    caller,
    { cashier: `Check ${externalId} voided`, amountLine: 'Voided', amount: back, redeemedReturned: redeemedBack, earnedReversed: earnedBack },
    reversal.balance,
  );
  const voided: repo.TransactionRow = { ...row, status: 'voided', voided_at: at, earned_reversed: row.earned, redeemed_returned: row.redeemed, redeemed_lots: returned.left, display };
  await writeTogether(trx, [...reversal.steps, repo.voidStep(trx, voided)]);
  return presentTransaction(voided);
}

/**
 * A partial refund of what was paid. Earned and redeemed are reversed in proportion, cumulatively: after refunds
 * totalling R of P paid, exactly floor(earned × R / P) has been taken back, so a full refund reverses everything.
 */
export async function refundTransaction(
  trx: Db,
  caller: PlaceCaller,
  externalId: string,
  body: RefundBody,
  clock: Clock,
  request: EventRequest,
): Promise<{ refund: Refund; replayed: boolean }> {
  const { row, previous, balance, lots } = await gatherReversal(trx, caller, externalId, body.register_id, clock, body.external_id);
  if (previous) {
    if (Number(previous.amount) !== body.amount) throw new ApiError('external_id_reused', { param: 'external_id' });
    const now = row.member_id ? (await members.memberById(trx, caller, row.member_id)).balance : null;
    return { refund: refundAnswer(caller, previous, row, now), replayed: true };
  }
  const paid = Number(row.paid);
  const refundable = row.status === 'completed' ? paid - Number(row.refunded_amount) : 0;
  if (body.amount > refundable) {
    throw new ApiError('refund_exceeds_check', {
      message: `Only ${refundable} of this check can still be refunded.`,
      details: { refundable },
    });
  }
  const at = clock.now();
  const refundedAfter = Number(row.refunded_amount) + body.amount;
  const earnedBack = mulDiv(Number(row.earned), refundedAfter, paid) - Number(row.earned_reversed);
  const redeemedBack = mulDiv(Number(row.redeemed), refundedAfter, paid) - Number(row.redeemed_returned);
  const refundRow: repo.RefundRow = {
    chain_id: caller.chainId,
    venue_id: caller.venueId,
    id: newId(),
    transaction_id: row.id,
    external_id: body.external_id,
    amount: body.amount,
    earned_reversed: earnedBack,
    redeemed_returned: redeemedBack,
    livemode: caller.livemode,
    created_at: at,
  };
  const returned = redemptionReturned(row, redeemedBack);
  const updated: repo.TransactionRow = {
    ...row,
    redeemed_lots: returned.left,
    refunded_amount: refundedAfter,
    earned_reversed: Number(row.earned_reversed) + earnedBack,
    redeemed_returned: Number(row.redeemed_returned) + redeemedBack,
  };
  const entry = row.member_id && { memberId: row.member_id, kind: 'refund', spend: -body.amount, reference: body.external_id };
  const reversal = reversalWrite(trx, caller, row, { balance, lots }, { redeemed: redeemedBack, earned: earnedBack, entry, returned }, at, request);
  const refund = refundAnswer(caller, refundRow, updated, reversal.balance);
  await writeTogether(trx, [
    ...reversal.steps,
    ...repo.refundSteps(trx, refundRow, { amount: body.amount, earnedBack, redeemedBack, redeemedLots: returned.left }),
    ...eventSteps(trx, { chainId: caller.chainId, venueId: caller.venueId, type: 'transaction.refunded', livemode: caller.livemode, object: refund.transaction, request }),
  ]);
  return { refund, replayed: false };
}

/** A refund with its check and the member's cashback balance after it (null: no member, or no cashback). */
function refundAnswer(caller: PlaceCaller, row: repo.RefundRow, transaction: repo.TransactionRow, balance: number | null): Refund {
  const amount = Number(row.amount);
  const display = reversalDisplay(
    caller,
    {
      cashier: `Refund ${formatMoney(amount, caller.venue)} of check ${transaction.external_id}`,
      amountLine: 'Refund',
      amount,
      redeemedReturned: Number(row.redeemed_returned),
      earnedReversed: Number(row.earned_reversed),
    },
    balance,
  );
  return presentRefund(row, presentTransaction(transaction), display);
}
