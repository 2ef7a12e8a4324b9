// Toast's request (LoyaltyTransaction, Toast's schema v1.1.0) as the endpoint reads it: leniently, as Toast's own
// examples require (null for absent members, null vendors, fields the schema does not name), checking only what a
// transaction uses.
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { storable } from '../core/text.js';
import { Nullable, ToastCheck } from './checks.js';

const Redemption = Type.Object({
  identifier: Nullable(Type.String({ maxLength: 100 })),
  amount: Nullable(Type.Number({ minimum: 0 })),
  quantity: Nullable(Type.Number({ minimum: 0 })),
  appliedDiscountGuid: Nullable(Type.String({ maxLength: 64 })),
  selectionGuid: Nullable(Type.String({ maxLength: 64 })),
  multiItemDiscountGuid: Nullable(Type.String({ maxLength: 64 })),
  name: Nullable(Type.String({ maxLength: 200 })),
});
const Identifier = Nullable(Type.String({ maxLength: 64 }));

const Body = Type.Object({
  toastTransactionType: Type.String(),
  checkTransactionInformation: Nullable(Type.Object({ loyaltyIdentifier: Identifier, check: ToastCheck, redemptions: Nullable(Type.Array(Redemption, { maxItems: 50 })) })),
  searchTransactionInformation: Nullable(Type.Object({ searchCriteria: Type.Object({ phone: Nullable(Type.String({ maxLength: 40 })), email: Nullable(Type.String({ maxLength: 320 })) }) })),
  signupTransactionInformation: Nullable(Type.Object({ phone: Nullable(Type.String({ maxLength: 40 })), email: Nullable(Type.String({ maxLength: 320 })) })),
  reverseTransactionInformation: Nullable(Type.Object({ loyaltyIdentifier: Identifier, transactionId: Nullable(Type.String({ maxLength: 64 })), redemptions: Nullable(Type.Array(Redemption, { maxItems: 50 })) })),
});
type Body = Static<typeof Body>;

const TYPE_INFORMATION: Record<string, keyof Body> = {
  LOYALTY_INQUIRE: 'checkTransactionInformation',
  LOYALTY_REDEEM: 'checkTransactionInformation',
  LOYALTY_ACCRUE: 'checkTransactionInformation',
  LOYALTY_SEARCH: 'searchTransactionInformation',
  LOYALTY_SIGNUP: 'signupTransactionInformation',
  LOYALTY_REVERSE: 'reverseTransactionInformation',
};

export const ToastTransaction = {
  /** The body, or why it is not a transaction of its type (the member its type needs must be there). */
  read(raw: string | undefined): { ok: true; value: Body } | { ok: false; reason: string } {
    let value: unknown;
    try {
      value = storable(JSON.parse(raw ?? ''));
    } catch {
      return { ok: false, reason: 'The body is not JSON.' };
    }
    if (!Value.Check(Body, value)) {
      const first = Value.Errors(Body, value)[0];
      return { ok: false, reason: `The body does not match Toast's LoyaltyTransaction${first ? ` at ${first.instancePath || '/'}: ${first.message}` : ''}.` };
    }
    const needed = TYPE_INFORMATION[value.toastTransactionType];
    if (needed && !value[needed]) return { ok: false, reason: `A ${value.toastTransactionType} without ${needed}.` };
    return { ok: true, value };
  },
};

/** What each type reads, and the loyalty identifier its answer is kept under. */
export function informationOf(body: Body) {
  const check = body.checkTransactionInformation ?? undefined;
  const reverse = body.reverseTransactionInformation ?? undefined;
  return {
    check,
    reverse,
    search: body.searchTransactionInformation?.searchCriteria,
    signup: body.signupTransactionInformation ?? undefined,
    identifier: check?.loyaltyIdentifier ?? reverse?.loyaltyIdentifier ?? null,
  };
}
