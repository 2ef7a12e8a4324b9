// A new check: calculate (writes nothing) and apply share one path, gather → decide → write, that a capture reuses.
import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';
import type { Db } from '../../db/database.js';
import type { TransactionSource } from '../../db/schema.js';
import { sql } from 'kysely';
import { readsAlong, readTogether, writeTogether, type FoldedKey, type Read, type ValueOrRef, type WriteStep } from '../../db/statement.js';
import type { Clock } from '../../shared/clock.js';
import { ApiError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { venueDay } from '../../shared/time.js';
import type { PlaceCaller } from '../../modules/accounts/schemas.js';
import * as campaigns from '../../modules/campaigns/service.js';
import * as catalogue from '../../modules/catalogue/service.js';
import * as holds from '../../modules/holds/service.js';
import * as members from '../../modules/members/service.js';
import * as tillMembers from '../../modules/members/till.js';
import type { Lot } from '../../modules/members/expiry.js';
import { presentMember } from '../../modules/members/view.js';
import * as visits from '../../modules/visits/service.js';
import { eventSteps, type EventRequest } from '../../modules/webhooks/events.js';
import type { EventType } from '../../modules/webhooks/schemas.js';
import { campaignTotal, checkQuantities, checkRegisterRules, dayRoom, decide, keptCampaigns, pricedLines, withBudgetsTaken, type Decision, type Effect, type Gathered } from '../../modules/checks/decide.js';
import { keyOf } from '../../modules/checks/reads.js';
import { creditReferrers, lockReferrers, referrersOf } from './referrals.js';
import * as repo from '../../modules/checks/repo.js';
import type { CalculateBody, CheckBody, CheckCalculation, Transaction } from '../../modules/checks/schemas.js';
import { checkDisplay, presentCampaigns, presentLines, presentTransaction } from '../../modules/checks/view.js';

/** What checks need from outside the request: the clock, and the scan window of card_scan_required. */
export interface CheckContext {
  clock: Clock;
  scanWindowSeconds: number;
}

/** The member before and after the check (which happened at `check.at`, written at `check.now`), as the API shows them. */
export function memberViews(caller: PlaceCaller, member: tillMembers.CheckMember | null, effect: Effect, lots: members.LotsWrite, check: { at: Date; now: Date }) {
  if (!member) return { before: null, after: null };
  const r = member.record;
  const window = members.levelWindow(member.program.rules, effect.spend, check.at, check.now);
  const after = tillMembers.settledAfter(caller, member, {
    ...r,
    cashback: r.cashback + effect.earned + campaignTotal(effect.campaigns, 'cashback') - effect.redeemed,
    held: r.held + effect.held,
    spend: r.spend + effect.spend,
    level_spend: r.level_spend + (window?.spend ?? 0),
    visits: r.visits + effect.visits,
    stamps: r.stamps + effect.stamps + campaignTotal(effect.campaigns, 'stamps'),
  }, lots.open);
  return { before: presentMember(r, member.program, caller.venue), after: presentMember(after, member.program, caller.venue) };
}

/**
 * The steps of the one write of new checks and captures alike: the check's row (`row`, inserted or updated by
 * `rowStep`), its ledger entries with the member's totals, the hold's capture, and the event.
 */
export function effectSteps(
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
          ...[
            ...(effect.redeemed > 0 ? [{ memberId, kind: 'redemption', cashback: -effect.redeemed, reference }] : []),
            ...(effect.earned > 0 ? [{ memberId, kind: 'earn', cashback: effect.earned, reference }] : []),
            ...(effect.earned < 0 ? [{ memberId, kind: 'earn_reversal', cashback: effect.earned, reference }] : []),
            ...effect.campaigns.map((c) => ({ memberId, kind: 'campaign', campaignId: c.campaignId, reason: c.name, [c.unit]: c.amount, reference: c.reference ?? reference })),
            { memberId, kind: 'check', spend: effect.spend, visits: effect.visits, stamps: effect.stamps, reference },
          ].map((e) => ({ ...e, transactionId: transaction.id })),
        ], at, { member: member.record, program: member.program, checkAt: checkTime(transaction), reason: 'spend', reference, request })
      : []),
    ...lots.steps,
    ...(hold ? [holds.captureStep(trx, caller, hold.id, calc.redeemed, reference)] : []),
    ...eventSteps(trx, { chainId: caller.chainId, venueId: caller.venueId, type: event, livemode: caller.livemode, object: transaction, request }),
  ];
}

/** When a check happened: when it closed, else when it was received. Levels' windows count it from then. */
const checkTime = (transaction: Transaction) => new Date(transaction.closed_at ?? transaction.created_at);

/**
 * What the check does to the member's cashback lots (D20): the redemption comes out of the lots that expire
 * soonest, the earning (bonuses' cashback with it) goes into the lot of the check's venue day, and earning a capture
 * takes back comes out of that lot first; a referral's cashback goes into today's lot. Nothing when the member's
 * program does not expire cashback.
 */
export function checkLots(trx: Db, caller: PlaceCaller, member: tillMembers.CheckMember | null, effect: Effect, day: string, request: EventRequest): members.LotsWrite {
  const earned = effect.earned + campaignTotal(effect.campaigns.filter((c) => !c.lotDay), 'cashback');
  const referrals = effect.campaigns.filter((c) => c.lotDay && c.unit === 'cashback' && c.amount > 0);
  return members.lotsWrite(trx, caller, member?.record.id ?? '', member?.lots ?? null, [
    ...(effect.redeemed > 0 ? [{ debit: effect.redeemed, day: null }] : []),
    ...(earned > 0 ? [{ credit: earned, day }] : []),
    ...(earned < 0 ? [{ debit: -earned, day }] : []),
    ...referrals.map((c) => ({ credit: c.amount, day: c.lotDay! })),
  ], request);
}

/** 404 for the member a check names, or for its hold when it names no member. */
function namedNotFound(body: CalculateBody): ApiError {
  const namesMember = body.member_id !== undefined || body.card_number !== undefined || body.barcode !== undefined;
  return body.hold_id && !namesMember ? new ApiError('hold_not_found', holds.HOLD_IN_BODY) : new ApiError('member_not_found');
}

/** The hold's member, for a check that names a hold but no member. */
const memberOfHold = (db: Db, caller: PlaceCaller, body: CalculateBody) => (body.hold_id ? holds.memberOfHold(db, caller, body.hold_id, holds.HOLD_IN_BODY) : undefined);

/** When the check happened: when it closed, else when it was received. Campaigns are judged at it. */
const momentOf = (caller: PlaceCaller, body: CalculateBody) => (body.closed_at ? new Date(body.closed_at) : caller.now);

/** The day a check counts in for the per-day cap: the venue-local date it closed (else was received). */
const dayOf = (caller: PlaceCaller, body: CalculateBody) => venueDay(momentOf(caller, body), caller.venue.timezone);

/**
 * Everything a new check's decision reads besides the member's row: what the member's holds keep as of `asOf` (for a
 * locked member: the clock read after the lock), their lots, the hold, the day's earnings, the recent scan, the
 * lines' rules, and with `numbered` a transaction of that number committed while the lock was awaited. `member.id`
 * is their id, or the column of the member's own statement these reads ride along (calculate).
 */
function checkReads(
  db: Db,
  caller: PlaceCaller,
  body: CalculateBody,
  ctx: CheckContext,
  member: { id: ValueOrRef<string>; lots: Read<Lot[]> | undefined } | null,
  rules: catalogue.LineRules,
  asOf: Date,
  numbered?: repo.TransactionKey,
) {
  const memberId = member?.id;
  return {
    existing: numbered && member ? repo.transactionRead(db, numbered) : undefined,
    held: memberId ? tillMembers.heldRead(db, caller, memberId, asOf) : undefined,
    lots: member?.lots,
    hold: body.hold_id ? holds.holdRead(db, caller, body.hold_id, holds.HOLD_IN_BODY) : undefined,
    dayEarned: memberId && caller.settings.max_cashback_per_day !== null ? repo.earnedOnDay(db, caller.chainId, memberId, dayOf(caller, body)) : undefined,
    scanned: memberId && caller.settings.card_scan_required ? visits.recentScanRead(db, caller, memberId, ctx.scanWindowSeconds) : undefined,
    campaigns: memberId ? campaigns.checkCampaignsRead(caller, memberId, momentOf(caller, body)) : undefined,
    rules: rules.read,
  };
}

/** The check's reads in one statement, after the member's lock. */
async function readForCheck(
  db: Db,
  caller: PlaceCaller,
  body: CalculateBody,
  ctx: CheckContext,
  member: tillMembers.LockedMember | null,
  asOf: Date,
  numbered?: repo.TransactionKey,
) {
  const rules = catalogue.lineRules(caller, body.line_items);
  const lots = member ? await tillMembers.lotsReadFor(db, caller, member) : undefined;
  const read = await readTogether(db, checkReads(db, caller, body, ctx, member && { id: member.id, lots }, rules, asOf, numbered));
  return { ...read, member, asOf, lineRules: await rules.resolve(db, read.rules) };
}

/**
 * What the decision stands on, from what was read: the hold judged by the same clock reading as what the member's
 * holds keep (an expiring hold is never counted twice), the scan required, the per-day room, the lines priced.
 */
async function judgeRead(db: Db, caller: PlaceCaller, body: CalculateBody, ctx: CheckContext, read: Awaited<ReturnType<typeof readForCheck>>) {
  const { member, asOf } = read;
  const hold = body.hold_id ? holds.usableHold(read.hold ?? null, asOf, holds.HOLD_IN_BODY) : null;
  if (member && caller.settings.card_scan_required) visits.requireRecentScan(read.scanned ?? false, ctx.scanWindowSeconds);
  const gathered: Gathered = {
    member: member && (await tillMembers.withHeld(db, caller, member, read.held ?? 0, asOf, read.lots)),
    hold,
    earnRoom: member ? dayRoom(caller, read.dayEarned) : null,
    day: dayOf(caller, body),
    asOf,
    campaigns: campaigns.campaignsAt(read.campaigns ?? [], momentOf(caller, body), caller.venue.timezone),
  };
  return { gathered, lines: pricedLines(body, read.lineRules) };
}

/** The same external_id again: the same body replays the transaction as it is now, another is 409. */
function replay(existing: repo.TransactionRow, fingerprint: string) {
  if (existing.fingerprint !== fingerprint) throw new ApiError('external_id_reused', { param: 'external_id' });
  return { transaction: presentTransaction(existing), replayed: true };
}

/**
 * What the check would do, writing nothing: the till shows it before the guest pays. The member's row and the
 * gather are one statement (the reads ride along the member's row), so one snapshot, as apply reads them under
 * the lock: a check committing in between would otherwise mix a balance before it with a day's earnings after.
 */
export async function calculateCheck(db: Db, caller: PlaceCaller, body: CalculateBody, ctx: CheckContext): Promise<CheckCalculation> {
  checkQuantities(body);
  checkRegisterRules(caller, body);
  const asOf = caller.now;
  const rules = catalogue.lineRules(caller, body.line_items);
  const along = readsAlong(checkReads(db, caller, body, ctx, { id: sql.ref<string>('m.id'), lots: await tillMembers.lotsAlongRead(db, caller) }, rules, asOf));
  const named = await tillMembers.memberNamed(db, caller, body, { lock: false, memberOf: memberOfHold(db, caller, body), alongside: along.expression });
  if (!named.found) throw namedNotFound(body);
  const values = named.member ? along.parse(named.alongside) : await readTogether(db, checkReads(db, caller, body, ctx, null, rules, asOf));
  const member = named.member && (await tillMembers.judgedAt(db, caller, named.member, asOf, false));
  const read = { ...values, member, asOf, lineRules: await rules.resolve(db, values.rules) };
  const { gathered, lines } = await judgeRead(db, caller, body, ctx, read);
  const { calc, effect } = decide(caller, gathered, lines, body.redeem_amount);
  const { before, after } = memberViews(caller, gathered.member, effect, checkLots(db, caller, gathered.member, effect, gathered.day, null), { at: momentOf(caller, body), now: asOf });
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
    campaigns: presentCampaigns(calc.campaigns),
    display: checkDisplay(caller, calc, before, after),
  };
}

/** Who sends a check: the API, or a connector with the provider's own ids (D26). */
export interface CheckOrigin {
  source: TransactionSource;
  metadata: Record<string, string> | null;
}
const FROM_API: CheckOrigin = { source: 'api', metadata: null };

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
  key: FoldedKey | null = null,
  origin: CheckOrigin = FROM_API,
): Promise<{ transaction: Transaction; replayed: boolean }> {
  checkQuantities(body);
  const numbered = keyOf(caller, body.external_id, body.register_id);
  const fingerprint = createHash('sha256').update(stringify(body)).digest('hex');
  const locked = await tillMembers.memberNamed(trx, caller, body, {
    lock: true,
    memberOf: memberOfHold(trx, caller, body),
    alongside: repo.transactionJson(trx, numbered),
    key,
  });
  // Read with the lock's snapshot: what it finds is a replay for sure; a check committed while this request
  // waited for the lock is found by the gather, and one without a member by the external-id constraints.
  const existing = locked.member ? repo.transactionFromJson(locked.alongside) : await repo.findTransaction(trx, numbered);
  if (existing) return replay(existing, fingerprint);
  checkRegisterRules(caller, body);
  if (!locked.found) throw namedNotFound(body);

  const at = ctx.clock.now();
  // Level spend that has left the window is judged first (members/levels.ts): the decision never counts it.
  const member = locked.member && (await tillMembers.judgedAt(trx, caller, locked.member, at, true));
  const read = await readForCheck(trx, caller, body, ctx, member, at, numbered);
  if (read.existing) return replay(read.existing, fingerprint);
  const { gathered, lines } = await judgeRead(trx, caller, body, ctx, read);
  const wanted = decide(caller, gathered, lines, body.redeem_amount);
  // The campaigns' budgets are taken after the members' locks, as every credit takes them: the last check gets what is left.
  const referrers = referrersOf(wanted.calc.campaigns);
  await lockReferrers(trx, caller, referrers);
  const budgets = { ...caller, now: at };
  const shares = wanted.calc.campaigns.filter((c) => c.amount > 0).map((c) => ({ campaign_id: c.campaignId, name: c.name, amount: c.wanted, room: c.terms.room }));
  const taken = await campaigns.takeForCheck(trx, budgets, shares, referrers.length > 0, request);
  const decision = withBudgetsTaken(wanted, taken.credits);
  const { calc } = decision;
  const lots = checkLots(trx, caller, gathered.member, decision.effect, gathered.day, request);
  const { before, after } = memberViews(caller, gathered.member, decision.effect, lots, { at: momentOf(caller, body), now: at });
  const row: repo.TransactionRow = {
    chain_id: caller.chainId,
    venue_id: caller.venueId,
    id: newId(),
    external_id: body.external_id,
    register_key: numbered[2],
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
    visit_min_paid: calc.visitMinPaid,
    paid: calc.paid,
    refunded_amount: 0,
    closed_at: body.closed_at ? new Date(body.closed_at) : null,
    venue_day: gathered.day,
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
    campaigns: await creditReferrers(trx, caller, keptCampaigns(calc.campaigns), calc.campaigns, at, request),
    source: origin.source,
    metadata: origin.metadata,
  };
  const transaction = presentTransaction(row);
  const written = await writeTogether<campaigns.SpentRow>(
    trx,
    [
      ...effectSteps(trx, caller, at, gathered, decision, lots, repo.insertStep(trx, row), 'transaction.completed', transaction, request),
      ...taken.steps,
      ...(key ? [key.recordStep(trx, transaction)] : []),
    ],
    taken.returning,
  );
  await campaigns.announceEmptied(trx, budgets, written, request);
  return { transaction, replayed: false };
}
