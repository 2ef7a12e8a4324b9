// The menu as the owner or a manager changes it in the dashboard: the menu's own rules (as the API applies them), each
// dish change recorded in the audit log with its fields before and after, the dish named by its SKU.
import type { Db } from '../../db/database.js';
import type { PlaceCaller } from '../accounts/schemas.js';
import * as audit from '../audit/service.js';
import type { Dish, DishBody, DishPatch } from '../menu/schemas.js';
import * as menu from '../menu/service.js';

const DISH_FIELDS = ['name', 'description', 'category', 'price', 'available'] as const;

async function recordDish(trx: Db, caller: PlaceCaller, externalId: string, before: Dish | undefined | null, after: Dish | null): Promise<void> {
  const action = !before ? ('dish.created' as const) : after ? ('dish.updated' as const) : ('dish.deleted' as const);
  const changes = audit.changedFields(before ?? null, after, DISH_FIELDS);
  await audit.recordAudit(trx, audit.placeOf(caller), { action, target: { type: 'dish', id: externalId }, changes });
}

/** Adds a dish, or replaces it whole. */
export async function putDish(trx: Db, caller: PlaceCaller, externalId: string, body: DishBody) {
  const before = await menu.findDish(trx, caller, externalId);
  const written = await menu.putDish(trx, caller, externalId, body);
  await recordDish(trx, caller, externalId, before, written.dish);
  return written;
}

/** Changes some of a dish's fields: its price, name, category, description, or whether it is on the stop list. */
export async function changeDish(trx: Db, caller: PlaceCaller, externalId: string, patch: DishPatch): Promise<Dish> {
  const before = await menu.getDish(trx, caller, externalId);
  const after = await menu.patchDish(trx, caller, externalId, patch);
  await recordDish(trx, caller, externalId, before, after);
  return after;
}

export async function removeDish(trx: Db, caller: PlaceCaller, externalId: string) {
  const before = await menu.getDish(trx, caller, externalId);
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
