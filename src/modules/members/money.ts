// The member's money as the ledger holds it (D19): entries appended with the member's totals, in the same statement.
import type { Db } from '../../db/database.js';
import type { WriteStep } from '../../db/statement.js';
import { newId } from '../../shared/ids.js';
import type { Caller } from '../accounts/schemas.js';
import { spendLevel, type SpendChange } from './levels.js';
import * as repo from './repo.js';

export interface LedgerInput {
  memberId: string;
  kind: string;
  /** The venue the entry belongs to when not the write's: an `expiry` belongs to where its cashback was earned. */
  venueId?: string | null;
  cashback?: number;
  spend?: number;
  visits?: number;
  stamps?: number;
  reason?: string | null;
  reference?: string | null;
  /** The entry's own livemode when not the write's: an `expiry` is the member's (see MemberLots). */
  livemode?: boolean;
  /** The campaign that credits a `campaign` entry (D22). */
  campaignId?: string;
  /** The check whose write, void or refund this entry is part of: a member's activity groups by it. */
  transactionId?: string;
}

/** Where ledger rows are written from: the chain whose ledger it is, and the venue where they happen. */
export type LedgerPlace = Pick<Caller, 'chainId' | 'venueId' | 'livemode'>;

export function ledgerRows(caller: LedgerPlace, entries: LedgerInput[], at?: Date) {
  return entries.map((e) => ({
    chain_id: caller.chainId,
    venue_id: e.venueId !== undefined ? e.venueId : caller.venueId,
    id: newId(),
    member_id: e.memberId,
    kind: e.kind,
    cashback: e.cashback ?? 0,
    spend: e.spend ?? 0,
    visits: e.visits ?? 0,
    stamps: e.stamps ?? 0,
    reason: e.reason ?? null,
    reference: e.reference ?? null,
    livemode: e.livemode ?? caller.livemode,
    // Only where set: the other writes keep their statement's text.
    ...(e.campaignId ? { campaign_id: e.campaignId } : {}),
    ...(e.transactionId ? { transaction_id: e.transactionId } : {}),
    ...(at ? { created_at: at } : {}),
  }));
}

/**
 * Appends ledger entries, the only way any balance, spend, visit or stamp count changes. Lock the member first.
 * `at` stamps them with the app's clock (the request's time, as the history shows it); else the database's.
 */
export async function appendLedger(trx: Db, caller: LedgerPlace, entries: LedgerInput[], at?: Date): Promise<repo.LedgerRow[]> {
  return repo.insertLedgerEntries(trx, caller.chainId, ledgerRows(caller, entries, at));
}

/**
 * appendLedger as steps of a larger write (see writeTogether), for changes that write more than the ledger. With
 * `level` (a check's write, or its reversal's: entries of that one member), the paid spend the entries move counts
 * for the member's level too (levels.ts): the window's part in the same update, and the event when the level moves;
 * a check's write sets the member's last visit.
 */
export function ledgerSteps(trx: Db, caller: LedgerPlace, entries: LedgerInput[], at: Date, level?: SpendChange): WriteStep[] {
  const rows = ledgerRows(caller, entries, at);
  if (!level) return repo.ledgerSteps(trx, caller.chainId, rows);
  const moved = spendLevel(trx, caller, level, entries.reduce((sum, e) => sum + (e.spend ?? 0), 0), at);
  // A check's own write (not its reversal's) is the member's latest visit unless a later check came before it.
  const visitedAt = level.reason === 'spend' ? level.checkAt : undefined;
  return [...repo.ledgerSteps(trx, caller.chainId, rows, { window: moved.window, visitedAt }), ...moved.steps];
}
