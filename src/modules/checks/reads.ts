// Transactions as they are found: by the number a till gave them (per venue, or per register), read and listed.
import type { Db } from '../../db/database.js';
import { ApiError } from '../../shared/errors.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import type { Caller, PlaceCaller } from '../accounts/schemas.js';
import * as repo from './repo.js';
import type { Transaction } from './schemas.js';
import { presentTransaction } from './view.js';

/** The scope an external_id is unique in: the register when the key's rules number checks per register, else the venue. */
const registerKey = (caller: PlaceCaller, registerId: string | null | undefined) =>
  caller.settings.checks_numbered_per_register ? (registerId ?? '') : '';

export const keyOf = (caller: PlaceCaller, externalId: string, registerId: string | null | undefined): repo.TransactionKey => [
  caller.chainId,
  caller.venueId,
  registerKey(caller, registerId),
  registerId,
  externalId,
];

/** 404 for a transaction not found; while checks are numbered per register without register_id: say what is missing. */
export function missingTransaction(caller: PlaceCaller, registerId: string | undefined): never {
  if (caller.settings.checks_numbered_per_register && !registerId) throw new ApiError('register_id_required', { param: 'register_id' });
  throw new ApiError('transaction_not_found');
}

async function ownTransaction(db: Db, caller: PlaceCaller, externalId: string, registerId: string | undefined, forUpdate = false) {
  return (await repo.findTransaction(db, keyOf(caller, externalId, registerId), forUpdate)) ?? missingTransaction(caller, registerId);
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
