// Toast's loyalty transactions (D26), each through the flows the API uses: SEARCH looks members up, INQUIRE is a
// calculation, REDEEM applies the check with the redemption at once, ACCRUE makes the applied check Toast's final
// one, REVERSE voids it, SIGNUP enrols; TRANSFER is not supported.
import type { Db } from '../../db/database.js';
import { applyCheck, calculateCheck, type CheckContext } from '../../flows/checks/apply.js';
import { voidTransaction } from '../../flows/checks/reverse.js';
import type { PlaceCaller } from '../../modules/accounts/schemas.js';
import { lineAmount } from '../../modules/checks/calculation.js';
import { getTransaction } from '../../modules/checks/reads.js';
import type { CheckBody, CheckCalculation, Transaction } from '../../modules/checks/schemas.js';
import * as members from '../../modules/members/service.js';
import type { Member } from '../../modules/members/schemas.js';
import { formatMoney } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import { cut } from '../core/text.js';
import * as repo from '../core/repo.js';
import { accept, refused, ToastRefusal, type ToastAnswer } from './answers.js';
import { checkLinesOf, toMinor, toUnits, unitsText, type ToastCheck } from './checks.js';

/** Our one offer: cashback, as much as the check may be paid with. */
export const CASHBACK_OFFER = 'cashback';

export interface ToastCall {
  trx: Db;
  caller: PlaceCaller;
  ctx: CheckContext;
  integration: repo.IntegrationRow;
  guid: string;
  restaurant: string;
}

/** What a write did, for the connection's log: its outcome, and the check it applied or voided. */
export interface Done {
  answer: ToastAnswer;
  outcome: 'applied' | 'reversed' | 'replayed' | 'ignored';
  message: string;
  externalId?: string;
  transactionId?: string;
}

interface Redemption {
  identifier?: string | null;
  amount?: number | null;
  quantity?: number | null;
  appliedDiscountGuid?: string | null;
  selectionGuid?: string | null;
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
  return { identifier: member.id, ...(firstName ? { firstName } : {}), ...(rest.length ? { lastName: rest.join(' ') } : {}), ...(member.phone ? { phone: member.phone } : {}), pointsBalance: balance };
}

export async function search(call: ToastCall, criteria: { phone?: string | null } | undefined): Promise<ToastAnswer> {
  if (!criteria?.phone) throw new ToastRefusal(refused('ERROR_ACCOUNT_INVALID'));
  let phone: string;
  try {
    phone = members.normalisePhone(criteria.phone, call.caller.venue.country);
  } catch {
    throw new ToastRefusal(refused('ERROR_ACCOUNT_INVALID'));
  }
  const ids = await members.memberIdsMatching(call.trx, call.caller, { phone }, 10);
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

/** Our offers, and which of the redemptions asked for hold: all of them within the check's cashback, else none. */
function judged(call: ToastCall, calc: CheckCalculation, redemptions: Redemption[]) {
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
  return {
    offers,
    requested,
    fits,
    appliedRedemptions: fits ? redemptions : [],
    rejectedRedemptions: fits ? [] : redemptions.map((redemption) => ({ redemption, message: reason })),
  };
}

export async function inquire(call: ToastCall, info: { loyaltyIdentifier?: string | null; check: ToastCheck; redemptions?: Redemption[] | null }): Promise<ToastAnswer> {
  const member = await memberOf(call, info.loyaltyIdentifier);
  const { calc } = await calculated(call, member, info.check);
  const { offers, appliedRedemptions, rejectedRedemptions } = judged(call, calc, info.redemptions ?? []);
  return accept({
    checkResponse: { accountInfo: accountInfo(call, member), offers, appliedRedemptions, rejectedRedemptions, redemptionLimit: { maxRedemptions: 1 }, userMessage: cut(calc.display.cashier, 255) },
  });
}

/** The Toast check's current check of ours: its number is kept as what the connection handled under the check's guid. */
const checkKey = (check: ToastCheck) => `check:${check.guid}`;

/** The Toast check's current check of ours, read after taking the Toast check's turn (REDEEM and ACCRUE). */
async function applied(call: ToastCall, check: ToastCheck): Promise<Transaction | undefined> {
  await repo.lockProviderObject(call.trx, call.integration, checkKey(check));
  const handled = await repo.findHandled(call.trx, call.integration.chain_id, call.integration.id, checkKey(check));
  return handled ? getTransaction(call.trx, call.caller, handled.external_id) : undefined;
}

/** Applies the check under `externalId` and points the Toast check at it. */
async function apply(call: ToastCall, check: ToastCheck, externalId: string, body: Omit<CheckBody, 'external_id'>): Promise<Transaction> {
  const metadata = { check_guid: check.guid, transaction_guid: call.guid, restaurant_id: call.restaurant };
  const { transaction } = await applyCheck(call.trx, call.caller, { ...body, external_id: externalId }, call.ctx, null, null, { source: 'toast', metadata });
  await repo.pointHandled(call.trx, { chain_id: call.integration.chain_id, integration_id: call.integration.id, provider_key: checkKey(check), venue_id: call.caller.venueId, external_id: externalId });
  return transaction;
}

/** REDEEM: the redemption is taken now, by applying the check as it stands with it (a hold could expire before ACCRUE). */
export async function redeem(call: ToastCall, info: { loyaltyIdentifier?: string | null; check: ToastCheck; redemptions?: Redemption[] | null }): Promise<Done> {
  const member = await memberOf(call, info.loyaltyIdentifier);
  const { lines, calc } = await calculated(call, member, info.check);
  const judgement = judged(call, calc, info.redemptions ?? []);
  const respond = (t: Transaction | undefined, j = judgement) =>
    accept({
      checkResponse: {
        accountInfo: accountInfo(call, member),
        offers: j.offers,
        appliedRedemptions: j.appliedRedemptions,
        rejectedRedemptions: j.rejectedRedemptions,
        ...(t ? { userMessage: cut(t.display.receipt.join(' · '), 255) } : {}),
      },
    });
  if (!judgement.fits || judgement.requested === 0) return { answer: respond(undefined), outcome: 'ignored', message: 'Nothing redeemed.' };
  const before = await applied(call, info.check);
  if (before?.status === 'completed') return { answer: respond(before), outcome: 'replayed', message: `Check ${before.external_id} was applied already.`, externalId: before.external_id, transactionId: before.id };
  const externalId = before ? `toast:${info.check.guid}:${call.guid}` : `toast:${info.check.guid}`;
  const t = await apply(call, info.check, externalId, { member_id: member.id, line_items: lines, redeem_amount: judgement.requested });
  return { answer: respond(t), outcome: 'applied', message: `Redeemed ${formatMoney(t.redeemed, call.caller.venue)} on check ${t.external_id}, ${t.earned} earned.`, externalId: t.external_id, transactionId: t.id };
}

const sameCheck = (t: Transaction, lines: CheckBody['line_items'], redeemed: number) =>
  t.subtotal === lines.reduce((sum, l) => sum + lineAmount(l.quantity, l.unit_price), 0) && t.redeemed === redeemed;

/**
 * ACCRUE: the applied check made Toast's final one. None yet: it is applied (with the loyalty discount on it as its
 * redemption); the same: nothing changes; another: voided and applied again, in this one transaction.
 */
export async function accrue(call: ToastCall, info: { loyaltyIdentifier?: string | null; check: ToastCheck }): Promise<Done> {
  if (!info.loyaltyIdentifier) return { answer: accept(), outcome: 'ignored', message: 'The check names no loyalty account: nothing applied.' };
  const member = await memberOf(call, info.loyaltyIdentifier);
  const { lines, redeemed } = checkLinesOf(info.check, currencyOf(call));
  const before = await applied(call, info.check);
  const answer = (t: Transaction) => accept({ checkResponse: { userMessage: cut(t.display.receipt.join(' · '), 255) } });
  if (before?.status === 'completed' && sameCheck(before, lines, redeemed)) {
    return { answer: answer(before), outcome: 'replayed', message: `Check ${before.external_id} is Toast's final check already.`, externalId: before.external_id, transactionId: before.id };
  }
  if (before?.status === 'completed') await voidTransaction(call.trx, call.caller, before.external_id, undefined, call.ctx.clock);
  const externalId = before ? `toast:${info.check.guid}:${call.guid}` : `toast:${info.check.guid}`;
  const t = await apply(call, info.check, externalId, { member_id: member.id, line_items: lines, ...(redeemed ? { redeem_amount: redeemed } : {}) });
  return { answer: answer(t), outcome: 'applied', message: `Applied check ${t.external_id}: ${formatMoney(t.paid, call.caller.venue)} paid, ${t.earned} earned${before ? `, in place of ${before.external_id}` : ''}.`, externalId: t.external_id, transactionId: t.id };
}

/** REVERSE: the check a REDEEM or ACCRUE applied is voided, once (we make one offer: naming it reverses it all). */
export async function reverse(call: ToastCall, info: { loyaltyIdentifier?: string | null; transactionId?: string | null }): Promise<Done> {
  const original = info.transactionId ? await repo.findLogEntryBySubject(call.trx, call.integration, `toast-transaction:${info.transactionId}`) : undefined;
  // Toast's cookbook: a transaction without a loyalty identifier is accepted, whatever there is to reverse.
  const nothing = { answer: accept(), outcome: 'ignored' as const, message: 'Nothing was applied: nothing to reverse.' };
  if (!original) {
    if (!info.loyaltyIdentifier) return nothing;
    throw new ToastRefusal(refused('ERROR_TRANSACTION_DOES_NOT_EXIST'));
  }
  if (!['toast.redeem', 'toast.accrue'].includes(original.kind)) throw new ToastRefusal(refused('ERROR_TRANSACTION_CANNOT_BE_REVERSED'));
  const externalId = original.provider_ids.external_id;
  if (!externalId) return nothing;
  const t = await voidTransaction(call.trx, call.caller, externalId, undefined, call.ctx.clock);
  return { answer: accept(), outcome: 'reversed', message: `Voided check ${externalId}.`, externalId, transactionId: t.id };
}

/** SIGNUP: a member with consent (Toast's guest agreed at the till), by phone; the member id is the identifier. */
export async function signup(call: ToastCall, info: { phone?: string | null; email?: string | null }): Promise<{ answer: ToastAnswer; memberId: string }> {
  // Members hold no e-mail yet (issue 41): a sign-up by e-mail alone is refused as input we cannot take.
  if (!info.phone || info.email) throw new ToastRefusal(refused('ERROR_INVALID_INPUT_PROPERTIES'));
  let phone: string;
  try {
    phone = members.normalisePhone(info.phone, call.caller.venue.country);
  } catch {
    throw new ToastRefusal(refused('ERROR_INVALID_INPUT_PROPERTIES'));
  }
  if ((await members.memberIdsMatching(call.trx, call.caller, { phone }, 1)).length) throw new ToastRefusal(refused('ERROR_ALREADY_REGISTERED'));
  const member = await members.enrolMember(call.trx, call.caller, { card_number: `TOAST-${members.newSerial()}`, consent: true, phone }, null);
  return { answer: accept({ signupResponse: { loyaltyIdentifier: member.id } }), memberId: member.id };
}

/** Flows refuse what a till sent wrong with an ApiError: to Toast, its input was not acceptable. */
export function refusalOf(err: unknown): ToastRefusal | undefined {
  if (err instanceof ToastRefusal) return err;
  if (err instanceof ApiError && err.status < 500) return new ToastRefusal(refused('ERROR_INVALID_INPUT_PROPERTIES'));
  return undefined;
}
