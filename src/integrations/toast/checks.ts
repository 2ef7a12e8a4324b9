// Toast's check as a check of ours (D26): its selections at their net prices with our own loyalty discount added
// back (the redemption we took), amounts from Toast's currency units to minor units, exactly.
import { Type, type Static } from 'typebox';
import { spreadRedemption } from '../../modules/checks/calculation.js';
import { lineSoldAt, type Line } from '../core/lines.js';

/** A member Toast may leave out or send as null (its own examples do both). */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
const Discount = Type.Object({
  guid: Nullable(Type.String({ maxLength: 64 })),
  discountAmount: Nullable(Type.Number()),
  processingState: Nullable(Type.String()),
  loyaltyDetails: Nullable(Type.Object({ referenceId: Nullable(Type.String()) })),
});
type Discount = Static<typeof Discount>;
const Selection = Type.Object({
  displayName: Nullable(Type.String()),
  item: Nullable(Type.Object({ guid: Nullable(Type.String()) })),
  quantity: Type.Number({ minimum: 0 }),
  price: Nullable(Type.Number()),
  preDiscountPrice: Nullable(Type.Number()),
  voided: Nullable(Type.Boolean()),
  appliedDiscounts: Nullable(Type.Array(Discount)),
});
export const ToastCheck = Type.Object({
  guid: Type.String({ minLength: 1, maxLength: 64 }),
  selections: Type.Array(Selection, { maxItems: 500 }),
  appliedDiscounts: Nullable(Type.Array(Discount)),
  closedDate: Nullable(Type.String()),
  voided: Nullable(Type.Boolean()),
});
export type ToastCheck = Static<typeof ToastCheck>;

/** Digits after the point of the currency's amounts (2 for EUR, 0 for JPY). */
const digitsOf = (currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
const scaleOf = (currency: string) => 10 ** digitsOf(currency);

/** Toast's amount (a number of currency units) in minor units; Toast's doubles are rounded to the minor unit. */
export const toMinor = (amount: number | null | undefined, currency: string): number => Math.round((amount ?? 0) * scaleOf(currency));
export const toUnits = (minor: number, currency: string): number => minor / scaleOf(currency);
/** Minor units as Toast's text shows an amount: "10.00". */
export const unitsText = (minor: number, currency: string): string => toUnits(minor, currency).toFixed(digitsOf(currency));

/** Our one offer: cashback, as much as the check may be paid with. Toast names it as the referenceId of its discount. */
export const CASHBACK_OFFER = 'cashback';

/** A discount still on the check (not being voided). */
const live = (d: Discount) => !['VOID', 'PENDING_VOID'].includes(d.processingState ?? '');

/**
 * Our redemption's discount: a live loyalty discount naming our offer (or naming none, as Toast's own example does).
 * Any other discount is the venue's own: the price is net of it, and it stays off.
 */
const isOurs = (d: Discount) => live(d) && Boolean(d.loyaltyDetails) && [CASHBACK_OFFER, null, undefined].includes(d.loyaltyDetails!.referenceId);

const totalOf = (discounts: Discount[] | null | undefined, currency: string) => (discounts ?? []).reduce((sum, d) => sum + toMinor(d.discountAmount, currency), 0);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The guid of the loyalty discount on the check that stands for the offer `identifier`. */
export function loyaltyDiscountGuidOf(check: ToastCheck, identifier: string | null | undefined): string | undefined {
  const discounts = [...(check.appliedDiscounts ?? []), ...check.selections.flatMap((s) => s.appliedDiscounts ?? [])];
  return discounts.find((d) => d.guid && d.loyaltyDetails && [identifier, null, undefined].includes(d.loyaltyDetails.referenceId))?.guid ?? undefined;
}

type Selection = ToastCheck['selections'][number];

/**
 * What our redemption took off each line: the selection's own discounts of ours, and its share of ours on the check.
 * The share is Toast's own where its figures say it (every line's `preDiscountPrice` known and no other discount on
 * the check): the line's gross less its net price and its own discounts. Else ours on the check is spread over the
 * lines in proportion to their net prices (a line taken to nothing weighed as one minor unit, so the shares add up).
 */
function ourShares(kept: Selection[], net: number[], check: ToastCheck, currency: string): number[] {
  const own = kept.map((s) => totalOf(s.appliedDiscounts?.filter(isOurs), currency));
  const onCheck = (check.appliedDiscounts ?? []).filter(live);
  const ours = totalOf(onCheck.filter(isOurs), currency);
  if (ours === 0) return own;
  const gross = kept.every((s) => typeof s.preDiscountPrice === 'number') ? kept.map((s) => toMinor(s.preDiscountPrice, currency)) : undefined;
  const exact = gross && onCheck.every(isOurs) ? kept.map((s, i) => gross[i]! - net[i]! - totalOf(s.appliedDiscounts?.filter(live), currency)) : undefined;
  const shares = exact && exact.every((x) => x >= 0) && sum(exact) === ours ? exact : spreadRedemption(ours, net.map((n) => n || 1), net.map(() => true));
  return own.map((o, i) => o + shares[i]!);
}

/**
 * The check's lines: each selection not voided at its net price (Toast's `price`: the line's total after every
 * discount) with what our redemption took off it added back, so that the lines are what the guest would pay without
 * it and `redeem_amount` takes it off again. Toast never takes a line below nothing, so no line gets back more than
 * it was before discounts (`preDiscountPrice`, where every line has it).
 */
export function checkLinesOf(check: ToastCheck, currency: string): { lines: Line[]; redeemed: number } {
  const kept = check.selections.filter((s) => !s.voided && s.quantity > 0);
  const net = kept.map((s) => Math.max(0, toMinor(s.price, currency)));
  let back = ourShares(kept, net, check, currency);
  if (kept.every((s) => typeof s.preDiscountPrice === 'number')) {
    const room = kept.map((s, i) => Math.max(0, toMinor(s.preDiscountPrice, currency) - net[i]!));
    if (back.some((b, i) => b > room[i]!)) back = spreadRedemption(Math.min(sum(back), sum(room)), room, room.map(() => true));
  }
  const lines = kept.map((s, i) =>
    lineSoldAt({ name: s.displayName ?? '', sku: s.item?.guid ?? undefined, quantity: String(s.quantity), unitPrice: 0, sold: net[i]! + back[i]! }),
  );
  return { lines, redeemed: sum(back) };
}
