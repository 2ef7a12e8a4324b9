// The member at the till: the member a check, hold, visit or scan names, found or locked in one statement, then read
// after the lock as the decision stands on them (what their holds keep, their lots with what is due expired), and
// after the write as a read would show them.
import { sql, type Expression } from 'kysely';
import type { Db } from '../../db/database.js';
import { readTogether, type FoldedKey, type Read, type ValueOrRef, type WriteStep } from '../../db/statement.js';
import type { Clock } from '../../shared/clock.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import type { Caller } from '../accounts/schemas.js';
import type { ProgramInfo } from '../programs/schemas.js';
import * as expiry from './expiry-service.js';
import type { Lot } from './expiry.js';
import * as levels from './levels.js';
import * as repo from './repo.js';
import type { Member } from './schemas.js';
import { lotPlace, lotsReadFor, memberView, notFound, programsById } from './settled.js';
import { availableOf } from './view.js';

export interface CheckMember {
  record: repo.MemberRecord;
  program: ProgramInfo;
  available: number;
  /** Their cashback lots with what was due by `asOf` expired; null when the program does not expire cashback. */
  lots: expiry.MemberLots | null;
  /** The time `held` was judged at: what else the decision judges by time must use the same. */
  asOf: Date;
}

export type MemberRef = { member_id?: string; card_number?: string; barcode?: string };

/**
 * The match a check's member reference stands for; `memberOf` (a hold's member, say) when it names none; null
 * when there is neither.
 */
function checkMatch(ref: MemberRef, memberOf?: Expression<string | null>): repo.MemberMatch | null {
  const given = [ref.member_id, ref.card_number, ref.barcode].filter((v) => v !== undefined);
  if (given.length === 0) return memberOf ? { by: 'named', memberId: memberOf } : null;
  if (given.length > 1) throw new ApiError('parameter_invalid', { message: 'Name the member by one of member_id, card_number or barcode.' });
  if (ref.member_id !== undefined) return { by: 'id', id: isUuid(ref.member_id) ? ref.member_id : '00000000-0000-0000-0000-000000000000' };
  return ref.card_number !== undefined ? { by: 'card', cardNumber: ref.card_number } : { by: 'code', code: ref.barcode!.trim() };
}

async function checkMember(db: Db, caller: Caller, record: repo.MemberRecord | undefined, asOf: Date, lots?: Lot[]): Promise<CheckMember> {
  if (!record) throw notFound();
  const program = (await programsById(db, caller.chainId)).get(record.program_id)!;
  const settled = expiry.settle(record, program, lotPlace(caller), lots ?? record.lots, asOf);
  return { record: settled.record, program, available: availableOf(settled.record), lots: settled.lots, asOf };
}

/**
 * The member a scanned code names (card number or serial) as the first step of a statement that does more
 * (`named_member`); `presentNamed` shows the row it gives.
 */
export async function memberByCodeStep(db: Db, caller: Caller, code: string): Promise<WriteStep> {
  // Shared lock on the member's row: a scan sent with an Idempotency-Key stores its answer (the member, named) in
  // its transaction, and an erasure locks the row before it rewrites stored answers. So the scan either commits its
  // answer first, and the erasure then finds and redacts it, or waits for the erasure and finds no one (404).
  // The lots ride along when the chain expires cashback (programs are cached: no round trip to know).
  const withLots = await expiry.venueExpires(db, caller.chainId);
  const query = repo.membersQuery(db, caller.chainId, caller.now, { by: 'code', code: code.trim() }, 1, withLots).forShare('m');
  return { name: 'named_member', query };
}

export async function presentNamed(db: Db, caller: Caller, row: Parameters<typeof repo.recordOf>[0] | undefined): Promise<Member> {
  return memberView(db, caller, row && repo.recordOf(row));
}

/** The member a check names by one of member_id, card_number or barcode; null when none. */
export async function findMemberForCheck(db: Db, caller: Caller, ref: MemberRef): Promise<CheckMember | null> {
  const match = checkMatch(ref);
  if (!match) return null;
  const [record] = await repo.findMembers(db, caller.chainId, caller.now, match, 1, await expiry.venueExpires(db, caller.chainId));
  return checkMember(db, caller, record, caller.now);
}

/** A member's row and cards, their holds not yet read: see `withHeld`. */
export type LockedMember = repo.LockedMember;

/**
 * The member a check names (else `memberOf`'s), their row locked with `lock`, in one statement; `alongside` is read
 * by the same statement. `found` is false when a member was named but the chain has none such; `member` is null
 * when none was named. With `key` (the request's Idempotency-Key) the same statement claims the key first, and it is
 * settled before anything else is known: a key in use or answered already throws.
 */
export async function memberNamed<A>(
  trx: Db,
  caller: Caller,
  ref: MemberRef,
  options: { lock: boolean; memberOf?: Expression<string | null>; alongside?: Expression<A>; key?: FoldedKey | null },
): Promise<{ member: LockedMember | null; found: boolean; alongside: A | null }> {
  const { key, ...rest } = options;
  const match = checkMatch(ref, options.memberOf);
  if (!match) {
    await key?.claim(trx);
    return { member: null, found: true, alongside: null };
  }
  const row = await repo.matchingMember(trx, caller.chainId, match, { ...rest, before: key?.steps(), outcome: key?.outcome });
  // No row carries the key's outcome when no member matched: it is read again (the claim is this transaction's).
  if (key) await (row ? key.settle(row.key_outcome) : key.claim(trx));
  if (!row) return { member: null, found: false, alongside: null };
  const { alongside, key_outcome: _outcome, ...member } = row;
  return { member, found: true, alongside };
}

/** What the member's holds keep as of `asOf`, across the chain: a read for the gather that follows the member's lock. */
export function heldRead(trx: Db, caller: Caller, memberId: ValueOrRef<string>, asOf: Date): Read<number> {
  return repo.heldRead(trx, caller.chainId, memberId, asOf);
}

/** Their open cashback lots, a read for the same gather when their program expires cashback (see settled.ts). */
export { lotsReadFor } from './settled.js';

/**
 * The open cashback lots of the member row `m` of the statement this read rides along (readsAlong), when any
 * program of the chain expires cashback (programs are cached: no round trip to know); settling ignores them otherwise.
 */
export async function lotsAlongRead(db: Db, caller: Caller): Promise<Read<Lot[]> | undefined> {
  return (await expiry.venueExpires(db, caller.chainId)) ? expiry.lotsRead(caller.chainId, sql.ref<string>('m.id')) : undefined;
}

/**
 * The member named, judged at `asOf` when their level spend is due (members/levels.ts): `forWrite` (a locked member
 * about to change) writes the judgement first, as the worker would; otherwise it is only read.
 */
export async function judgedAt(db: Db, caller: Caller, member: LockedMember, asOf: Date, forWrite: boolean): Promise<LockedMember> {
  const program = (await programsById(db, caller.chainId)).get(member.program_id)!;
  return (forWrite ? await levels.judgedForWrite(db, member, program, asOf) : await levels.judgedNow(db, member, program, asOf)).member;
}

/** The locked member with what their holds keep as of `asOf`, as a check's decision sees them. */
export async function withHeld(db: Db, caller: Caller, member: LockedMember, held: number, asOf: Date, lots?: Lot[]): Promise<CheckMember> {
  return checkMember(db, caller, { ...member, held }, asOf, lots);
}

/**
 * The member after a write as a read at that moment shows them (D20): `record` with the lots the write left
 * (`open`), less what of them is due already — cashback that went into a lot already past its date (a check closed
 * long ago, a reversal giving back to such a lot) is gone at once, as a GET would say.
 */
export function settledAfter<R extends repo.MemberRecord>(caller: Caller, member: CheckMember, record: R, open: Lot[]): R {
  return member.lots ? { ...record, ...expiry.settle(record, member.program, lotPlace(caller), open, member.lots.asOf).record } : record;
}

/**
 * What a reversal (void, refund) stands on besides the check: the locked member's cashback balance as their
 * answers show it (null when their program keeps none) and their lots, with what was due by `asOf` expired; the
 * member and their program, whose level the spend taken back may move.
 * `read` is what `reversalReads` asked for, read after the lock.
 */
export async function reversalMember(
  db: Db,
  caller: Caller,
  member: LockedMember,
  read: { held?: number; lots?: Lot[]; zones?: Record<string, string> },
  asOf: Date,
) {
  const program = (await programsById(db, caller.chainId)).get(member.program_id)!;
  const level = { member, program };
  if (program.rules.type !== 'cashback') return { balance: null, lots: null, level };
  const settled = expiry.settle({ ...member, held: read.held ?? 0 }, program, lotPlace(caller, read.zones), read.lots, asOf);
  return { balance: settled.record.cashback, lots: settled.lots, level };
}

/**
 * The reads `reversalMember` needs when the program expires cashback — what holds keep, the lots, and the chain's
 * time zones (a redemption given back may re-form a lot of another venue) —; none otherwise.
 */
export async function reversalReads(db: Db, caller: Caller, member: LockedMember, asOf: Date) {
  const lots = await lotsReadFor(db, caller, member);
  return lots
    ? { held: repo.heldRead(db, caller.chainId, member.id, asOf), lots, zones: expiry.zonesRead(caller.chainId) }
    : { held: undefined, lots: undefined, zones: undefined };
}

/**
 * Locks the member a check names and reads them after the lock: what holds keep is judged by the clock read then,
 * not when the request arrived. Two statements; a check folds the second into its gather.
 */
export async function lockMemberForCheck(trx: Db, caller: Caller, ref: MemberRef, clock: Clock, key: FoldedKey | null = null): Promise<CheckMember | null> {
  const { member, found } = await memberNamed(trx, caller, ref, { lock: true, key });
  if (!found) throw notFound();
  if (!member) return null;
  const asOf = clock.now();
  const { held, lots } = await readTogether(trx, { held: heldRead(trx, caller, member.id, asOf), lots: await lotsReadFor(trx, caller, member) });
  return withHeld(trx, caller, member, held, asOf, lots);
}
