// Dishes by SKU (create, replace, change, stop list, bulk sync) and the venue's tables with their QR codes.
import { randomInt } from 'node:crypto';
import { Value } from 'typebox/value';
import type { Db } from '../../db/database.js';
import { assertBulkValid } from '../../shared/bulk.js';
import { ApiError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { checkCursor, toList, type List, type Page } from '../../shared/pagination.js';
import { formatTimestamp } from '../../shared/time.js';
import type { Place, PlaceCaller } from '../accounts/schemas.js';
import * as audit from '../audit/service.js';
import * as repo from './repo.js';
import { BulkDish, DishPrice, ExternalId, type BulkResult, type Dish, type DishBody, type DishPatch, type VenueTable } from './schemas.js';

export function presentDish(row: repo.DishRow): Dish {
  return {
    object: 'dish',
    id: row.id,
    external_id: row.external_id,
    name: row.name,
    description: row.description,
    category: row.category,
    price: Number(row.price),
    available: row.available,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}

const notFound = () => new ApiError('dish_not_found');

function checkExternalId(externalId: string): void {
  if (!Value.Check(ExternalId, externalId)) {
    throw new ApiError('parameter_invalid', { param: 'external_id', message: 'external_id must be 1-64 letters, digits or . _ : -' });
  }
}

function dishRow(place: Place, externalId: string, body: DishBody) {
  return {
    chain_id: place.chainId,
    venue_id: place.venueId,
    id: newId(),
    external_id: externalId,
    name: body.name,
    description: body.description ?? null,
    category: body.category ?? null,
    price: body.price,
    available: body.available ?? true,
  };
}

/** PUT: creates the dish or replaces it whole; `created` says which (201 or 200). */
export async function putDish(trx: Db, caller: PlaceCaller, externalId: string, body: DishBody): Promise<{ dish: Dish; created: boolean }> {
  checkExternalId(externalId);
  const [written] = await repo.upsertDishes(trx, [dishRow(caller, externalId, body)]);
  if (written) return { dish: presentDish(written), created: written.inserted };
  return { dish: presentDish((await repo.findDish(trx, caller, externalId))!), created: false };
}

export async function patchDish(trx: Db, caller: PlaceCaller, externalId: string, patch: DishPatch): Promise<Dish> {
  // The dish's own fields only: a body may carry others the route allows (a chain key's venue_id).
  const { name, description, category, price, available } = patch;
  const changes = Object.fromEntries(Object.entries({ name, description, category, price, available }).filter(([, v]) => v !== undefined));
  const row = await repo.updateDish(trx, caller, externalId, changes);
  if (!row) throw notFound();
  return presentDish(row);
}

export async function getDish(db: Db, caller: PlaceCaller, externalId: string): Promise<Dish> {
  const dish = await findDish(db, caller, externalId);
  if (!dish) throw notFound();
  return dish;
}

export async function findDish(db: Db, caller: PlaceCaller, externalId: string): Promise<Dish | undefined> {
  const row = await repo.findDish(db, caller, externalId);
  return row && presentDish(row);
}

/** The dish, locked until the transaction ends: what a change then records as `before` is what it replaced. */
export async function lockDish(trx: Db, caller: PlaceCaller, externalId: string): Promise<Dish | undefined> {
  const [row] = await repo.findDishes(trx, caller, [externalId], 'lock');
  return row && presentDish(row);
}

export async function deleteDish(trx: Db, caller: PlaceCaller, externalId: string) {
  if (!(await repo.deleteDish(trx, caller, externalId))) throw notFound();
  return { object: 'dish' as const, external_id: externalId, deleted: true as const };
}

export async function listDishes(db: Db, caller: PlaceCaller, page: Page, filter: { available?: boolean; category?: string }): Promise<List<Dish>> {
  await checkCursor(page, (id) => repo.dishIdExists(db, caller, id));
  return toList('/v1/menu/items', page, await repo.listDishes(db, caller, page, filter), presentDish);
}

/** The bulk sync: all items or none, in one transaction, one upsert statement (and one delete with replace). */
export async function syncDishes(trx: Db, caller: PlaceCaller, input: { items: unknown[]; replace?: boolean }): Promise<BulkResult> {
  assertBulkValid(BulkDish, input.items, 'external_id', 'dishes');
  const items = input.items as BulkDish[];
  const written = await repo.upsertDishes(trx, items.map((item) => dishRow(caller, item.external_id, item)));
  const created = written.filter((r) => r.inserted).length;
  const removed = input.replace ? await repo.deleteDishesExcept(trx, caller, items.map((i) => i.external_id)) : 0;
  return { object: 'menu_sync', created, updated: written.length - created, unchanged: items.length - written.length, removed };
}

/**
 * New prices for many dishes at once, all or none: every dish must exist (404 dish_not_found naming the item). The
 * dishes are locked first, so each change's `before` is the price it replaced.
 */
export async function setDishPrices(trx: Db, caller: PlaceCaller, items: unknown[]): Promise<{ before: Dish; after: Dish }[]> {
  assertBulkValid(DishPrice, items, 'external_id', 'prices');
  const prices = items as DishPrice[];
  const found = new Map((await repo.findDishes(trx, caller, prices.map((p) => p.external_id), 'lock')).map((d) => [d.external_id, d]));
  const missing = prices.findIndex((p) => !found.has(p.external_id));
  if (missing >= 0) throw new ApiError('dish_not_found', { param: `items[${missing}].external_id`, message: `No dish with external_id ${prices[missing]!.external_id} at this venue.` });
  const changed = [];
  for (const { external_id, price } of prices) {
    const before = found.get(external_id)!;
    if (Number(before.price) === price) continue;
    changed.push({ before: presentDish(before), after: presentDish((await repo.updateDish(trx, caller, external_id, { price }))!) });
  }
  return changed;
}

const TABLE_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * A table with a stable code for its QR code (/m/{venue_slug}/{table_code}); created by the owner's tools (the
 * dashboard, the CLI), recorded in the audit log.
 */
export async function createTable(db: Db, place: Place, input: { name: string; tableCode?: string }, by: audit.Who): Promise<VenueTable> {
  if (!input.name.trim()) throw new ApiError('parameter_invalid', { param: 'name', message: 'name must not be empty.' });
  if (input.tableCode !== undefined && !/^[a-z0-9-]{1,32}$/.test(input.tableCode)) {
    throw new ApiError('parameter_invalid', { param: 'table_code', message: 'table_code must be 1-32 lowercase letters, digits or dashes.' });
  }
  for (let tries = 0; tries < 5; tries++) {
    const code = input.tableCode ?? Array.from({ length: 6 }, () => TABLE_CODE_ALPHABET[randomInt(TABLE_CODE_ALPHABET.length)]).join('');
    const row = await repo.insertTable(db, { chain_id: place.chainId, venue_id: place.venueId, id: newId(), table_code: code, name: input.name.trim() });
    if (row) {
      const entry = { action: 'table.created' as const, target: { type: 'table', id: row.table_code }, changes: { name: [null, row.name] as [unknown, unknown] } };
      await audit.recordAudit(db, { ...place, ...by }, entry);
      return { id: row.id, tableCode: row.table_code, name: row.name };
    }
    if (input.tableCode !== undefined) throw new ApiError('parameter_invalid', { param: 'table_code', message: `Table code ${code} is taken.` });
  }
  throw new Error('could not draw a free table code');
}

export async function listTables(db: Db, place: Place): Promise<VenueTable[]> {
  return (await repo.listTables(db, place)).map((r) => ({ id: r.id, tableCode: r.table_code, name: r.name }));
}

export async function findTable(db: Db, place: Place, tableCode: string): Promise<VenueTable | undefined> {
  const row = await repo.findTable(db, place, tableCode);
  return row && { id: row.id, tableCode: row.table_code, name: row.name };
}

export async function availableDishes(db: Db, place: Place): Promise<Dish[]> {
  return (await repo.availableDishes(db, place)).map(presentDish);
}

export async function dishesBySku(db: Db, place: Place, externalIds: string[]): Promise<Dish[]> {
  return (await repo.findDishes(db, place, externalIds)).map(presentDish);
}
