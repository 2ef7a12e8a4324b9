// Holds: reserve cashback (moved from available to held), capture by a check, release; expiry is exact by the
// request's time, with no sweeper needed: an active hold past expires_at is expired for every reader.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatMoney } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { formatTimestamp } from '../../shared/time.js';
import type { Caller } from '../accounts/schemas.js';
import * as members from '../members/service.js';
import * as repo from './repo.js';
import type { CreateHold, Hold } from './schemas.js';

const statusOf = (row: repo.HoldRow, now: Date): Hold['status'] =>
  row.status === 'active' && new Date(row.expires_at).getTime() <= now.getTime() ? 'expired' : row.status;

function present(row: repo.HoldRow, caller: Caller): Hold {
  const status = statusOf(row, caller.now);
  const amount = Number(row.amount);
  return {
    object: 'hold',
    id: row.id,
    member_id: row.member_id,
    amount,
    status,
    expires_at: formatTimestamp(row.expires_at),
    captured_amount: row.captured_amount === null ? null : Number(row.captured_amount),
    captured_by: row.captured_by,
    livemode: row.livemode,
    created_at: formatTimestamp(row.created_at),
    display: {
      cashier: `Hold ${formatMoney(amount, caller.venue)} · ${status}`,
      receipt: status === 'active' ? [`Cashback reserved: ${formatMoney(amount, caller.venue)}`] : [],
    },
  };
}

export async function createHold(trx: Db, caller: Caller, input: CreateHold, clock: Clock): Promise<Hold> {
  const member = await members.lockMemberForCheck(trx, caller, input, clock);
  if (!member) throw new ApiError('parameter_invalid', { message: 'Name the member by one of member_id, card_number or barcode.' });
  if (member.program.rules.type !== 'cashback') throw new ApiError('redeem_not_supported');
  if (input.amount > member.available) {
    // Also when the member is in debt (available ≤ 0): nothing can be held then.
    throw new ApiError('insufficient_balance', {
      message: `Cannot hold ${input.amount}: only ${member.available} is available.`,
      details: { available: member.available },
    });
  }
  const ttl = input.expires_in ?? caller.settings.hold_ttl_seconds;
  const row = await repo.insertHold(trx, {
    venue_id: caller.venueId,
    id: newId(),
    member_id: member.record.id,
    amount: input.amount,
    status: 'active',
    expires_at: new Date(caller.now.getTime() + ttl * 1000),
    livemode: caller.livemode,
    created_at: caller.now,
  });
  return present(row, caller);
}

async function owned(db: Db, caller: Caller, id: string, forUpdate = false): Promise<repo.HoldRow> {
  const row = isUuid(id) ? await repo.findHold(db, caller.venueId, id, forUpdate) : undefined;
  if (!row) throw new ApiError('hold_not_found', { param: 'hold_id' });
  return row;
}

export async function getHold(db: Db, caller: Caller, id: string): Promise<Hold> {
  return present(await owned(db, caller, id), caller);
}

/** A hold locked for the rest of the transaction, not yet judged: see `ensureUsable`. */
export interface LockedHold {
  id: string;
  memberId: string;
  amount: number;
  row: repo.HoldRow;
}

/** Locks the hold; a captured or released one is refused at once (409), whether it has expired is judged later. */
export async function lockHold(trx: Db, caller: Caller, id: string): Promise<LockedHold> {
  const row = await owned(trx, caller, id, true);
  if (row.status !== 'active') throw new ApiError(`hold_${row.status}`, { param: 'hold_id' });
  return { id: row.id, memberId: row.member_id, amount: Number(row.amount), row };
}

/**
 * 409 hold_expired when the locked hold has expired by `now`. Judge with the clock read once every lock the
 * decision needs is held: a request that waited on a lock past expires_at finds the hold expired.
 */
export function ensureUsable(hold: LockedHold, now: Date): void {
  if (statusOf(hold.row, now) === 'expired') throw new ApiError('hold_expired', { param: 'hold_id' });
}

/** The hold, locked, if it can still be used by the clock read after the lock. */
export async function usableHold(trx: Db, caller: Caller, id: string, clock: Clock): Promise<LockedHold> {
  const hold = await lockHold(trx, caller, id);
  ensureUsable(hold, clock.now());
  return hold;
}

export async function releaseHold(trx: Db, caller: Caller, id: string, clock: Clock): Promise<Hold> {
  await usableHold(trx, caller, id, clock);
  return present(await repo.finishHold(trx, caller.venueId, id, { status: 'released', at: caller.now }), caller);
}

/** Marks the hold captured by a check that redeemed `amount` of it; what it did not redeem is free again. */
export async function captureHold(trx: Db, caller: Caller, id: string, amount: number, externalId: string): Promise<void> {
  await repo.finishHold(trx, caller.venueId, id, { status: 'captured', at: caller.now, capturedAmount: amount, capturedBy: externalId });
}
