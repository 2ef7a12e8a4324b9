// An order's line items as a check's lines (D26): what each line sold for after its own discounts (Square spreads an
// order's discount over its lines), before tax and service charges; the tip is not a line, so it earns nothing, and
// what gift cards paid and what an exchange's returned items were worth are taken off the lines in proportion, so
// they earn nothing either.
import { lineAmount, spreadRedemption } from '../../modules/checks/calculation.js';
import { lineSoldAt, type Line } from '../core/lines.js';
import { cut } from '../core/text.js';
import type { LineItem, Order, Payment, ReturnLineItem } from './objects.js';

const GIFT_CARD = 'SQUARE_GIFT_CARD';
type Tender = NonNullable<Order['tenders']>[number];
/** A tender paid with a Square gift card: what it paid earns nothing, and a refund of it takes nothing back. */
export const isGiftCard = (tender: Tender): boolean => tender.type === GIFT_CARD;

/**
 * What a line item sold for, before tax and service charges: Square's line total less its tax (added or included:
 * Square counts an included tax inside the gross sales in some countries, outside in others, and inside the total in
 * all) and its service charges; without a total (an old order), the gross sales less the line's discounts.
 */
function soldFor(item: LineItem): number {
  if (item.total_money) return item.total_money.amount - (item.total_tax_money?.amount ?? 0) - (item.total_service_charge_money?.amount ?? 0);
  const gross = item.gross_sales_money?.amount ?? lineAmount(Math.round(Number(item.quantity) * 1000) / 1000, item.base_price_money?.amount ?? 0);
  return gross - (item.total_discount_money?.amount ?? 0);
}

/** What a returned item was worth, as its line sold for. */
const returnedFor = (item: ReturnLineItem): number => Math.max(0, soldFor({ ...item, gross_sales_money: item.gross_return_money }));

const lineOf = (item: LineItem): Line =>
  lineSoldAt({ name: item.name ?? '', sku: item.catalog_object_id, quantity: item.quantity, unitPrice: item.base_price_money?.amount ?? 0, sold: soldFor(item) });

/** The order's lines, or for a payment without an order (or lines) one line of what it paid, tip left out. */
export function checkLines(order: Order | undefined, payment: Payment): Line[] {
  const lines = (order?.line_items ?? []).map(lineOf).filter((l) => l.quantity > 0);
  if (!order || lines.length === 0) return [{ name: cut(`Square payment ${payment.receipt_number ?? payment.id}`), quantity: 1, unit_price: payment.amount_money.amount }];
  const giftCards = (order.tenders ?? []).filter(isGiftCard).reduce((sum, t) => sum + (t.amount_money?.amount ?? 0) - (t.tip_money?.amount ?? 0), 0);
  // An exchange: the returned items earned on the order they were bought with, so the new lines earn on the difference.
  const returned = (order.returns ?? []).flatMap((r) => r.return_line_items ?? []).reduce((sum, item) => sum + returnedFor(item), 0);
  const taken = giftCards + returned;
  if (taken <= 0) return lines;
  const amounts = lines.map((l) => lineAmount(l.quantity, l.unit_price));
  const off = spreadRedemption(Math.min(taken, amounts.reduce((a, b) => a + b, 0)), amounts, amounts.map(() => true));
  return lines.map((l, i) => (off[i] ? { ...l, name: l.quantity === 1 ? l.name : cut(`${l.quantity} × ${l.name}`), quantity: 1, unit_price: amounts[i]! - off[i]! } : l));
}
