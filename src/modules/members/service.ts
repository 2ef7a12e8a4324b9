// Members: enrolment, look-up, profile and cards, history, barcodes, manual adjustments and stamp rewards (the member
// a check, hold or visit names is in till.ts).
import type { CountryCode } from 'libphonenumber-js';
import type { Db } from '../../db/database.js';
import { writeTogether, type WriteStep } from '../../db/statement.js';
import { isEmailAddress } from '../../shared/email.js';
import type { Clock } from '../../shared/clock.js';
import { formatSignedMoney, formatMoney } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid, newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp, venueDay } from '../../shared/time.js';
import type { Caller } from '../accounts/schemas.js';
import * as audit from '../audit/service.js';
import * as campaigns from '../campaigns/service.js';
import type { ProgramInfo, ProgramRules } from '../programs/schemas.js';
import { eventSteps, type EventRequest } from '../webhooks/events.js';
import * as expiry from './expiry-service.js';
import type { Movement } from './expiry.js';
import { manualLevelSteps, periodChanging } from './levels.js';
import { appendLedger, ledgerRows } from './money.js';
import * as repo from './repo.js';
import type { Adjust, Adjustment, EnrolMember, HistoryEntry, Member, RewardRedemption, UpdateMember } from './schemas.js';
import { memberView, notFound, programsById } from './settled.js';
import { creditCampaigns } from './campaign-credits.js';
import { lockMemberForCheck } from './till.js';
import { phoneNumbers } from '../../shared/on-first-use.js';
import { availableOf, presentMember } from './view.js';

const SERIAL_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const drawCode = (length: number) => Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => SERIAL_ALPHABET[b % 32]).join('');

export const newSerial = (): string => drawCode(10);

/** A member's code to refer friends with (D22): 8 characters a guest can read out, unique in the chain. */
export const newReferralCode = (): string => drawCode(8);

/** A phone number in E.164, read with the venue's country for numbers written without one. */
export function normalisePhone(raw: string, country: string, param = 'phone'): string {
  const phone = phoneNumbers().parsePhoneNumberFromString(raw, country as CountryCode);
  if (!phone?.isValid()) throw new ApiError('parameter_invalid', { param, message: `${param} is not a valid phone number for ${country}.` });
  return phone.number;
}

/** An e-mail address trimmed and lower-cased, when it is one: one @ with text on each side, no spaces, at most 254 characters. */
export function normaliseEmail(raw: string, param = 'email'): string {
  const email = raw.trim().toLowerCase();
  if (!isEmailAddress(email)) {
    throw new ApiError('parameter_invalid', { param, message: `${param} is not an e-mail address (one @, no spaces, at most 254 characters).` });
  }
  return email;
}

const emailTaken = () => new ApiError('member_email_taken', { param: 'email' });

/** Refuses an e-mail another member of the chain has. */
async function checkEmailFree(db: Db, chainId: string, email: string, memberId?: string): Promise<void> {
  if (await repo.memberWithEmail(db, chainId, email, memberId)) throw emailTaken();
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

/** 404 unless the chain has this member, as getMember finds them, without building their view (history, activity). */
export async function requireMember(db: Db, caller: Caller, id: string): Promise<void> {
  await recordOf(db, caller, id);
}

/**
 * Of `cardNumbers`, those that are the serial of another member of the chain (a member's own serial is theirs to
 * carry). A scan is looked up as a card number or a serial, so such a card would find two members: enrolment, a new
 * card and the import all refuse it through here.
 */
export async function serialsOfOthers(db: Db, chainId: string, cardNumbers: string[], memberId?: string): Promise<Set<string>> {
  return new Set(await repo.serialsAmong(db, chainId, cardNumbers, memberId));
}

/** A birthday as given, when it is a real date not after the venue's today; 02-29 without a year is one. */
function checkBirthday(text: string, caller: Caller): string {
  const [year, month, day] = text.length === 5 ? [2000, ...text.split('-').map(Number)] : text.split('-').map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day;
  if (!real || (text.length === 10 && (year! < 1900 || text > venueDay(caller.now, caller.venue.timezone)))) {
    throw new ApiError('parameter_invalid', { param: 'birthday', message: 'birthday must be a real date, MM-DD or YYYY-MM-DD, not in the future.' });
  }
  return text;
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

export async function enrolMember(trx: Db, caller: Caller, input: EnrolMember, request: EventRequest): Promise<Member> {
  if (input.consent !== true) {
    throw new ApiError('parameter_invalid', { param: 'consent', message: "consent must be true: enrol a guest only with their agreement." });
  }
  const program = await enrolmentProgram(trx, caller.chainId, input.program_id);
  const phone = input.phone ? normalisePhone(input.phone, caller.venue.country) : null;
  const email = input.email === undefined ? null : normaliseEmail(input.email);
  if (email !== null) await checkEmailFree(trx, caller.chainId, email);
  if ((await serialsOfOthers(trx, caller.chainId, [input.card_number])).size) {
    throw new ApiError('card_number_taken', { param: 'card_number', message: SERIAL_TAKEN });
  }
  const referredBy = input.referred_by ? await repo.memberOfReferralCode(trx, caller.chainId, input.referred_by, caller.livemode) : null;
  if (referredBy === undefined) {
    throw new ApiError('parameter_invalid', { param: 'referred_by', message: 'No member of this chain has this referral code.' });
  }
  const birthday = input.birthday == null ? null : checkBirthday(input.birthday, caller);
  let member: repo.MemberRow | undefined;
  for (let tries = 0; !member; tries++) {
    // A key taken: the serial or code drawn, or the e-mail by an enrolment that committed meanwhile (then 409).
    if (tries > 0 && email !== null) await checkEmailFree(trx, caller.chainId, email);
    if (tries === 5) throw new Error('could not draw a free member serial and referral code');
    member = await repo.insertMember(trx, {
      chain_id: caller.chainId,
      id: newId(),
      home_venue_id: caller.venueId,
      program_id: program.id,
      serial: newSerial(),
      referral_code: newReferralCode(),
      referred_by: referredBy,
      phone,
      email,
      name: input.name?.trim() || null,
      birthday,
      birthday_set_at: birthday === null ? null : caller.now,
      consented_at: new Date(),
      livemode: caller.livemode,
      // The request's time, as its ledger entries and checks have: reports count the enrolment on that day.
      created_at: caller.now,
    });
  }
  if (!(await repo.insertCard(trx, caller.chainId, member.id, input.card_number))) {
    throw new ApiError('card_number_taken', { param: 'card_number' });
  }
  // Welcome campaigns (D22) credit in the enrolment's transaction; imported members never pass here.
  const place = { chainId: caller.chainId, venueId: caller.venueId, livemode: caller.livemode, timezone: caller.venue.timezone, now: caller.now };
  await creditCampaigns(trx, place, member.id, (unit) => campaigns.takeWelcome(trx, caller, unit, request), request);
  return getMember(trx, caller, member.id);
}

export async function lookupMember(db: Db, caller: Caller, query: { card_number?: string; barcode?: string; phone?: string; email?: string }): Promise<Member> {
  const given = Object.entries(query).filter(([, v]) => v !== undefined);
  if (given.length !== 1) {
    throw new ApiError('parameter_invalid', { message: 'Look up by exactly one of card_number, barcode, phone or email.' });
  }
  const match: repo.MemberMatch = query.card_number !== undefined
    ? { by: 'card', cardNumber: query.card_number }
    : query.barcode !== undefined
      ? { by: 'code', code: query.barcode.trim() }
      : query.email !== undefined
        ? { by: 'email', email: normaliseEmail(query.email) }
        : { by: 'phone', phone: normalisePhone(query.phone!, caller.venue.country) };
  // Nothing keeps a phone to one member (imports and till enrolments wrote many before this was asked): two are
  // answered as such, never as whichever is newest. A card, a barcode or an e-mail names one at most.
  const [record, another] = await repo.findMembers(db, caller.chainId, caller.now, match, match.by === 'phone' ? 2 : 1, await expiry.venueExpires(db, caller.chainId));
  if (another) throw new ApiError('member_ambiguous', { param: 'phone' });
  return memberView(db, caller, record);
}

/**
 * The ids of at most `limit` members a guest's phone (E.164), e-mail (as normaliseEmail gives it) or card number
 * names, newest first: a connector tells one member from none or several (D26), where a look-up takes the newest.
 */
export async function memberIdsMatching(
  db: Db,
  caller: Caller,
  match: { phone: string } | { email: string } | { cardNumber: string },
  limit = 2,
): Promise<string[]> {
  const by: repo.MemberMatch =
    'phone' in match ? { by: 'phone', phone: match.phone } : 'email' in match ? { by: 'email', email: match.email } : { by: 'card', cardNumber: match.cardNumber };
  return (await repo.findMembers(db, caller.chainId, caller.now, by, limit)).map((m) => m.id);
}

export async function updateMember(trx: Db, caller: Caller, id: string, input: UpdateMember, request: EventRequest): Promise<Member> {
  const record = await recordOf(trx, caller, id);
  const changes: Parameters<typeof repo.updateMember>[3] = {};
  if (input.name !== undefined) changes.name = input.name?.trim() || null;
  if (input.phone !== undefined) changes.phone = input.phone === null ? null : normalisePhone(input.phone, caller.venue.country);
  if (input.email !== undefined) {
    changes.email = input.email === null ? null : normaliseEmail(input.email);
    if (changes.email !== null) await checkEmailFree(trx, caller.chainId, changes.email, id);
  }
  if (input.birthday !== undefined) {
    changes.birthday = input.birthday === null ? null : checkBirthday(input.birthday, caller);
    changes.birthday_set_at = caller.now;
  }
  let moved: WriteStep[] = [];
  if (input.vip_level !== undefined) {
    const program = (await programsById(trx, caller.chainId)).get(record.program_id)!;
    if (program.rules.type !== 'vip') {
      throw new ApiError('parameter_invalid', { param: 'vip_level', message: 'vip_level applies only to members of a VIP program.' });
    }
    if (input.vip_level !== null && !program.rules.levels.some((l) => l.name === input.vip_level)) {
      throw new ApiError('parameter_invalid', { param: 'vip_level', message: `vip_level must be one of: ${program.rules.levels.map((l) => l.name).join(', ')}.` });
    }
    changes.vip_level = input.vip_level;
    // Locked, so the level it moves from is the one no check is changing meanwhile.
    const locked = (await repo.matchingMember(trx, caller.chainId, { by: 'id', id }, { lock: true }))!;
    moved = manualLevelSteps(trx, caller, locked, program, input.vip_level, request);
  }
  if (Object.keys(changes).length) await repo.updateMember(trx, caller.chainId, id, changes);
  const entry = { action: 'member.updated' as const, target: { type: 'member', id }, changes: memberChanges(record, changes) };
  await writeTogether(trx, [...moved, ...audit.auditSteps(trx, audit.placeOf(caller), entry)]);
  return getMember(trx, caller, id);
}

/**
 * What an update changed, for the audit log: the VIP level as it was and is; a personal field (name, phone, e-mail, birthday)
 * only as whether it was set before and after, never its value.
 */
function memberChanges(
  before: Record<'name' | 'phone' | 'email' | 'birthday' | 'vip_level', unknown>,
  after: Parameters<typeof repo.updateMember>[3],
): Record<string, [unknown, unknown]> {
  const changed: Record<string, [unknown, unknown]> = {};
  for (const field of ['name', 'phone', 'email', 'birthday'] as const) {
    if (after[field] !== undefined && JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field])) changed[field] = [before[field] != null, after[field] != null];
  }
  if (after.vip_level !== undefined && (before.vip_level ?? null) !== after.vip_level) changed.vip_level = [before.vip_level ?? null, after.vip_level];
  return changed;
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
  await requireMember(db, caller, id);
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
    campaign_id: e.campaign_id,
    livemode: e.livemode,
    created_at: formatTimestamp(e.created_at),
  };
}

/** How a program's barcode format is drawn: Code 128, or a QR code. */
export const barcodeKind = (format: string): 'qr' | 'code128' => (format === 'code128_card_number' ? 'code128' : 'qr');

/** A barcode as SVG. */
export async function renderBarcode(barcode: { kind: 'qr' | 'code128'; value: string }): Promise<string> {
  // bwip-js is large and only barcode images need it.
  const { default: bwipjs } = await import('bwip-js/node');
  return bwipjs.toSVG({
    bcid: barcode.kind === 'code128' ? 'code128' : 'qrcode',
    text: barcode.value,
    ...(barcode.kind === 'code128' ? { includetext: true, textxalign: 'center' } : {}),
  });
}

export async function barcodeSvg(db: Db, caller: Caller, id: string): Promise<string> {
  const { barcode } = await getMember(db, caller, id);
  return renderBarcode({ kind: barcodeKind(barcode.format), value: barcode.value });
}

/**
 * Locks the member for this transaction and returns their current record, what their holds keep judged by the
 * clock read after the lock; 404 when the chain has no such member.
 */
/** The member named by the route's id, locked, with their holds and lots as of now: as a check sees them. */
const lockMember = async (trx: Db, caller: Caller, id: string, clock: Clock) => (await lockMemberForCheck(trx, caller, { member_id: id }, clock))!;

export async function adjustBalance(trx: Db, caller: Caller, id: string, input: Adjust, request: EventRequest, clock: Clock): Promise<Adjustment> {
  if (input.amount === 0) throw new ApiError('parameter_invalid', { param: 'amount', message: 'amount must not be zero.' });
  const { record, lots, program } = await lockMember(trx, caller, id, clock);
  if (!caller.settings.manual_adjustments_allowed) throw new ApiError('adjustments_disabled');
  if (program.rules.type !== 'cashback') throw new ApiError('redeem_not_supported', { message: "The member's program has no cashback balance to adjust." });
  const available = availableOf(record);
  // Taking is bounded by what is available; giving always goes through (it pays a debt back first).
  if (input.amount < 0 && available + input.amount < 0) {
    throw new ApiError('insufficient_balance', {
      message: `Cannot take ${formatMoney(-input.amount, caller.venue)}: only ${formatMoney(available, caller.venue)} is available (available: ${available}).`,
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
    ...audit.auditSteps(trx, audit.placeOf(caller), { action: 'member.adjusted', target: { type: 'member', id }, changes: { balance: [record.cashback, record.cashback + input.amount] } }),
  ]);
  return adjustment;
}

export async function redeemReward(trx: Db, caller: Caller, id: string, clock: Clock): Promise<RewardRedemption> {
  const { record, program } = await lockMember(trx, caller, id, clock);
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

/** What a write that moves the member's cashback does to their lots (see expiry-service.ts). */
export { appendLedger, ledgerSteps, type LedgerInput, type LedgerPlace } from './money.js';
export { levelSpendDifferences, levelWindow, runLevelPeriods } from './levels.js';

/** What a program's new settings mean for its members: their cashback's expiry (expiry-service.ts), their levels' window (levels.ts). */
export async function programChanging(db: Db, chainId: string, current: ProgramInfo, next: ProgramRules | undefined, now: Date): Promise<void> {
  await expiry.programChanging(db, chainId, current, next, now);
  await periodChanging(db, chainId, current, next, now);
}
export { creditCampaigns, type CreditPlace } from './campaign-credits.js';
export const lotsWrite = expiry.lotsWrite;
/** A reversal's balance after it, as a read then shows it (see expiry-service.ts). */
export const balanceAfter = expiry.balanceAfter;
export type LotsWrite = expiry.LotsWrite;
/** Where a reversal gives a check's redemption back to: the lots it took from, and no lot (see expiry.ts). */
export { redemptionBack } from './expiry.js';

/** The member's current view, for answers that show it after a change. */
export async function memberById(db: Db, caller: Caller, id: string): Promise<Member> {
  return getMember(db, caller, id);
}

export type TotalsDifference = repo.TotalsDifference;

/** `ledger verify`: every member's stored totals against the sums of their ledger; empty when all agree. */
export async function verifyTotals(db: Db, chainId?: string): Promise<TotalsDifference[]> {
  return repo.totalsDifferences(db, chainId);
}
