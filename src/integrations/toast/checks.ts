// Toast's check as a check of ours (D26): its selections at their net prices with our own loyalty discount added
// back (the redemption we took), amounts from Toast's currency units to minor units, exactly.
import { Type, type Static } from 'typebox';
import { spreadRedemption } from '../../modules/checks/calculation.js';
import { lineSoldAt, type Line } from '../core/lines.js';

const Discount = Type.Object({ discountAmount: Type.Optional(Type.Union([Type.Number(), Type.Null()])), loyaltyDetails: Type.Optional(Type.Union([Type.Object({}), Type.Null()])) });
const Selection = Type.Object({
  displayName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  item: Type.Optional(Type.Union([Type.Object({ guid: Type.Optional(Type.Union([Type.String(), Type.Null()])) }), Type.Null()])),
  quantity: Type.Number({ minimum: 0 }),
  price: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  voided: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  appliedDiscounts: Type.Optional(Type.Union([Type.Array(Discount), Type.Null()])),
});
export const ToastCheck = Type.Object({
  guid: Type.String({ minLength: 1, maxLength: 64 }),
  selections: Type.Array(Selection, { maxItems: 500 }),
  appliedDiscounts: Type.Optional(Type.Union([Type.Array(Discount), Type.Null()])),
  closedDate: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  voided: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
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

const loyaltyDiscounts = (discounts: Static<typeof Discount>[] | null | undefined, currency: string) =>
  (discounts ?? []).filter((d) => d.loyaltyDetails).reduce((sum, d) => sum + toMinor(d.discountAmount, currency), 0);

/** What our redemption took off the check: every loyalty discount on it, on the check or on a selection. */
export function loyaltyDiscountOf(check: ToastCheck, currency: string): number {
  return loyaltyDiscounts(check.appliedDiscounts, currency) + check.selections.reduce((sum, s) => sum + loyaltyDiscounts(s.appliedDiscounts, currency), 0);
}

/**
 * The check's lines: each selection not voided at its net price (Toast's `price`: the line's total after every
 * discount), with the loyalty discount spread back over them in proportion, so that the lines are what the guest
 * would pay without our redemption and `redeem_amount` takes it off again.
 */
export function checkLinesOf(check: ToastCheck, currency: string): { lines: Line[]; redeemed: number } {
  const kept = check.selections.filter((s) => !s.voided && s.quantity > 0);
  const net = kept.map((s) => Math.max(0, toMinor(s.price, currency)));
  const redeemed = loyaltyDiscountOf(check, currency);
  // A line our discount took to nothing still takes its share back (weighed as one minor unit), so the lines add up.
  const back = spreadRedemption(redeemed, net.map((n) => n || 1), net.map(() => true));
  const lines = kept.map((s, i) =>
    lineSoldAt({ name: s.displayName ?? '', sku: s.item?.guid ?? undefined, quantity: String(s.quantity), unitPrice: 0, sold: net[i]! + back[i]! }),
  );
  return { lines, redeemed };
}
