// A connector's checks and refunds, through the same flows as the API (every money rule, cap, campaign and webhook
// applies unchanged), each written once per provider object in the transaction that records it as handled.
import type { Db } from '../../db/database.js';
import type { TransactionSource } from '../../db/schema.js';
import { applyCheck } from '../../flows/checks/apply.js';
import { refundTransaction } from '../../flows/checks/reverse.js';
import type { PlaceCaller } from '../../modules/accounts/schemas.js';
import type { CheckBody, Refund, Transaction } from '../../modules/checks/schemas.js';
import type { Clock } from '../../shared/clock.js';
import { ApiError } from '../../shared/errors.js';
import * as repo from './repo.js';

/** The provider's objects a write stands for: the first decides whether it was handled before. */
export interface Handling {
  integration: repo.IntegrationRow;
  /** e.g. ['order:<id>', 'payment:<id>']; the first is the object, the rest point at it (a refund finds its check by its payment). */
  keys: string[];
}

export type Written<T> = { kind: 'written'; value: T } | { kind: 'handled_before'; externalId: string } | { kind: 'refused'; error: ApiError };

/** Runs `write` and records `keys` as handled, all in one transaction; what was handled before is not written again. */
async function once<T>(db: Db, caller: PlaceCaller, handling: Handling, externalId: string, write: (trx: Db) => Promise<T>): Promise<Written<T>> {
  const { integration, keys } = handling;
  const seen = await repo.findHandled(db, integration.chain_id, integration.id, keys[0]!);
  if (seen) return { kind: 'handled_before', externalId: seen.external_id };
  try {
    return await db.transaction().execute(async (trx) => {
      for (const key of keys) {
        const row = { chain_id: integration.chain_id, integration_id: integration.id, provider_key: key, venue_id: caller.venueId, external_id: externalId };
        if (!(await repo.recordHandled(trx, row)) && key === keys[0]) throw new HandledMeanwhile();
      }
      return { kind: 'written' as const, value: await write(trx) };
    });
  } catch (err) {
    // Another worker (or the webhook and the reconciliation pass at once) handled it first: its write stands.
    if (err instanceof HandledMeanwhile) return { kind: 'handled_before', externalId: (await repo.findHandled(db, integration.chain_id, integration.id, keys[0]!))!.external_id };
    if (err instanceof ApiError) return { kind: 'refused', error: err };
    throw err;
  }
}

class HandledMeanwhile extends Error {}

/** Applies a connector's check once, carrying its source and the provider's ids. */
export function applyOnce(
  db: Db,
  caller: PlaceCaller,
  clock: Clock,
  handling: Handling,
  body: CheckBody,
  origin: { source: TransactionSource; metadata: Record<string, string> },
): Promise<Written<Transaction>> {
  return once(db, caller, handling, body.external_id, async (trx) => {
    const { transaction } = await applyCheck(trx, caller, body, { clock, scanWindowSeconds: 0 }, null, null, origin);
    return transaction;
  });
}

/** Refunds part of a connector's check once; more than can still be refunded refunds what can. */
export function refundOnce(db: Db, caller: PlaceCaller, clock: Clock, handling: Handling, check: string, refund: { externalId: string; amount: number }): Promise<Written<Refund>> {
  const refundOf = async (trx: Db, amount: number) =>
    (await refundTransaction(trx, caller, check, { external_id: refund.externalId, amount }, clock, null)).refund;
  return once(db, caller, handling, refund.externalId, async (trx) => {
    try {
      return await refundOf(trx, refund.amount);
    } catch (err) {
      // The provider refunds tax and tips too, which the check never had: what is left of the check is refunded.
      const refundable = err instanceof ApiError && err.code === 'refund_exceeds_check' ? Number(err.details.refundable) : 0;
      if (refundable > 0) return refundOf(trx, refundable);
      throw err;
    }
  });
}
