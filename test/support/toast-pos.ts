// Toast's POS as a test client of our loyalty endpoint: its keys, headers and request bodies, and our answers held to Toast's spec.
//
// The spec is Toast's Loyalty Integration API v1.1.0 (test/fixtures/toast/loyalty-openapi.yaml); where Toast's developer
// guide says more ("Transaction types", "Error handling"), the builders follow its examples. Amounts are dollars as
// numbers, as Toast sends them; sums are worked in cents so that they stay exact.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { exportSPKI, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { parse } from 'yaml';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Schema = { [keyword: string]: unknown };
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

const SPEC_FILE = new URL('../fixtures/toast/loyalty-openapi.yaml', import.meta.url);
const SCHEMAS = (parse(readFileSync(SPEC_FILE, 'utf8')) as { components: { schemas: Record<string, Schema> } }).components.schemas;

/** The spec's `transactionStatus` enum, read from the spec so that a new version of it shows here. It has no `ERROR`. */
export const TOAST_TRANSACTION_STATUSES: readonly string[] = Object.freeze(
  ((SCHEMAS.LoyaltyTransactionResponse?.properties as Schema).transactionStatus as { enum: string[] }).enum,
);

/** Written out for the type; the test holds them to the spec's header and body enums. */
export const TOAST_TRANSACTION_TYPES = [
  'LOYALTY_INQUIRE', 'LOYALTY_SEARCH', 'LOYALTY_SIGNUP', 'LOYALTY_REDEEM', 'LOYALTY_ACCRUE', 'LOYALTY_REVERSE', 'LOYALTY_TRANSFER',
] as const;
export type ToastTransactionType = (typeof TOAST_TRANSACTION_TYPES)[number];

// ---- Authentication ------------------------------------------------------------------------------------------------

/** `now`: when the token is issued; pass the test app's clock (`t.clock.now()`), as the app checks `exp` against it.
 *  `expiresIn`: seconds from `now` to `exp` (default 300); Toast documents no lifetime. */
export interface ToastSignOptions { now?: Date; expiresIn?: number }

export interface ToastKeys {
  /** SPKI PEM ending in a newline: the `value` of Toast's GET /usermgmt/v1/oauth/token_key answer. */
  publicKeyPem: string;
  /** That whole answer, for a test that stubs the token_key endpoint. */
  tokenKeyResponse: { alg: 'SHA256withRSA'; value: string };
  /** An RS256 JWT with `iat` and `exp`; `claims` may override both (an `exp` in the past, say). */
  sign(claims?: JWTPayload, options?: ToastSignOptions): Promise<string>;
}

/** A throw-away key pair in place of Toast's, for its legacy JWT method (a static API key is the one Toast prefers). */
export async function toastKeys(): Promise<ToastKeys> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  // Toast's `value` ends in a newline and jose's PEM does not: the endpoint gets the key exactly as Toast serves it.
  const publicKeyPem = `${await exportSPKI(publicKey)}\n`;
  return {
    publicKeyPem,
    tokenKeyResponse: { alg: 'SHA256withRSA', value: publicKeyPem },
    async sign(claims = {}, options = {}) {
      // Toast documents no claims (no iss, aud or sub), so only the times a JWT library checks by default.
      const iat = Math.floor((options.now ?? new Date()).getTime() / 1000);
      const payload: JWTPayload = { iat, exp: iat + (options.expiresIn ?? 300), ...claims };
      return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(privateKey);
    },
  };
}

/** A Toast request's headers. `authorization` is the whole value: Toast sends the key or JWT bare, with no "Bearer ". */
export function toastHeaders(o: { type: ToastTransactionType; guid?: string; restaurant: string; authorization: string }) {
  return {
    'Toast-Transaction-Type': o.type,
    // Toast retries a REVERSE with the same GUID and an ACCRUE with a new one: pass `guid` to replay a request.
    'Toast-Transaction-GUID': o.guid ?? randomUUID(),
    'Toast-Restaurant-External-ID': o.restaurant,
    Authorization: o.authorization,
    'content-type': 'application/json',
  };
}

// ---- Request bodies ------------------------------------------------------------------------------------------------

export interface ToastAppliedDiscount {
  guid: string;
  entityType: string;
  name?: string;
  discountAmount?: number;
  processingState?: 'PENDING_APPLIED' | 'APPLIED' | 'PENDING_VOID' | 'VOID';
  loyaltyDetails?: { vendor: 'INTEGRATION'; referenceId: string };
  [field: string]: unknown;
}

export interface ToastSelection {
  guid: string; entityType: 'MenuItemSelection'; item: { guid: string; entityType: 'MenuItem' }; displayName: string; quantity: number;
  /** The line's net price: quantity included, after discounts (check-level ones too, spread over the lines). */
  price: number;
  preDiscountPrice: number;
  appliedDiscounts: ToastAppliedDiscount[];
  modifiers: ToastSelection[];
}

export interface ToastCheck {
  guid: string; entityType: 'Check'; displayNumber: string; openedDate: string; paymentStatus: 'OPEN' | 'PAID' | 'CLOSED';
  /** After discounts and before tax: the sum of the selections' `price`. `totalAmount` is the same with tax. */
  amount: number; taxAmount: number; totalAmount: number;
  selections: ToastSelection[];
  appliedDiscounts: ToastAppliedDiscount[];
  payments: unknown[];
  appliedServiceCharges: unknown[];
  appliedLoyaltyInfo?: { guid: string; entityType: string; loyaltyIdentifier: string; vendor: 'INTEGRATION' };
  voided: boolean; deleted: boolean; taxExempt: boolean;
}

export interface ToastRedemption {
  /** The `identifier` of an Offer we returned; on the check it is the applied discount's `loyaltyDetails.referenceId`. */
  identifier: string;
  /** What one application takes off; the guide: "the quantity of the applied redemption is 2 and the amount is 5 … 10". */
  amount?: number;
  quantity?: number;
  /** Set once the discount is on the check: how a RejectedRedemption names the discount to take off. */
  appliedDiscountGuid?: string;
  selectionGuid?: string;
  name?: string;
}

export interface ToastSearchCriteria { firstName?: string | null; lastName?: string | null; email?: string | null; phone?: string | null }

export interface ToastLoyaltyTransaction {
  toastTransactionType: ToastTransactionType;
  searchTransactionInformation: { searchCriteria: Required<ToastSearchCriteria> } | null;
  signupTransactionInformation: { phone: string | null; email: string | null } | null;
  checkTransactionInformation: { loyaltyIdentifier: string | null; check: ToastCheck; redemptions: ToastRedemption[] } | null;
  reverseTransactionInformation: { loyaltyIdentifier: string | null; transactionId: string; redemptions?: ToastRedemption[] } | null;
  transferTransactionInformation: { fromLoyaltyIdentifier: string; toLoyaltyIdentifier: string } | null;
}

const cents = (dollars: number) => Math.round(dollars * 100);
const dollars = (c: number) => c / 100;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export interface ToastSelectionInput { name: string; price: number; quantity: number; itemGuid?: string; preDiscountPrice?: number }

/** A check as Toast sends it. A selection's `price` is the line's total (Toast's example: 8 Crab Cakes, 87.92). */
export function toastCheck(o: {
  selections: ToastSelectionInput[]; guid?: string; paymentStatus?: ToastCheck['paymentStatus']; taxAmount?: number;
  appliedDiscounts?: ToastAppliedDiscount[]; loyaltyIdentifier?: string; openedDate?: Date;
}): ToastCheck {
  const selections = o.selections.map((s): ToastSelection => ({
    guid: randomUUID(), entityType: 'MenuItemSelection', item: { guid: s.itemGuid ?? randomUUID(), entityType: 'MenuItem' },
    displayName: s.name, quantity: s.quantity, price: s.price, preDiscountPrice: s.preDiscountPrice ?? s.price,
    appliedDiscounts: [], modifiers: [],
  }));
  const amount = sum(o.selections.map((s) => cents(s.price)));
  const tax = cents(o.taxAmount ?? 0);
  return {
    guid: o.guid ?? randomUUID(), entityType: 'Check', displayNumber: '1', openedDate: (o.openedDate ?? new Date()).toISOString(),
    paymentStatus: o.paymentStatus ?? 'OPEN',
    amount: dollars(amount), taxAmount: dollars(tax), totalAmount: dollars(amount + tax),
    selections,
    appliedDiscounts: o.appliedDiscounts ?? [],
    // Empty even when CLOSED (Toast's ACCRUE check lists its payments): a test that needs them adds them.
    payments: [], appliedServiceCharges: [],
    // Toast's REDEEM example has guid and entityType null here; the spec requires both, so ours are made up.
    ...(o.loyaltyIdentifier !== undefined && {
      appliedLoyaltyInfo: { guid: randomUUID(), entityType: 'AppliedLoyaltyInfo', loyaltyIdentifier: o.loyaltyIdentifier, vendor: 'INTEGRATION' as const },
    }),
    voided: false, deleted: false, taxExempt: false,
  };
}

export function toastRedemption(o: { identifier: string; amount: number; quantity?: number; appliedDiscountGuid?: string; name?: string }): ToastRedemption {
  const { identifier, amount, quantity = 1, appliedDiscountGuid, name } = o;
  return { identifier, amount, quantity, ...(appliedDiscountGuid !== undefined && { appliedDiscountGuid }), ...(name !== undefined && { name }) };
}

/**
 * The check as Toast sends it on REDEEM with a CHECK offer on it (an ITEM offer's discount sits on its selection, which
 * this does not build): an AppliedDiscount of amount × quantity (capped so that nothing goes below zero) in
 * PENDING_APPLIED, spread over the lines' `price` as in Toast's REDEEM example (preDiscountPrice 43.96, price 38.96
 * under a 5.00 reward), and `amount` and `totalAmount` lowered by as much. Tax is left alone: Toast would recompute it,
 * but a fixture's tax is what its test says. The discount's guid is the redemption's `appliedDiscountGuid` when it has
 * one, so that the two match as they do in Toast's requests.
 */
export function checkWithLoyaltyDiscount(check: ToastCheck, redemption: ToastRedemption): ToastCheck {
  const lines = check.selections.map((s) => cents(s.price));
  const gross = sum(lines);
  const off = Math.min(cents((redemption.amount ?? 0) * (redemption.quantity ?? 1)), gross);
  // Each line's share rounded down, then the cents left over one each to the first lines with room for them.
  const shares = lines.map((c) => (gross === 0 ? 0 : Math.floor((off * c) / gross)));
  let rest = off - sum(shares);
  for (let i = 0; rest > 0 && i < shares.length; i++) if (shares[i]! < lines[i]!) { shares[i] = shares[i]! + 1; rest--; }
  const discount: ToastAppliedDiscount = {
    guid: redemption.appliedDiscountGuid ?? randomUUID(), entityType: 'AppliedLoyaltyProviderDiscount',
    name: redemption.name ?? `Reward ${redemption.identifier}`, discountAmount: dollars(off), processingState: 'PENDING_APPLIED',
    // The spec's vendor. Toast's own REDEEM example sends `"vendor":null`: the endpoint must not insist on it.
    loyaltyDetails: { vendor: 'INTEGRATION', referenceId: redemption.identifier },
    discount: { guid: randomUUID(), entityType: 'CustomDiscount' },
    comboItems: [], triggers: [],
  };
  return {
    ...check,
    amount: dollars(cents(check.amount) - off),
    totalAmount: dollars(cents(check.totalAmount) - off),
    selections: check.selections.map((s, i) => ({ ...s, price: dollars(lines[i]! - shares[i]!) })),
    appliedDiscounts: [...check.appliedDiscounts, discount],
  };
}

// Toast sends every member, the ones a type does not use as explicit null ("searchTransactionInformation":null).
const NO_INFORMATION = {
  searchTransactionInformation: null, signupTransactionInformation: null, checkTransactionInformation: null,
  reverseTransactionInformation: null, transferTransactionInformation: null,
} as const;

const transaction = (type: ToastTransactionType, information: Partial<ToastLoyaltyTransaction>): ToastLoyaltyTransaction =>
  ({ toastTransactionType: type, ...NO_INFORMATION, ...information });

export const inquireBody = (identifier: string, check: ToastCheck, redemptions: ToastRedemption[] = []) =>
  transaction('LOYALTY_INQUIRE', { checkTransactionInformation: { loyaltyIdentifier: identifier, check, redemptions } });

export const redeemBody = (identifier: string, check: ToastCheck, redemptions: ToastRedemption[]) =>
  transaction('LOYALTY_REDEEM', { checkTransactionInformation: { loyaltyIdentifier: identifier, check, redemptions } });

/** `identifier` null: Toast sends ACCRUE for every paid check, member or not, and wants 200 ACCEPT for those. */
export const accrueBody = (identifier: string | null, check: ToastCheck, redemptions: ToastRedemption[] = []) =>
  transaction('LOYALTY_ACCRUE', { checkTransactionInformation: { loyaltyIdentifier: identifier, check, redemptions } });

/** `transactionId` is the Toast-Transaction-GUID of the REDEEM or ACCRUE to undo; without `redemptions`, all of its. */
export const reverseBody = (identifier: string | null, transactionId: string, redemptions?: ToastRedemption[]) =>
  transaction('LOYALTY_REVERSE', { reverseTransactionInformation: { loyaltyIdentifier: identifier, transactionId, ...(redemptions && { redemptions }) } });

/** Criteria not given are null, as in Toast's SEARCH example. A phone is ten digits and nothing else. */
export const searchBody = ({ firstName = null, lastName = null, email = null, phone = null }: ToastSearchCriteria) =>
  transaction('LOYALTY_SEARCH', { searchTransactionInformation: { searchCriteria: { firstName, lastName, email, phone } } });

/** Exactly one of phone and email, the other null (Toast has no SIGNUP example; null as in its SEARCH one). */
export const signupBody = (who: { phone: string } | { email: string }) =>
  transaction('LOYALTY_SIGNUP', { signupTransactionInformation: { phone: 'phone' in who ? who.phone : null, email: 'email' in who ? who.email : null } });

export const transferBody = (from: string, to: string) =>
  transaction('LOYALTY_TRANSFER', { transferTransactionInformation: { fromLoyaltyIdentifier: from, toLoyaltyIdentifier: to } });

// ---- The spec as JSON Schema ---------------------------------------------------------------------------------------

/**
 * OpenAPI 3.0 to JSON Schema 2020-12: `nullable: true` becomes a null type, `example` and `x-*` go, refs point at $defs.
 * A schema with properties but no type becomes an object: ResponseSearch, ResponseCheck, ResponseSignup and
 * ResponseTransfer omit `type: object`, and as written they would take `"checkResponse": 42`.
 */
function translate(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(translate);
  if (!isObject(node)) return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable' || key === 'example' || key.startsWith('x-')) continue;
    if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Schema).map(([p, s]) => [p, translate(s)]));
    else out[key] = key === '$ref' ? refToDef(value) : translate(value);
  }
  if (out.properties && out.type === undefined) out.type = 'object';
  if (node.nullable !== true) return out;
  if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [{ type: 'null' }, out] };
}

function refToDef(ref: unknown): string {
  const name = typeof ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
  if (!name || !(name in SCHEMAS)) throw new Error(`toast-pos: unresolvable $ref ${String(ref)} in the Toast spec`);
  return `#/$defs/${name}`;
}

/** One of the spec's component schemas as a self-contained JSON Schema; a fresh copy each call, so a test may patch it. */
export function toastJsonSchema(name: string): Schema {
  if (!(name in SCHEMAS)) throw new Error(`toast-pos: no schema ${name} in the Toast spec`);
  return { $ref: `#/$defs/${name}`, $defs: Object.fromEntries(Object.entries(SCHEMAS).map(([n, s]) => [n, translate(s)])) };
}

/** An Ajv for the translated spec. Not strict: strict mode stops at ExpirationData.quantity (`format: number` with no
 *  type, so any value passes) and would stop at OpenAPI-only keywords a later version of the spec brings. */
export function toastAjv(): Ajv2020 {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  // OpenAPI's numeric hints ("double", "number") and "ISO 3166-2" on a state are annotations, not checks.
  for (const format of ['double', 'number', 'ISO 3166-2']) ajv.addFormat(format, true);
  return ajv;
}

export const formatAjvErrors = (errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);

/**
 * The guide's 500 answer, `{"transactionStatus": "ERROR", "message": "..."}`: Toast's "Error handling" page and cookbook
 * ask for it on unexpected failures, but the spec's enum has no ERROR and its schema no `message`. Held to that
 * shape exactly, so that the exception covers this one body and nothing else.
 */
const GUIDE_ERROR_BODY = {
  type: 'object', required: ['transactionStatus'], additionalProperties: false,
  properties: { transactionStatus: { const: 'ERROR' }, message: { type: 'string' } },
};

let responseValidator: ((body: unknown) => string[]) | undefined;

/** Checks an answer of ours against LoyaltyTransactionResponse: the mismatches, none when it conforms. */
export function toastResponseValidator(): (body: unknown) => string[] {
  if (responseValidator) return responseValidator;
  const ajv = toastAjv();
  // No `required` in the schema, but its description: "All LoyaltyTransactionResponse objects must include a
  // transactionStatus value."
  const spec = ajv.compile({ ...toastJsonSchema('LoyaltyTransactionResponse'), required: ['transactionStatus'] });
  const guideError = ajv.compile(GUIDE_ERROR_BODY);
  responseValidator = (body) => {
    const validate = isObject(body) && body.transactionStatus === 'ERROR' ? guideError : spec;
    return validate(body) ? [] : formatAjvErrors(validate.errors);
  };
  return responseValidator;
}
