// Holds: reserve cashback (moved from available to held), capture by a check, release; expiry is exact by the
// request's time, with no sweeper needed: an active hold past expires_at is expired for every reader. The worker
// still marks them `expired` now and then (`markExpiredHolds`), so what the table says agrees with what is read.
import type { Expression } from 'kysely';
import type { Db } from '../../db/database.js';
import { readTogether, writeTogether, type FoldedKey, type Read, type WriteStep } from '../../db/statement.js';
import type { Clock } from '../../shared/clock.js';
import { formatMoney } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import type { Caller, PlaceCaller } from '../accounts/schemas.js';
import * as tillMembers from '../members/till.js';
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
    venue_id: row.venue_id,
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

export async function createHold(trx: Db, caller: PlaceCaller, input: CreateHold, clock: Clock, key: FoldedKey | null = null): Promise<Hold> {
  const member = await tillMembers.lockMemberForCheck(trx, caller, input, clock, key);
  if (!member) throw new ApiError('parameter_invalid', { message: 'Name the member by one of member_id, card_number or barcode.' });
  if (member.program.rules.type !== 'cashback') throw new ApiError('redeem_not_supported');
  if (input.amount > member.available) {
    // Also when the member is in debt (available ≤ 0): nothing can be held then.
    throw new ApiError('insufficient_balance', {
      message: `Cannot hold ${formatMoney(input.amount, caller.venue)}: only ${formatMoney(member.available, caller.venue)} is available (available: ${member.available}).`,
      details: { available: member.available },
    });
  }
  const ttl = input.expires_in ?? caller.settings.hold_ttl_seconds;
  const row: repo.HoldRow = {
    chain_id: caller.chainId,
    venue_id: caller.venueId,
    id: newId(),
    member_id: member.record.id,
    amount: input.amount,
    status: 'active',
    expires_at: new Date(caller.now.getTime() + ttl * 1000),
    captured_amount: null,
    captured_by: null,
    livemode: caller.livemode,
    created_at: caller.now,
    finished_at: null,
  };
  const hold = present(row, caller);
  await writeTogether(trx, [repo.insertHoldStep(trx, row), ...(key ? [key.recordStep(trx, hold)] : [])]);
  return hold;
}

/**
 * Where a request names the hold: a check's body field `hold_id` (errors name it as their `param`), or the path of
 * a hold's own route (`{}`: errors name no param, as for every object named by its path).
 */
export type HoldNamed = { param?: 'hold_id' };
export const HOLD_IN_BODY: HoldNamed = { param: 'hold_id' };

async function owned(db: Db, caller: PlaceCaller, id: string): Promise<repo.HoldRow> {
  const row = isUuid(id) ? await repo.findHold(db, caller, id) : undefined;
  if (!row) throw new ApiError('hold_not_found');
  return row;
}

export async function getHold(db: Db, caller: PlaceCaller, id: string): Promise<Hold> {
  return present(await owned(db, caller, id), caller);
}

/**
 * The id of the hold's member as a sub-query: every change to a hold is made under its member's lock, so a check
 * naming no member and a release lock the member through it. 404 at once for an id that cannot be a hold's.
 */
export function memberOfHold(trx: Db, caller: Caller, id: string, named: HoldNamed = {}): Expression<string | null> {
  if (!isUuid(id)) throw new ApiError('hold_not_found', named);
  return repo.memberOfHold(trx, caller, id);
}

/** The hold as a read of a gather that follows its member's lock; judge it with `usableHold`. */
export function holdRead(trx: Db, caller: Caller, id: string, named: HoldNamed = {}): Read<repo.HoldRow | null> {
  if (!isUuid(id)) throw new ApiError('hold_not_found', named);
  return repo.holdRead(trx, caller, id);
}

/** A hold a check may spend. */
export interface UsableHold {
  id: string;
  memberId: string;
  amount: number;
}

/**
 * The hold read after its member's lock, if it can still be used: 404 hold_not_found, 409 hold_captured or
 * hold_released, and 409 hold_expired by `now` — the clock read once the lock is held, the same reading what the
 * member's holds keep is judged by, so an expiring hold is never counted twice.
 */
export function usableHold(row: repo.HoldRow | null, now: Date, named: HoldNamed = {}): UsableHold {
  if (!row) throw new ApiError('hold_not_found', named);
  if (row.status !== 'active') throw new ApiError(`hold_${row.status}`, named);
  if (statusOf(row, now) === 'expired') throw new ApiError('hold_expired', named);
  return { id: row.id, memberId: row.member_id, amount: Number(row.amount) };
}

export async function releaseHold(trx: Db, caller: Caller, id: string, clock: Clock): Promise<Hold> {
  const { member } = await tillMembers.memberNamed(trx, caller, {}, { lock: true, memberOf: memberOfHold(trx, caller, id) });
  if (!member) throw new ApiError('hold_not_found');
  const { hold } = await readTogether(trx, { hold: holdRead(trx, caller, id) });
  usableHold(hold, clock.now());
  return present(await repo.finishHold(trx, caller, id, { status: 'released', at: caller.now }), caller);
}

/** The member's holds, newest first (their export). */
export async function listMemberHolds(db: Db, caller: Caller, memberId: string, page: Page): Promise<List<Hold>> {
  return toList('/v1/holds', page, await repo.listHolds(db, caller, memberId, page), (row) => present(row, caller));
}

/**
 * Releases every hold of the member still in force (their erasure), each as `releaseHold` does; the member is
 * locked first by the caller. Expired holds keep nothing already and stay as they are.
 */
export async function releaseMemberHolds(trx: Db, caller: Caller, memberId: string, clock: Clock): Promise<Hold[]> {
  const now = clock.now();
  const released: Hold[] = [];
  // Page by page to the last: a member may have any number of holds open.
  for (let page: Page = { limit: 500 }; ; ) {
    const rows = await repo.listHolds(trx, caller, memberId, page, true);
    const active = rows.slice(0, page.limit);
    for (const row of active) if (statusOf(row, now) === 'active') released.push(await releaseHold(trx, caller, row.id, clock));
    if (rows.length <= page.limit) return released;
    page = { limit: page.limit, startingAfter: active.at(-1)!.id };
  }
}

/** Marks the hold captured by a check that redeemed `amount` of it (what it did not redeem is free again): a step of the check's write. */
export function captureStep(trx: Db, caller: PlaceCaller, id: string, amount: number, externalId: string): WriteStep {
  return repo.finishHoldStep(trx, caller, id, { status: 'captured', at: caller.now, capturedAmount: amount, capturedBy: externalId });
}

/**
 * Marks holds past expiry by `now` expired, `batch` at a time, until a batch comes back short; how many. Nothing
 * moves with it: what a member's holds keep is judged by the clock (an expired hold keeps nothing either way), so
 * no ledger row or total changes and no event is sent (the contract has none for a hold's expiry).
 */
export async function markExpiredHolds(db: Db, now: Date, batch = 500): Promise<number> {
  let total = 0;
  for (let marked = batch; marked === batch; total += marked) marked = await repo.expireHolds(db, now, batch);
  return total;
}
