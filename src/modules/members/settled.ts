// A member as of now, for the members service and the till (till.ts) alike: their program, their cashback lots (read
// only when it expires cashback), what is due expired where the caller's writes form lots, and the member a read shows.
import type { Db } from '../../db/database.js';
import { readTogether, type Read } from '../../db/statement.js';
import { ApiError } from '../../shared/errors.js';
import type { Caller } from '../accounts/schemas.js';
import type { ProgramInfo } from '../programs/schemas.js';
import * as programs from '../programs/service.js';
import * as expiry from './expiry-service.js';
import type { Lot, LotPlace } from './expiry.js';
import { judgedNow } from './levels.js';
import type * as repo from './repo.js';
import type { Member } from './schemas.js';
import { presentMember } from './view.js';

export const notFound = () => new ApiError('member_not_found');

export async function programsById(db: Db, chainId: string): Promise<Map<string, ProgramInfo>> {
  return new Map((await programs.listPrograms(db, chainId)).map((p) => [p.id, p]));
}

/**
 * Where the caller's write forms cashback lots (D20, D21): at its venue, in its time zone; a lot of another venue
 * (a reversal giving back to a lot no longer open) in that venue's, from `zones` (zonesRead) when read.
 */
export function lotPlace(caller: Caller, zones?: Record<string, string>): LotPlace {
  return { venueId: caller.venueId, zoneOf: (venueId) => zones?.[venueId] ?? caller.venue.timezone };
}

/** The member a record shows as of the request's time; 404 when there is no record. */
export async function memberView(db: Db, caller: Caller, found: repo.MemberRecord | undefined): Promise<Member> {
  if (!found) throw notFound();
  const program = (await programsById(db, caller.chainId)).get(found.program_id)!;
  // Level spend that has left the window and the worker has not judged yet is not shown (members/levels.ts).
  const { member: record } = await judgedNow(db, found, program, caller.now);
  // A record read without its lots (one read before the program began to expire cashback) reads them now.
  const lots = record.lots ?? (expiry.expires(program) ? (await readTogether(db, { lots: expiry.lotsRead(caller.chainId, record.id) })).lots : undefined);
  return presentMember(expiry.settle(record, program, lotPlace(caller), lots, caller.now).record, program, caller.venue);
}

/**
 * The member's open cashback lots as a read of the gather that follows their lock, when their program expires
 * cashback; undefined otherwise, and nothing more is read.
 */
export async function lotsReadFor(db: Db, caller: Caller, member: repo.LockedMember): Promise<Read<Lot[]> | undefined> {
  const program = (await programsById(db, caller.chainId)).get(member.program_id)!;
  return expiry.expires(program) ? expiry.lotsRead(caller.chainId, member.id) : undefined;
}
