// Refunds and voids of a check from a member's page (D27): the till's own reversal flows, run for the check at the
// session's venue in the check's mode and numbering, and audited with the user who did it.
import type { Db } from '../db/database.js';
import { refundTransaction, voidTransaction } from '../flows/checks/reverse.js';
import type { PlaceCaller } from '../modules/accounts/schemas.js';
import * as audit from '../modules/audit/service.js';
import { reversalTarget } from '../modules/checks/history.js';
import type { Refund, Transaction } from '../modules/checks/schemas.js';
import type { EventRequest } from '../modules/webhooks/events.js';
import type { Clock } from '../shared/clock.js';

/** The check by id, and the caller a till of its register would be: the same look-up then finds exactly this check. */
async function asItsTill(trx: Db, caller: PlaceCaller, id: string) {
  const target = await reversalTarget(trx, caller, id);
  const till: PlaceCaller = { ...caller, livemode: target.livemode, settings: { ...caller.settings, checks_numbered_per_register: target.registerId !== undefined } };
  return { target, till };
}

/** A refund of part of what the check paid; `external_id` names it, so a repeated request answers the same refund. */
export async function refundCheck(trx: Db, caller: PlaceCaller, id: string, body: { amount: number; external_id: string }, clock: Clock, request: EventRequest): Promise<Refund> {
  const { target, till } = await asItsTill(trx, caller, id);
  const registered = target.registerId === undefined ? {} : { register_id: target.registerId };
  const { refund, replayed } = await refundTransaction(trx, till, target.externalId, { ...body, ...registered }, clock, request);
  if (!replayed) {
    await audit.recordAudit(trx, audit.placeOf(caller), {
      action: 'transaction.refunded',
      target: { type: 'transaction', id },
      changes: { check: [null, target.externalId], refund: [null, body.external_id], amount: [null, body.amount] },
    });
  }
  return refund;
}

/** Voids the check; voiding a voided check changes nothing and is not audited again. */
export async function voidCheck(trx: Db, caller: PlaceCaller, id: string, clock: Clock): Promise<Transaction> {
  const { target, till } = await asItsTill(trx, caller, id);
  const { transaction: voided, replayed } = await voidTransaction(trx, till, target.externalId, target.registerId, clock);
  // Whether this call voided it, as the flow saw the check under its lock: two voids at once are audited once.
  if (!replayed) {
    await audit.recordAudit(trx, audit.placeOf(caller), { action: 'transaction.voided', target: { type: 'transaction', id }, changes: { check: [null, target.externalId], status: ['completed', 'voided'] } });
  }
  return voided;
}
