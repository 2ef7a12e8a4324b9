// A member's data on request: the export (everything held about them, one document, read page by page) and the
// erasure (personal data removed wherever a copy sits; the ledger and transactions kept, anonymised). Both span the
// members, checks, holds and visits modules, so they live above them.
import { phoneNumbers } from '../../shared/on-first-use.js';
import type { Db } from '../../db/database.js';
import { writeTogether } from '../../db/statement.js';
import * as idempotencyStore from '../../http/idempotency-store.js';
import type { Clock } from '../../shared/clock.js';
import { shortName } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import type { List, Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import type { Caller } from '../../modules/accounts/schemas.js';
import * as audit from '../../modules/audit/service.js';
import * as checks from '../../modules/checks/reads.js';
import * as holds from '../../modules/holds/service.js';
import { recordErasedCards } from '../../modules/members/erased-cards.js';
import * as wallet from '../../modules/wallet/service.js';
import { presentHistoryEntry } from '../../modules/members/service.js';
import * as visits from '../../modules/visits/service.js';
import { eventSteps, listEventsNaming, replaceEventData, type EventRequest } from '../../modules/webhooks/events.js';
import * as repo from '../../modules/privacy/repo.js';
import type { ExportedMember, MemberErasure } from '../../modules/privacy/schemas.js';

/** What an erased piece of text reads instead. */
const ERASED = '[erased]';
/** Rows read per statement: an export or an erasure holds one page at a time, however long the history. */
const PAGE = 200;

async function heldMember(db: Db, caller: Caller, id: string, lock: boolean): Promise<repo.HeldMember> {
  const member = isUuid(id) ? await repo.heldMember(db, caller.chainId, id, lock) : undefined;
  if (!member) throw new ApiError('member_not_found');
  return member;
}

/** Every item of a newest-first list, one page at a time. */
async function* everyItem<T>(read: (page: Page) => Promise<Pick<List<T>, 'data' | 'has_more'>>, cursorOf: (item: T) => string): AsyncGenerator<T> {
  let page: Page = { limit: PAGE };
  for (;;) {
    const list = await read(page);
    yield* list.data;
    if (!list.has_more || list.data.length === 0) return;
    page = { limit: PAGE, startingAfter: cursorOf(list.data.at(-1)!) };
  }
}

const byId = (item: { id: string }) => item.id;

/** The caller reaching every venue of its chain: checks, holds and scans are each venue's, a member's are at any of them. */
const chainWide = (caller: Caller): Caller => ({ ...caller, venueId: null });

function ledgerList(db: Db, caller: Caller, memberId: string, only: Parameters<typeof repo.ledgerPage>[4]) {
  return async (page: Page) => {
    const rows = await repo.ledgerPage(db, caller.chainId, memberId, page, only);
    return { has_more: rows.length > page.limit, data: rows.slice(0, page.limit) };
  };
}

function presentHeld(m: repo.HeldMember): ExportedMember {
  return {
    id: m.id,
    home_venue_id: m.home_venue_id,
    program_id: m.program_id,
    serial: m.serial,
    name: m.name,
    phone: m.phone,
    email: m.email,
    vip_level: m.vip_level,
    birthday: m.birthday,
    referral_code: m.referral_code,
    referred_by: m.referred_by,
    referred: m.referred,
    consented_at: formatTimestamp(m.consented_at),
    created_at: formatTimestamp(m.created_at),
    erased_at: m.erased_at ? formatTimestamp(m.erased_at) : null,
    livemode: m.livemode,
    totals: { cashback: m.cashback, spend: m.spend, visits: m.visits, stamps: m.stamps },
    cards: m.cards.map((c) => ({ card_number: c.card_number, created_at: formatTimestamp(c.created_at) })),
  };
}

/**
 * The member's export (MemberExport) as the pieces of one JSON document, read a page at a time as they are sent, so
 * a long history is never held whole. 404 member_not_found before anything is sent; an erased member's export shows
 * what the chain keeps. What happened at a venue (checks, holds, scans) is read across every venue of the chain.
 */
export async function exportMember(db: Db, caller: Caller, id: string): Promise<AsyncIterable<string>> {
  const member = await heldMember(db, caller, id, false);
  // Who took a copy of a guest's data is recorded before a byte of it leaves.
  await audit.recordAudit(db, audit.placeOf(caller), { action: 'member.exported', target: { type: 'member', id }, changes: {} });
  const chain = chainWide(caller);
  const sections: [string, AsyncIterable<unknown>][] = [
    ['ledger', map(everyItem(ledgerList(db, caller, id, {}), byId), presentHistoryEntry)],
    ['transactions', everyItem((page) => checks.listTransactions(db, chain, page, { member_id: id }), byId)],
    ['refunds', everyItem((page) => checks.listMemberRefunds(db, caller, id, page), byId)],
    ['holds', everyItem((page) => holds.listMemberHolds(db, chain, id, page), byId)],
    ['visits', map(everyItem(ledgerList(db, caller, id, { kind: 'visit' }), byId), (e) => ({
      id: e.id, venue_id: e.venue_id, external_id: e.reference, visits: e.visits, stamps: e.stamps, created_at: formatTimestamp(e.created_at),
    }))],
    ['scans', everyItem((page) => visits.listMemberScans(db, chain, id, page), byId)],
    ['events', everyItem((page) => listEventsNaming(db, caller.chainId, id, page), byId)],
  ];
  const head = { object: 'member_export', exported_at: formatTimestamp(caller.now), member: presentHeld(member), wallet: await wallet.walletOfMember(db, caller.chainId, id) };
  return (async function* () {
    yield JSON.stringify(head).slice(0, -1);
    for (const [name, items] of sections) {
      yield `,${JSON.stringify(name)}:[`;
      let first = true;
      for await (const item of items) {
        yield (first ? '' : ',') + JSON.stringify(item);
        first = false;
      }
      yield ']';
    }
    yield '}';
  })();
}

async function* map<T, U>(items: AsyncIterable<T>, f: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield f(item);
}

/** The member's personal values: the current ones and those a stored copy shows they had before (a rename). */
export interface PersonalValues {
  names: Set<string>;
  phones: Set<string>;
  emails: Set<string>;
  cards: Set<string>;
  serials: Set<string>;
  /** How a cashier line greeted them ("Anna K.", "Member 7F3K2Q"): the first part of a display text that is theirs. */
  greetings: Set<string>;
}

/** Fields of the member's own objects, or of an object about them, that hold a personal value whole. */
const PERSONAL_FIELDS = new Set(['name', 'short_name', 'display_name', 'phone', 'email', 'birthday', 'referral_code', 'card_numbers', 'card_number', 'serial', 'barcode']);
const SEPARATOR = ' · ';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

export function personalValuesOf(member: Pick<repo.HeldMember, 'name' | 'phone' | 'serial' | 'cards'> & { email?: string | null }): PersonalValues {
  const values: PersonalValues = { names: new Set(), phones: new Set(), emails: new Set(), cards: new Set(), serials: new Set(), greetings: new Set() };
  gatherFrom(values, { name: member.name, phone: member.phone, email: member.email ?? null, serial: member.serial, card_numbers: member.cards.map((c) => c.card_number) });
  return values;
}

const add = (set: Set<string>, v: unknown) => {
  if (typeof v === 'string' && v.trim() && v !== ERASED) set.add(v.trim());
};

/** Adds the personal fields of one object that is the member (or, for card_number and barcode, is about them). */
function gatherFrom(values: PersonalValues, o: Json): void {
  add(values.names, o.name);
  if (typeof o.name === 'string' && o.name.trim()) add(values.greetings, shortName(o.name, ''));
  add(values.phones, o.phone);
  add(values.emails, o.email);
  add(values.serials, o.serial);
  if (typeof o.serial === 'string') add(values.greetings, `Member ${o.serial}`);
  if (Array.isArray(o.card_numbers)) for (const c of o.card_numbers) add(values.cards, c);
  add(values.cards, o.card_number);
  add(values.cards, typeof o.barcode === 'string' ? o.barcode : isObject(o.barcode) ? o.barcode.value : undefined);
}

/**
 * Adds what a stored document (an event's payload, a stored answer) shows of the member, read by its structure: the
 * personal fields of the objects that are the member (`id`), the card of those about them (`member_id`), and how the
 * cashier line of the member or of a completed check of theirs greeted them.
 */
export function gatherPersonalValues(values: PersonalValues, memberId: string, doc: unknown): void {
  if (Array.isArray(doc)) for (const item of doc) gatherPersonalValues(values, memberId, item);
  if (!isObject(doc)) return;
  const own = doc.id === memberId;
  if (own) gatherFrom(values, doc);
  else if (doc.member_id === memberId) {
    add(values.cards, doc.card_number);
    add(values.cards, typeof doc.barcode === 'string' ? doc.barcode : undefined);
  }
  const checkOfTheirs = doc.object === 'transaction' && doc.member_id === memberId && doc.status === 'completed';
  if ((own || checkOfTheirs) && isObject(doc.display) && typeof doc.display.cashier === 'string') {
    add(values.greetings, doc.display.cashier.split(SEPARATOR)[0]);
  }
  for (const v of Object.values(doc)) gatherPersonalValues(values, memberId, v);
}

/**
 * Free text (a ledger entry's reason) with the member's values replaced where they stand as words: the full name,
 * each part of it of 3 or more letters, the greeting, the phone in E.164 and national forms, the e-mail, card numbers and serials
 * of 4 or more characters. A word here does not end at `-` (nor at a decimal point), so "2027-12-28", an id or
 * "€3.12" is never cut into.
 */
export function freeTextScrubber(values: PersonalValues): (text: string) => string {
  const words = new Set<string>([...values.names, ...values.greetings]);
  for (const name of values.names) for (const part of name.split(/\s+/)) if ([...part].length >= 3) words.add(part);
  for (const phone of values.phones) {
    words.add(phone);
    const parsed = phoneNumbers().parsePhoneNumberFromString(phone);
    if (parsed) for (const form of [parsed.formatNational(), parsed.nationalNumber, parsed.formatNational().replace(/\D/g, ''), phone.replace(/^\+/, '')]) words.add(form);
  }
  for (const email of values.emails) words.add(email);
  for (const code of [...values.cards, ...values.serials]) if (code.length >= 4) words.add(code);
  const escaped = [...words].filter((w) => w.length > 0).sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (escaped.length === 0) return (text) => text;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_-]|\\p{N}[.,])(?:${escaped.join('|')})(?![\\p{L}\\p{N}_-]|[.,]\\p{N})`, 'giu');
  return (text) => text.replace(pattern, ERASED);
}

/**
 * Redacts a stored JSON document by its structure, never by searching its text: in the objects that are the member
 * (`id`) or about them (`member_id`), the personal fields become `[erased]` (a barcode keeps its format), the
 * greeting that starts a cashier line becomes `[erased]` when it is one of theirs, and a `reason` is scrubbed as
 * free text. Everything else (ids, times, level and product names, amounts) is left as it is.
 */
export function redactorOf(memberId: string, values: PersonalValues): <T>(doc: T) => T {
  const text = freeTextScrubber(values);
  const erase = (key: string, v: unknown): unknown => {
    if (v === null || v === undefined) return v;
    if (Array.isArray(v)) return v.map(() => ERASED);
    if (key === 'barcode' && isObject(v)) return { ...v, value: ERASED };
    return ERASED;
  };
  const greeting = (display: Json): Json => {
    if (typeof display.cashier !== 'string') return display;
    const [first, ...rest] = display.cashier.split(SEPARATOR);
    return values.greetings.has(first!) ? { ...display, cashier: [ERASED, ...rest].join(SEPARATOR) } : display;
  };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    const theirs = v.id === memberId || v.member_id === memberId;
    return Object.fromEntries(
      Object.entries(v).map(([k, field]) => {
        if (!theirs) return [k, walk(field)];
        if (PERSONAL_FIELDS.has(k)) return [k, erase(k, field)];
        if (k === 'display' && isObject(field)) return [k, greeting(field)];
        if (k === 'reason' && typeof field === 'string') return [k, text(field)];
        return [k, walk(field)];
      }),
    );
  };
  return <T>(doc: T) => walk(doc) as T;
}

/** Rewrites each item by `scrub`, saving those it changed; how many. */
async function scrubEach<T>(items: AsyncIterable<T>, scrub: (item: T) => T, save: (item: T) => Promise<void>): Promise<number> {
  let changed = 0;
  for await (const item of items) {
    const scrubbed = scrub(item);
    if (JSON.stringify(scrubbed) !== JSON.stringify(item)) {
      await save(scrubbed);
      changed++;
    }
  }
  return changed;
}

/** The chain's stored Idempotency-Key answers that name the member (at any of its venues), a page at a time. */
async function* answersNaming(trx: Db, chainId: string, memberId: string) {
  let after: idempotencyStore.StoredKey | undefined;
  for (;;) {
    const rows = await idempotencyStore.answersContaining(trx, chainId, memberId, after, PAGE);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows.at(-1)!;
  }
}

/**
 * The dashboard's confirmation of an erasure: the owner typed one of the member's card numbers, or ERASE (a member
 * may have no card to read off). 400 parameter_invalid on `confirm` otherwise.
 */
export async function checkErasureConfirmation(db: Db, caller: Caller, id: string, typed: string): Promise<void> {
  const member = await heldMember(db, caller, id, false);
  const text = typed.trim();
  if (text === 'ERASE' || member.cards.some((c) => c.card_number === text)) return;
  throw new ApiError('parameter_invalid', { param: 'confirm', message: 'Type one of the member\'s card numbers, or ERASE, to confirm.' });
}

/**
 * Erases the member's personal data (see docs/members.md#export-and-erase). The member's row is locked first; their
 * holds still in force, at every venue of the chain, are released through the holds service; then every copy of
 * their personal data is rewritten: events (and so deliveries still to come), stored Idempotency-Key answers, the
 * text of their checks at every venue, reasons in their ledger; their card numbers are kept as keyed hashes for
 * imports; then their cards go and their row is marked erased, with the event `member.erased`, which carries no
 * personal data. Erasing an erased member changes nothing and answers so. Writes that store the member's data (a
 * card attached, a scan's stored answer) lock the row too, so they land wholly before the erasure (which then
 * rewrites them) or find the member erased.
 */
export async function eraseMember(trx: Db, caller: Caller, id: string, clock: Clock, request: EventRequest): Promise<MemberErasure> {
  const member = await heldMember(trx, caller, id, true);
  const answer = (erasedAt: Date, released: string[]): MemberErasure => ({
    object: 'member_erasure',
    member_id: id,
    erased_at: formatTimestamp(erasedAt),
    already_erased: member.erased_at !== null,
    holds_released: released,
    livemode: member.livemode,
  });
  if (member.erased_at) return answer(member.erased_at, []);

  const chain = chainWide(caller);
  const released = await holds.releaseMemberHolds(trx, chain, id, clock);
  const events = () => everyItem((page) => listEventsNaming(trx, caller.chainId, id, page), byId);
  const transactions = () => everyItem((page) => checks.listTransactions(trx, chain, page, { member_id: id }), byId);
  // First what every copy shows of them, past values included (a name changed since a check was made); then the
  // copies are rewritten with all of it.
  const values = personalValuesOf(member);
  for await (const e of events()) gatherPersonalValues(values, id, e.data);
  for await (const a of answersNaming(trx, caller.chainId, id)) gatherPersonalValues(values, id, a.response_body);
  for await (const t of transactions()) gatherPersonalValues(values, id, t);
  const redact = redactorOf(id, values);
  const text = freeTextScrubber(values);
  await scrubEach(events(), redact, (e) => replaceEventData(trx, caller.chainId, e.id, e.data));
  await scrubEach(answersNaming(trx, caller.chainId, id), redact, (a) => idempotencyStore.replaceResponse(trx, caller.chainId, a, a.response_body));
  await scrubEach(transactions(), redact, (t) => checks.replaceTransactionDisplay(trx, { ...caller, venueId: t.venue_id }, t.id, t.display));
  await scrubEach(everyItem(ledgerList(trx, caller, id, { withReason: true }), byId), (e) => ({ ...e, reason: text(e.reason!) }), (e) => repo.replaceReason(trx, caller.chainId, e.id, e.reason!));

  // Their card numbers stay known to imports, as keyed hashes only: re-running an old file must not enrol them again.
  await recordErasedCards(trx, caller.chainId, [...values.cards]);

  const at = caller.now;
  // Their phones stop hearing of the pass: its registrations go (and the web service answers 401 for an erased member).
  await wallet.forgetDevices(trx, caller.chainId, id);
  await repo.eraseMember(trx, caller.chainId, id, at);
  const erasure = answer(at, released.map((h) => h.id));
  await writeTogether(trx, [
    ...eventSteps(trx, { chainId: caller.chainId, venueId: caller.venueId, homeVenueId: member.home_venue_id, type: 'member.erased', livemode: member.livemode, object: erasure, request }),
    ...audit.auditSteps(trx, audit.placeOf(caller), { action: 'member.erased', target: { type: 'member', id }, changes: { erased_at: [null, erasure.erased_at] } }),
  ]);
  return erasure;
}
