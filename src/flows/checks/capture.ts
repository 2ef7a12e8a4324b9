// A hold captured into a check applied without it: the check's stored lines through the same decision, the differences written.
import type { Db } from '../../db/database.js';
import { readTogether, writeTogether, type FoldedKey } from '../../db/statement.js';
import { ApiError } from '../../shared/errors.js';
import type { PlaceCaller } from '../../modules/accounts/schemas.js';
import * as campaigns from '../../modules/campaigns/service.js';
import * as holds from '../../modules/holds/service.js';
import * as tillMembers from '../../modules/members/till.js';
import type { EventRequest } from '../../modules/webhooks/events.js';
import { checkLots, effectSteps, memberViews, type CheckContext } from './apply.js';
import { dayRoom, decide, keptCampaigns, termsOfKept, type Gathered } from '../../modules/checks/decide.js';
import { keyOf, missingTransaction } from '../../modules/checks/reads.js';
import * as repo from '../../modules/checks/repo.js';
import type { CaptureBody, Transaction } from '../../modules/checks/schemas.js';
import { checkDisplay, presentLines, presentTransaction, type PricedLine } from '../../modules/checks/view.js';

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
  idempotencyKey: FoldedKey | null = null,
): Promise<Transaction> {
  const memberOf = holds.memberOfHold(trx, caller, holdId);
  const { member: locked } = await tillMembers.memberNamed(trx, caller, {}, { lock: true, memberOf, key: idempotencyKey });
  if (!locked) throw new ApiError('hold_not_found');
  const at = ctx.clock.now();
  const key = keyOf(caller, body.external_id, body.register_id);
  const read = await readTogether(trx, {
    hold: holds.holdRead(trx, caller, holdId),
    held: tillMembers.heldRead(trx, caller, locked.id, at),
    row: repo.transactionRead(trx, key),
    dayEarned: caller.settings.max_cashback_per_day !== null ? repo.earnedOnDay(trx, caller.chainId, locked.id, { of: key }) : undefined,
    lots: await tillMembers.lotsReadFor(trx, caller, locked),
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
  const judged = await tillMembers.judgedAt(trx, caller, locked, at, true);
  const member = await tillMembers.withHeld(trx, caller, judged, read.held, at, read.lots);
  const room = dayRoom(caller, read.dayEarned);
  const earnedBefore = Number(row.earned);
  const gathered: Gathered = {
    member,
    hold,
    earnRoom: room === null ? earnedBefore : Math.min(room, earnedBefore),
    day: row.venue_day,
    asOf: at,
    // The campaigns judged again on the terms they were given on, never crediting more than they did.
    campaigns: termsOfKept(row.campaigns),
  };
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
  const { before, after } = memberViews(caller, member, decision.effect, lots, { at: row.closed_at ?? row.created_at, now: at });
  const updated: repo.TransactionRow = {
    ...row,
    redeemed: calc.redeemed,
    earned: calc.earned,
    earn_capped: calc.earnCapped,
    stamps_earned: calc.stampsEarned,
    // The minimum it counted a visit by stays the one of when it was applied, unless the capture ended the visit.
    visit_min_paid: calc.visitMinPaid === null ? null : (row.visit_min_paid ?? calc.visitMinPaid),
    paid: calc.paid,
    hold_id: hold.id,
    redeemed_lots: lots.redeemedLots,
    line_items: presentLines(lines, calc),
    // A referral stands as it was: only a void takes it back.
    campaigns: [...keptCampaigns(calc.campaigns), ...row.campaigns.filter((c) => c.referral)],
    // The receipt names the referral the check still carries, as the transaction does.
    display: checkDisplay(caller, { ...calc, campaigns: [...calc.campaigns, ...row.campaigns.filter((c) => c.referral)] }, before, after),
  };
  const transaction = presentTransaction(updated);
  const steps = [
    ...effectSteps(trx, caller, at, gathered, decision, lots, repo.captureStep(trx, updated), 'transaction.updated', transaction, request),
    ...campaigns.giveBackSteps(caller.chainId, decision.effect.campaigns.map((c) => ({ campaign_id: c.campaignId, amount: -c.amount })), at),
  ];
  await writeTogether(trx, idempotencyKey ? [...steps, idempotencyKey.recordStep(trx, transaction)] : steps);
  return transaction;
}
