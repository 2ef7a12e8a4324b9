// Members: enrolment, look-up, profile and cards, history, barcodes, manual adjustments and stamp rewards.
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { Expression } from 'kysely';
import type { Db } from '../../db/database.js';
import { readTogether, writeTogether, type Read, type WriteStep } from '../../db/statement.js';
import type { Clock } from '../../shared/clock.js';
import { formatSignedMoney, formatMoney } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import type { Caller } from '../accounts/schemas.js';
import type { ProgramInfo } from '../programs/schemas.js';
import * as programs from '../programs/service.js';
import { eventSteps, type EventRequest } from '../webhooks/events.js';
import * as expiry from './expiry-service.js';
import type { Lot, LotPlace, Movement } from './expiry.js';
import { appendLedger, ledgerRows } from './money.js';
import * as repo from './repo.js';
import type { Adjust, Adjustment, EnrolMember, HistoryEntry, Member, RewardRedemption, UpdateMember } from './schemas.js';
import { availableOf, presentMember } from './view.js';

const SERIAL_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const notFound = () => new ApiError('member_not_found');

export function newSerial(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return Array.from(bytes, (b) => SERIAL_ALPHABET[b % 32]).join('');
}

/** A phone number in E.164, read with the venue's country for numbers written without one. */
export function normalisePhone(raw: string, country: string, param = 'phone'): string {
  const phone = parsePhoneNumberFromString(raw, country as CountryCode);
  if (!phone?.isValid()) throw new ApiError('parameter_invalid', { param, message: `${param} is not a valid phone number for ${country}.` });
  return phone.number;
}

async function programsById(db: Db, chainId: string): Promise<Map<string, ProgramInfo>> {
  return new Map((await programs.listPrograms(db, chainId)).map((p) => [p.id, p]));
}

/**
 * Where the caller's write forms cashback lots (D20, D21): at its venue, in its time zone; a lot of another venue
 * (a reversal giving back to a lot no longer open) in that venue's, from `zones` (zonesRead) when read.
 */
function lotPlace(caller: Caller, zones?: Record<string, string>): LotPlace {
  return { venueId: caller.venueId, zoneOf: (venueId) => zones?.[venueId] ?? caller.venue.timezone };
}

async function memberView(db: Db, caller: Caller, record: repo.MemberRecord | undefined): Promise<Member> {
  if (!record) throw notFound();
  const program = (await programsById(db, caller.chainId)).get(record.program_id)!;
  // A record read without its lots (one read before the program began to expire cashback) reads them now.
  const lots = record.lots ?? (expiry.expires(program) ? (await readTogether(db, { lots: expiry.lotsRead(caller.chainId, record.id) })).lots : undefined);
  return presentMember(expiry.settle(record, program, lotPlace(caller), lots, caller.now).record, program, caller.venue);
}

async function recordOf(db: Db, caller: Caller, id: string): Promise<repo.MemberRecord> {
  const withLots = await expiry.venueExpires(db, caller.chainId);
  const [record] = isUuid(id) ? await repo.findMembers(db, caller.chainId, caller.now, { by: 'id', id }, 1, withLots) : [];
  if (!record) throw notFound();
  return record;
}

export async function getMember(db: Db, caller: Caller, id: string): Promise<Member> {
  return memberView(db, caller, await recordOf(db, caller, id));
}

/**
 * Of `cardNumbers`, those that are the serial of another member of the chain (a member's own serial is theirs to
 * carry). A scan is looked up as a card number or a serial, so such a card would find two members: enrolment, a new
 * card and the import all refuse it through here.
 */
export async function serialsOfOthers(db: Db, chainId: string, cardNumbers: string[], memberId?: string): Promise<Set<string>> {
  return new Set(await repo.serialsAmong(db, chainId, cardNumbers, memberId));
}

const SERIAL_TAKEN = "card_number is another member's serial (the code on their pass); a scan of it would find two members.";

/** The program a new member joins: the one named, else the chain's default. */
export async function enrolmentProgram(db: Db, chainId: string, programId: string | undefined): Promise<ProgramInfo> {
  const all = await programsById(db, chainId);
  const program = programId ? all.get(programId) : [...all.values()].find((p) => p.isDefault);
  if (!program) {
    throw new ApiError('parameter_invalid', {
      param: 'program_id',
      message: programId ? 'program_id is not a program of this chain.' : 'This chain has no program yet; the owner creates one first.',
    });
  }
  return program;
}

export async function enrolMember(trx: Db, caller: Caller, input: EnrolMember): Promise<Member> {
  if (input.consent !== true) {
    throw new ApiError('parameter_invalid', { param: 'consent', message: "consent must be true: enrol a guest only with their agreement." });
  }
  const program = await enrolmentProgram(trx, caller.chainId, input.program_id);
  const phone = input.phone ? normalisePhone(input.phone, caller.venue.country) : null;
  if ((await serialsOfOthers(trx, caller.chainId, [input.card_number])).size) {
    throw new ApiError('card_number_taken', { param: 'card_number', message: SERIAL_TAKEN });
  }
  let member: repo.MemberRow | undefined;
  for (let tries = 0; !member; tries++) {
    if (tries === 5) throw new Error('could not draw a free member serial');
    member = await repo.insertMember(trx, {
      chain_id: caller.chainId,
      id: newId(),
      home_venue_id: caller.venueId,
      program_id: program.id,
      serial: newSerial(),
      phone,
      name: input.name?.trim() || null,
      consented_at: new Date(),
      livemode: caller.livemode,
    });
  }
  if (!(await repo.insertCard(trx, caller.chainId, member.id, input.card_number))) {
    throw new ApiError('card_number_taken', { param: 'card_number' });
  }
  return getMember(trx, caller, member.id);
}

export async function lookupMember(db: Db, caller: Caller, query: { card_number?: string; barcode?: string; phone?: string }): Promise<Member> {
  const given = Object.entries(query).filter(([, v]) => v !== undefined);
  if (given.length !== 1) {
    throw new ApiError('parameter_invalid', { message: 'Look up by exactly one of card_number, barcode or phone.' });
  }
  const match: repo.MemberMatch = query.card_number !== undefined
    ? { by: 'card', cardNumber: query.card_number }
    : query.barcode !== undefined
      ? { by: 'code', code: query.barcode.trim() }
      : { by: 'phone', phone: normalisePhone(query.phone!, caller.venue.country) };
  const [record] = await repo.findMembers(db, caller.chainId, caller.now, match, 1, await expiry.venueExpires(db, caller.chainId));
  return memberView(db, caller, record);
}

export async function listMembers(
  db: Db,
  caller: Caller,
  page: Page,
  filter: { program_id?: string; phone?: string; livemode?: boolean; venue_id?: string },
): Promise<List<Member>> {
  // A venue key reads the whole chain's members, but filters by no other venue than its own (D21).
  if (filter.venue_id !== undefined && filter.venue_id !== caller.venueId) throw new ApiError('venue_not_allowed', { param: 'venue_id' });
  await checkCursor(page, (id) => repo.memberExists(db, caller.chainId, id));
  const ids = await repo.listMemberIds(db, caller.chainId, page, {
    programId: filter.program_id,
    phone: filter.phone === undefined ? undefined : normalisePhone(filter.phone, caller.venue.country),
    livemode: filter.livemode,
    homeVenueId: filter.venue_id,
  });
  const records = await repo.findMembers(db, caller.chainId, caller.now, { by: 'ids', ids }, ids.length, await expiry.venueExpires(db, caller.chainId));
  const all = await programsById(db, caller.chainId);
  return toList('/v1/members', page, records, (r) => {
    const program = all.get(r.program_id)!;
    return presentMember(expiry.settle(r, program, lotPlace(caller), r.lots, caller.now).record, program, caller.venue);
  });
}

export async function updateMember(trx: Db, caller: Caller, id: string, input: UpdateMember): Promise<Member> {
  const record = await recordOf(trx, caller, id);
  const changes: Parameters<typeof repo.updateMember>[3] = {};
  if (input.name !== undefined) changes.name = input.name?.trim() || null;
  if (input.phone !== undefined) changes.phone = input.phone === null ? null : normalisePhone(input.phone, caller.venue.country);
  if (input.vip_level !== undefined) {
    const program = (await programsById(trx, caller.chainId)).get(record.program_id)!;
    if (program.rules.type !== 'vip') {
      throw new ApiError('parameter_invalid', { param: 'vip_level', message: 'vip_level applies only to members of a VIP program.' });
    }
    if (input.vip_level !== null && !program.rules.levels.some((l) => l.name === input.vip_level)) {
      throw new ApiError('parameter_invalid', { param: 'vip_level', message: `vip_level must be one of: ${program.rules.levels.map((l) => l.name).join(', ')}.` });
    }
    changes.vip_level = input.vip_level;
  }
  if (Object.keys(changes).length) await repo.updateMember(trx, caller.chainId, id, changes);
  return getMember(trx, caller, id);
}

export async function attachCard(trx: Db, caller: Caller, id: string, cardNumber: string): Promise<Member> {
  // The member's row locked first (lock order): an erasure at the same time either removes this card with the others
  // or has erased the member already (404), never leaves a card on an erased member.
  if (!isUuid(id) || !(await repo.matchingMember(trx, caller.chainId, { by: 'id', id }, { lock: true }))) throw notFound();
  if ((await serialsOfOthers(trx, caller.chainId, [cardNumber], id)).size) throw new ApiError('card_number_taken', { param: 'card_number', message: SERIAL_TAKEN });
  if (!(await repo.insertCard(trx, caller.chainId, id, cardNumber))) throw new ApiError('card_number_taken', { param: 'card_number' });
  return getMember(trx, caller, id);
}

export async function memberHistory(db: Db, caller: Caller, id: string, page: Page): Promise<List<HistoryEntry>> {
  await recordOf(db, caller, id);
  await checkCursor(page, (cursor) => repo.ledgerEntryExists(db, caller.chainId, id, cursor));
  const rows = await repo.listLedger(db, caller.chainId, id, page);
  return toList(`/v1/members/${id}/history`, page, rows, presentHistoryEntry);
}

/** A ledger entry as the member's history (and their export) shows it. */
export function presentHistoryEntry(e: repo.LedgerRow): HistoryEntry {
  return {
    object: 'history_entry',
    id: e.id,
    venue_id: e.venue_id,
    type: e.kind,
    cashback: Number(e.cashback),
    spend: Number(e.spend),
    visits: e.visits,
    stamps: e.stamps,
    reason: e.reason,
    reference: e.reference,
    livemode: e.livemode,
    created_at: formatTimestamp(e.created_at),
  };
}

export async function barcodeSvg(db: Db, caller: Caller, id: string): Promise<string> {
  const { barcode } = await getMember(db, caller, id);
  // bwip-js is large and only barcode images need it.
  const { default: bwipjs } = await import('bwip-js/node');
  return bwipjs.toSVG({
    bcid: barcode.format === 'code128_card_number' ? 'code128' : 'qrcode',
    text: barcode.value,
    ...(barcode.format === 'code128_card_number' ? { includetext: true, textxalign: 'center' } : {}),
  });
}

/**
 * Locks the member for this transaction and returns their current record, what their holds keep judged by the
 * clock read after the lock; 404 when the chain has no such member.
 */
async function lockMember(trx: Db, caller: Caller, id: string, clock: Clock) {
  const locked = isUuid(id) ? await repo.matchingMember(trx, caller.chainId, { by: 'id', id }, { lock: true }) : undefined;
  if (!locked) throw notFound();
  const asOf = clock.now();
  const read = await readTogether(trx, { held: repo.heldRead(trx, caller.chainId, id, asOf), lots: await lotsReadFor(trx, caller, locked) });
  const program = (await programsById(trx, caller.chainId)).get(locked.program_id)!;
  return expiry.settle({ ...locked, held: read.held }, program, lotPlace(caller), read.lots, asOf);
}

export async function adjustBalance(trx: Db, caller: Caller, id: string, input: Adjust, request: EventRequest, clock: Clock): Promise<Adjustment> {
  if (input.amount === 0) throw new ApiError('parameter_invalid', { param: 'amount', message: 'amount must not be zero.' });
  const { record, lots } = await lockMember(trx, caller, id, clock);
  if (!caller.settings.manual_adjustments_allowed) throw new ApiError('adjustments_disabled');
  const program = (await programsById(trx, caller.chainId)).get(record.program_id)!;
  if (program.rules.type !== 'cashback') throw new ApiError('redeem_not_supported', { message: "The member's program has no cashback balance to adjust." });
  const available = availableOf(record);
  // Taking is bounded by what is available; giving always goes through (it pays a debt back first).
  if (input.amount < 0 && available + input.amount < 0) {
    throw new ApiError('insufficient_balance', {
      message: `Cannot take ${-input.amount}: only ${available} is available.`,
      details: { available },
    });
  }
  // Cashback given by hand does not expire; taken, it comes out of the lots that expire soonest.
  const move: Movement = input.amount > 0 ? { credit: input.amount, day: null } : { debit: -input.amount, day: null };
  const lotsWrite = expiry.lotsWrite(trx, caller, id, lots, [move], request);
  const rows = ledgerRows(caller, [...lotsWrite.entries, { memberId: id, kind: 'adjustment', cashback: input.amount, reason: input.reason.trim() }], caller.now);
  const entry = rows.at(-1);
  const after = { ...record, cashback: record.cashback + input.amount, ...(lots ? { lots: lotsWrite.open } : {}) };
  const member = presentMember(after, program, caller.venue);
  const adjustment: Adjustment = {
    object: 'adjustment',
    id: entry!.id,
    member_id: id,
    amount: input.amount,
    reason: entry!.reason!,
    balance: member.balance!,
    available: member.available!,
    livemode: caller.livemode,
    created_at: formatTimestamp(caller.now),
    display: {
      cashier: `${member.display.cashier}`,
      receipt: [`Cashback adjusted: ${formatSignedMoney(input.amount, caller.venue)}`, `Cashback available: ${formatMoney(member.available!, caller.venue)}`],
    },
  };
  // The entry, the totals and the event in one statement.
  await writeTogether(trx, [
    ...repo.ledgerSteps(trx, caller.chainId, rows),
    ...lotsWrite.steps,
    ...eventSteps(trx, { chainId: caller.chainId, venueId: caller.venueId, homeVenueId: record.home_venue_id, type: 'balance.adjusted', livemode: caller.livemode, object: adjustment, request }),
  ]);
  return adjustment;
}

export async function redeemReward(trx: Db, caller: Caller, id: string, clock: Clock): Promise<RewardRedemption> {
  const { record } = await lockMember(trx, caller, id, clock);
  const program = (await programsById(trx, caller.chainId)).get(record.program_id)!;
  const rules = program.rules;
  if (rules.type !== 'stamps') throw new ApiError('redeem_not_supported', { message: "The member's program has no stamp rewards." });
  if (record.stamps < rules.stampsRequired) {
    throw new ApiError('no_reward_available', {
      message: `The member has ${record.stamps} of the ${rules.stampsRequired} stamps a ${rules.rewardName} needs.`,
    });
  }
  const [entry] = await appendLedger(trx, caller, [
    { memberId: id, kind: 'reward_redemption', stamps: -rules.stampsRequired, reason: rules.rewardName },
  ]);
  const member = presentMember({ ...record, stamps: record.stamps - rules.stampsRequired }, program, caller.venue);
  return {
    object: 'reward_redemption',
    id: entry!.id,
    member_id: id,
    reward_name: rules.rewardName,
    stamps_used: rules.stampsRequired,
    member,
    livemode: caller.livemode,
    created_at: formatTimestamp(entry!.created_at),
    display: { cashier: `${member.display.cashier}`, receipt: [`Reward: ${rules.rewardName}`, ...member.display.receipt] },
  };
}

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
 * when none was named.
 */
export async function memberNamed<A>(
  trx: Db,
  caller: Caller,
  ref: MemberRef,
  options: { lock: boolean; memberOf?: Expression<string | null>; alongside?: Expression<A> },
): Promise<{ member: LockedMember | null; found: boolean; alongside: A | null }> {
  const match = checkMatch(ref, options.memberOf);
  if (!match) return { member: null, found: true, alongside: null };
  const row = await repo.matchingMember(trx, caller.chainId, match, options);
  if (!row) return { member: null, found: false, alongside: null };
  const { alongside, ...member } = row;
  return { member, found: true, alongside };
}

/** What the member's holds keep as of `asOf`, across the chain: a read for the gather that follows the member's lock. */
export function heldRead(trx: Db, caller: Caller, memberId: string, asOf: Date): Read<number> {
  return repo.heldRead(trx, caller.chainId, memberId, asOf);
}

/** The locked member with what their holds keep as of `asOf`, as a check's decision sees them. */
export async function withHeld(db: Db, caller: Caller, member: LockedMember, held: number, asOf: Date, lots?: Lot[]): Promise<CheckMember> {
  return checkMember(db, caller, { ...member, held }, asOf, lots);
}

/**
 * The member's open cashback lots as a read of the gather that follows their lock, when their program expires
 * cashback; undefined otherwise, and nothing more is read.
 */
export async function lotsReadFor(db: Db, caller: Caller, member: LockedMember): Promise<Read<Lot[]> | undefined> {
  const program = (await programsById(db, caller.chainId)).get(member.program_id)!;
  return expiry.expires(program) ? expiry.lotsRead(caller.chainId, member.id) : undefined;
}

/**
 * The member after a write as a read at that moment shows them (D20): `record` with the lots the write left
 * (`open`), less what of them is due already — cashback that went into a lot already past its date (a check closed
 * long ago, a reversal giving back to such a lot) is gone at once, as a GET would say.
 */
export function settledAfter<R extends repo.MemberRecord>(caller: Caller, member: CheckMember, record: R, open: Lot[]): R {
  return member.lots ? { ...record, ...expiry.settle(record, member.program, lotPlace(caller), open, member.lots.asOf).record } : record;
}

/** What a write that moves the member's cashback does to their lots (see expiry-service.ts). */
export { appendLedger, ledgerSteps, type LedgerInput, type LedgerPlace } from './money.js';
export { programChanging } from './expiry-service.js';
export const lotsWrite = expiry.lotsWrite;
/** A reversal's balance after it, as a read then shows it (see expiry-service.ts). */
export const balanceAfter = expiry.balanceAfter;
export type LotsWrite = expiry.LotsWrite;
/** Where a reversal gives a check's redemption back to: the lots it took from, and no lot (see expiry.ts). */
export { redemptionBack } from './expiry.js';

/**
 * What a reversal (void, refund) stands on besides the check: the locked member's cashback balance as their
 * answers show it (null when their program keeps none) and their lots, with what was due by `asOf` expired.
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
  if (program.rules.type !== 'cashback') return { balance: null, lots: null };
  const settled = expiry.settle({ ...member, held: read.held ?? 0 }, program, lotPlace(caller, read.zones), read.lots, asOf);
  return { balance: settled.record.cashback, lots: settled.lots };
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
export async function lockMemberForCheck(trx: Db, caller: Caller, ref: MemberRef, clock: Clock): Promise<CheckMember | null> {
  const { member, found } = await memberNamed(trx, caller, ref, { lock: true });
  if (!found) throw notFound();
  if (!member) return null;
  const asOf = clock.now();
  const { held, lots } = await readTogether(trx, { held: heldRead(trx, caller, member.id, asOf), lots: await lotsReadFor(trx, caller, member) });
  return withHeld(trx, caller, member, held, asOf, lots);
}

/** The member's current view, for answers that show it after a change. */
export async function memberById(db: Db, caller: Caller, id: string): Promise<Member> {
  return getMember(db, caller, id);
}

export type TotalsDifference = repo.TotalsDifference;

/** `ledger verify`: every member's stored totals against the sums of their ledger; empty when all agree. */
export async function verifyTotals(db: Db, chainId?: string): Promise<TotalsDifference[]> {
  return repo.totalsDifferences(db, chainId);
}
