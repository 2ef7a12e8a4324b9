// Toast's loyalty transactions (D26), each through the flows the API uses: SEARCH looks members up, INQUIRE is a
// calculation, REDEEM applies the check with the redemption at once, ACCRUE makes the applied check Toast's final
// one, REVERSE takes back what its transaction did, SIGNUP enrols; TRANSFER is not supported.
import { calculateCheck } from '../../flows/checks/apply.js';
import type { CheckCalculation, Transaction } from '../../modules/checks/schemas.js';
import * as members from '../../modules/members/service.js';
import type { Member } from '../../modules/members/schemas.js';
import { formatMoney } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import { cut } from '../core/text.js';
import * as repo from '../core/repo.js';
import { accept, refused, ToastRefusal, type ToastAnswer } from './answers.js';
import { CASHBACK_OFFER, checkLinesOf, loyaltyDiscountGuidOf, toMinor, toUnits, unitsText, type ToastCheck } from './checks.js';
import { asIfWithout, judgedWithout, settle, standingOf, type CheckState, type ToastCall, type Wanted } from './standing.js';

export type { ToastCall } from './standing.js';

/** What a write did, for the connection's log: its outcome, the Toast check, and the check of ours it left standing. */
export interface Done {
  answer: ToastAnswer;
  outcome: 'applied' | 'reversed' | 'replayed' | 'ignored';
  message: string;
  checkGuid?: string;
  externalId?: string;
  transactionId?: string;
}

interface Redemption {
  identifier?: string | null;
  amount?: number | null;
  quantity?: number | null;
  appliedDiscountGuid?: string | null;
  selectionGuid?: string | null;
  multiItemDiscountGuid?: string | null;
  name?: string | null;
}

const currencyOf = (call: ToastCall) => call.caller.venue.currency;

async function memberOf(call: ToastCall, identifier: string | null | undefined): Promise<Member> {
  const member =
    identifier && isUuid(identifier)
      ? await members.memberById(call.trx, call.caller, identifier).catch((err: unknown) => {
          if (err instanceof ApiError && err.code === 'member_not_found') return undefined;
          throw err;
        })
      : undefined;
  if (!member) throw new ToastRefusal(refused('ERROR_ACCOUNT_INVALID'));
  return member;
}

/** The member as Toast shows an account: the id as the identifier (Toast forbids personal data in it), their name. */
function accountInfo(call: ToastCall, member: Member) {
  const [firstName, ...rest] = (member.name ?? '').trim().split(/\s+/);
  const balance = member.program_type === 'cashback' ? unitsText(member.available ?? 0, currencyOf(call)) : String(member.stamps?.count ?? 0);
  // Toast's fields are strings: one the member lacks is left out, not null.
  return { identifier: member.id, ...(firstName ? { firstName } : {}), ...(rest.length ? { lastName: rest.join(' ') } : {}), ...(member.phone ? { phone: member.phone } : {}), ...(member.email ? { email: member.email } : {}), pointsBalance: balance };
}

/** SEARCH: by phone, then by e-mail (the first that finds anyone); a value that is no phone or address finds no one. */
export async function search(call: ToastCall, criteria: { phone?: string | null; email?: string | null } | undefined): Promise<ToastAnswer> {
  const read = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch {
      return undefined;
    }
  };
  const phone = criteria?.phone ? read(() => members.normalisePhone(criteria.phone!, call.caller.venue.country)) : undefined;
  const email = criteria?.email ? read(() => members.normaliseEmail(criteria.email!)) : undefined;
  let ids: string[] = [];
  for (const match of [...(phone ? [{ phone }] : []), ...(email ? [{ email }] : [])]) {
    ids = await members.memberIdsMatching(call.trx, call.caller, match, 10);
    if (ids.length) break;
  }
  if (ids.length === 0) throw new ToastRefusal(refused('ERROR_ACCOUNT_INVALID'));
  const found = await Promise.all(ids.map((id) => members.memberById(call.trx, call.caller, id)));
  return accept({ searchResponse: { accounts: found.map((m) => accountInfo(call, m)) } });
}

/** The check calculated without any redemption: what it earns, and the most cashback it can be paid with. */
async function calculated(call: ToastCall, member: Member, check: ToastCheck) {
  const { lines, redeemed } = checkLinesOf(check, currencyOf(call));
  if (lines.length === 0) throw new ToastRefusal(refused('ERROR_INVALID_INPUT_PROPERTIES'));
  const calc = await calculateCheck(call.trx, call.caller, { member_id: member.id, line_items: lines }, call.ctx);
  return { lines, redeemed, calc };
}

const requestedOf = (redemptions: Redemption[], currency: string) =>
  redemptions.filter((r) => r.identifier === CASHBACK_OFFER).reduce((sum, r) => sum + toMinor((r.amount ?? 0) * (r.quantity ?? 1), currency), 0);

/** Toast's own fields of a redemption, the ones we send back. */
const REDEMPTION_FIELDS = ['identifier', 'selectionGuid', 'appliedDiscountGuid', 'multiItemDiscountGuid', 'amount', 'quantity', 'name'] as const;

/** A redemption as Toast's schema takes it back: its own fields, none of them null. */
const echoed = (r: Redemption) => Object.fromEntries(REDEMPTION_FIELDS.flatMap((k) => (r[k] === null || r[k] === undefined ? [] : [[k, r[k]]])));

/** Our offers, and which of the redemptions asked for hold: all of them within the check's cashback, else none. */
function judged(call: ToastCall, calc: CheckCalculation, redemptions: Redemption[], check: ToastCheck) {
  const currency = currencyOf(call);
  const offers =
    calc.program_type === 'cashback'
      ? [{ identifier: CASHBACK_OFFER, name: 'Cashback', applicable: calc.max_redeem > 0, selectionType: 'CHECK', amount: toUnits(calc.max_redeem, currency), quantity: 1 }]
      : [];
  const requested = requestedOf(redemptions, currency);
  const fits = redemptions.every((r) => r.identifier === CASHBACK_OFFER) && requested <= calc.max_redeem;
  const reason = redemptions.some((r) => r.identifier !== CASHBACK_OFFER)
    ? 'Not an offer of this program.'
    : `Only ${unitsText(calc.max_redeem, currency)} of this check can be paid with cashback.`;
  // Toast's schema wants a rejected redemption to name its discount on the check.
  const rejected = (r: Redemption) => ({ redemption: echoed({ ...r, appliedDiscountGuid: r.appliedDiscountGuid ?? loyaltyDiscountGuidOf(check, r.identifier) }), message: reason });
  return {
    offers,
    requested,
    fits,
    appliedRedemptions: fits ? redemptions.map(echoed) : [],
    rejectedRedemptions: fits ? [] : redemptions.map(rejected),
  };
}

/** INQUIRE, judged as if the check of ours standing for it were not applied: its own redemption is not counted as spent. */
export async function inquire(call: ToastCall, info: { loyaltyIdentifier?: string | null; check: ToastCheck; redemptions?: Redemption[] | null }): Promise<ToastAnswer> {
  const member = await memberOf(call, info.loyaltyIdentifier);
  const { calc } = await asIfWithout(call, info.check.guid, (c) => calculated(c, member, info.check));
  const { offers, appliedRedemptions, rejectedRedemptions } = judged(call, calc, info.redemptions ?? [], info.check);
  return accept({
    checkResponse: { accountInfo: accountInfo(call, member), offers, appliedRedemptions, rejectedRedemptions, redemptionLimit: { maxRedemptions: 1 }, userMessage: cut(calc.display.cashier, 255) },
  });
}

const receiptOf = (t: Transaction) => cut(t.display.receipt.join(' · '), 255);

/**
 * REDEEM: the redemptions listed (Toast lists those validated before with the new ones) are the check's whole
 * redemption, judged with the standing check voided and, when they fit, taken at once by applying the check as it
 * stands with them (a hold could expire before ACCRUE), in place of the standing one; the check is open again, so a
 * final check ACCRUEd before no longer stands. What does not fit is rejected and changes nothing.
 */
export async function redeem(call: ToastCall, info: { loyaltyIdentifier?: string | null; check: ToastCheck; redemptions?: Redemption[] | null }): Promise<Done> {
  const member = await memberOf(call, info.loyaltyIdentifier);
  const checkGuid = info.check.guid;
  const standing = await standingOf(call, checkGuid);
  const { lines, judgement } = await judgedWithout(call, standing, async () => {
    const { lines, calc } = await calculated(call, member, info.check);
    return { lines, judgement: judged(call, calc, info.redemptions ?? [], info.check) };
  });
  const taken = judgement.fits && judgement.requested > 0;
  const redeemed = { guid: call.guid, memberId: member.id, lines, redeem: judgement.requested, closedAt: call.caller.now.toISOString(), listed: listedAfter(standing.state.redeemed, member.id, call.guid, judgement.requested) };
  const { applied } = taken ? await settle(call, standing, { redeemed, accrued: null }) : { applied: undefined };
  const answer = accept({
    checkResponse: {
      accountInfo: accountInfo(call, member),
      offers: judgement.offers,
      appliedRedemptions: judgement.appliedRedemptions,
      rejectedRedemptions: judgement.rejectedRedemptions,
      ...(applied ? { userMessage: receiptOf(applied) } : {}),
    },
  });
  if (!applied) return { answer, outcome: 'ignored', message: 'Nothing redeemed.', checkGuid };
  const message =
    applied === standing.current
      ? `Check ${applied.external_id} carries this redemption already.`
      : `Redeemed ${formatMoney(applied.redeemed, call.caller.venue)} on check ${applied.external_id}, ${applied.earned} earned${standing.current ? `, in place of ${standing.current.external_id}` : ''}.`;
  return { answer, outcome: applied === standing.current ? 'replayed' : 'applied', message, checkGuid, externalId: applied.external_id, transactionId: applied.id };
}

/**
 * ACCRUE: Toast's final check stands, for the guest it names, with the loyalty discount on it as its redemption, in
 * place of the check standing before (the same check: nothing changes). Where it is refused (lines left the check
 * after REDEEM and its discount is now more than the program lets it be paid with, or its guest has), the check
 * REDEEM applied stands as it was taken, and the log says so: the guest had the discount at the till.
 */
export async function accrue(call: ToastCall, info: { loyaltyIdentifier?: string | null; check: ToastCheck }): Promise<Done> {
  if (!info.loyaltyIdentifier) return { answer: accept(), outcome: 'ignored', message: 'The check names no loyalty account: nothing applied.' };
  const member = await memberOf(call, info.loyaltyIdentifier);
  const checkGuid = info.check.guid;
  const { lines, redeemed } = checkLinesOf(info.check, currencyOf(call));
  const standing = await standingOf(call, checkGuid);
  const before = standing.current;
  const final = { guid: call.guid, memberId: member.id, lines, redeem: redeemed, closedAt: call.caller.now.toISOString() };
  const { applied, refusal } = await settle(call, standing, { ...standing.state, accrued: final });
  if (!applied) throw new Error('A final check settled to nothing.');
  const done = { answer: accept({ checkResponse: { userMessage: receiptOf(applied) } }), checkGuid, externalId: applied.external_id, transactionId: applied.id };
  if (refusal) return { ...done, outcome: 'replayed', message: `Toast's final check was refused (${refusal.message}); check ${applied.external_id}, as REDEEM took it, stands.` };
  if (applied === before) return { ...done, outcome: 'replayed', message: `Check ${applied.external_id} is Toast's final check already.` };
  return { ...done, outcome: 'applied', message: `Applied check ${applied.external_id}: ${formatMoney(applied.paid, call.caller.venue)} paid, ${applied.earned} earned${before ? `, in place of ${before.external_id}` : ''}.` };
}

/** What each REDEEM standing on a redemption listed (one stored without it: its own REDEEM, all of it). */
const listedOf = (w: Wanted): Record<string, number> => w.listed ?? { [w.guid]: w.redeem };

/**
 * What each REDEEM standing on the redemption `requested` by REDEEM `guid` listed: the earlier ones too while it
 * lists at least what stood for the same guest (Toast lists validated redemptions again), else only its own.
 */
function listedAfter(before: Wanted | null, memberId: string, guid: string, requested: number): Record<string, number> {
  const carried = before && before.memberId === memberId && requested >= before.redeem ? listedOf(before) : {};
  return { ...carried, [guid]: requested };
}

/**
 * The check's state once the REDEEM or ACCRUE `guid` is reversed: an ACCRUE's final check goes; a REDEEM gives back
 * the redemptions it lists, else all it listed when it was sent (at most what stands), and the final check's
 * discount, which carried them, loses as much. Undefined: `guid` stands on nothing.
 */
function reversed(call: ToastCall, state: CheckState, guid: string, redemptions: Redemption[] | null | undefined): CheckState | undefined {
  const { redeemed, accrued } = state;
  if (accrued?.guid === guid) return { redeemed, accrued: null };
  const listed = redeemed ? listedOf(redeemed) : {};
  if (!redeemed || !Object.hasOwn(listed, guid)) return undefined;
  const back = Math.min(redeemed.redeem, redemptions?.length ? requestedOf(redemptions, currencyOf(call)) : listed[guid]!);
  const others = Object.fromEntries(Object.entries(listed).filter(([g]) => g !== guid));
  return {
    redeemed: redeemed.redeem > back ? { ...redeemed, redeem: redeemed.redeem - back, listed: others } : null,
    accrued: accrued && { ...accrued, redeem: Math.max(0, accrued.redeem - back) },
  };
}

/**
 * REVERSE: takes back what its transaction still does on the Toast check (a REDEEM's redemption, the redemptions it
 * lists or all; an ACCRUE's final check), and the check settles to what stands then: the final check with the
 * redemption given back, the REDEEM's check, or none. A transaction since replaced or reversed already does nothing.
 */
export async function reverse(call: ToastCall, info: { loyaltyIdentifier?: string | null; transactionId?: string | null; redemptions?: Redemption[] | null }): Promise<Done> {
  const guid = info.transactionId;
  const original = guid ? await repo.findLogEntryBySubject(call.trx, call.integration, `toast-transaction:${guid}`) : undefined;
  // Toast's cookbook: a transaction without a loyalty identifier is accepted, whatever there is to reverse.
  const nothing = (message: string, checkGuid?: string): Done => ({ answer: accept(), outcome: 'ignored', message, ...(checkGuid ? { checkGuid } : {}) });
  if (!guid || !original) {
    if (!info.loyaltyIdentifier) return nothing('Nothing was applied: nothing to reverse.');
    throw new ToastRefusal(refused('ERROR_TRANSACTION_DOES_NOT_EXIST'));
  }
  if (!['toast.redeem', 'toast.accrue'].includes(original.kind)) throw new ToastRefusal(refused('ERROR_TRANSACTION_CANNOT_BE_REVERSED'));
  const checkGuid = original.provider_ids.check_guid;
  if (!checkGuid) return nothing('Nothing was applied: nothing to reverse.');
  const standing = await standingOf(call, checkGuid);
  const state = reversed(call, standing.state, guid, info.redemptions);
  if (!state) return nothing(`Transaction ${guid} no longer stands on the check: nothing to reverse.`, checkGuid);
  const { current } = standing;
  const { applied, refusal } = await settle(call, standing, state, true);
  const shown = applied ?? current;
  const done = { answer: accept(), outcome: 'reversed' as const, checkGuid, ...(shown ? { externalId: shown.external_id, transactionId: shown.id } : {}) };
  const why = refusal ? ` (what stood before could not be applied again: ${refusal.message})` : '';
  if (!applied) return { ...done, message: current ? `Voided check ${current.external_id}${why}.` : 'Nothing stands on the check.' };
  if (applied === current) return { ...done, message: `Reversed; check ${applied.external_id} stands as it was.` };
  return { ...done, message: `${current ? `Voided check ${current.external_id}; ` : ''}applied ${applied.external_id} with ${formatMoney(applied.redeemed, call.caller.venue)} redeemed.` };
}

/**
 * SIGNUP: a member with consent (Toast's guest agreed at the till), by phone, e-mail or both; the member id is the
 * identifier. Either already a member's is ERROR_ALREADY_REGISTERED.
 */
export async function signup(call: ToastCall, info: { phone?: string | null; email?: string | null }): Promise<{ answer: ToastAnswer; memberId: string }> {
  if (!info.phone && !info.email) throw new ToastRefusal(refused('ERROR_INVALID_INPUT_PROPERTIES'));
  let phone: string | undefined;
  let email: string | undefined;
  try {
    phone = info.phone ? members.normalisePhone(info.phone, call.caller.venue.country) : undefined;
    email = info.email ? members.normaliseEmail(info.email) : undefined;
  } catch {
    throw new ToastRefusal(refused('ERROR_INVALID_INPUT_PROPERTIES'));
  }
  // Two SIGNUPs of one phone or e-mail take turns, so the second finds the first's member (locks in one order).
  if (phone) await repo.lockProviderObject(call.trx, call.integration, `phone:${phone}`);
  if (email) await repo.lockProviderObject(call.trx, call.integration, `email:${email}`);
  for (const match of [...(phone ? [{ phone }] : []), ...(email ? [{ email }] : [])]) {
    if ((await members.memberIdsMatching(call.trx, call.caller, match, 1)).length) throw new ToastRefusal(refused('ERROR_ALREADY_REGISTERED'));
  }
  const enrolment = { card_number: `TOAST-${members.newSerial()}`, consent: true as const, ...(phone ? { phone } : {}), ...(email ? { email } : {}) };
  const member = await members.enrolMember(call.trx, call.caller, enrolment, null);
  return { answer: accept({ signupResponse: { loyaltyIdentifier: member.id } }), memberId: member.id };
}

/** Flows refuse what a till sent wrong with an ApiError: to Toast, its input was not acceptable. */
export function refusalOf(err: unknown): ToastRefusal | undefined {
  if (err instanceof ToastRefusal) return err;
  // A conflict that did not resolve itself in the retries is our side's: 500 ERROR, sent again by Toast.
  if (err instanceof ApiError && err.status < 500 && err.code !== 'balance_conflict') return new ToastRefusal(refused('ERROR_INVALID_INPUT_PROPERTIES'));
  return undefined;
}
