// A provider's line as a check's line (D26): at its price per unit when that is what it sold for, else at what it
// sold for in all, per unit when that divides evenly, else once for the whole quantity ("2 × Latte"), so that the
// check's amount is exactly what the provider's line sold for.
import { lineAmount } from '../../modules/checks/calculation.js';
import type { CheckBody } from '../../modules/checks/schemas.js';
import { cut } from './text.js';

export type Line = CheckBody['line_items'][number];
const MAX_SKU = 64;

/** `quantity` as the provider wrote it (for the name), `sold` the line's total in minor units (at least 0). */
export function lineSoldAt(item: { name: string; sku?: string; quantity: string; unitPrice: number; sold: number }): Line {
  const quantity = Math.round(Number(item.quantity) * 1000) / 1000;
  const name = cut(item.name.trim() || 'Item');
  const sku = item.sku ? { sku: cut(item.sku, MAX_SKU) } : {};
  const sold = Math.max(0, item.sold);
  if (lineAmount(quantity, item.unitPrice) === sold) return { ...sku, name, quantity, unit_price: item.unitPrice };
  if (Number.isInteger(quantity) && quantity > 0 && sold % quantity === 0) return { ...sku, name, quantity, unit_price: sold / quantity };
  return { ...sku, name: cut(`${item.quantity} × ${name}`), quantity: 1, unit_price: sold };
}
