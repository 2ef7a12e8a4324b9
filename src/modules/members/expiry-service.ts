// Cashback expiry (D20) where it meets the database: a member's lots settled for a decision (what is due already
// expired), the lots' part of a write, and the worker's pass that writes what is due as `expiry` ledger entries and
// sends the warnings. The arithmetic is in expiry.ts; the rules in docs/members.md.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { readTogether, writeTogether, type WriteStep } from '../../db/statement.js';
import { findChain, findVenue } from '../accounts/service.js';
import type { ProgramInfo, ProgramRules } from '../programs/schemas.js';
import { listPrograms } from '../programs/service.js';
import { eventSteps, recordEvent, type EventRequest } from '../webhooks/events.js';
import { formatTimestamp, venueDay } from '../../shared/time.js';
import { dueExpiry, expiryRuleOf, LotBook, newLot, type ExpiredPart, type Lot, type LotPlace, type Movement } from './expiry.js';
import * as lotsRepo from './expiry-repo.js';
import * as repo from './repo.js';
// The ledger's one way in; members/service.ts imports this file too, used only inside functions on both sides.
import { ledgerSteps, type LedgerPlace } from './money.js';

export { lotsRead, zonesRead } from './expiry-repo.js';
export type { LotPlace } from './expiry.js';

/** A member's lots as a decision stands on them: what was due already expired (and still to be written). */
export interface MemberLots {
  book: LotBook;
  expired: { amount: number; lots: ExpiredPart[] };
  asOf: Date;
  /** What the member's holds keep as of `asOf`. */
  held: number;
  /** Expiry is an event of no venue (D21): it reaches the chain's endpoints and those of the member's home venue. */
  homeVenueId: string | null;
  /**
   * The member's: what expires is theirs, whichever key's write finds it due, so its entries and event carry the
   * member's livemode, as the worker's do.
   */
  livemode: boolean;
}

/** Whether the program expires cashback: only then is anything about lots read or written. */
export const expires = (program: ProgramInfo): boolean => expiryRuleOf(program.rules) !== null;

/** Whether any program of the chain expires cashback (a member query then reads lots along). */
export async function venueExpires(db: Db, chainId: string): Promise<boolean> {
  return (await listPrograms(db, chainId)).some(expires);
}

/**
 * The member as of `asOf` with what is due expired: `cashback` less the expiry, `lots` their open lots after it.
 * Without a rule (or lots) the record is returned as it is. `place`: where a write that goes on from here forms
 * new lots (a read forms none).
 */
export function settle(record: repo.MemberRecord, program: ProgramInfo, place: LotPlace, lots: Lot[] | undefined, asOf: Date) {
  const rule = expiryRuleOf(program.rules);
  if (!rule || !lots) return { record, lots: null };
  const book = new LotBook(lots, record.cashback, rule, place);
  const expired = book.expire(record.held, asOf);
  const settled: MemberLots = { book, expired, asOf, held: record.held, homeVenueId: record.home_venue_id, livemode: record.livemode };
  return { record: { ...record, cashback: record.cashback - expired.amount, lots: book.open() }, lots: settled };
}

/**
 * The balance `cashback` after a write that left the lots `open`, as a read at that moment shows it: less what is
 * due of them (cashback given back to a lot already past its date is gone at once).
 */
export function balanceAfter(lots: MemberLots | null, cashback: number, open: Lot[]): number {
  return lots ? cashback - dueExpiry(open, cashback, lots.held, lots.asOf).amount : cashback;
}

/**
 * The lots' part of a write: the expiry's ledger entries (first; one per venue whose lots expired, belonging to
 * that venue: expiry is charged where the cashback was earned; one of no venue for the lot of no venue), the lots'
 * new amounts, cashback.expired.
 */
export interface LotsWrite {
  /** venueId null: an entry of no venue (the venue liability report's row of no venue). */
  entries: { memberId: string; kind: string; cashback: number; reason: string; venueId: string | null; livemode: boolean }[];
  steps: WriteStep[];
  /** The member's open lots after the write. */
  open: Lot[];
  /** What the write's redemption took from each lot, by lotKey "venueId:day" (":day": the lot of no venue; the check records it); null: from no lot. */
  redeemedLots: Record<string, number> | null;
}

/**
 * The `expiry` ledger entries of what expired: one per venue whose lots it came from (one of no venue for the lot of
 * no venue), in the order they expired.
 */
function expiryEntries(memberId: string, expired: ExpiredPart[], livemode: boolean): LotsWrite['entries'] {
  const byVenue = new Map<string | null, ExpiredPart[]>();
  for (const part of expired) byVenue.set(part.venueId, [...(byVenue.get(part.venueId) ?? []), part]);
  return [...byVenue].map(([venueId, parts]) => ({
    memberId,
    kind: 'expiry',
    cashback: -parts.reduce((s, p) => s + p.amount, 0),
    reason: `Cashback earned on ${parts.map((p) => p.day).join(', ')} expired`,
    venueId,
    livemode,
  }));
}

const NOTHING: LotsWrite = { entries: [], steps: [], open: [], redeemedLots: null };

/** What a write that moves the member's cashback (`movements`, in order) does to their lots; nothing without lots. */
export function lotsWrite(
  trx: Db,
  caller: LedgerPlace,
  memberId: string,
  lots: MemberLots | null,
  movements: Movement[],
  request: EventRequest,
): LotsWrite {
  if (!lots) return NOTHING;
  const book = lots.book.copy();
  book.move(movements);
  const changed = book.changedLots();
  const { expired } = lots;
  return {
    entries: expired.amount > 0 ? expiryEntries(memberId, expired.lots, lots.livemode) : [],
    steps: [
      ...(changed.length ? [lotsRepo.lotsStep(trx, caller.chainId, memberId, changed)] : []),
      ...(expired.amount > 0
        ? eventSteps(
            trx,
            {
              chainId: caller.chainId,
              venueId: null,
              homeVenueId: lots.homeVenueId,
              type: 'cashback.expired',
              livemode: lots.livemode,
              object: {
                object: 'cashback_expiry',
                member_id: memberId,
                amount: expired.amount,
                lots: expired.lots.map((l) => ({ venue_id: l.venueId, day: l.day, amount: l.amount })),
                expired_at: formatTimestamp(lots.asOf),
              },
              request,
            },
            'expiry_event',
          )
        : []),
    ],
    open: book.open(),
    redeemedLots: Object.keys(book.spent).length ? { ...book.spent } : null,
  };
}

/**
 * Writes what is due for one member (`due`: with the venue the worker writes it from), locked first (lock order:
 * the member's row, then what it owns); how much expired. Run twice or at once from two workers, the second finds
 * it written: nothing expires twice.
 */
export async function expireMember(trx: Db, due: lotsRepo.DueMember, now: Date): Promise<number> {
  // As their lots name them, erased or not: an erased member's cashback still expires (the chain's accounts).
  const member = await repo.matchingMember(trx, due.chain_id, { by: 'named', memberId: sql<string>`${due.member_id}` }, { lock: true });
  if (!member) return 0;
  const program = (await listPrograms(trx, due.chain_id)).find((p) => p.id === member.program_id);
  if (!program || !expires(program)) return 0;
  const read = await readTogether(trx, { held: repo.heldRead(trx, due.chain_id, member.id, now), lots: lotsRepo.lotsRead(due.chain_id, member.id) });
  // Expiring forms no lot: the place only says where the write happens.
  const { lots } = settle({ ...member, held: read.held }, program, { venueId: due.venue_id, zoneOf: () => due.timezone }, read.lots, now);
  if (!lots || lots.expired.amount === 0) return 0;
  const caller = { chainId: due.chain_id, venueId: due.venue_id, livemode: member.livemode };
  const write = lotsWrite(trx, caller, member.id, lots, [], null);
  await writeTogether(trx, [...ledgerSteps(trx, caller, write.entries, now), ...write.steps]);
  return lots.expired.amount;
}

/**
 * A program's expiry about to be turned off (called while the program still expires cashback, in the change's
 * transaction): what was due by `now` is written first, member by member, each locked, as the worker would have
 * — so turning expiry off never brings expired cashback back; then its members' lots are forgotten, since
 * redemptions stop keeping them up to date (what was not yet due no longer expires; turned on again, lots form
 * afresh).
 */
async function expiryTurnedOff(db: Db, chainId: string, programId: string, now: Date): Promise<void> {
  for (const due of await lotsRepo.programMembersWithDueLots(db, chainId, programId, now)) await expireMember(db, due, now);
  await lotsRepo.deleteProgramLots(db, chainId, programId);
}

/**
 * A program's warning lead changed while it expires cashback: the lots not yet warned about are warned by the new
 * lead (turned to 0, never; turned on, before they expire).
 */
async function expiryWarningChanged(db: Db, chainId: string, programId: string, warningDays: number): Promise<void> {
  await lotsRepo.rewarnProgramLots(db, chainId, programId, warningDays);
}

/**
 * What a program's new settings mean for its members' cashback, settled before the change is written (D20): turning
 * expiry off writes what was due by `now` first, with the program as it still is; another warning lead re-times the
 * warnings not yet sent. `next` undefined: the settings do not change.
 */
export async function programChanging(db: Db, chainId: string, current: ProgramInfo, next: ProgramRules | undefined, now: Date): Promise<void> {
  if (next === undefined) return;
  const [before, after] = [expiryRuleOf(current.rules), expiryRuleOf(next)];
  if (before && !after) await expiryTurnedOff(db, chainId, current.id, now);
  if (before && after && before.warningDays !== after.warningDays) await expiryWarningChanged(db, chainId, current.id, after.warningDays);
}

/**
 * The lot an opening balance imported at `at` forms (the import day's, D20), for a program that expires cashback;
 * null otherwise. It is a lot of the importing venue; an import of no venue (`venueId` null: a chain key naming
 * none) forms the lot of no venue, like its `import` ledger entry, so its expiry belongs to no venue too. That lot
 * counts its days in the chain's first venue's time zone (as zonesRead gives it to LotPlace). The venue is read
 * once, here.
 */
export async function openingLots(db: Db, chainId: string, venueId: string | null, program: ProgramInfo): Promise<(at: Date) => Lot | null> {
  const rule = expiryRuleOf(program.rules);
  if (!rule) return () => null;
  const { timezone } = venueId === null ? (await findChain(db, chainId))!.venues[0]! : (await findVenue(db, venueId))!;
  return (at) => newLot(venueId, venueDay(at, timezone), rule, timezone);
}

export interface ExpiryPass {
  expired: number;
  members: number;
  warned: number;
}

/**
 * The worker's pass: every lot due by `now` expired (each member in a transaction of their own, `batch` members a
 * look-up), then every warning due sent once. Members who cannot expire now (in debt, or what is due is held)
 * are passed over until their next pass.
 */
export async function runExpiry(db: Db, now: Date, batch = 200): Promise<ExpiryPass> {
  const pass: ExpiryPass = { expired: 0, members: 0, warned: 0 };
  let after: lotsRepo.DueMember | null = null;
  for (;;) {
    const due = await lotsRepo.membersWithDueLots(db, now, after, batch);
    for (const m of due) {
      const amount = await db.transaction().execute((trx) => expireMember(trx, m, now));
      if (amount > 0) {
        pass.expired += amount;
        pass.members += 1;
      }
    }
    if (due.length < batch) break;
    after = due.at(-1)!;
  }
  for (;;) {
    const lots = await lotsRepo.lotsToWarn(db, now, batch);
    for (const lot of lots) {
      const sent = await db.transaction().execute(async (trx) => {
        const warned = await lotsRepo.markWarned(trx, lot, now);
        if (!warned) return false;
        await recordEvent(trx, {
          chainId: lot.chain_id,
          venueId: null,
          homeVenueId: lot.home_venue_id,
          type: 'cashback.expiring',
          livemode: lot.livemode,
          object: {
            object: 'cashback_expiry_warning',
            member_id: lot.member_id,
            amount: Number(warned.remaining),
            earned_on: lot.day,
            expires_on: String(warned.expires_on),
            expires_at: formatTimestamp(warned.expires_at),
          },
          request: null,
        });
        return true;
      });
      if (sent) pass.warned += 1;
    }
    if (lots.length < batch) break;
  }
  return pass;
}
