// The menu and the catalogue as the owner or a manager changes them in the dashboard: the modules' own rules (as the
// API applies them), each change of a dish or product recorded in the audit log with its fields before and after,
// named by its SKU.
import type { Db } from '../db/database.js';
import { ApiError } from '../shared/errors.js';
import type { PlaceCaller } from '../modules/accounts/schemas.js';
import * as audit from '../modules/audit/service.js';
import type { Product, ProductBody } from '../modules/catalogue/schemas.js';
import * as catalogue from '../modules/catalogue/service.js';
import type { Dish, DishBody, DishPatch } from '../modules/menu/schemas.js';
import * as menu from '../modules/menu/service.js';

const FIELDS = {
  dish: ['name', 'description', 'category', 'price', 'available'],
  product: ['name', 'category', 'price'],
} as const;

/** One audit entry for a dish or product added (no `before`), changed, or removed (no `after`). */
async function recordChange<K extends keyof typeof FIELDS>(trx: Db, caller: PlaceCaller, kind: K, sku: string, before: Record<string, unknown> | undefined | null, after: Record<string, unknown> | null): Promise<void> {
  const action = `${kind}.${!before ? 'created' : after ? 'updated' : 'deleted'}` as const;
  const changes = audit.changedFields(before ?? null, after, FIELDS[kind]);
  await audit.recordAudit(trx, audit.placeOf(caller), { action, target: { type: kind, id: sku }, changes });
}

const recordDish = (trx: Db, caller: PlaceCaller, sku: string, before: Dish | undefined | null, after: Dish | null) => recordChange(trx, caller, 'dish', sku, before, after);

/** Adds a dish, or replaces it whole. */
export async function putDish(trx: Db, caller: PlaceCaller, externalId: string, body: DishBody) {
  const before = await menu.lockDish(trx, caller, externalId);
  const written = await menu.putDish(trx, caller, externalId, body);
  await recordDish(trx, caller, externalId, before, written.dish);
  return written;
}

/** Changes some of a dish's fields: its price, name, category, description, or whether it is on the stop list. */
export async function changeDish(trx: Db, caller: PlaceCaller, externalId: string, patch: DishPatch): Promise<Dish> {
  const before = await menu.lockDish(trx, caller, externalId);
  if (!before) throw new ApiError('dish_not_found');
  const after = await menu.patchDish(trx, caller, externalId, patch);
  await recordDish(trx, caller, externalId, before, after);
  return after;
}

export async function removeDish(trx: Db, caller: PlaceCaller, externalId: string) {
  const before = await menu.lockDish(trx, caller, externalId);
  const removed = await menu.deleteDish(trx, caller, externalId);
  await recordDish(trx, caller, externalId, before, null);
  return removed;
}

/** New prices for many dishes, all or none; one audit entry per dish whose price changed. */
export async function changePrices(trx: Db, caller: PlaceCaller, items: unknown[]): Promise<Dish[]> {
  const changed = await menu.setDishPrices(trx, caller, items);
  for (const { before, after } of changed) await recordDish(trx, caller, after.external_id, before, after);
  return changed.map((c) => c.after);
}

/** Adds a catalogue product (the chain's), or replaces it whole. */
export async function putProduct(trx: Db, caller: PlaceCaller, sku: string, body: ProductBody): Promise<{ product: Product; created: boolean }> {
  const before = await catalogue.findProduct(trx, caller, sku);
  const written = await catalogue.putProduct(trx, caller, sku, body);
  await recordChange(trx, caller, 'product', sku, before, written.product);
  return written;
}

export async function removeProduct(trx: Db, caller: PlaceCaller, sku: string) {
  const before = await catalogue.getProduct(trx, caller, sku);
  const removed = await catalogue.deleteProduct(trx, caller, sku);
  await recordChange(trx, caller, 'product', sku, before, null);
  return removed;
}
