// Voids and partial refunds: what the check redeemed goes back and what it earned is taken back, in proportion, through the ledger.
import type { Db } from '../../db/database.js';
import type { CampaignReversed, CheckCampaign } from '../../db/schema.js';
import { readTogether, writeTogether, type FoldedKey, type WriteStep } from '../../db/statement.js';
import type { Clock } from '../../shared/clock.js';
import { formatMoney } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { PlaceCaller } from '../../modules/accounts/schemas.js';
import * as campaigns from '../../modules/campaigns/service.js';
import * as members from '../../modules/members/service.js';
import * as tillMembers from '../../modules/members/till.js';
import { eventSteps, type EventRequest } from '../../modules/webhooks/events.js';
import { mulDiv } from '../../modules/checks/calculation.js';
import { keyOf, missingTransaction } from '../../modules/checks/reads.js';
import { creditedReferrersOf, lockReferrers, takeBackReferrers } from './referrals.js';
import * as repo from '../../modules/checks/repo.js';
import type { Refund, RefundBody, Transaction } from '../../modules/checks/schemas.js';
import { presentRefund, presentTransaction, reversalDisplay } from '../../modules/checks/view.js';

/**
 * What a void or a refund stands on: the check's member locked first (every change to a member's money takes that
 * lock first, so a capture into the same check and a void take turns without a deadlock), then, read after the
 * lock, the check, the refund of that external_id if any, and the member's balance. A check without a member is
 * locked itself.
 */
async function gatherReversal(
  trx: Db,
  caller: PlaceCaller,
  target: { externalId: string; registerId: string | undefined; refundExternalId?: string },
  clock: Clock,
  idempotencyKey: FoldedKey | null,
) {
  const { externalId, registerId, refundExternalId } = target;
  const key = keyOf(caller, externalId, registerId);
  const { member } = await tillMembers.memberNamed(trx, caller, {}, { lock: true, memberOf: repo.memberOfTransaction(trx, key), key: idempotencyKey });
  if (member) {
    const asOf = clock.now();
    const judged = await tillMembers.judgedAt(trx, caller, member, asOf, true);
    const read = await readTogether(trx, {
      row: repo.transactionRead(trx, key),
      refund: refundExternalId === undefined ? undefined : repo.refundRead(trx, key, refundExternalId),
      ...(await tillMembers.reversalReads(trx, caller, member, asOf)),
    });
    const { balance, lots, level } = await tillMembers.reversalMember(trx, caller, judged, read, asOf);
    return { row: read.row ?? missingTransaction(caller, registerId), previous: read.refund ?? null, balance, lots, level };
  }
  const row = (await repo.findTransaction(trx, key, true)) ?? missingTransaction(caller, registerId);
  const previous = refundExternalId === undefined ? null : ((await repo.findRefund(trx, caller.chainId, row.id, refundExternalId)) ?? null);
  // A check with a member applied after the lock statement began: lock that member now (PostgreSQL breaks the
  // rare deadlock this order can meet, and the transaction runs again).
  const late = row.member_id ? (await tillMembers.memberNamed(trx, caller, { member_id: row.member_id }, { lock: true })).member : null;
  if (!late) return { row, previous, balance: null, lots: null, level: null };
  const asOf = clock.now();
  const judged = await tillMembers.judgedAt(trx, caller, late, asOf, true);
  const read = await readTogether(trx, await tillMembers.reversalReads(trx, caller, judged, asOf));
  return { row, previous, ...(await tillMembers.reversalMember(trx, caller, judged, read, asOf)) };
}

/**
 * What a reversal gives back of the check's redemption, part by part (D20): to the lots it was taken from and to
 * no lot, in proportion; and what the check still has from each lot afterwards (its `redeemed_lots`).
 */
const redemptionReturned = (row: repo.TransactionRow, redeemedBack: number) =>
  members.redemptionBack(row.redeemed_lots, Number(row.redeemed) - Number(row.redeemed_returned), redeemedBack);

/**
 * What a reversal takes back of each campaign credit of the check (D22), given what it has taken back in all once
 * done (`inAll`), and the credits as the check keeps them afterwards.
 */
function campaignsBack(row: repo.TransactionRow, inAll: (c: CheckCampaign) => number): { back: CampaignReversed[]; kept: CheckCampaign[] } {
  const back = row.campaigns
    .map((c) => ({ campaign_id: c.campaign_id, name: c.name, unit: c.unit, amount: inAll(c) - c.reversed, ...(c.reference ? { reference: c.reference } : {}) }))
    .filter((c) => c.amount > 0);
  return { back, kept: row.campaigns.map((c) => ({ ...c, reversed: inAll(c) })) };
}

/** What a reversal takes back of the check's money: its earning and campaign credits, and its redemption it gives back. */
interface Back {
  redeemed: number;
  earned: number;
  campaigns: CampaignReversed[];
  entry: members.LedgerInput | null | '';
  returned: ReturnType<typeof redemptionReturned>;
}

/**
 * A reversal's ledger entries and what it does to the member's lots (D20) and the campaigns' budgets: what it gives
 * back goes to where the redemption took it from (`returned`; after paying back any debt), what it takes back comes
 * out of the lot of the check's venue day first, and campaign credit taken back goes back to the campaign's budget.
 * With the member's balance after it as a read then shows it (`balance`: before).
 */
function reversalWrite(
  trx: Db,
  caller: PlaceCaller,
  row: repo.TransactionRow,
  gathered: Pick<Awaited<ReturnType<typeof gatherReversal>>, 'balance' | 'lots' | 'level'>,
  back: Back,
  at: Date,
  request: EventRequest,
): { steps: WriteStep[]; balance: number | null } {
  const { entry } = back;
  const takenBack = back.earned + back.campaigns.reduce((sum, c) => sum + (c.unit === 'cashback' ? c.amount : 0), 0);
  const balance = gathered.balance === null ? null : gathered.balance + back.redeemed - takenBack;
  if (!entry) return { steps: [], balance };
  const lotsWrite = members.lotsWrite(trx, caller, entry.memberId, gathered.lots, [
    ...back.returned.credits,
    ...(takenBack > 0 ? [{ debit: takenBack, day: row.venue_day }] : []),
  ], request);
  // The spend taken back counts against the level the check's spend counted for (members/levels.ts).
  const level = gathered.level
    ? { ...gathered.level, checkAt: row.closed_at ?? row.created_at, reason: entry.kind === 'void' ? ('void' as const) : ('refund' as const), reference: entry.reference ?? null, request }
    : undefined;
  return {
    steps: [
      ...members.ledgerSteps(trx, caller, [...lotsWrite.entries, ...reversalEntries(entry.memberId, row.id, { ...back, entry })], at, level),
      ...lotsWrite.steps,
      ...campaigns.giveBackSteps(caller.chainId, back.campaigns, at),
    ],
    balance: balance === null ? null : members.balanceAfter(gathered.lots, balance, lotsWrite.open),
  };
}

/** What a reversal gives back and takes back, as ledger entries with the member's own entry (`entry`). */
function reversalEntries(memberId: string, transactionId: string, back: Back & { entry: members.LedgerInput }): members.LedgerInput[] {
  const reference = back.entry.reference;
  return [
    ...(back.redeemed > 0 ? [{ memberId, kind: 'redemption_reversal', cashback: back.redeemed, reference }] : []),
    ...(back.earned > 0 ? [{ memberId, kind: 'earn_reversal', cashback: -back.earned, reference }] : []),
    ...back.campaigns.map((c) => ({ memberId, kind: 'campaign', campaignId: c.campaign_id, reason: c.name, [c.unit]: -c.amount, reference: c.reference ?? reference })),
    back.entry,
  ].map((e) => ({ ...e, transactionId }));
}

/**
 * The visit and stamps a check still counts, taken back when `now` says so (a void, or a refund that leaves it paid
 * below its minimum), as the ledger entry's figures. Taken back once: the check then counts no visit.
 */
function visitTakenBack(row: repo.TransactionRow, now: boolean) {
  const back = now && row.visit_min_paid !== null;
  return { back, stamps: back ? row.stamps_earned : 0, entry: back ? { visits: -1, stamps: -row.stamps_earned } : {} };
}

/**
 * Voids a check: returns what it redeemed and takes back what it earned (the balance may go negative, and shows
 * so), takes its spend, visit and stamps back. Voiding a voided check changes nothing.
 */
export async function voidTransaction(
  trx: Db,
  caller: PlaceCaller,
  externalId: string,
  registerId: string | undefined,
  clock: Clock,
  key: FoldedKey | null = null,
): Promise<{ transaction: Transaction; replayed: boolean }> {
  const { row, balance, lots, level } = await gatherReversal(trx, caller, { externalId, registerId }, clock, key);
  // Voided already (before this call, or by one that held the check's lock first): nothing to do again.
  if (row.status === 'voided') return { transaction: presentTransaction(row), replayed: true };
  const at = clock.now();
  const redeemedBack = Number(row.redeemed) - Number(row.redeemed_returned);
  const earnedBack = Number(row.earned) - Number(row.earned_reversed);
  const back = Number(row.paid) - Number(row.refunded_amount);
  const returned = redemptionReturned(row, redeemedBack);
  const visitBack = visitTakenBack(row, true);
  // A void takes back every campaign credit whole, a referral's too.
  const credits = campaignsBack(row, (c) => c.amount);
  const entry = row.member_id && { memberId: row.member_id, kind: 'void', spend: -back, ...visitBack.entry, reference: externalId };
  const reversal = reversalWrite(trx, caller, row, { balance, lots, level }, { redeemed: redeemedBack, earned: earnedBack, campaigns: credits.back, entry, returned }, at, null);
  const display = reversalDisplay(
    caller,
    {
      cashier: `Check ${externalId} voided`,
      amountLine: 'Voided',
      amount: back,
      redeemedReturned: redeemedBack,
      earnedReversed: earnedBack,
      campaignsReversed: credits.back,
      visitReversed: false,
      stampsReversed: visitBack.stamps,
    },
    reversal.balance,
  );
  const voided: repo.TransactionRow = {
    ...row,
    status: 'voided',
    voided_at: at,
    earned_reversed: row.earned,
    redeemed_returned: row.redeemed,
    redeemed_lots: returned.left,
    visit_min_paid: null,
    display,
    campaigns: credits.kept,
  };
  const transaction = presentTransaction(voided);
  // The referrers before the write gives budgets back: members first, then campaigns.
  await lockReferrers(trx, caller, creditedReferrersOf(row.campaigns));
  await writeTogether(trx, [...reversal.steps, repo.voidStep(trx, voided), ...(key ? [key.recordStep(trx, transaction)] : [])]);
  await takeBackReferrers(trx, caller, row.campaigns, at);
  return { transaction, replayed: false };
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
  key: FoldedKey | null = null,
): Promise<{ refund: Refund; replayed: boolean }> {
  const target = { externalId, registerId: body.register_id, refundExternalId: body.external_id };
  const { row, previous, balance, lots, level } = await gatherReversal(trx, caller, target, clock, key);
  if (previous) {
    if (Number(previous.amount) !== body.amount) throw new ApiError('external_id_reused', { param: 'external_id' });
    const now = row.member_id ? (await members.memberById(trx, caller, row.member_id)).balance : null;
    return { refund: refundAnswer(caller, previous, row, now), replayed: true };
  }
  const paid = Number(row.paid);
  const refundable = row.status === 'completed' ? paid - Number(row.refunded_amount) : 0;
  if (body.amount > refundable) {
    throw new ApiError('refund_exceeds_check', {
      message: `Only ${formatMoney(refundable, caller.venue)} of this check can still be refunded (refundable: ${refundable}).`,
      details: { refundable },
    });
  }
  const at = clock.now();
  const refundedAfter = Number(row.refunded_amount) + body.amount;
  const earnedBack = mulDiv(Number(row.earned), refundedAfter, paid) - Number(row.earned_reversed);
  const redeemedBack = mulDiv(Number(row.redeemed), refundedAfter, paid) - Number(row.redeemed_returned);
  const visitBack = visitTakenBack(row, row.visit_min_paid !== null && paid - refundedAfter < Number(row.visit_min_paid));
  // Cashback credit in proportion, cumulatively, as the earning; stamps with the visit; a referral's never (D22).
  const credits = campaignsBack(row, (c) =>
    c.referral ? c.reversed : c.unit === 'cashback' ? mulDiv(c.amount, refundedAfter, paid) : visitBack.back ? c.amount : c.reversed,
  );
  const refundRow: repo.RefundRow = {
    chain_id: caller.chainId,
    venue_id: caller.venueId,
    id: newId(),
    transaction_id: row.id,
    external_id: body.external_id,
    amount: body.amount,
    earned_reversed: earnedBack,
    redeemed_returned: redeemedBack,
    visit_reversed: visitBack.back,
    campaigns_reversed: credits.back,
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
    visit_min_paid: visitBack.back ? null : row.visit_min_paid,
    campaigns: credits.kept,
  };
  const entry = row.member_id && { memberId: row.member_id, kind: 'refund', spend: -body.amount, ...visitBack.entry, reference: body.external_id };
  const reversal = reversalWrite(trx, caller, row, { balance, lots, level }, { redeemed: redeemedBack, earned: earnedBack, campaigns: credits.back, entry, returned }, at, request);
  const refund = refundAnswer(caller, refundRow, updated, reversal.balance);
  await writeTogether(trx, [
    ...reversal.steps,
    ...repo.refundSteps(trx, refundRow, { amount: body.amount, earnedBack, redeemedBack, redeemedLots: returned.left, visitBack: visitBack.back, campaigns: credits.kept }),
    ...eventSteps(trx, { chainId: caller.chainId, venueId: caller.venueId, type: 'transaction.refunded', livemode: caller.livemode, object: refund.transaction, request }),
    ...(key ? [key.recordStep(trx, refund)] : []),
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
      campaignsReversed: row.campaigns_reversed,
      visitReversed: row.visit_reversed,
      stampsReversed: row.visit_reversed ? transaction.stamps_earned : 0,
    },
    balance,
  );
  return presentRefund(row, presentTransaction(transaction), display);
}
